#!/usr/bin/env python3
"""Check that a test produces each exit status hugetext(1) documents for
each subcommand.

Usage: man-exits.py MAN-PAGE TEST...   (a TEST may be a glob pattern)

Reads the EXIT STATUS section of MAN-PAGE (docs/man/hugetext.1.md): under
each "## hugetext SUB" heading, the statuses it lists ("**N**").  Then
the lit TESTs: a RUN line "%expect-exit N ... %hugetext SUB" (the
status checked, the subcommand run by the same line) produces N for SUB.
Prints each documented pair no test produces, and each pair a test
checks that the page does not document, and exits 1 if there is any;
else "N statuses of M subcommands, each produced by a test" and 0.
"""

import glob
import re
import sys


def documented(man):
    text = open(man).read()
    section = text[text.index("\n# EXIT STATUS"):]
    section = section[:section.find("\n# ", 1)]
    pairs = set()
    sub = None
    for line in section.splitlines():
        m = re.match(r"## hugetext (\w+)", line)
        if m:
            sub = m.group(1)
        m = re.match(r"\*\*(\d+)\*\*$", line)
        if m and sub:
            pairs.add((sub, int(m.group(1))))
    return pairs


def produced(tests):
    pairs = {}
    for path in (p for t in tests for p in sorted(glob.glob(t)) or [t]):
        for line in open(path):
            m = re.match(r"#\s*RUN:.*%expect-exit (\d+) .*?%hugetext (\w+)",
                         line)
            if m:
                pairs.setdefault((m.group(2), int(m.group(1))), path)
    return pairs


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: man-exits.py MAN-PAGE TEST...")
    doc = documented(sys.argv[1])
    if not doc:
        sys.exit(f"man-exits: {sys.argv[1]}: no statuses in EXIT STATUS")
    subs = {s for s, _ in doc}
    made = {k: v for k, v in produced(sys.argv[2:]).items()
            if k[0] in subs}
    bad = 0
    for sub, n in sorted(doc - set(made)):
        print(f"man-exits: hugetext {sub} exit {n}: documented, "
              "produced by no test")
        bad += 1
    for sub, n in sorted(set(made) - doc):
        print(f"man-exits: hugetext {sub} exit {n}: checked by "
              f"{made[(sub, n)]}, not documented")
        bad += 1
    if bad:
        return 1
    print(f"{len(doc)} statuses of {len({s for s, _ in doc})} subcommands, "
          "each produced by a test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
