"""Compare the CACHED lines (run-cell cached) of two kernels' runs, in
the same order (ext4, then xfs): the growth of Cached must be what the
files hold, give or take NOISE_KB (the shell's own pages come and go),
and no larger on the second kernel than on the first.  Exits 1 on the
first that is not, naming it.

Usage: same-cached.py STOCK OURS
"""

import re
import sys

NOISE_KB = 128
FILESYSTEMS = ("ext4", "xfs")


def cached(path):
    lines = re.findall(r"CACHED delta_kb=(\d+) files_kb=(\d+)",
                       open(path).read())
    if len(lines) != len(FILESYSTEMS):
        sys.exit("%s: %d CACHED lines, not %d" % (path, len(lines),
                                                  len(FILESYSTEMS)))
    return [(int(d), int(f)) for d, f in lines]


def main(stock_path, ours_path):
    for fs, (stock, files), (ours, files2) in zip(
            FILESYSTEMS, cached(stock_path), cached(ours_path)):
        if files != files2:
            sys.exit("%s: the files differ: %d and %d KiB" % (fs, files,
                                                               files2))
        for name, kb in (("Debian's 7.2", stock), ("ours", ours)):
            if kb > files + NOISE_KB:
                sys.exit("%s: %s cached %d KiB, more than its %d KiB of "
                         "files" % (fs, name, kb, files))
        if ours > stock + NOISE_KB:
            sys.exit("%s: ours cached %d KiB, more than Debian's 7.2 (%d)"
                     % (fs, ours, stock))
        print("%s: Debian's 7.2 %d KiB, ours %d KiB, of %d KiB of files: "
              "the same" % (fs, stock, ours, files))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
