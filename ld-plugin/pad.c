/* Finishing the hugetext layout in a linked ELF file, with a padding
   section of its own: see pad.h.  */

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

/* The code segment PHDR of ELF can be padded to H: it starts on an H
   boundary in memory and has no .bss part.  */
static int
check_code_segment (const struct ht_elf *elf, size_t phdr, uint64_t h,
		    char err[HT_ERRLEN])
{
  const struct ht_phdr *code = &elf->phdrs[phdr];

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
  return 0;
}

/* Nothing may lie in memory between the end of the code and the next
   boundary: the linker script put the next segment there.  Sets *STEP to
   the largest p_align of the segments that the moves shift (1 where
   none is larger), which may not exceed H.  */
static int
check_later_segments (const struct pad_plan *plan, const struct ht_elf *elf,
		      uint64_t *step, char err[HT_ERRLEN])
{
  const struct ht_phdr *code = &elf->phdrs[plan->phdr];
  uint64_t code_end = code->vaddr + code->memsz;
  size_t i;

  *step = 1;
  for (i = 0; i < elf->phnum; i++)
    {
      const struct ht_phdr *p = &elf->phdrs[i];

      if (p->type != PT_LOAD || i == plan->phdr)
	continue;
      if (p->vaddr < code->vaddr + plan->padded && p->vaddr >= code_end)
	{
	  snprintf (err, HT_ERRLEN, "the segment at 0x%llx lies within the "
		    "padding of the code segment",
		    (unsigned long long) p->vaddr);
	  return -1;
	}
      if (p->offset >= code->offset && p->align > *step)
	*step = p->align;
    }
  if (*step > plan->h)
    {
      snprintf (err, HT_ERRLEN, "a later segment is aligned to 0x%llx, more "
		"than the huge page size", (unsigned long long) *step);
      return -1;
    }
  return 0;
}

/* The code to an offset that is a multiple of H, and what follows it out
   of its padding, by multiples of STEP: both moves keep later segments
   congruent.  The padding section covers the padding, after the code.  */
static void
plan_moves (struct pad_plan *plan, const struct ht_phdr *code,
	    uint64_t step)
{
  plan->front_at = code->offset;
  plan->front = align_up (code->offset, plan->h) - code->offset;
  plan->tail_at = code->offset + code->filesz;
  plan->tail = align_up (plan->padded - code->filesz, step);
  plan->pad_addr = code->vaddr + code->memsz;
  plan->pad_size = plan->padded - code->memsz;
}

/* The file offset after the last byte of anything but the section names:
   where the names and the section header table are written anew, where
   ld put them when it put them last.  */
static uint64_t
section_names_at (const struct pad_plan *plan, const struct ht_elf *elf)
{
  uint64_t at = elf->phoff + elf->phnum * elf->phentsize;
  size_t i;

  for (i = 0; i < elf->phnum; i++)
    if (elf->phdrs[i].offset + elf->phdrs[i].filesz > at)
      at = elf->phdrs[i].offset + elf->phdrs[i].filesz;
  for (i = 1; i < elf->shnum; i++)
    {
      const struct ht_shdr *s = &elf->shdrs[i];

      if (i != plan->names && s->type != SHT_NOBITS
	  && s->offset + s->size > at)
	at = s->offset + s->size;
    }
  return at;
}

/* Where the padding section's header and name go: ELF can take one more
   section, has no padding section yet, and its section names are a
   string table inside the file.  */
static int
plan_pad_section (struct pad_plan *plan, const struct ht_elf *elf,
		  char err[HT_ERRLEN])
{
  const struct ht_shdr *names;
  size_t i;

  if (elf->shnum + 1 >= SHN_LORESERVE)
    {
      snprintf (err, HT_ERRLEN, "too many sections to add one");
      return -1;
    }
  for (i = 0; i < elf->shnum; i++)
    if (ht_shdr_name_starts (&elf->shdrs[i], PAD_SECTION))
      {
	snprintf (err, HT_ERRLEN, "the output has a section %.*s already",
		  (int) elf->shdrs[i].name_len, elf->shdrs[i].name);
	return -1;
      }
  plan->names = (size_t) ht_elf_get (elf, elf->data,
				     HT_FIELD (elf, Ehdr, e_shstrndx));
  if (plan->names == 0 || plan->names >= elf->shnum
      || elf->shdrs[plan->names].type != SHT_STRTAB)
    {
      snprintf (err, HT_ERRLEN, "the section names are not a string table");
      return -1;
    }
  names = &elf->shdrs[plan->names];
  plan->names_at = section_names_at (plan, elf);
  if (plan->names_at < plan->tail_at || names->offset > elf->size
      || names->size > elf->size - names->offset)
    {
      snprintf (err, HT_ERRLEN, "the section names lie outside the file");
      return -1;
    }
  return 0;
}

