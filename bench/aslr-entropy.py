#!/usr/bin/env python3
"""How random a PIE's load address stays when its text is PMD-aligned.

Usage: bench/aslr-entropy.py OUT [RUNS] [KERNEL...]

  OUT     the kernel matrix's folder (BUILD/kernel-matrix, prepared by
          testsuite/kernel/prepare.sh)
  RUNS    execs per program (256 unless given)
  KERNEL  names from testsuite/kernel/kernels (all those prepared in OUT
          unless given)

Boots each kernel (ASLR on, as testsuite/kernel/init.sh sets it), and in
THP "always" runs each PIE of its case tree that is there (plain: GNU
ld's usual layout; seed: text aligned in the file, p_align 4 KiB, which
only our binfmt_elf patch aligns; bfd, lld, lld-32m, bfd-32m: laid out
for huge pages, p_align H) RUNS times with the probe's "place" mode
(`run-cell place`: where the text is, nothing run), on ext4, and the
seed PIE once more under PR_SET_THP_DISABLE (`nothp`).  Prints one row
per program: the runs with the text on a PMD boundary, the distinct load
addresses and PMD-size slots seen, and the bits of randomness that they
show: log2 of the number of equally likely addresses whose draws would
give that many distinct ones in RUNS (the birthday estimate), or, where
no address came twice, a lower bound ("> B").  A measure, not a test:
the tests are testsuite/lit/kernel/aslr.test's.
"""

import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VM_RUN = os.path.join(HERE, "..", "testsuite", "kernel", "vm-run")
PROGRAMS = ("plain", "seed", "bfd", "lld", "bfd-32m", "lld-32m")


def estimate_bits(runs, distinct):
    """log2 of S, the number of equally likely values for which RUNS
    draws give DISTINCT distinct ones on average; None where no value
    came twice (S is then only bounded below)."""
    if distinct >= runs:
        return None
    lo, hi = float(distinct), float(2 ** 64)
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        seen = mid * -math.expm1(runs * math.log1p(-1.0 / mid))
        if seen < distinct:
            lo = mid
        else:
            hi = mid
    return math.log2(lo)


def lower_bound_bits(runs):
    """Bits below which RUNS draws with no repeat would be unlikely (a
    repeat at least half the time): S < RUNS^2 / (2 ln 2)."""
    return math.log2(runs * runs / (2 * math.log(2)))


def kernels_in(out):
    with open(os.path.join(out, "kernels")) as f:
        return [line.split()[0] for line in f if line.strip()]


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out = argv[1]
    runs = int(argv[2]) if len(argv) > 2 else 256
    kernels = argv[3:] or kernels_in(out)
    print("%-24s %-14s %5s %8s %6s %6s  %s" % (
        "kernel", "program", "runs", "aligned", "addrs", "slots",
        "bits (addresses)"))
    for k in kernels:
        cmds = []
        for p in PROGRAMS:
            cmds.append("run-cell place always ext4 %s pie %d" % (p, runs))
        cmds.append("run-cell place always ext4 seed pie %d nothp" % runs)
        script = "; ".join("echo CMD %s; %s" % (c, c) for c in cmds)
        r = subprocess.run([VM_RUN, out, k, script], capture_output=True,
                           text=True)
        if r.returncode == 125:
            print("%-24s boot failed: %s" % (k, r.stderr.strip()))
            continue
        cmd = None
        for line in r.stdout.splitlines():
            if line.startswith("CMD "):
                cmd = line.split()
                continue
            m = re.match(r"PLACE runs=(\d+) aligned=(\d+) addrs=(\d+) "
                         r"slots=(\d+) palign=(\d+)", line)
            if not m or cmd is None:
                continue
            n, aligned, addrs, slots, palign = map(int, m.groups())
            # CMD run-cell place MODE FS PRODUCER KIND RUNS [nothp]
            name = cmd[5] + (" (nothp)" if len(cmd) > 8 else "")
            bits = estimate_bits(n, addrs)
            words = ("%.1f" % bits if bits is not None
                     else "> %.0f" % lower_bound_bits(n))
            print("%-24s %-14s %5d %8d %6d %6d  %s (p_align %#x)" % (
                k, name, n, aligned, addrs, slots, words, palign))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv)
