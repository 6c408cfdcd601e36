/* ELF reading for the hugetext tools: see hugetext/elf.h.  */

#define _POSIX_C_SOURCE 200809L	/* strnlen.  */
#include "hugetext/elf.h"
#include "hugetext/machine.h"

#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
fail (char err[HT_ERRLEN], const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (err, HT_ERRLEN, fmt, ap);
  va_end (ap);
  return -1;
}

/* Field F of the header at P, in ELF's class and byte order.  */
#define GET(elf, p, hdr, field) \
  ht_elf_get ((elf), (p), HT_FIELD ((elf), hdr, field))

/* Whether [OFF, OFF + COUNT * ENTSIZE) lies inside the buffer.  */
static bool
table_fits (const struct ht_elf *elf, uint64_t off, uint64_t count,
	    uint64_t entsize)
{
  if (off > elf->size)
    return false;
  return count <= (elf->size - off) / entsize;
}

/* The fields of the ELF header that the rest of the parse needs.  */
struct ehdr
{
  uint64_t phoff, shoff;
  uint16_t phentsize, phnum, shentsize, shnum, shstrndx;
};

static int
parse_ident (struct ht_elf *elf, char err[HT_ERRLEN])
{
  const unsigned char *d = elf->data;

  if (elf->size < SELFMAG || memcmp (d, ELFMAG, SELFMAG) != 0)
    return fail (err, "not an ELF file (no ELF magic number)");
  if (elf->size < EI_NIDENT)
    return fail (err, "truncated ELF identification (%zu bytes)", elf->size);
  switch (d[EI_CLASS])
    {
    case ELFCLASS32: elf->elf_class = 32; break;
    case ELFCLASS64: elf->elf_class = 64; break;
    default:
      return fail (err, "unsupported ELF class %u", d[EI_CLASS]);
    }
  switch (d[EI_DATA])
    {
    case ELFDATA2LSB: elf->big_endian = false; break;
    case ELFDATA2MSB: elf->big_endian = true; break;
    default:
      return fail (err, "unsupported ELF byte order %u", d[EI_DATA]);
    }
  if (d[EI_VERSION] != EV_CURRENT)
    return fail (err, "unsupported ELF version %u", d[EI_VERSION]);
  return 0;
}

static int
parse_ehdr (struct ht_elf *elf, struct ehdr *h, char err[HT_ERRLEN])
{
  const unsigned char *d = elf->data;
  size_t need = elf->elf_class == 64 ? sizeof (Elf64_Ehdr)
				     : sizeof (Elf32_Ehdr);

  if (elf->size < need)
    return fail (err, "truncated ELF header (%zu of %zu bytes)",
		 elf->size, need);

  elf->type = GET (elf, d, Ehdr, e_type);
  elf->machine = GET (elf, d, Ehdr, e_machine);
  h->phoff = GET (elf, d, Ehdr, e_phoff);
  h->shoff = GET (elf, d, Ehdr, e_shoff);
  h->phentsize = GET (elf, d, Ehdr, e_phentsize);
  h->phnum = GET (elf, d, Ehdr, e_phnum);
  h->shentsize = GET (elf, d, Ehdr, e_shentsize);
  h->shnum = GET (elf, d, Ehdr, e_shnum);
  h->shstrndx = GET (elf, d, Ehdr, e_shstrndx);
  return 0;
}

static void
read_shdr (const struct ht_elf *elf, const unsigned char *p,
	   struct ht_shdr *s, uint32_t *name, uint32_t *link, uint32_t *info)
{
  *name = GET (elf, p, Shdr, sh_name);
  s->type = GET (elf, p, Shdr, sh_type);
  s->flags = GET (elf, p, Shdr, sh_flags);
  s->addr = GET (elf, p, Shdr, sh_addr);
  s->offset = GET (elf, p, Shdr, sh_offset);
  s->size = GET (elf, p, Shdr, sh_size);
  *link = GET (elf, p, Shdr, sh_link);
  *info = GET (elf, p, Shdr, sh_info);
}

static void
read_phdr (const struct ht_elf *elf, const unsigned char *p,
	   struct ht_phdr *ph)
{
  ph->type = GET (elf, p, Phdr, p_type);
  ph->flags = GET (elf, p, Phdr, p_flags);
  ph->offset = GET (elf, p, Phdr, p_offset);
  ph->vaddr = GET (elf, p, Phdr, p_vaddr);
  ph->paddr = GET (elf, p, Phdr, p_paddr);
  ph->filesz = GET (elf, p, Phdr, p_filesz);
  ph->memsz = GET (elf, p, Phdr, p_memsz);
  ph->align = GET (elf, p, Phdr, p_align);
}

/* Resolve extended numbering (e_phnum == PN_XNUM, e_shnum == 0,
   e_shstrndx == SHN_XINDEX), whose real values live in section 0.  */
