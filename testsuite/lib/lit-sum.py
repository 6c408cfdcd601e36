#!/usr/bin/env python3
"""Turn the output of "lit -v" into a DejaGnu-style .sum file, so that
compare-sum.py can compare two lit runs.

Each result line "CODE: SUITE :: TEST (N of M)" becomes "CODE: SUITE ::
TEST" (the counter depends on the order the tests finished in).  lit's
codes without a DejaGnu counterpart are mapped: FLAKYPASS to PASS,
TIMEOUT to FAIL, SKIPPED and EXCLUDED to UNTESTED.  Lines of the tests'
own output (between the "****" lines of a failure) are skipped.  Exit
status 1 if the log has no result at all, or fewer than lit's own
"Total Discovered Tests" says.

Usage: lit-sum.py LIT.log OUT.sum
"""

import re
import sys

RESULT = re.compile(r"^([A-Z]+): (.+ :: .+?)(?: \(\d+ of \d+\))?$")
CODES = {
    "PASS": "PASS", "FLAKYPASS": "PASS", "XFAIL": "XFAIL", "FAIL": "FAIL",
    "XPASS": "XPASS", "UNRESOLVED": "UNRESOLVED",
    "UNSUPPORTED": "UNSUPPORTED", "TIMEOUT": "FAIL", "SKIPPED": "UNTESTED",
    "EXCLUDED": "UNTESTED",
}
TOTAL = re.compile(r"^Total Discovered Tests: (\d+)")


def main(log_path, sum_path):
    out, total, in_output = [], None, False
    with open(log_path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("*" * 20):
                # "**** TEST 'x' FAILED ****" opens a test's output, a
                # line of stars alone closes it.
                in_output = line.strip("*").strip() != ""
                continue
            if in_output:
                continue
            m = TOTAL.match(line)
            if m:
                total = int(m.group(1))
                continue
            m = RESULT.match(line)
            if m and m.group(1) in CODES:
                out.append(f"{CODES[m.group(1)]}: {m.group(2)}")
    with open(sum_path, "w") as f:
        f.write("".join(line + "\n" for line in out))
    if not out:
        print(f"lit-sum: no lit results in {log_path}", file=sys.stderr)
        return 1
    if total is not None and len(out) < total:
        print(f"lit-sum: {log_path} has {len(out)} results, lit discovered"
              f" {total} tests", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
