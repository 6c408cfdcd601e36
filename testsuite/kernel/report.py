#!/usr/bin/env python3
"""The kernel matrix's report: one table, kernel x case, from results.tsv.

Usage: report.py RESULTS.tsv > report.txt
Each cell shows whether the text started on a PMD boundary, how many of
its bytes were PMD-mapped, and the largest folio behind it (after "/":
4K, 64K, 2M...; "?" where the probe could not read it); "!" marks a
result that broke its expectation.  The kernels are in the kernels file's order, each with the
package it was.
"""

import csv
import sys


def size(folio):
    """A folio size in bytes, short: 4K, 64K, 2M; "?" when unknown."""
    b = int(folio)
    if b <= 0:
        return "?"
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return "%d%s" % (b >> shift, unit)
    return str(b)


def main(path):
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    kernels, packages = [], {}
    for r in rows:
        if r["kernel"] not in packages:
            kernels.append(r["kernel"])
            packages[r["kernel"]] = r.get("package") or "?"
    cases = []
    table = {}
    for r in rows:
        case = (r["mode"], r["fs"], r["producer"], r["kind"], r["method"])
        if case not in table:
            cases.append(case)
            table[case] = {}
        mib = lambda b: "%.0f" % (int(b) / 1048576)
        table[case][r["kernel"]] = "%s %s/%s MiB %s%s" % (
            "aligned" if r["aligned"] == "1" else "unaligned",
            mib(r["pmd"]), mib(r["text"]), size(r.get("folio", "-1")),
            "" if r["verdict"] == "ok" else " !")
    head = ["THP", "fs", "producer", "kind", "method"] + kernels
    widths = [max(len(h), 8) for h in head]
    lines = []
    for case in cases:
        cells = list(case) + [table[case].get(k, "-") for k in kernels]
        lines.append(cells)
        widths = [max(w, len(c)) for w, c in zip(widths, cells)]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    print("kernel matrix: text aligned to PMD size?, PMD-mapped / text, largest folio")
    for k in kernels:
        print("  %s: %s" % (k, packages[k]))
    print(fmt % tuple(head))
    for cells in lines:
        print(fmt % tuple(cells))
    bad = sum(1 for r in rows if r["verdict"] != "ok")
    print("%d cells, %d as expected, %d not" % (len(rows), len(rows) - bad, bad))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