static int
counts (struct ht_elf *elf, const struct ehdr *h, uint64_t *phnum,
	uint64_t *shnum, uint32_t *shstrndx, char err[HT_ERRLEN])
{
  size_t shent = elf->elf_class == 64 ? sizeof (Elf64_Shdr)
				      : sizeof (Elf32_Shdr);

  *phnum = h->phnum;
  *shnum = h->shnum;
  *shstrndx = h->shstrndx;
  if (h->shoff == 0)
    {
      if (h->phnum == PN_XNUM)
	return fail (err, "e_phnum is PN_XNUM but there are no section "
		     "headers to hold the real count");
      *shnum = 0;
      *shstrndx = SHN_UNDEF;
      return 0;
    }
  if (h->shentsize != shent)
    return fail (err, "e_shentsize is %u, expected %zu for ELF%u",
		 h->shentsize, shent, elf->elf_class);
  if (!table_fits (elf, h->shoff, 1, shent))
    return fail (err, "truncated: section header table at offset 0x%"
		 PRIx64 " is past the end of the file (size 0x%zx)",
		 h->shoff, elf->size);

  struct ht_shdr s0;
  uint32_t name, link, info;
  read_shdr (elf, elf->data + h->shoff, &s0, &name, &link, &info);
  if (h->shnum == 0)
    *shnum = s0.size;
  if (h->phnum == PN_XNUM)
    *phnum = info;
  if (h->shstrndx == SHN_XINDEX)
    *shstrndx = link;
  return 0;
}

static int
parse_phdrs (struct ht_elf *elf, const struct ehdr *h, uint64_t phnum,
	     char err[HT_ERRLEN])
{
  size_t phent = elf->elf_class == 64 ? sizeof (Elf64_Phdr)
				      : sizeof (Elf32_Phdr);

  if (phnum == 0)
    return 0;
  if (h->phentsize != phent)
    return fail (err, "e_phentsize is %u, expected %zu for ELF%u",
		 h->phentsize, phent, elf->elf_class);
  if (!table_fits (elf, h->phoff, phnum, phent))
    return fail (err, "truncated: program header table (%" PRIu64
		 " entries at offset 0x%" PRIx64 ") extends past the end of "
		 "the file (size 0x%zx)", phnum, h->phoff, elf->size);

  elf->phdrs = calloc (phnum, sizeof *elf->phdrs);
  if (elf->phdrs == NULL)
    return fail (err, "out of memory");
  elf->phnum = phnum;
  for (size_t i = 0; i < phnum; i++)
    {
      struct ht_phdr *ph = &elf->phdrs[i];

      read_phdr (elf, elf->data + h->phoff + i * phent, ph);
      if (ph->type != PT_LOAD)
	continue;
      if (ph->filesz > ph->memsz)
	return fail (err, "malformed: program header %zu (PT_LOAD) has "
		     "p_filesz 0x%" PRIx64 " larger than p_memsz 0x%" PRIx64,
		     i, ph->filesz, ph->memsz);
      /* A segment without file contents (as in a separate debug file)
	 may have a p_offset past the end of the file: nothing is read
	 there.  */
      if (ph->filesz != 0
	  && (ph->offset > elf->size || ph->filesz > elf->size - ph->offset))
	return fail (err, "truncated: program header %zu (PT_LOAD, offset 0x%"
		     PRIx64 ", p_filesz 0x%" PRIx64 ") extends past the end "
		     "of the file (size 0x%zx)", i, ph->offset, ph->filesz,
		     elf->size);
    }
  return 0;
}

/* Point each section's name into the section name string table.  */
static int
name_sections (struct ht_elf *elf, const uint32_t *names, uint32_t shstrndx,
	       char err[HT_ERRLEN])
{
  if (shstrndx == SHN_UNDEF)
    return 0;
  if (shstrndx >= elf->shnum)
    return fail (err, "malformed: section name table index %" PRIu32
		 " is out of range (%zu sections)", shstrndx, elf->shnum);

  const struct ht_shdr *tab = &elf->shdrs[shstrndx];
  if (tab->type == SHT_NOBITS || tab->offset > elf->size
      || tab->size > elf->size - tab->offset)
    return fail (err, "truncated: section name table (offset 0x%" PRIx64
		 ", size 0x%" PRIx64 ") is not inside the file (size 0x%zx)",
		 tab->offset, tab->size, elf->size);

  const char *strtab = (const char *) elf->data + tab->offset;
  for (size_t i = 0; i < elf->shnum; i++)
    {
      if (names[i] >= tab->size)
	return fail (err, "malformed: section %zu has a name offset 0x%"
		     PRIx32 " outside the section name table", i, names[i]);
      size_t room = tab->size - names[i];
      size_t len = strnlen (strtab + names[i], room);
      if (len == room)
	return fail (err, "malformed: the name of section %zu is not "
		     "NUL-terminated", i);
      elf->shdrs[i].name = strtab + names[i];
      elf->shdrs[i].name_len = len;
    }
  return 0;
}

