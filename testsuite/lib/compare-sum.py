#!/usr/bin/env python3
"""Compare two DejaGnu .sum files: BASELINE (unpatched) and CANDIDATE.

Prints every unexpected result (FAIL, XPASS, UNRESOLVED, ERROR) that the
candidate has more often than the baseline, and every test the baseline
passes that the candidate does not run at all.  Tests only the candidate
has (new tests) are counted, not judged.  Exit status 1 if there is any
regression.

Usage: compare-sum.py BASELINE.sum CANDIDATE.sum
"""

import collections
import re
import sys

RESULT = re.compile(r"^(PASS|FAIL|XFAIL|XPASS|KFAIL|KPASS|UNRESOLVED|"
                    r"UNSUPPORTED|UNTESTED|ERROR): (.*)$")
BAD = ("FAIL", "XPASS", "KPASS", "UNRESOLVED", "ERROR")


def results(path):
    counts = collections.Counter()
    with open(path, errors="replace") as f:
        for line in f:
            m = RESULT.match(line.rstrip("\n"))
            if m:
                counts[(m.group(1), m.group(2))] += 1
    return counts


def main(baseline_path, candidate_path):
    base, cand = results(baseline_path), results(candidate_path)
    base_names = {name for _, name in base}
    regressions = []
    for (status, name), n in sorted(cand.items()):
        if status in BAD and n > base[(status, name)]:
            regressions.append(f"{status}: {name}"
                               f" ({n} vs {base[(status, name)]} before)")
    cand_names = {name for _, name in cand}
    for (status, name), n in sorted(base.items()):
        if status == "PASS" and name not in cand_names:
            regressions.append(f"MISSING: {name} (passed before)")
    new = sorted(cand_names - base_names)

    def total(c, s):
        return sum(n for (st, _), n in c.items() if st == s)

    for label, c in (("baseline", base), ("candidate", cand)):
        print(f"{label}: {total(c, 'PASS')} PASS, {total(c, 'FAIL')} FAIL, "
              f"{total(c, 'XFAIL')} XFAIL, {total(c, 'UNSUPPORTED')} UNSUPPORTED")
    print(f"{len(new)} test names only in the candidate (new tests)")
    for r in regressions:
        print("REGRESSION " + r)
    print(f"{len(regressions)} regressions")
    return 1 if regressions else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
