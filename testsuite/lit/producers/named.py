#!/usr/bin/env python3
"""Check that the producers the kernel matrix's model names are in the table.

Usage: named.py PRODUCER SOURCE_DIR

- The kernel matrix's cells (cells in testsuite/kernel/lib/model.py, of
  every kernel of the kernels file): each cell's
  producer must be one marked "matrix" that makes the cell's kind (a
  "dlopen" cell loads the producer's "shared" library), and each
  "matrix" producer must have a cell.

Prints one line per problem and exits 1; prints "ok" and exits 0.
"""

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

    for line in problems:
        print(line)
    print("ok" if not problems else "%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