static int
parse_shdrs (struct ht_elf *elf, const struct ehdr *h, uint64_t shnum,
	     uint32_t shstrndx, char err[HT_ERRLEN])
{
  size_t shent = elf->elf_class == 64 ? sizeof (Elf64_Shdr)
				      : sizeof (Elf32_Shdr);

  if (shnum == 0)
    return 0;
  if (!table_fits (elf, h->shoff, shnum, shent))
    return fail (err, "truncated: section header table (%" PRIu64
		 " entries at offset 0x%" PRIx64 ") extends past the end of "
		 "the file (size 0x%zx)", shnum, h->shoff, elf->size);

  uint32_t *names = calloc (shnum, sizeof *names);
  elf->shdrs = calloc (shnum, sizeof *elf->shdrs);
  if (names == NULL || elf->shdrs == NULL)
    {
      free (names);
      return fail (err, "out of memory");
    }
  elf->shnum = shnum;
  for (size_t i = 0; i < shnum; i++)
    {
      uint32_t link, info;

      read_shdr (elf, elf->data + h->shoff + i * shent, &elf->shdrs[i],
		 &names[i], &link, &info);
      elf->shdrs[i].name = "";
    }
  int rc = name_sections (elf, names, shstrndx, err);
  free (names);
  return rc;
}

uint64_t
ht_elf_get (const struct ht_elf *elf, const unsigned char *hdr,
	    struct ht_field f)
{
  uint64_t v = 0;

  for (size_t i = 0; i < f.size; i++)
    v |= (uint64_t) hdr[f.offset + (elf->big_endian ? f.size - 1 - i : i)]
	 << (8 * i);
  return v;
}

void
ht_elf_put (const struct ht_elf *elf, unsigned char *hdr, struct ht_field f,
	    uint64_t v)
{
  for (size_t i = 0; i < f.size; i++)
    hdr[f.offset + (elf->big_endian ? f.size - 1 - i : i)]
      = (unsigned char) (v >> (8 * i));
}

int
ht_elf_parse (struct ht_elf *elf, const void *data, size_t size,
	      char err[HT_ERRLEN])
{
  struct ehdr h = { 0 };
  uint64_t phnum, shnum;
  uint32_t shstrndx;

  memset (elf, 0, sizeof *elf);
  elf->data = data;
  elf->size = size;
  if (parse_ident (elf, err) != 0
      || parse_ehdr (elf, &h, err) != 0
      || counts (elf, &h, &phnum, &shnum, &shstrndx, err) != 0
      || parse_phdrs (elf, &h, phnum, err) != 0
      || parse_shdrs (elf, &h, shnum, shstrndx, err) != 0)
    {
      ht_elf_free (elf);
      return -1;
    }
  elf->phoff = h.phoff;
  elf->shoff = h.shoff;
  elf->phentsize = h.phentsize;
  elf->shentsize = h.shentsize;
  return 0;
}

void
ht_elf_free (struct ht_elf *elf)
{
  free (elf->phdrs);
  free (elf->shdrs);
  elf->phdrs = NULL;
  elf->shdrs = NULL;
  elf->phnum = elf->shnum = 0;
}

bool
ht_shdr_name_is (const struct ht_shdr *s, const char *name)
{
  size_t n = strlen (name);
  return s->name_len == n && memcmp (s->name, name, n) == 0;
}

bool
ht_shdr_name_starts (const struct ht_shdr *s, const char *prefix)
{
  size_t n = strlen (prefix);
  return s->name_len >= n && memcmp (s->name, prefix, n) == 0;
}

const char *
ht_elf_machine_name (uint16_t machine, unsigned elf_class)
{
  /* A machine of the table is called by its name there (the first line
     of its e_machine and class), as the docs and the table call it.  */
  const struct ht_machine *m = ht_machine_find (machine, elf_class, 0);

  if (m != NULL)
    return m->name;
  /* Another machine, or a machine of the table in the other class, by
     the name its ports use.  */
  switch (machine)
    {
    case EM_386: return "i386 (ELF64)";
    case EM_AARCH64: return "aarch64-ilp32";
    case EM_ALPHA: return "alpha";
    case EM_ARM: return "arm";
    case EM_IA_64: return "ia64";
    case EM_LOONGARCH: return "loongarch32";
    case EM_68K: return "m68k";
    case EM_MIPS: return "mips";
    case EM_PARISC: return "parisc";
    case EM_PPC: return "ppc";
    case EM_PPC64: return "ppc64 (ELF32)";
    case EM_RISCV: return elf_class == 32 ? "riscv32" : "riscv";
    case EM_S390: return "s390";
    case EM_SH: return "sh";
    case EM_SPARC: return "sparc";
    case EM_SPARC32PLUS: return "sparc32plus";
    case EM_SPARCV9: return "sparcv9";
    default: return "unknown machine";
    }
}

const char *
ht_elf_type_name (uint16_t type)
{
  switch (type)
    {
    case ET_NONE: return "ET_NONE";
    case ET_REL: return "ET_REL";
    case ET_EXEC: return "ET_EXEC";
    case ET_DYN: return "ET_DYN";
    case ET_CORE: return "ET_CORE";
    default: return "unknown type";
    }
}
