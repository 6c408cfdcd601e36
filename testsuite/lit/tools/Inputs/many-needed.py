"""Write a crafted x86-64 ET_DYN whose PT_DYNAMIC has N DT_NEEDED entries,
all naming one string of LEN bytes: work for a resolver that rescans its
strings, or compares them in full, for each entry.
Usage: many-needed.py N LEN OUT"""
import struct
import sys

n, length, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
EHDR, PHDR, DYN = 64, 56, 16
DT_NULL, DT_NEEDED, DT_STRTAB, DT_STRSZ = 0, 1, 5, 10
dynoff = EHDR + 2 * PHDR
stroff = dynoff + (n + 3) * DYN
dyn = struct.pack("<qQ", DT_NEEDED, 1) * n
dyn += struct.pack("<qQqQqQ", DT_STRTAB, stroff, DT_STRSZ, length + 2,
                   DT_NULL, 0)
strtab = b"\0" + b"a" * length + b"\0"
size = stroff + len(strtab)
ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack(
    "<HHIQQQIHHHHHH", 3, 62, 1, 0, EHDR, 0, 0, EHDR, PHDR, 2, 64, 0, 0)
load = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, size, size, 0x1000)
dynamic = struct.pack("<IIQQQQQQ", 2, 6, dynoff, dynoff, dynoff, len(dyn),
                      len(dyn), 8)
with open(out, "wb") as f:
    f.write(ehdr + load + dynamic + dyn + strtab)
