#!/usr/bin/env python3
"""Compare what `hugetext check` says of two outputs of the same link.

Usage: compare-verdicts.py HUGETEXT FIRST SECOND [CHECK-OPTION...]

Two producers (GNU ld and ld.lld, or either and the plugin) given the same
objects and options must give the same verdict and code segments of the
same size in memory.  Prints one line per file and exits 0 when they agree,
1 when they do not, 2 when `hugetext check` could not judge a file or
exited with any status but 0 or 1 (a sanitizer's error included, even
after the JSON was written).
"""

import json
import subprocess
import sys


def judge(hugetext, path, options):
    """The verdict and the sizes of the eligible code segments of PATH."""
    run = subprocess.run([hugetext, "check", "--json", *options, path],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        # Whatever it printed first: a crash after the JSON (a sanitizer's
        # error, which has a status of its own) is not a verdict.
        print("compare-verdicts: hugetext check %s: exited with status "
              "%d, not a verdict (0 or 1): %s"
              % (path, run.returncode, run.stderr.strip()), file=sys.stderr)
        sys.exit(2)
    report = json.loads(run.stdout)["files"][0]
    sizes = [seg["memsz"] for seg in report["segments"] if seg["eligible"]]
    return report["verdict"], sizes


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__.strip().splitlines()[2])
    hugetext, first, second, options = argv[1], argv[2], argv[3], argv[4:]
    results = [judge(hugetext, path, options) for path in (first, second)]
    for path, (verdict, sizes) in zip((first, second), results):
        print("%s: %s, code segments %s"
              % (path, verdict, " ".join("0x%x" % s for s in sizes) or "none"))
    if results[0] != results[1]:
        print("compare-verdicts: %s and %s differ" % (first, second))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
