/* Building ELF images in memory for unit tests: see elfbuild.h.  */

#include "elfbuild.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

struct writer
{
  unsigned char *buf;
  bool be;
};

static void
put (struct writer *w, uint64_t off, uint64_t v, unsigned bytes)
{
  for (unsigned i = 0; i < bytes; i++)
    {
      unsigned shift = 8 * (w->be ? bytes - 1 - i : i);
      w->buf[off + i] = (unsigned char) (v >> shift);
    }
}

struct eb_elf
eb_good_x86_64 (void)
{
  struct eb_elf e = {
    .cls = 64, .type = ET_DYN, .machine = EM_X86_64, .size = 0x700000,
    .nseg = 3,
    .seg = {
      { PT_LOAD, PF_R, 0, 0, 0x800, 0x800, 0x1000 },
      { PT_LOAD, PF_R | PF_X, 0x200000, 0x200000, 0x400000, 0x400000,
	0x200000 },
      { PT_LOAD, PF_R | PF_W, 0x600000, 0x600000, 0x100, 0x2000, 0x1000 },
    },
    .nsec = 4,
    .sec = {
      { ".rodata", SHT_PROGBITS, SHF_ALLOC, 0x100, 0x100, 0x700 },
      { ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x200000,
	0x200000, 0x3f0000 },
      { ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x600000, 0x600000,
	0x100 },
      { ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0x600100, 0x600100,
	0x1f00 },
    },
  };
  return e;
}

static void
write_ehdr (struct writer *w, const struct eb_elf *s, uint64_t phoff,
	    uint64_t shoff, unsigned shnum)
{
  bool is64 = s->cls == 64;
  unsigned asz = is64 ? 8 : 4;

  memcpy (w->buf, ELFMAG, SELFMAG);
  w->buf[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
  w->buf[EI_DATA] = s->be ? ELFDATA2MSB : ELFDATA2LSB;
  w->buf[EI_VERSION] = EV_CURRENT;
  put (w, 16, s->type, 2);
  put (w, 18, s->machine, 2);
  put (w, 20, EV_CURRENT, 4);
  uint64_t p = 24 + asz;	/* After e_entry.  */
  put (w, p, s->nseg ? phoff : 0, asz);
  put (w, p + asz, shoff, asz);
  p += 2 * asz + 4;		/* After e_flags.  */
  put (w, p, is64 ? sizeof (Elf64_Ehdr) : sizeof (Elf32_Ehdr), 2);
  put (w, p + 2, is64 ? sizeof (Elf64_Phdr) : sizeof (Elf32_Phdr), 2);
  put (w, p + 4, s->nseg, 2);
  put (w, p + 6, is64 ? sizeof (Elf64_Shdr) : sizeof (Elf32_Shdr), 2);
  put (w, p + 8, shnum, 2);
  put (w, p + 10, shnum ? shnum - 1 : 0, 2);	/* .shstrtab is last.  */
}

static void
write_phdr (struct writer *w, unsigned cls, uint64_t off,
	    const struct eb_seg *g)
{
  put (w, off, g->type, 4);
  if (cls == 64)
    {
      put (w, off + 4, g->flags, 4);
      put (w, off + 8, g->offset, 8);
      put (w, off + 16, g->vaddr, 8);
      put (w, off + 24, g->vaddr, 8);
      put (w, off + 32, g->filesz, 8);
      put (w, off + 40, g->memsz, 8);
      put (w, off + 48, g->align, 8);
    }
  else
    {
      put (w, off + 4, g->offset, 4);
      put (w, off + 8, g->vaddr, 4);
      put (w, off + 12, g->vaddr, 4);
      put (w, off + 16, g->filesz, 4);
      put (w, off + 20, g->memsz, 4);
      put (w, off + 24, g->flags, 4);
      put (w, off + 28, g->align, 4);
    }
}

static void
write_shdr (struct writer *w, unsigned cls, uint64_t off, uint32_t name,
	    const struct eb_sec *c)
{
  put (w, off, name, 4);
  put (w, off + 4, c->type, 4);
  if (cls == 64)
    {
      put (w, off + 8, c->flags, 8);
      put (w, off + 16, c->addr, 8);
      put (w, off + 24, c->offset, 8);
      put (w, off + 32, c->size, 8);
    }
  else
    {
      put (w, off + 8, c->flags, 4);
      put (w, off + 12, c->addr, 4);
      put (w, off + 16, c->offset, 4);
      put (w, off + 20, c->size, 4);
    }
}

unsigned char *
eb_build (const struct eb_elf *s, size_t *len)
{
  bool is64 = s->cls == 64;
  uint64_t ehsize = is64 ? sizeof (Elf64_Ehdr) : sizeof (Elf32_Ehdr);
  uint64_t phent = is64 ? sizeof (Elf64_Phdr) : sizeof (Elf32_Phdr);
  uint64_t shent = is64 ? sizeof (Elf64_Shdr) : sizeof (Elf32_Shdr);
  uint64_t content = s->size;

  if (content < ehsize + s->nseg * phent)
    content = ehsize + s->nseg * phent;

  /* .shstrtab: "\0" then each name, then ".shstrtab".  */
  uint64_t strsz = 1 + sizeof ".shstrtab";
  for (size_t i = 0; i < s->nsec; i++)
    strsz += strlen (s->sec[i].name) + 1;
  unsigned shnum = s->no_shdrs ? 0 : (unsigned) s->nsec + 2;
  uint64_t stroff = content;
  uint64_t shoff = (stroff + strsz + 7) & ~UINT64_C (7);
  *len = s->no_shdrs ? content : shoff + shnum * shent;

  struct writer w = { calloc (1, *len), s->be };
  write_ehdr (&w, s, ehsize, s->no_shdrs ? 0 : shoff, shnum);
  for (size_t i = 0; i < s->nseg; i++)
    write_phdr (&w, s->cls, ehsize + i * phent, &s->seg[i]);
  if (s->no_shdrs)
    return w.buf;

  uint32_t name = 1;
  for (size_t i = 0; i < s->nsec; i++)
    {
      strcpy ((char *) w.buf + stroff + name, s->sec[i].name);
      write_shdr (&w, s->cls, shoff + (i + 1) * shent, name, &s->sec[i]);
      name += (uint32_t) strlen (s->sec[i].name) + 1;
    }
  struct eb_sec tab = { ".shstrtab", SHT_STRTAB, 0, 0, stroff, strsz };
  strcpy ((char *) w.buf + stroff + name, ".shstrtab");
  write_shdr (&w, s->cls, shoff + (shnum - 1) * shent, name, &tab);
  return w.buf;
}
