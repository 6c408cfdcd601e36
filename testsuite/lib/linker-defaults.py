#!/usr/bin/env python3
"""Compare a linker's default H for each target with lib/machines.def.

Usage: linker-defaults.py HUGETEXT LINKER [--arch ARCH]... [--emulation
       ARCH=EMUL]... [--table-h ARCH=SIZE]...

For each machine of the table (its default entry) whose ARCH is given (all
of them without --arch), it assembles a small program for that target
with llvm-mc, links it with LINKER -z hugetext and a min size below the
program's code, and reads the code segment's p_align from `hugetext check
--json`: that is the linker's default H, and it must equal the table's.
--table-h replaces the table's H for ARCH (the test that a mismatch is
found).  Prints one line per target; exit 1 on any mismatch."""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machines  # noqa: E402

SOURCE = ".text\n.globl _start\n_start:\n.space 0x3000\n"


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1:] in units:
        return int(text[:-1], 0) * units[text[-1]]
    return int(text, 0)


def pairs(values):
    return dict(v.split("=", 1) for v in values)


def linker_h(hugetext, linker, arch, emulation, work):
    obj = os.path.join(work, arch + ".o")
    out = os.path.join(work, arch + ".out")
    src = os.path.join(work, "t.s")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["llvm-mc", "-filetype=obj", "-triple=%s-linux-gnu" % arch,
                    src, "-o", obj], check=True, stderr=subprocess.DEVNULL)
    cmd = [linker, "-z", "hugetext", "-z", "hugetext-min-size=0x1000",
           obj, "-o", out]
    if emulation:
        cmd[1:1] = ["-m", emulation]
    link = subprocess.run(cmd, capture_output=True, text=True)
    if link.returncode != 0:
        return None, link.stderr.strip()
    check = subprocess.run([hugetext, "check", "--json", "--min-size=0x1000",
                            out], capture_output=True, text=True)
    os.unlink(out)  # Sparse, but up to H (32 MiB) apparent.
    doc = json.loads(check.stdout)["files"][0]
    code = [s for s in doc.get("segments", []) if s["code"]]
    if len(code) != 1:
        return None, "%d code segments" % len(code)
    return code[0]["align"], None


def main(argv):
    args, archs, emuls, override = [], [], [], []
    it = iter(argv[1:])
    for a in it:
        if a == "--arch":
            archs.append(next(it))
        elif a == "--emulation":
            emuls.append(next(it))
        elif a == "--table-h":
            override.append(next(it))
        else:
            args.append(a)
    if len(args) != 2:
        sys.exit(__doc__)
    hugetext, linker = args
    emuls, override = pairs(emuls), pairs(override)
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        for m in machines.defaults():
            if archs and m["arch"] not in archs:
                continue
            want = m["h_kib"] << 10
            if m["arch"] in override:
                want = size(override[m["arch"]])
            got, why = linker_h(hugetext, linker, m["arch"],
                                emuls.get(m["arch"]), work)
            if got == want:
                print("%s: ok: H 0x%x" % (m["name"], got))
                continue
            bad += 1
            print("%s: MISMATCH: the table says H 0x%x, %s" % (
                m["name"], want, "the link failed: " + why if why
                else "%s gives 0x%x" % (os.path.basename(linker), got)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
