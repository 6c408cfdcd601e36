"""A file laid out as -z hugetext lays it out, without a linker, for the
tests of `hugetext punch`; and the map of a file's data and holes.

  laid-out.py write OUT [--zero-section]
      an x86-64 ET_DYN: the ELF header and .rodata in a read-only PT_LOAD
      at offset 0, the gap to 0x200000 (zeros), the code segment at
      offset and address 0x200000 (p_align 2 MiB): .text, 0x210000 bytes
      of 0xcc, then .hugetext_padding, 0x1f0000 bytes of zeros, to
      0x600000; a writable PT_LOAD with .data, then .shstrtab and the
      section headers.  The zeros are written as data, every byte of them.
      --zero-section: a section of 0x3000 zeros with file contents
      (.zeros, not allocated) at 0x100000, inside the gap: zeros that
      punch must not touch.

  laid-out.py map FILE
      the extents of data of FILE as SEEK_DATA and SEEK_HOLE report them,
      one "data START-END" line each, in hex.
"""
import os
import struct
import sys

H = 0x200000
TEXT_SIZE = 0x210000
PAD_OFF, PAD_END = H + TEXT_SIZE, 3 * H
RODATA_OFF, RODATA_SIZE = 0x1000, 0x100
ZEROS_OFF, ZEROS_SIZE = 0x100000, 0x3000
DATA_OFF, DATA_VADDR, DATA_SIZE = PAD_END, 4 * H, 0x100

PT_LOAD, PF_X, PF_W, PF_R = 1, 1, 2, 4
SHT_PROGBITS, SHT_STRTAB = 1, 3
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 1, 2, 4


def phdr(flags, off, vaddr, size, align):
    return struct.pack("<IIQQQQQQ", PT_LOAD, flags, off, vaddr, vaddr, size,
                       size, align)


def write(out, zero_section):
    # (name, type, flags, offset, addr, size)
    sections = [(".rodata", SHT_PROGBITS, SHF_ALLOC, RODATA_OFF, RODATA_OFF,
                 RODATA_SIZE),
                (".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, H, H,
                 TEXT_SIZE),
                (".hugetext_padding", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
                 PAD_OFF, PAD_OFF, PAD_END - PAD_OFF),
                (".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, DATA_OFF,
                 DATA_VADDR, DATA_SIZE)]
    if zero_section:
        sections.append((".zeros", SHT_PROGBITS, 0, ZEROS_OFF, 0, ZEROS_SIZE))
    names = b"\0"
    name_off = []
    for s in sections + [(".shstrtab",)]:
        name_off.append(len(names))
        names += s[0].encode() + b"\0"
    strtab_off = DATA_OFF + DATA_SIZE
    shoff = (strtab_off + len(names) + 7) & ~7
    shnum = len(sections) + 2
    phdrs = (phdr(PF_R, 0, 0, RODATA_OFF + RODATA_SIZE, 0x1000)
             + phdr(PF_R | PF_X, H, H, PAD_END - H, H)
             + phdr(PF_R | PF_W, DATA_OFF, DATA_VADDR, DATA_SIZE, 0x1000))
    ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack(
        "<HHIQQQIHHHHHH", 3, 62, 1, H, 64, shoff, 0, 64, 56, 3, 64, shnum,
        shnum - 1)
    image = bytearray(shoff + 64 * shnum)
    image[0:len(ehdr)] = ehdr
    image[64:64 + len(phdrs)] = phdrs
    image[RODATA_OFF:RODATA_OFF + RODATA_SIZE] = b"\x11" * RODATA_SIZE
    image[H:H + TEXT_SIZE] = b"\xcc" * TEXT_SIZE
    image[DATA_OFF:DATA_OFF + DATA_SIZE] = b"\x22" * DATA_SIZE
    image[strtab_off:strtab_off + len(names)] = names
    shdrs = bytes(64)
    for i, (_, type_, flags, off, addr, size) in enumerate(sections):
        shdrs += struct.pack("<IIQQQQIIQQ", name_off[i], type_, flags, addr,
                             off, size, 0, 0, 16, 0)
    shdrs += struct.pack("<IIQQQQIIQQ", name_off[-1], SHT_STRTAB, 0, 0,
                         strtab_off, len(names), 0, 0, 1, 0)
    image[shoff:] = shdrs
    with open(out, "wb") as f:
        f.write(image)


def data_map(path):
    fd = os.open(path, os.O_RDONLY)
    size = os.fstat(fd).st_size
    at = 0
    while at < size:
        try:
            start = os.lseek(fd, at, os.SEEK_DATA)
        except OSError:
            break
        end = os.lseek(fd, start, os.SEEK_HOLE)
        print("data 0x%x-0x%x" % (start, end))
        at = end
    os.close(fd)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        write(sys.argv[2], "--zero-section" in sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "map":
        data_map(sys.argv[2])
    else:
        sys.exit(__doc__)
