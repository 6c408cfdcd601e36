#!/usr/bin/env python3
"""Print the layouts of linked programs side by side, from the JSON of
`hugetext check`: one row per program, showing its largest code segment.

Usage: layout-table.py HUGETEXT NAME=FILE...
"""

import json
import os
import subprocess
import sys


def size(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return str(n)


def main(argv):
    tool, pairs = argv[1], [a.split("=", 1) for a in argv[2:]]
    out = subprocess.run([tool, "check", "--json"] + [f for _, f in pairs],
                         capture_output=True, text=True)
    if out.returncode == 2:
        sys.exit("layout-table: hugetext check failed: " + out.stderr)
    files = json.loads(out.stdout)["files"]

    head = ("variant", "text offset", "text vaddr", "p_align", "code",
            "text filesz", "padding", "holes", "file size", "on disk",
            "hugetext check")
    rows = [head]
    for (name, path), f in zip(pairs, files):
        if f["verdict"] == "error":
            rows.append((name, "error: " + f["error"]) + ("",) * 9)
            continue
        code = [s for s in f["segments"] if s["code"]]
        seg = max(code, key=lambda s: s["code_size"])
        st = os.stat(path)
        verdict = f["verdict"]
        if verdict == "fail":
            problem = seg["problems"][0]
            verdict = "FAIL [%s]: %s" % (problem["rule"], problem["message"])
        rows.append((name, hex(seg["offset"]), hex(seg["vaddr"]),
                     hex(seg["align"]), size(seg["code_size"]),
                     size(seg["filesz"]), size(seg["padding"]),
                     size(seg["padding_holes"]), size(st.st_size),
                     size(st.st_blocks * 512), verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head) - 1)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])


if __name__ == "__main__":
    main(sys.argv)
