#!/usr/bin/env python3
"""Summarize paired timings: lines "LABEL PROGRAM PLAIN_NS HUGE_NS".

Usage: bench/ratio.py [--target RATIO] TIMES_FILE

For each (label, program): the median of each side, and the ratio
huge / plain as the median of the per-pair ratios (pairs were run back
to back, so each ratio cancels the drift of the machine) with its 95 %
bootstrap confidence interval (ratio_ci) and its 10th and 90th
percentiles; with --target, whether the row meets it: "meets" when the
median ratio is at most RATIO, else "misses by" the excess.  --link-target
is --target LINK_TARGET.
"""

import argparse
import collections
import random
import statistics

# What a link may cost with -z hugetext against the same link without it
# for the option to be a distribution default: at most 2 % more.
LINK_TARGET = 1.02


def pct(values, q):
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def ratio_ci(pairs, resamples=10000, seed=1):
    """Median of HUGE/PLAIN over PAIRS and its 95 % bootstrap interval
    (RESAMPLES resamples of the pairs, fixed SEED: the same data give the
    same interval)."""
    ratios = [h / p for p, h in pairs]
    rng = random.Random(seed)
    medians = sorted(
        statistics.median(rng.choices(ratios, k=len(ratios)))
        for _ in range(resamples))
    return (statistics.median(ratios), pct(medians, 0.025),
            pct(medians, 0.975))


def verdict(ratio, target):
    if ratio <= target:
        return f"meets <= {target:.2f}"
    return f"misses by {(ratio - target) * 100:.1f} %"


def main(path, target):
    rows = collections.OrderedDict()
    with open(path) as f:
        for line in f:
            label, prog, plain, huge = line.split()
            rows.setdefault((label, prog), []).append((int(plain), int(huge)))
    print(f"{'linker':9} {'program':11} {'pairs':>5} {'plain ms':>9} "
          f"{'hugetext ms':>11} {'ratio':>6} {'95 % CI':>13} "
          f"{'p10-p90':>13}" + ("  target" if target else ""))
    for (label, prog), pairs in rows.items():
        ratios = [h / p for p, h in pairs]
        plain = statistics.median(p for p, _ in pairs) / 1e6
        huge = statistics.median(h for _, h in pairs) / 1e6
        ratio, lo, hi = ratio_ci(pairs)
        print(f"{label:9} {prog:11} {len(pairs):5d} {plain:9.1f} {huge:11.1f} "
              f"{ratio:6.3f} {lo:6.3f}-{hi:.3f} "
              f"{pct(ratios, 0.1):6.3f}-{pct(ratios, 0.9):.3f}"
              + (f"  {verdict(ratio, target)}" if target else ""))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", type=float)
    ap.add_argument("--link-target", dest="target", action="store_const",
                    const=LINK_TARGET)
    ap.add_argument("times")
    args = ap.parse_args()
    main(args.times, args.target)
