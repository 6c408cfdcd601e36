/* Finishing the hugetext layout in a linked ELF file: see pad.h.  */

#define _GNU_SOURCE
#include "pad.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t
align_up (uint64_t v, uint64_t a)
{
  return (v + a - 1) & ~(a - 1);
}

/* Where the byte at old file offset OFF goes.  */
static uint64_t
shift (const struct pad_plan *plan, uint64_t off)
{
  if (off >= plan->tail_at)
    return off + plan->front + plan->tail;
  if (off >= plan->front_at)
    return off + plan->front;
  return off;
}

int
pad_plan (struct pad_plan *plan, const struct ht_elf *elf, size_t phdr,
	  uint64_t h, char err[HT_ERRLEN])
{
  const struct ht_phdr *code = &elf->phdrs[phdr];
  uint64_t code_end = code->vaddr + code->memsz;
  uint64_t step = 1, last_end = 0;
  size_t i;

  memset (plan, 0, sizeof *plan);
  plan->phdr = phdr;
  plan->h = h;
  plan->last_section = SIZE_MAX;
  if (code->vaddr % h != 0)
    {
      snprintf (err, HT_ERRLEN, "the code segment starts at 0x%llx, not on "
		"a 0x%llx boundary", (unsigned long long) code->vaddr,
		(unsigned long long) h);
      return -1;
    }
  if (code->filesz != code->memsz)
    {
      snprintf (err, HT_ERRLEN, "the code segment has a .bss part");
      return -1;
    }

  /* Nothing may lie in memory between the end of the code and the next
     boundary: the linker script put the next segment there.  */
  plan->padded = align_up (code->memsz, h);
  for (i = 0; i < elf->phnum; i++)
    {
      const struct ht_phdr *p = &elf->phdrs[i];

      if (p->type != 1 /* PT_LOAD */ || i == phdr)
	continue;
      if (p->vaddr < code->vaddr + plan->padded && p->vaddr >= code_end)
	{
	  snprintf (err, HT_ERRLEN, "the segment at 0x%llx lies within the "
		    "padding of the code segment",
		    (unsigned long long) p->vaddr);
	  return -1;
	}
      if (p->offset >= code->offset && p->align > step)
	step = p->align;
    }
  if (step > h)
    {
      snprintf (err, HT_ERRLEN, "a later segment is aligned to 0x%llx, more "
		"than the huge page size", (unsigned long long) step);
      return -1;
    }

  /* The code to an offset that is a multiple of H, and what follows it
     out of its padding: both moves keep later segments congruent.  */
  plan->front_at = code->offset;
  plan->front = align_up (code->offset, h) - code->offset;
  plan->tail_at = code->offset + code->filesz;
  plan->tail = align_up (plan->padded - code->filesz, step);

  /* The last section of the segment grows to its end.  */
  for (i = 0; i < elf->shnum; i++)
    {
      const struct ht_shdr *s = &elf->shdrs[i];

      if ((s->flags & 2 /* SHF_ALLOC */) == 0 || s->type == 8 /* NOBITS */
	  || s->addr < code->vaddr || s->addr + s->size > code_end)
	continue;
      if (s->addr + s->size >= last_end)
	{
	  last_end = s->addr + s->size;
	  plan->last_section = i;
	}
    }
  if (plan->last_section != SIZE_MAX)
    plan->last_section_size
      = (elf->shdrs[plan->last_section].size
	 + code->vaddr + plan->padded - last_end);
  return 0;
}

/* Byte-order and class-aware field writers.  */

static void
put (unsigned char *p, uint64_t v, int size, bool big_endian)
{
  int i;

  for (i = 0; i < size; i++)
    p[big_endian ? size - 1 - i : i] = (unsigned char) (v >> (8 * i));
}

static uint64_t
get (const unsigned char *p, int size, bool big_endian)
{
  uint64_t v = 0;
  int i;

  for (i = 0; i < size; i++)
    v |= (uint64_t) p[big_endian ? size - 1 - i : i] << (8 * i);
  return v;
}

/* Field offsets in the headers of each class.  */
struct layout
{
  int word;			/* Size of an address or offset.  */
  int e_phoff, e_shoff, e_phentsize, e_shentsize;
  int p_offset, p_filesz, p_memsz, p_align;
  int sh_offset, sh_size;
};

static const struct layout layout64 = { 8, 32, 40, 54, 58, 8, 32, 40, 48,
  24, 32 };
static const struct layout layout32 = { 4, 28, 32, 42, 46, 4, 16, 20, 28,
  16, 20 };

/* Copy IN's bytes from FROM to TO (exclusive) to OUT at OFF, leaving
   holes where IN has them.  */
