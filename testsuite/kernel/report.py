#!/usr/bin/env python3
"""The kernel matrix's report: one table, kernel x case, from results.tsv.

Usage: report.py RESULTS.tsv > report.txt
       report.py --summary HUGETEXT HELPER RESULTS.tsv > summary.md
Each cell shows whether the text started on a PMD boundary, how many of
its bytes were PMD-mapped, and the largest folio behind it (after "/":
4K, 64K, 2M...; "?" where the probe could not read it); "!" marks a
result that broke its expectation, "~" one that met it only when the
cell ran a second time (the first run of each cell that ran twice is
listed below the table).  The kernels are in the kernels file's order, each with the
package it was.

With --summary, the table of the first screen of docs/kernel-matrix.md,
in Markdown: for each kernel and disk filesystem, in THP "always" mode,
the share of the text PMD-mapped for an executable (every executable
kind), a shared library and a library loaded with dlopen, cold, after
hugetext warm, after 60 s with khugepaged awake and with the startup
helper.  It sums the cells of the producers of HUGETEXT (a blank-separated
list: the hugetext linkers) whose text the kernel found aligned to its PMD
size, and for the helper column those of HELPER; "-" where the matrix has
no such cell.
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


# A verdict's mark in the table; any other verdict is "!".
MARKS = {"ok": "", "second-run": " ~"}


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
            MARKS.get(r["verdict"], " !"))
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
    # The cells that ran twice: met on the second run ("~") or broken
    # both times.
    again = [r for r in rows if r["verdict"] == "second-run"]
    for r in rows:
        if (r.get("first") or "-") != "-":
            print("%s %s: the first run gave %s" % (
                "~" if r["verdict"] == "second-run" else "!", " ".join(
                    r[c] for c in ("kernel", "mode", "fs", "producer",
                                   "kind", "method")), r["first"]))
    bad = sum(1 for r in rows if r["verdict"] not in MARKS)
    print("%d cells, %d as expected (%d of them on a second run), %d not" % (
        len(rows), len(rows) - bad, len(again), bad))
    return 0


# The summary's columns: a title, the kinds summed, the method.
EXECUTABLES = ("pie", "exec", "static", "static-pie")
SUMMARY = (
    ("executable, cold", EXECUTABLES, "exec"),
    ("warm", EXECUTABLES, "warm"),
    ("khugepaged 60 s", EXECUTABLES, "khugepaged-60s"),
    ("helper", EXECUTABLES, "helper"),
    ("audit", EXECUTABLES, "audit"),
    ("shared library, cold", ("shared",), "exec"),
    ("warm", ("shared",), "warm"),
    ("khugepaged 60 s", ("shared",), "khugepaged-60s"),
    ("helper", ("shared",), "helper"),
    ("audit", ("shared",), "audit"),
    ("dlopen, cold", ("dlopen",), "exec"),
    ("warm", ("dlopen",), "warm"),
    ("khugepaged 60 s", ("dlopen",), "khugepaged-60s"),
    ("audit", ("dlopen",), "audit"),
)


def summary(path, hugetext, helper):
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    kernels = []
    for r in rows:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    print("| kernel | fs | " + " | ".join(t for t, _, _ in SUMMARY) + " |")
    print("|---|---|" + "---|" * len(SUMMARY))
    for kernel in kernels:
        for fs in ("ext4", "xfs"):
            cells = []
            for _, kinds, method in SUMMARY:
                producers = helper if method == "helper" else hugetext
                pmd = text = 0
                for r in rows:
                    if (r["kernel"] == kernel and r["fs"] == fs
                            and r["mode"] == "always"
                            and r["producer"] in producers
                            and r["kind"] in kinds and r["method"] == method
                            and r["aligned"] == "1"):
                        pmd += int(r["pmd"])
                        text += int(r["text"])
                cells.append("%.0f %%" % (100.0 * pmd / text) if text
                             else "-")
            print("| %s | %s | %s |" % (kernel, fs, " | ".join(cells)))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--summary":
        sys.exit(summary(sys.argv[4], sys.argv[2].split(),
                         sys.argv[3].split()))
    sys.exit(main(sys.argv[1]))
