#!/usr/bin/env python3
"""Compare the pressure cells of Debian's 7.2 and ours (pressure.test).

Usage: pressure.py STOCK OURS

Each file holds the output of the test's vm-run: the runs of CELLS with
memory free, then, after the FRAGMENT line, the same runs with free
memory in pieces; each run is a PRESSURE line followed by the probe's
RESULT line (a full run: all the text touched) or SPARSE line (one page
touched per PMD-size range, read_ahead_kb 128).

Prints, for each fragmented sparse run, whether ours read no more of the
text into the page cache than Debian's 7.2 did ("no more"; else "MORE"):
where no PMD-size folio can be had, the faults in the text must read
what the stock kernel reads.  Then every run, ours against Debian's 7.2,
for the record: bytes read from disk (pgpgin, the run's whole: ld.so,
libc and the program's other segments too), major faults, Cached
growth, wall time, and the text's PMD-mapped or cached KiB.  Exits 1
where a file lacks its runs.
"""

import re
import sys

CELLS = ("bfd pie full", "plain pie full", "bfd pie sparse",
         "bfd shared sparse")
FIELDS = ("read_kb", "majflt", "cached_kb", "ms")


def runs(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("PRESSURE "):
                run = {k: int(v) for k, v in
                       re.findall(r"(\w+)=(-?\d+)", line)}
                out.append(run)
            elif line.startswith("RESULT ") and out:
                m = re.search(r"pmd=(\d+)", line)
                out[-1]["text"] = "%d KiB PMD-mapped" % (int(m.group(1)) >> 10)
            elif line.startswith("SPARSE ") and out:
                m = re.search(r"cached_kb=(\d+)", line)
                out[-1]["text_kb"] = int(m.group(1))
                out[-1]["text"] = "%s KiB of the text cached" % m.group(1)
    if len(out) != 2 * len(CELLS):
        sys.exit("%s: %d PRESSURE lines, not %d" % (path, len(out),
                                                      2 * len(CELLS)))
    return out


def main(argv):
    stock, ours = runs(argv[1]), runs(argv[2])
    n = len(CELLS)
    for i, cell in enumerate(CELLS):
        if not cell.endswith("sparse"):
            continue
        s, o = stock[n + i], ours[n + i]
        print("fragmented %s: ours read %d KiB of the text, Debian's 7.2 "
              "%d KiB: %s" % (cell, o["text_kb"], s["text_kb"],
                              "no more" if o["text_kb"] <= s["text_kb"]
                              else "MORE"))
    for i in range(2 * n):
        s, o = stock[i], ours[i]
        print("%s %s: ours " % ("free" if i < n else "fragmented",
                                CELLS[i % n]) +
              ", ".join("%s %d" % (k, o[k]) for k in FIELDS) +
              ", %s; Debian's 7.2 " % o.get("text", "-") +
              ", ".join("%s %d" % (k, s[k]) for k in FIELDS) +
              ", %s" % s.get("text", "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