static int
copy_range (int in, int out, uint64_t from, uint64_t to, uint64_t off)
{
  while (from < to)
    {
      off_t data = lseek (in, (off_t) from, SEEK_DATA);
      off_t hole;

      if (data < 0)
	return errno == ENXIO ? 0 : -1;
      if ((uint64_t) data >= to)
	return 0;
      off += (uint64_t) data - from;
      from = (uint64_t) data;
      hole = lseek (in, (off_t) from, SEEK_HOLE);
      if (hole < 0)
	return -1;
      if ((uint64_t) hole > to)
	hole = (off_t) to;
      while (from < (uint64_t) hole)
	{
	  loff_t src = (loff_t) from, dst = (loff_t) off;
	  ssize_t n = copy_file_range (in, &src, out, &dst,
				       (size_t) ((uint64_t) hole - from), 0);

	  if (n <= 0)
	    {
	      /* EXDEV on older kernels, or a file system without it.  */
	      char buf[65536];
	      size_t want = sizeof buf;

	      if ((uint64_t) hole - from < want)
		want = (size_t) ((uint64_t) hole - from);
	      n = pread (in, buf, want, (off_t) from);
	      if (n <= 0 || pwrite (out, buf, (size_t) n, (off_t) off) != n)
		return -1;
	    }
	  from += (uint64_t) n;
	  off += (uint64_t) n;
	}
    }
  return 0;
}

int
pad_write (const struct pad_plan *plan, const struct ht_elf *elf, int in,
	   int out, char err[HT_ERRLEN])
{
  const struct layout *l = elf->elf_class == 64 ? &layout64 : &layout32;
  bool be = elf->big_endian;
  const unsigned char *ehdr = elf->data;
  uint64_t phoff = get (ehdr + l->e_phoff, l->word, be);
  uint64_t shoff = get (ehdr + l->e_shoff, l->word, be);
  uint64_t phentsize = get (ehdr + l->e_phentsize, 2, be);
  uint64_t shentsize = get (ehdr + l->e_shentsize, 2, be);
  size_t phsize = elf->phnum * phentsize, shsize = elf->shnum * shentsize;
  unsigned char *ph = NULL, *sh = NULL, eh[64];
  size_t ehsize = elf->elf_class == 64 ? 64 : 52;
  size_t i;
  int status = -1;

  /* The bytes, in three pieces.  */
  if (copy_range (in, out, 0, plan->front_at, 0) != 0
      || copy_range (in, out, plan->front_at, plan->tail_at,
		     shift (plan, plan->front_at)) != 0
      || copy_range (in, out, plan->tail_at, elf->size,
		     shift (plan, plan->tail_at)) != 0
      || ftruncate (out, (off_t) shift (plan, elf->size)) != 0)
    {
      snprintf (err, HT_ERRLEN, "copying: %s", strerror (errno));
      return -1;
    }

  /* The headers, with the offsets moved.  */
  ph = malloc (phsize ? phsize : 1);
  sh = malloc (shsize ? shsize : 1);
  if (ph == NULL || sh == NULL)
    {
      snprintf (err, HT_ERRLEN, "out of memory");
      goto done;
    }
  memcpy (eh, ehdr, ehsize);
  memcpy (ph, elf->data + phoff, phsize);
  if (shsize != 0)
    memcpy (sh, elf->data + shoff, shsize);
  put (eh + l->e_phoff, shift (plan, phoff), l->word, be);
  if (shsize != 0)
    put (eh + l->e_shoff, shift (plan, shoff), l->word, be);
  for (i = 0; i < elf->phnum; i++)
    {
      unsigned char *p = ph + i * phentsize;

      if (elf->phdrs[i].type == 6 /* PT_PHDR */
	  || elf->phdrs[i].offset < plan->front_at
	  || (elf->phdrs[i].filesz == 0 && elf->phdrs[i].offset == 0))
	continue;
      put (p + l->p_offset, shift (plan, elf->phdrs[i].offset), l->word, be);
    }
  put (ph + plan->phdr * phentsize + l->p_filesz, plan->padded, l->word, be);
  put (ph + plan->phdr * phentsize + l->p_memsz, plan->padded, l->word, be);
  put (ph + plan->phdr * phentsize + l->p_align, plan->h, l->word, be);
  for (i = 1; i < elf->shnum; i++)
    {
      unsigned char *s = sh + i * shentsize;

      if (elf->shdrs[i].offset >= plan->front_at)
	put (s + l->sh_offset, shift (plan, elf->shdrs[i].offset), l->word,
	     be);
    }
  if (plan->last_section != SIZE_MAX)
    put (sh + plan->last_section * shentsize + l->sh_size,
	 plan->last_section_size, l->word, be);

  if (pwrite (out, eh, ehsize, 0) != (ssize_t) ehsize
      || pwrite (out, ph, phsize, (off_t) shift (plan, phoff))
	 != (ssize_t) phsize
      || (shsize != 0
	  && pwrite (out, sh, shsize, (off_t) shift (plan, shoff))
	     != (ssize_t) shsize))
    {
      snprintf (err, HT_ERRLEN, "writing headers: %s", strerror (errno));
      goto done;
    }
  status = 0;

done:
  free (ph);
  free (sh);
  return status;
}
