/* Building ELF images in memory for unit tests: any class, byte order,
   program and section headers, without a linker.  */

#ifndef HUGETEXT_ELFBUILD_H
#define HUGETEXT_ELFBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EB_MAX 8

struct eb_seg
{
  uint32_t type, flags;
  uint64_t offset, vaddr, filesz, memsz, align;
};

struct eb_sec
{
  const char *name;
  uint32_t type;
  uint64_t flags, addr, offset, size;
};

struct eb_elf
{
  unsigned cls;			/* 32 or 64.  */
  bool be;
  uint16_t type, machine;
  size_t nseg;
  struct eb_seg seg[EB_MAX];
  size_t nsec;			/* Not counting the null section and
				   .shstrtab, which are added.  */
  struct eb_sec sec[EB_MAX];
  uint64_t size;		/* Bytes of content before the tables.  */
  bool no_shdrs;
};

/* A layout that meets the contract: ELF64 LSB x86-64 ET_DYN, a small R
   segment, a 4 MiB R-X segment at 2 MiB holding 0x3f0000 bytes of .text,
   and an RW segment.  */
struct eb_elf eb_good_x86_64 (void);

/* The image for SPEC (malloc'd; free it), its size in *LEN.  Content is
   zero; tests write into it.  The section headers come last.  */
unsigned char *eb_build (const struct eb_elf *spec, size_t *len);

#endif
