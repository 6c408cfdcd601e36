#!/usr/bin/env python3
"""Summarize paired timings: lines "LABEL PROGRAM PLAIN_NS HUGE_NS".

For each (label, program): the median of each side, and the ratio
huge / plain as the median of the per-pair ratios with its 10th and 90th
percentiles (pairs were run back to back, so each ratio cancels the
drift of the machine).
"""

import collections
import statistics
import sys


def pct(values, q):
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def main(path):
    rows = collections.OrderedDict()
    with open(path) as f:
        for line in f:
            label, prog, plain, huge = line.split()
            rows.setdefault((label, prog), []).append((int(plain), int(huge)))
    print(f"{'linker':8} {'program':8} {'pairs':>5} {'plain ms':>9} "
          f"{'hugetext ms':>11} {'ratio':>6} {'p10-p90':>13}")
    for (label, prog), pairs in rows.items():
        ratios = [h / p for p, h in pairs]
        plain = statistics.median(p for p, _ in pairs) / 1e6
        huge = statistics.median(h for _, h in pairs) / 1e6
        print(f"{label:8} {prog:8} {len(pairs):5d} {plain:9.1f} {huge:11.1f} "
              f"{statistics.median(ratios):6.3f} "
              f"{pct(ratios, 0.1):6.3f}-{pct(ratios, 0.9):.3f}")


if __name__ == "__main__":
    main(sys.argv[1])
