#!/usr/bin/env python3
"""Compare the user-space cells of Debian's 7.2 and ours (userspace.test).

Usage: userspace.py STOCK OURS

Each file holds the output of the test's vm-run: for each cell a line
"CELL MODE KIND HOW RA" (HOW: none, hint or audit; RA: the disk's
read_ahead_kb), then run-cell pressure's PRESSURE line, what the module
said (HUGETEXT_STARTUP=verbose) and the probe's RESULT line.

Prints a line per cell: the library's text PMD-mapped on Debian's 7.2
and on ours, of its size, KiB read from disk by the run and its major
faults on each, and whether ours read no more than Debian's 7.2 ("no
more", within 64 KiB: pgpgin also counts what the system reads
meanwhile; else "MORE"); for the cells with a module, how much of the
text it found cached before its first fault, on each (hugetext-audit.so
says so only where there is some: none said is 0).  Exits 1 where a
cell lacks its lines, where ld.so did not load the module (it says so,
or the module did not report its advice), or the two runs have
different cells.
"""

import re
import sys

from sections import fields, paired, sections


def cells(path):
    order, out = [], {}
    for key, lines in sections(path, "CELL", 4):
        cell = {}
        for line in lines:
            if "audit interface" in line or "error=" in line:
                sys.exit("%s: %s" % (path, line.strip()))
            if "MADV_HUGEPAGE on" in line:
                cell["advised"] = True
            elif "before its first fault" in line:
                m = re.search(r": (\d+) KiB of its text", line)
                cell["before_kb"] = int(m.group(1))
            elif line.startswith(("PRESSURE ", "RESULT ")):
                cell.update(fields(line))
        if "pmd" not in cell or "read_kb" not in cell:
            sys.exit("%s: cell %s lacks its lines" % (path, " ".join(key)))
        if key[2] != "none" and not cell.get("advised"):
            sys.exit("%s: cell %s: the module did not report its advice"
                     % (path, " ".join(key)))
        order.append(key)
        out[key] = cell
    return order, out


def main(argv):
    order, stock, ours = paired(cells, argv[1], argv[2])
    for key in order:
        s, o = stock[key], ours[key]
        print("%s %s %s read_ahead_kb=%s: Debian's 7.2 %d of %d KiB "
              "PMD-mapped, read %d KiB, %d major faults; ours %d KiB, read "
              "%d KiB, %d major faults; %s"
              % (key + (s["pmd"] >> 10, s["text"] >> 10, s["read_kb"],
                        s["majflt"], o["pmd"] >> 10, o["read_kb"],
                        o["majflt"],
                        "MORE" if o["read_kb"] > s["read_kb"] + 64
                        else "no more")))
        if key[2] != "none":
            print("  cached before the text's first fault: Debian's 7.2 %d "
                  "KiB, ours %d KiB" % (s.get("before_kb", 0),
                                        o.get("before_kb", 0)))


if __name__ == "__main__":
    main(sys.argv)
