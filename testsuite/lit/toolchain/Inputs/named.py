#!/usr/bin/env python3
"""Check that the producers other files name by hand are in the table.

Usage: named.py PRODUCER SOURCE_DIR

- The kernel matrix's cells (cells in testsuite/kernel/lib/model.py, of
  every kernel of the kernels file): each cell's
  producer must be one marked "matrix" that makes the cell's kind (a
  "dlopen" cell loads the producer's "shared" library), and each
  "matrix" producer must have a cell.
- bench/report.py: VARIANTS must be the producers marked "bench", in the
  table's order, each with a LABEL, and every name in BASELINE and LABEL
  a producer.

Prints one line per problem and exits 1; prints "ok" and exits 0.
"""

import importlib.util
import os
import subprocess
import sys


def main(producer, top):
    def names(*args):
        return subprocess.run([producer, "list"] + list(args), check=True,
                              capture_output=True, text=True).stdout.split()

    problems = []
    kernel_lib = os.path.join(top, "testsuite", "kernel", "lib")
    sys.path.insert(0, kernel_lib)
    import model
    cells = {(c[2], c[3])
             for k in model.read_kernels(os.path.join(kernel_lib, "..",
                                                      "kernels"))
             for c in model.cells(k)}
    # The matrix's own kind: the shared kind's library, loaded with dlopen.
    cells = {(p, "shared" if kind == "dlopen" else kind) for p, kind in cells}
    for p, kind in sorted(cells):
        if p not in names("--in", "matrix", "--kind", kind):
            problems.append("model.py: cell %s %s: no producer %s "
                            "marked matrix makes %s" % (p, kind, p, kind))
    for p in set(names("--in", "matrix")) - {p for p, _ in cells}:
        problems.append("model.py: no cell for matrix producer "
                        + p)

    path = os.path.join(top, "bench", "report.py")
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("report", path)
    report = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(report)
    if report.VARIANTS != names("--in", "bench"):
        problems.append("bench/report.py: VARIANTS %s, but the bench "
                        "producers are %s" % (report.VARIANTS,
                                              names("--in", "bench")))
    for p in report.VARIANTS:
        if p not in report.LABEL:
            problems.append("bench/report.py: no LABEL for " + p)
    used = set(report.BASELINE) | set(report.BASELINE.values()) | \
        set(report.LABEL)
    for p in sorted(used - set(names())):
        problems.append("bench/report.py: no producer " + p)

    for line in problems:
        print(line)
    print("ok" if not problems else "%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
