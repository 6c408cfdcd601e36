"""Hold what lib/filesystems.def predicts for a folder of this machine
against what its kernel did (testsuite/lit/kernel/host-folios.test).

Usage: host-folios.py [--def FILE] FOLDER MEASURED

FOLDER: where the folio probe's data file is (the prediction is for its
filesystem, this kernel's version and H: tables/filesystems.py's
host_readahead_folio, which lit's large-folios feature is decided by);
MEASURED: the folio probe's output for that file (testsuite/kernel/
fsfolios.c: "FOLIOS largest=F folios=LIST pmd=P h=H ra=KB size=S").
FILE: a table other than lib/filesystems.def.  Prints what each says and
exits 0 where they agree: the largest folio lies within the predicted
bounds (or, where /proc/kpageflags could not be read, PMD-mapped bytes
are there where folios of H are certain, and none where they are out of
reach); 1 where they do not, or where
there is nothing to hold them against (no THP, or a filesystem the
table does not know: lit's large-folios feature is then off without the
kernel being asked)."""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "tables"))
import filesystems  # noqa: E402


def main(argv):
    path = filesystems.DEF
    if argv[1:2] == ["--def"]:
        path, argv = argv[2], argv[2:]
    folder, measured = argv[1], open(argv[2]).read()
    low, high, h, why = filesystems.host_readahead_folio(folder, path)
    m = re.search(r"FOLIOS largest=(-?\d+) folios=(\S+) pmd=(\d+) h=(\d+)",
                  measured)
    if low is None:
        print("host-folios: %s: the table does not say: %s; lit's "
              "large-folios feature is off without the kernel being asked" %
              (folder, why))
        return 1
    if not m:
        print("host-folios: %s: no measure: %s" % (folder, measured.strip()))
        return 1
    largest, folios, pmd = int(m.group(1)), m.group(2), int(m.group(3))
    bounds = "%d bytes" % low if low == high else "%d to %d bytes" % (low,
                                                                      high)
    print("host-folios: %s: the table says %s (%s); large-folios %s" %
          (folder, bounds, why, "on" if low == h else "off"))
    print("host-folios: the kernel gave a largest folio of %d bytes (folios "
          "%s), %d bytes PMD-mapped" % (largest, folios, pmd))
    if largest != -1:
        agree = low <= largest <= high
    elif low == h:
        agree = pmd > 0
    elif high < h:
        agree = pmd == 0
    else:
        # Folios of H may come or not: PMD-mapped bytes cannot disagree.
        agree = True
    print("host-folios: the table and the kernel %s" %
          ("agree" if agree else "DISAGREE: correct lib/filesystems.def"))
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