int
pad_plan (struct pad_plan *plan, const struct ht_elf *elf, size_t phdr,
	  uint64_t h, char err[HT_ERRLEN])
{
  const struct ht_phdr *code = &elf->phdrs[phdr];
  uint64_t step;

  memset (plan, 0, sizeof *plan);
  plan->phdr = phdr;
  plan->h = h;
  plan->padded = align_up (code->memsz, h);
  if (check_code_segment (elf, phdr, h, err) != 0
      || check_later_segments (plan, elf, &step, err) != 0)
    return -1;
  plan_moves (plan, code, step);
  if (elf->shnum == 0 || plan->pad_size == 0)
    return 0;			/* No section to add.  */
  return plan_pad_section (plan, elf, err);
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

/* The ELF, program and section headers of the padded file, and where the
   padding section is added, the section names.  They are built from
   ELF's before any byte moves, because ELF may map the very file that
   pad_in_place changes.  */
struct headers
{
  unsigned char eh[sizeof (Elf64_Ehdr)];
  size_t ehsize, phsize, shsize;
  uint64_t phoff, shoff;	/* Where they go in the padded file.  */
  unsigned char *ph, *sh;
  /* Where the padding section is added: the section names, then the
     section header table (SH is part of it), NAMES_LEN bytes at
     NAMES_AT in the padded file.  */
  unsigned char *names;
  size_t names_len;
  uint64_t names_at;
  uint64_t end;			/* The padded file's size.  */
};

static void
free_headers (struct headers *h)
{
  free (h->ph);
  free (h->names != NULL ? h->names : h->sh);
}

/* Add the padding section of PLAN to the section header table at H->sh,
   which has room for it, and write the section names and the table into
   H->names.  */
static void
add_pad_section (const struct pad_plan *plan, const struct ht_elf *elf,
		 struct headers *h)
{
  const struct ht_shdr *names = &elf->shdrs[plan->names];
  unsigned char *sh = h->sh + elf->shnum * elf->shentsize;
  unsigned char *nh = h->sh + plan->names * elf->shentsize;

  memcpy (h->names, elf->data + names->offset, names->size);
  memcpy (h->names + names->size, PAD_SECTION, sizeof PAD_SECTION);
  ht_elf_put (elf, nh, HT_FIELD (elf, Shdr, sh_offset), h->names_at);
  ht_elf_put (elf, nh, HT_FIELD (elf, Shdr, sh_size),
	      names->size + sizeof PAD_SECTION);
  memset (sh, 0, elf->shentsize);
  ht_elf_put (elf, sh, HT_FIELD (elf, Shdr, sh_name), names->size);
  ht_elf_put (elf, sh, HT_FIELD (elf, Shdr, sh_type), SHT_PROGBITS);
  ht_elf_put (elf, sh, HT_FIELD (elf, Shdr, sh_flags),
	      SHF_ALLOC | SHF_EXECINSTR);
  ht_elf_put (elf, sh, HT_FIELD (elf, Shdr, sh_addr), plan->pad_addr);
  /* The end of the code, which moved with the code.  */
  ht_elf_put (elf, sh, HT_FIELD (elf, Shdr, sh_offset),
	      plan->tail_at + plan->front);
  ht_elf_put (elf, sh, HT_FIELD (elf, Shdr, sh_size), plan->pad_size);
  ht_elf_put (elf, sh, HT_FIELD (elf, Shdr, sh_addralign), 1);
  ht_elf_put (elf, h->eh, HT_FIELD (elf, Ehdr, e_shnum), elf->shnum + 1);
}

static int
build_headers (const struct pad_plan *plan, const struct ht_elf *elf,
	       struct headers *h, char err[HT_ERRLEN])
{
  unsigned char *ph, *sh;
  bool add = plan->names_at != 0;
  size_t i;

  memset (h, 0, sizeof *h);
  h->ehsize = elf->elf_class == 64 ? sizeof (Elf64_Ehdr)
				   : sizeof (Elf32_Ehdr);
  h->phsize = elf->phnum * elf->phentsize;
  h->shsize = (elf->shnum + add) * elf->shentsize;
  h->phoff = shift (plan, elf->phoff);
  h->shoff = shift (plan, elf->shoff);
  h->end = shift (plan, elf->size);
  if (add)
    {
      /* The names, then the table, aligned as ld aligns it.  */
      uint64_t names_size = elf->shdrs[plan->names].size
			    + sizeof PAD_SECTION;

      h->names_at = shift (plan, plan->names_at);
      h->shoff = align_up (h->names_at + names_size,
			   elf->elf_class == 64 ? 8 : 4);
      h->names_len = (size_t) (h->shoff - h->names_at) + h->shsize;
      h->end = h->names_at + h->names_len;
      h->names = calloc (1, h->names_len);
      sh = h->names != NULL ? h->names + (h->shoff - h->names_at) : NULL;
    }
  else
    sh = malloc (h->shsize ? h->shsize : 1);
  h->sh = sh;
  h->ph = ph = malloc (h->phsize ? h->phsize : 1);
  if (ph == NULL || sh == NULL)
    {
      free_headers (h);
      snprintf (err, HT_ERRLEN, "out of memory");
      return -1;
    }
  memcpy (h->eh, elf->data, h->ehsize);
  memcpy (ph, elf->data + elf->phoff, h->phsize);
  if (elf->shnum != 0)
    memcpy (sh, elf->data + elf->shoff, elf->shnum * elf->shentsize);
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
  if (add)
    add_pad_section (plan, elf, h);
  return 0;
}

/* Write the headers, and set the file's size.  */
static int
write_headers (const struct headers *h, int fd, char err[HT_ERRLEN])
{
  if (pwrite (fd, h->eh, h->ehsize, 0) != (ssize_t) h->ehsize
      || pwrite (fd, h->ph, h->phsize, (off_t) h->phoff)
	 != (ssize_t) h->phsize
      || (h->names != NULL
	  ? pwrite (fd, h->names, h->names_len, (off_t) h->names_at)
	    != (ssize_t) h->names_len
	  : h->shsize != 0
	    && pwrite (fd, h->sh, h->shsize, (off_t) h->shoff)
	       != (ssize_t) h->shsize)
      || ftruncate (fd, (off_t) h->end) != 0)
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
  /* Not what the new names and table replace.  */
  uint64_t stop = plan->names_at != 0 ? plan->names_at : elf->size;
  int status;

  if (build_headers (plan, elf, &h, err) != 0)
    return -1;
  /* The bytes, in three pieces.  */
  if (copy_range (in, out, 0, plan->front_at, 0) != 0
      || copy_range (in, out, plan->front_at, plan->tail_at,
		     shift (plan, plan->front_at)) != 0
      || copy_range (in, out, plan->tail_at, stop,
		     shift (plan, plan->tail_at)) != 0)
    {
      snprintf (err, HT_ERRLEN, "copying: %s", strerror (errno));
      status = -1;
    }
  else
    status = write_headers (&h, out, err);
  free_headers (&h);
  return status;
}

/* The largest block size pad_in_place works with.  */
#define GAP_MAX_BLOCK 65536

/* A gap to insert: LEN bytes of zeros at AT.  FALLOC_FL_INSERT_RANGE
   takes whole blocks only, so the gap goes in at the block boundary BASE
   below AT, and the KEEP bytes from BASE to AT, saved first, are put
   back in front of it.  */
struct gap
{
  uint64_t at, len, base;
  size_t keep;
  unsigned char saved[GAP_MAX_BLOCK];
};

/* Prepare G, a gap of LEN bytes at AT in FD, in blocks of BLOCK (a power
   of two no larger than G's buffer).  PAD_IN_PLACE_DONE; or
   PAD_IN_PLACE_BLOCKS where LEN is not whole blocks, or
   PAD_IN_PLACE_ERROR where the bytes in front of it cannot be read, with
   the reason in ERR.  */
static int
gap_prepare (struct gap *g, int fd, uint64_t at, uint64_t len,
	     uint64_t block, char err[HT_ERRLEN])
{
  ssize_t got;

  g->at = at;
  g->len = len;
  g->base = at & ~(block - 1);
  g->keep = (size_t) (at - g->base);
  if (len == 0)
    return PAD_IN_PLACE_DONE;
  if (len % block != 0)
    {
      snprintf (err, HT_ERRLEN, "the gap of 0x%llx bytes at 0x%llx is not "
		"whole blocks of 0x%llx bytes", (unsigned long long) len,
		(unsigned long long) at, (unsigned long long) block);
      return PAD_IN_PLACE_BLOCKS;
    }
  got = pread (fd, g->saved, g->keep, (off_t) g->base);
  if (got != (ssize_t) g->keep)
    {
      snprintf (err, HT_ERRLEN, "reading the 0x%zx bytes at 0x%llx: %s",
		g->keep, (unsigned long long) g->base,
		got < 0 ? strerror (errno) : "the file ends");
      return PAD_IN_PLACE_ERROR;
    }
  return PAD_IN_PLACE_DONE;
}

/* Whether ERR, from fallocate, says that the file system cannot insert
   ranges at all (ENOSYS: the kernel has no fallocate).  */
static bool
cannot_insert (int err)
{
#if defined ENOTSUP && ENOTSUP != EOPNOTSUPP
  if (err == ENOTSUP)
    return true;
#endif
  return err == EOPNOTSUPP || err == ENOSYS;
}

/* Insert G.  PAD_IN_PLACE_DONE; PAD_IN_PLACE_UNSUPPORTED where the file
   system cannot insert ranges, nothing changed; PAD_IN_PLACE_ERROR with
   the reason in ERR.  */
static int
gap_insert (const struct gap *g, int fd, char err[HT_ERRLEN])
{
  static const unsigned char zeros[GAP_MAX_BLOCK];

  if (g->len == 0)
    return PAD_IN_PLACE_DONE;
  if (fallocate (fd, FALLOC_FL_INSERT_RANGE, (off_t) g->base,
		 (off_t) g->len) != 0)
    {
      int why = errno;

      snprintf (err, HT_ERRLEN, "inserting 0x%llx bytes at 0x%llx: "
		"fallocate (FALLOC_FL_INSERT_RANGE): %s",
		(unsigned long long) g->len, (unsigned long long) g->base,
		strerror (why));
      /* EINVAL: the file system refuses these offsets, nothing changed.
	 gap_prepare makes them whole blocks of st_blksize, but a file
	 system may want more (ext4 with bigalloc: whole clusters); a
	 plan that is wrong in itself check_file refuses first.  */
      if (cannot_insert (why))
	return PAD_IN_PLACE_UNSUPPORTED;
      return why == EINVAL ? PAD_IN_PLACE_BLOCKS : PAD_IN_PLACE_ERROR;
    }
  if (g->keep != 0
      && (pwrite (fd, g->saved, g->keep, (off_t) g->base)
	  != (ssize_t) g->keep
	  || pwrite (fd, zeros, g->keep, (off_t) (g->base + g->len))
	     != (ssize_t) g->keep))
    {
      snprintf (err, HT_ERRLEN, "putting back the 0x%zx bytes in front of "
		"the gap at 0x%llx: %s", g->keep,
		(unsigned long long) g->at, strerror (errno));
      return PAD_IN_PLACE_ERROR;
    }
  return PAD_IN_PLACE_DONE;
}

/* Take G out again.  0, or -1 with the reason in ERR.  */
static int
gap_remove (const struct gap *g, int fd, char err[HT_ERRLEN])
{
  if (g->len == 0)
    return 0;
  if (fallocate (fd, FALLOC_FL_COLLAPSE_RANGE, (off_t) g->base,
		 (off_t) g->len) != 0
      || pwrite (fd, g->saved, g->keep, (off_t) g->base)
	 != (ssize_t) g->keep)
    {
      snprintf (err, HT_ERRLEN, "taking the gap at 0x%llx out again: %s",
		(unsigned long long) g->at, strerror (errno));
      return -1;
    }
  return 0;
}

/* Whether FD, whose contents ELF describes, is the file PLAN was made
   for and can take its gaps, and in what blocks (*BLOCK): as
   pad_in_place says.  */
static int
check_file (const struct pad_plan *plan, const struct ht_elf *elf, int fd,
	    uint64_t *block, char err[HT_ERRLEN])
{
  struct stat st;

  if (fstat (fd, &st) != 0)
    {
      snprintf (err, HT_ERRLEN, "fstat: %s", strerror (errno));
      return PAD_IN_PLACE_ERROR;
    }
  if (!S_ISREG (st.st_mode) || (uint64_t) st.st_size != elf->size)
    {
      snprintf (err, HT_ERRLEN, "the file is %s of 0x%llx bytes, its ELF "
		"0x%llx bytes", S_ISREG (st.st_mode) ? "a regular file"
		: "not a regular file", (unsigned long long) st.st_size,
		(unsigned long long) elf->size);
      return PAD_IN_PLACE_ERROR;
    }
  if (plan->front_at > plan->tail_at || plan->tail_at > elf->size
      || (plan->front != 0 && plan->front_at >= elf->size))
    {
      snprintf (err, HT_ERRLEN, "the gaps at 0x%llx and 0x%llx do not lie "
		"in order within the file's 0x%llx bytes",
		(unsigned long long) plan->front_at,
		(unsigned long long) plan->tail_at,
		(unsigned long long) elf->size);
      return PAD_IN_PLACE_ERROR;
    }
  if (plan->front > (uint64_t) INT64_MAX - elf->size
      || plan->tail > (uint64_t) INT64_MAX - elf->size - plan->front)
    {
      snprintf (err, HT_ERRLEN, "gaps of 0x%llx and 0x%llx bytes would "
		"make the file larger than an off_t",
		(unsigned long long) plan->front,
		(unsigned long long) plan->tail);
      return PAD_IN_PLACE_ERROR;
    }
  if (plan->tail != 0 && plan->tail_at == elf->size)
    {
      /* Valid, but a range can only be inserted before a byte.  */
      snprintf (err, HT_ERRLEN, "the code ends the file: no range can be "
		"inserted after it");
      return PAD_IN_PLACE_BLOCKS;
    }
  *block = (uint64_t) st.st_blksize;
  if (st.st_blksize <= 0 || (*block & (*block - 1)) != 0
      || *block > GAP_MAX_BLOCK)
    {
      snprintf (err, HT_ERRLEN, "the file system's block size, 0x%llx, is "
		"not a power of two of at most 0x%x",
		(unsigned long long) st.st_blksize, GAP_MAX_BLOCK);
      return PAD_IN_PLACE_BLOCKS;
    }
  return PAD_IN_PLACE_DONE;
}

int
pad_in_place (const struct pad_plan *plan, const struct ht_elf *elf, int fd,
	      char err[HT_ERRLEN])
{
  static struct gap front, tail;
  struct headers h;
  uint64_t block = 0;
  int r;

  if ((r = check_file (plan, elf, fd, &block, err)) != PAD_IN_PLACE_DONE
      || (r = gap_prepare (&tail, fd, plan->tail_at, plan->tail, block,
			   err)) != PAD_IN_PLACE_DONE
      || (r = gap_prepare (&front, fd, plan->front_at, plan->front, block,
			   err)) != PAD_IN_PLACE_DONE)
    return r;
  if (build_headers (plan, elf, &h, err) != 0)
    return PAD_IN_PLACE_ERROR;	/* Out of memory; nothing changed.  */
  /* The later gap first, so that the earlier one's offsets still hold.  */
  r = gap_insert (&tail, fd, err);
  if (r == PAD_IN_PLACE_DONE)
    {
      r = gap_insert (&front, fd, err);
      /* Refused, nothing changed by it: the tail goes out again.  */
      if ((r == PAD_IN_PLACE_UNSUPPORTED || r == PAD_IN_PLACE_BLOCKS)
	  && gap_remove (&tail, fd, err) != 0)
	r = PAD_IN_PLACE_ERROR;
    }
  if (r == PAD_IN_PLACE_DONE && write_headers (&h, fd, err) != 0)
    r = PAD_IN_PLACE_ERROR;
  free_headers (&h);
  return r;
}
