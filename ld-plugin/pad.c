/* Finishing the hugetext layout in a linked ELF file: see pad.h.  */

#define _GNU_SOURCE
#include "pad.h"

#include "hugetext/file.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

      if (p->type != PT_LOAD || i == phdr)
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

      if ((s->flags & SHF_ALLOC) == 0 || s->type == SHT_NOBITS
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

/* Copy IN's bytes from FROM to TO (exclusive) to OUT at OFF, leaving
   holes where IN has them.  */
static int
copy_range (int in, int out, uint64_t from, uint64_t to, uint64_t off)
{
  uint64_t base = from, stop;
  int r;

  while ((r = ht_file_next_data (in, &from, &stop, to)) == 1)
    {
      uint64_t at = off + (from - base);

      while (from < stop)
	{
	  loff_t src = (loff_t) from, dst = (loff_t) at;
	  ssize_t n = copy_file_range (in, &src, out, &dst,
				       (size_t) (stop - from), 0);

	  if (n <= 0)
	    {
	      /* EXDEV on older kernels, or a file system without it.  */
	      char buf[65536];
	      size_t want = sizeof buf;

	      if (stop - from < want)
		want = (size_t) (stop - from);
	      n = pread (in, buf, want, (off_t) from);
	      if (n <= 0 || pwrite (out, buf, (size_t) n, (off_t) at) != n)
		return -1;
	    }
	  from += (uint64_t) n;
	  at += (uint64_t) n;
	}
    }
  return r;
}

/* The ELF, program and section headers of the padded file.  They are
   built from ELF's before any byte moves, because ELF may map the very
   file that pad_in_place changes.  */
struct headers
{
  unsigned char eh[sizeof (Elf64_Ehdr)];
  size_t ehsize, phsize, shsize;
  uint64_t phoff, shoff;	/* Where they go in the padded file.  */
  unsigned char *ph, *sh;
};

static void
free_headers (struct headers *h)
{
  free (h->ph);
  free (h->sh);
}

static int
build_headers (const struct pad_plan *plan, const struct ht_elf *elf,
	       struct headers *h, char err[HT_ERRLEN])
{
  unsigned char *ph, *sh;
  size_t i;

  h->ehsize = elf->elf_class == 64 ? sizeof (Elf64_Ehdr)
				   : sizeof (Elf32_Ehdr);
  h->phsize = elf->phnum * elf->phentsize;
  h->shsize = elf->shnum * elf->shentsize;
  h->phoff = shift (plan, elf->phoff);
  h->shoff = shift (plan, elf->shoff);
  h->ph = ph = malloc (h->phsize ? h->phsize : 1);
  h->sh = sh = malloc (h->shsize ? h->shsize : 1);
  if (ph == NULL || sh == NULL)
    {
      free_headers (h);
      snprintf (err, HT_ERRLEN, "out of memory");
      return -1;
    }
  memcpy (h->eh, elf->data, h->ehsize);
  memcpy (ph, elf->data + elf->phoff, h->phsize);
  if (h->shsize != 0)
    memcpy (sh, elf->data + elf->shoff, h->shsize);
  ht_elf_put (elf, h->eh, HT_FIELD (elf, Ehdr, e_phoff), h->phoff);
  if (h->shsize != 0)
    ht_elf_put (elf, h->eh, HT_FIELD (elf, Ehdr, e_shoff), h->shoff);
  for (i = 0; i < elf->phnum; i++)
    {
      if (elf->phdrs[i].type == PT_PHDR
	  || elf->phdrs[i].offset < plan->front_at
	  || (elf->phdrs[i].filesz == 0 && elf->phdrs[i].offset == 0))
	continue;
      ht_elf_put (elf, ph + i * elf->phentsize,
		  HT_FIELD (elf, Phdr, p_offset),
		  shift (plan, elf->phdrs[i].offset));
    }
  unsigned char *code = ph + plan->phdr * elf->phentsize;
  ht_elf_put (elf, code, HT_FIELD (elf, Phdr, p_filesz), plan->padded);
  ht_elf_put (elf, code, HT_FIELD (elf, Phdr, p_memsz), plan->padded);
  ht_elf_put (elf, code, HT_FIELD (elf, Phdr, p_align), plan->h);
  for (i = 1; i < elf->shnum; i++)
    if (elf->shdrs[i].offset >= plan->front_at)
      ht_elf_put (elf, sh + i * elf->shentsize,
		  HT_FIELD (elf, Shdr, sh_offset),
		  shift (plan, elf->shdrs[i].offset));
  if (plan->last_section != SIZE_MAX)
    ht_elf_put (elf, sh + plan->last_section * elf->shentsize,
		HT_FIELD (elf, Shdr, sh_size), plan->last_section_size);
  return 0;
}

static int
write_headers (const struct headers *h, int fd, char err[HT_ERRLEN])
{
  if (pwrite (fd, h->eh, h->ehsize, 0) != (ssize_t) h->ehsize
      || pwrite (fd, h->ph, h->phsize, (off_t) h->phoff)
	 != (ssize_t) h->phsize
      || (h->shsize != 0
	  && pwrite (fd, h->sh, h->shsize, (off_t) h->shoff)
	     != (ssize_t) h->shsize))
    {
      snprintf (err, HT_ERRLEN, "writing headers: %s", strerror (errno));
      return -1;
    }
  return 0;
}

int
pad_write (const struct pad_plan *plan, const struct ht_elf *elf, int in,
	   int out, char err[HT_ERRLEN])
{
  struct headers h;
  int status;

  if (build_headers (plan, elf, &h, err) != 0)
    return -1;
  /* The bytes, in three pieces.  */
  if (copy_range (in, out, 0, plan->front_at, 0) != 0
      || copy_range (in, out, plan->front_at, plan->tail_at,
		     shift (plan, plan->front_at)) != 0
      || copy_range (in, out, plan->tail_at, elf->size,
		     shift (plan, plan->tail_at)) != 0
      || ftruncate (out, (off_t) shift (plan, elf->size)) != 0)
    {
      snprintf (err, HT_ERRLEN, "copying: %s", strerror (errno));
      status = -1;
    }
  else
    status = write_headers (&h, out, err);
  free_headers (&h);
  return status;
}

/* A gap to insert: LEN bytes of zeros at AT.  FALLOC_FL_INSERT_RANGE
   takes whole blocks only, so the gap goes in at the block boundary BASE
   below AT, and the KEEP bytes from BASE to AT, saved first, are put
   back in front of it.  */
struct gap
{
  uint64_t at, len, base;
  size_t keep;
  unsigned char saved[65536];
};

/* 0, or 1 where the gap cannot be inserted whole blocks at a time.  */
static int
gap_prepare (struct gap *g, int fd, uint64_t at, uint64_t len,
	     uint64_t block)
{
  g->at = at;
  g->len = len;
  g->base = at & ~(block - 1);
  g->keep = (size_t) (at - g->base);
  if (len == 0)
    return 0;
  if (block > sizeof g->saved || (block & (block - 1)) != 0
      || len % block != 0)
    return 1;
  return pread (fd, g->saved, g->keep, (off_t) g->base)
	 == (ssize_t) g->keep ? 0 : 1;
}

/* Whether a failed fallocate left the file as it was: these errors
   come from its checks, before it changes anything.  Any other (ENOSPC,
   EIO, ...) may come half-way, after the file size changed.  */
static bool
refused (int err)
{
  return err == EOPNOTSUPP || err == ENOSYS || err == EINVAL;
}

/* Insert G.  0 done; 1 the file system refused, nothing changed; -1
   the file changed but not as it should.  */
static int
gap_insert (const struct gap *g, int fd)
{
  static const unsigned char zeros[65536];

  if (g->len == 0)
    return 0;
  if (fallocate (fd, FALLOC_FL_INSERT_RANGE, (off_t) g->base,
		 (off_t) g->len) != 0)
    return refused (errno) ? 1 : -1;
  if (g->keep != 0
      && (pwrite (fd, g->saved, g->keep, (off_t) g->base)
	  != (ssize_t) g->keep
	  || pwrite (fd, zeros, g->keep, (off_t) (g->base + g->len))
	     != (ssize_t) g->keep))
    return -1;
  return 0;
}

/* Take G out again.  */
static int
gap_remove (const struct gap *g, int fd)
{
  if (g->len == 0)
    return 0;
  if (fallocate (fd, FALLOC_FL_COLLAPSE_RANGE, (off_t) g->base,
		 (off_t) g->len) != 0)
    return -1;
  return pwrite (fd, g->saved, g->keep, (off_t) g->base)
	 == (ssize_t) g->keep ? 0 : -1;
}

int
pad_in_place (const struct pad_plan *plan, const struct ht_elf *elf, int fd,
	      char err[HT_ERRLEN])
{
  static struct gap front, tail;
  struct headers h;
  struct stat st;
  int status = 1, r;

  if (fstat (fd, &st) != 0 || st.st_blksize <= 0
      || (uint64_t) st.st_size != elf->size
      || plan->tail_at >= elf->size
      || gap_prepare (&tail, fd, plan->tail_at, plan->tail,
		      (uint64_t) st.st_blksize) != 0
      || gap_prepare (&front, fd, plan->front_at, plan->front,
		      (uint64_t) st.st_blksize) != 0)
    return 1;
  if (build_headers (plan, elf, &h, err) != 0)
    return 1;			/* Out of memory; nothing changed.  */
  /* The later gap first, so that the earlier one's offsets still hold.  */
  r = gap_insert (&tail, fd);
  if (r == 0)
    {
      r = gap_insert (&front, fd);
      if (r == 1 && gap_remove (&tail, fd) != 0)
	r = -1;
    }
  if (r == 0)
    status = write_headers (&h, fd, err);
  else if (r < 0)
    {
      snprintf (err, HT_ERRLEN, "moving the code segment: %s",
		strerror (errno));
      status = -1;
    }
  free_headers (&h);
  return status;
}
