#!/usr/bin/env python3
"""Compare a linker's default H for each target with lib/machines.def,
and a GNU ld's image base too.

Usage: linker-defaults.py HUGETEXT LINKER [--machine NAME]...
       [--emulation NAME=EMUL]... [--table-h NAME=SIZE]...
       [--table-text-start NAME=ADDRESS]...

For each machine of the table (its default entry, by its NAME there) that
is named with --machine (all of them without), it assembles a small
program for the machine's triplet with llvm-mc, links it with LINKER (-m
EMUL where given) -z hugetext and a min size below the program's code,
and reads the code segment's p_align from `hugetext check --json`: that
is the linker's default H, and it must equal the table's.  Where LINKER
is a GNU ld (its --verbose prints a linker script with a "text-segment"),
that script's image base for a non-PIE program must equal the table's
TEXT_START, too.  --table-h and --table-text-start replace the table's
value for NAME (the tests that a mismatch is found).  Prints one line
per machine; exit 1 on any mismatch."""

import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tables"))
import machines  # noqa: E402

SOURCE = ".text\n.globl _start\n_start:\n.space 0x3000\n"


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1:] in units:
        return int(text[:-1], 0) * units[text[-1]]
    return int(text, 0)


def pairs(values):
    return dict(v.split("=", 1) for v in values)


def linker_h(hugetext, linker, triplet, emulation, work):
    obj = os.path.join(work, triplet + ".o")
    out = os.path.join(work, triplet + ".out")
    src = os.path.join(work, "t.s")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["llvm-mc", "-filetype=obj", "-triple=" + triplet,
                    src, "-o", obj], check=True, stderr=subprocess.DEVNULL)
    # -z separate-code: GNU ld leaves a code segment that holds the ELF
    # headers alone where the image base is not a multiple of H (riscv64).
    cmd = [linker, "-z", "hugetext", "-z", "hugetext-min-size=0x1000",
           "-z", "separate-code", obj, "-o", out]
    if emulation:
        cmd[1:1] = ["-m", emulation]
    link = subprocess.run(cmd, capture_output=True, text=True)
    if link.returncode != 0:
        return None, link.stderr.strip()
    check = subprocess.run([hugetext, "check", "--json", "--min-size=0x1000",
                            out], capture_output=True, text=True)
    os.unlink(out)  # Sparse, but up to H (32 MiB) apparent.
    if check.returncode not in (0, 1):
        # Not a verdict: a crash (a sanitizer's error has a status of its
        # own) or a file it could not read.
        return None, "hugetext check exited with status %d: %s" % (
            check.returncode, check.stderr.strip())
    doc = json.loads(check.stdout)["files"][0]
    code = [s for s in doc.get("segments", []) if s["code"]]
    if len(code) != 1:
        return None, "%d code segments" % len(code)
    return code[0]["align"], None


def gnu_image_base(linker, emulation):
    """The image base of GNU ld's default script for EMULATION, or None
    where LINKER prints no such script (LLD)."""
    cmd = [linker, "--verbose"] + (["-m", emulation] if emulation else [])
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    m = re.search(r'SEGMENT_START\("text-segment", (0x[0-9a-fA-F]+)\)', out)
    return int(m.group(1), 16) if m else None


def compare(m, got_h, why, base, want_h, want_base, linker):
    """The line for machine M, and whether it is a mismatch: H, and the
    image base where the linker has one (GNU ld), each judged alone."""
    name = os.path.basename(linker)
    bad = []
    if got_h != want_h:
        bad.append("the table says H 0x%x, %s" % (
            want_h, "the link failed: " + why if why
            else "%s gives 0x%x" % (name, got_h)))
    if base is not None and base != want_base:
        bad.append("the table says image base 0x%x, %s gives 0x%x"
                   % (want_base, name, base))
    good = [] if got_h != want_h else ["H 0x%x" % got_h]
    if base is not None and base == want_base:
        good.append("image base 0x%x" % base)
    if not bad:
        return "%s: ok: %s" % (m["name"], ", ".join(good)), False
    return "%s: MISMATCH: %s%s" % (
        m["name"], "; ".join(bad),
        " (ok: %s)" % ", ".join(good) if good else ""), True


def main(argv):
    args, names, emuls, override, bases = [], [], [], [], []
    it = iter(argv[1:])
    for a in it:
        if a == "--machine":
            names.append(next(it))
        elif a == "--emulation":
            emuls.append(next(it))
        elif a == "--table-h":
            override.append(next(it))
        elif a == "--table-text-start":
            bases.append(next(it))
        else:
            args.append(a)
    if len(args) != 2:
        sys.exit(__doc__)
    hugetext, linker = args
    emuls, override, bases = pairs(emuls), pairs(override), pairs(bases)
    bad = 0
    with tempfile.TemporaryDirectory() as work:
        for m in machines.defaults():
            if names and m["name"] not in names:
                continue
            want = m["h_kib"] << 10
            if m["name"] in override:
                want = size(override[m["name"]])
            got, why = linker_h(hugetext, linker, m["triplet"],
                                emuls.get(m["name"]), work)
            base = gnu_image_base(linker, emuls.get(m["name"]))
            want_base = (int(bases[m["name"]], 0) if m["name"] in bases
                         else m["text_start"])
            line, mismatch = compare(m, got, why, base, want, want_base,
                                     linker)
            print(line)
            bad += mismatch
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
