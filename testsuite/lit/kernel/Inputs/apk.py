#!/usr/bin/env python3
"""Compare the app-launch cells of Debian's 7.2 and ours (apk.test).

Usage: apk.py STOCK OURS

Each file holds the output of the test's vm-run: for each group a line
"GROUP MODE LIB PLACE ADVICE RA" (the THP mode, the archive's library,
where the loader put it, whether it advised it, the disk's
read_ahead_kb), then one APK line per launch (apk.c says what its fields
are).

Prints a row per group, Debian's 7.2 against ours, the launches'
medians: the archive in the page cache after the library's load and run
(and the part of it outside the library's bytes), KiB read from disk by
the whole launch, major faults, the load's and the app's reads' wall time
and read requests, the text's PMD-mapped KiB, and how many launches had
the code congruent with the archive.  Then, per group:

  not congruent:   the launches of ours whose library was not congruent
                   left exactly as much of the archive in the page cache
                   after the load as Debian's 7.2, inside and outside the
                   library (mincore is exact), read as much in all (within
                   1 %, or 64 KiB: pgpgin also counts what the system
                   reads meanwhile), and mapped none of the text with
                   PMDs: "as Debian's 7.2", else "DIFFERENT"
  congruent:       (not advised) the congruent launches of ours read
                   nothing of the archive outside the library at load and
                   map its text with PMDs: "kept within the library", else
                   "READ OUTSIDE" or "NO PMD"
  in all:          ours read no more from disk in a launch than
                   Debian's 7.2 (within the same margin): "no more", else
                   "MORE"

Exits 1 where a file lacks a group or a group its launches.
"""

import statistics
import sys

from sections import fields, paired, sections

FIELDS = ("load_kb", "outside_kb", "read_kb", "majflt", "load_ms", "load_ios",
          "app_ms", "app_ios", "pmd_kb")


def groups(path):
    order, out = [], {}
    for key, lines in sections(path, "GROUP", 5):
        if any(l.startswith("APK error") for l in lines):
            sys.exit("%s: %s" % (path, [l for l in lines
                                        if l.startswith("APK error")][0]))
        launches = [fields(l) for l in lines if l.startswith("APK ")]
        if not launches:
            sys.exit("%s: group %s has no launches" % (path, " ".join(key)))
        order.append(key)
        out[key] = launches
    return order, out


def median(launches, field):
    return int(statistics.median(l[field] for l in launches))


def close(a, b):
    return abs(a - b) <= max(64, max(a, b) // 100)


def row(name, launches):
    if not launches:
        return "%s: none" % name
    c = sum(l["congruent"] for l in launches)
    return ("%s: load %d KiB (outside the library %d), read %d KiB, "
            "%d major faults, load %d ms %d reads, app %d ms %d reads, "
            "%d KiB PMD-mapped, congruent %d of %d"
            % ((name,) + tuple(median(launches, f) for f in FIELDS)
               + (c, len(launches))))


def main(argv):
    order, stock, ours = paired(groups, argv[1], argv[2])
    for key in order:
        s, o = stock[key], ours[key]
        print("%s %s %s %s read_ahead_kb=%s" % key)
        print("  " + row("Debian's 7.2", s))
        print("  " + row("ours", o))
        s_no = [l for l in s if not l["congruent"]]
        o_no = [l for l in o if not l["congruent"]]
        if s_no and o_no and key[3] == "none":
            same = all(median(s_no, f) == median(o_no, f)
                       for f in ("load_kb", "outside_kb")) and \
                close(median(s_no, "read_kb"), median(o_no, "read_kb")) and \
                max(l["pmd_kb"] for l in o_no) == 0
            print("  not congruent: %s" % ("as Debian's 7.2" if same
                                           else "DIFFERENT"))
        o_yes = [l for l in o if l["congruent"]]
        if o_yes and key[3] == "none":
            outside = max(l["outside_kb"] for l in o_yes)
            pmd = min(l["pmd_kb"] for l in o_yes)
            print("  congruent: %s" % ("READ OUTSIDE" if outside
                                       else "NO PMD" if pmd == 0
                                       else "kept within the library"))
        more = median(o, "read_kb") > median(s, "read_kb") and \
            not close(median(o, "read_kb"), median(s, "read_kb"))
        print("  in all: %s" % ("MORE" if more else "no more"))


if __name__ == "__main__":
    main(sys.argv)
