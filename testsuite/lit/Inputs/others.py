"""Print what rule `others` keeps for the ELF file given: the layout of
everything but the code segment, with the segments and sections after the
code as offsets from the first of them, so that two files whose layout
after the code differs only by one shift of the whole print the same.

The code segment is the one PT_LOAD with PF_X set and PF_W clear; its own
size, and the padding section, are left out (rules `start`, `end`).
Segments and allocated sections before it are printed as they are; those
inside it relative to its start; those after it relative to the first
segment after it, whose address and offset within its own p_align are
printed too (a shift by whole pages keeps them).  Each segment prints its
type, flags, p_align, p_filesz and p_memsz; each section its name, type,
size and flags (NOBITS sections without a file offset)."""
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True,
                          check=True).stdout


path = sys.argv[1]
segments = []
for line in run("llvm-readelf", "-lW", path).splitlines():
    m = re.match(r"\s+([A-Z_a-z0-9+]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+"
                 r"0x[0-9a-f]+\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+"
                 r"([RWE ]+?)\s+0x([0-9a-f]+)$", line)
    if m:
        type_, off, vaddr, filesz, memsz, flags, align = m.groups()
        segments.append(dict(type=type_, off=int(off, 16),
                             vaddr=int(vaddr, 16), filesz=int(filesz, 16),
                             memsz=int(memsz, 16), flags=flags.replace(" ", ""),
                             align=int(align, 16)))
code = [s for s in segments
        if s["type"] == "LOAD" and "E" in s["flags"] and "W" not in s["flags"]]
if len(code) != 1:
    sys.exit("others.py: %s: %d code segments, expected 1" % (path, len(code)))
code = code[0]
code_end = code["vaddr"] + code["memsz"]
after = [s for s in segments
         if s["type"] == "LOAD" and s["vaddr"] >= code_end]
base = min(after, key=lambda s: s["vaddr"]) if after else None


def where(vaddr, off, size=1):
    """Where an address (and file offset, or None) of something SIZE
    bytes long lies, as printed.  An empty section at the end of the code
    is in the code (the padding follows it)."""
    if vaddr < code["vaddr"]:
        return "before 0x%x%s" % (vaddr, "" if off is None else
                                  " offset 0x%x" % off)
    if vaddr < code_end or (size == 0 and vaddr == code_end):
        return "code+0x%x%s" % (vaddr - code["vaddr"], "" if off is None
                                else " offset code+0x%x" % (off - code["off"]))
    return "after+0x%x%s" % (vaddr - base["vaddr"], "" if off is None
                             else " offset after+0x%x" % (off - base["off"]))


if base is not None:
    print("first segment after the code: address 0x%x, offset 0x%x in its "
          "p_align" % (base["vaddr"] % base["align"],
                       base["off"] % base["align"]))
for s in segments:
    if s is code:
        print("segment LOAD %s (the code segment)" % s["flags"])
        continue
    if s["type"] == "GNU_STACK":
        print("segment GNU_STACK %s" % s["flags"])
        continue
    print("segment %s %s %s align 0x%x filesz 0x%x memsz 0x%x" % (
        s["type"], s["flags"], where(s["vaddr"], s["off"]), s["align"],
        s["filesz"], s["memsz"]))
for line in run("llvm-readelf", "-SW", path).splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+"
                 r"([0-9a-f]+)\s+[0-9a-f]+\s+([A-Za-z]*)\s+\d+\s+\d+\s+\d+$",
                 line)
    if not m:
        continue
    name, type_, addr, off, size, flags = m.groups()
    if "A" not in flags or name.startswith(".hugetext_padding"):
        continue
    print("section %s %s size 0x%s %s %s" % (
        name, type_, size, flags,
        where(int(addr, 16), None if type_ == "NOBITS" else int(off, 16),
              int(size, 16))))
