/* hugetext punch FILE...: give the zero padding of files laid out for
   huge pages back to the file system as holes.

   A file linked with -z hugetext has its code segment at a file offset
   that is a multiple of H, padded to the next multiple of H by a
   .hugetext_padding section (docs/contract.md).  The linker leaves the
   gap before that segment and the padding as holes, but dpkg, rpm, tar
   and cp without --sparse write them as zeros: up to 2 H of disk per
   segment.  For each file this command finds, with libhugetext's ELF
   reader, the whole file system blocks of the padding sections and of
   the gap before each laid-out code segment that nothing else of the
   file covers (no other section with contents, header table or
   segment), reads them with pread, and punches those that read as zeros
   (fallocate, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE).  A hole reads
   as zeros, so the content is the same byte for byte.  What fallocate
   changes besides the blocks is set back: the modification and access
   times, the set-user-ID and set-group-ID bits and the file
   capabilities; only the change time moves.  */

#define _GNU_SOURCE		/* fallocate, O_NOATIME, getopt_long.  */
#include "hugetext.h"

#include "hugetext/elf.h"
#include "hugetext/file.h"
#include "hugetext/json.h"
#include "hugetext/layout.h"
#include "hugetext/machine.h"
#include "hugetext/size.h"
#include "hugetext/thp.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <linux/capability.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <unistd.h>

/* The extended attribute that holds a file's capabilities: the kernel
   removes it when the file is modified, fallocate included, whoever the
   caller is.  */
#define CAPS_XATTR "security.capability"

/* What is read at a time to see whether blocks are zeros.  */
#define SCAN_CHUNK (1u << 20)

struct punch_opts
{
  bool dry_run, quiet, json;
  uint64_t page_size;		/* H; 0: the file's machine's.  */
};

/* File offsets [start, end).  */
struct span
{
  uint64_t start, end;
};

struct spans
{
  struct span *s;
  size_t n, cap;
};

struct punch_result
{
  const char *path;
  int status;
  const char *error;		/* Why it was not punched as asked: on
				   standard error.  */
  const char *note;		/* Why there was nothing to do.  */
  char buf[HT_ERRLEN + 160];	/* Room for ERROR or NOTE.  */
  uint64_t block;		/* The block size it was punched in.  */
  uint64_t padding;		/* Bytes of whole blocks that may be
				   punched.  */
  uint64_t holes;		/* ... that are holes already.  */
  uint64_t zero;		/* ... that read as zeros: punched.  */
  uint64_t not_zero;		/* ... in blocks that hold other bytes.  */
  uint64_t freed;		/* st_blocks * 512, before minus after.  */
  uint64_t h;			/* The H its layout was read for.  */
};

/* What fallocate changes or clears besides the blocks, and punch sets
   back: the times; the set-user-ID and set-group-ID bits, which the
   kernel clears for a caller without CAP_FSETID; the file
   capabilities.  */
struct kept
{
  struct timespec times[2];	/* Access, modification.  */
  mode_t mode;
  unsigned char caps[64];
  ssize_t caps_len;		/* 0: none.  */
};

static void
punch_usage (FILE *out)
{
  fprintf (out,
"Usage: %s punch [OPTION]... FILE...\n"
"Give the zero padding of each ELF FILE laid out for huge pages back to\n"
"the file system as holes, without changing one byte of its content: the\n"
"whole blocks of its .hugetext_padding sections, and of the gap before\n"
"each aligned code segment that nothing else of the file covers, that\n"
"read as zeros.  The file keeps its size, content, modification and\n"
"access times, mode and file capabilities.  Punch a file before warming\n"
"it (hugetext warm): punching splits the huge folio that holds the end\n"
"of its text.  Symbolic links are not followed.\n"
"\n"
"  --dry-run         say what would be freed; punch nothing\n"
"  --page-size=SIZE  H the file is laid out for (default: its machine's,\n"
"                    from the machine table)\n"
"  -q, --quiet       report only errors\n"
"  --json            a JSON array on standard output, one object per file\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 every file punched, or left as it is with nothing to\n"
"punch (not ELF, not laid out for huge pages, its padding already holes,\n"
"or on a file system that cannot punch holes); 1 a file in use as a\n"
"running program, left as it is; 2 bad usage, or a file that cannot be\n"
"read or punched; 4 permission denied; 7 not a regular file. With several\n"
"files, the highest of their statuses.\n",
	   ht_progname);
}

static int
spans_add (struct spans *l, uint64_t start, uint64_t end)
{
  if (end <= start)
    return 0;
  if (l->n > 0 && l->s[l->n - 1].end == start)
    {
      l->s[l->n - 1].end = end;
      return 0;
    }
  if (l->n == l->cap)
    {
      size_t cap = l->cap ? 2 * l->cap : 16;
      struct span *s = realloc (l->s, cap * sizeof *s);

      if (s == NULL)
	return -1;
      l->s = s;
      l->cap = cap;
    }
  l->s[l->n++] = (struct span) { start, end };
  return 0;
}

/* [OFF, OFF + LEN), where the sum may pass what 64 bits hold (fields of
   a file nobody checked yet).  */
static int
spans_add_len (struct spans *l, uint64_t off, uint64_t len)
{
  return spans_add (l, off, len > UINT64_MAX - off ? UINT64_MAX : off + len);
}

static int
by_start (const void *a, const void *b)
{
  const struct span *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort L and merge the spans that overlap or touch.  */
static void
spans_normalize (struct spans *l)
{
  size_t out = 0;

  if (l->n < 2)
    return;
  qsort (l->s, l->n, sizeof *l->s, by_start);
  for (size_t i = 1; i < l->n; i++)
    if (l->s[i].start <= l->s[out].end)
      {
	if (l->s[i].end > l->s[out].end)
	  l->s[out].end = l->s[i].end;
      }
    else
      l->s[++out] = l->s[i];
  l->n = out + 1;
}

/* Append to OUT the whole blocks of BLOCK bytes of [START, END) that no
   span of KEEP (normalized) touches.  */
static int
spans_subtract (struct spans *out, uint64_t start, uint64_t end,
		const struct spans *keep, uint64_t block)
{
  size_t lo = 0, hi = keep->n;
  uint64_t at = start;

  /* The first span of KEEP that ends after START.  */
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (keep->s[mid].end <= start)
	lo = mid + 1;
      else
	hi = mid;
    }
  for (size_t i = lo; at < end; i++)
    {
      uint64_t stop = i < keep->n && keep->s[i].start < end
		      ? keep->s[i].start : end;
      uint64_t a = (at + block - 1) / block * block, b = stop / block * block;

      if (a < b && spans_add (out, a, b) != 0)
	return -1;
      if (stop == end)
	break;
      at = keep->s[i].end;
    }
  return 0;
}

/* Record in R that the file was not punched as asked: WHAT, and the
   reason for errno value ERR.  The first error is the one reported.  */
static void
fail (struct punch_result *r, int status, const char *what, int err)
{
  if (r->error != NULL)
    return;
  r->status = status;
  snprintf (r->buf, sizeof r->buf, "%s: %s", what, strerror (err));
  r->error = r->buf;
}


/* Read LEN bytes of FD at OFF into BUF, up to the end of the file.
   Returns the bytes read, or -1 with errno set.  */
static ssize_t
read_full (int fd, unsigned char *buf, size_t len, uint64_t off)
{
  size_t got = 0;

  while (got < len)
    {
      ssize_t n = pread (fd, buf + got, len - got, (off_t) (off + got));

      if (n < 0 && errno == EINTR)
	continue;
      if (n < 0)
	return -1;
      if (n == 0)
	break;
      got += (size_t) n;
    }
  return (ssize_t) got;
}

/* Read [OFF, OFF + LEN) of FD into the same place of IMAGE, a buffer of
   the file's SIZE; what lies past the end is left out.  */
static int
read_into (int fd, unsigned char *image, size_t size, uint64_t off,
	   uint64_t len)
{
  if (off >= size)
    return 0;
  if (len > size - off)
    len = size - off;
  return read_full (fd, image + off, (size_t) len, off) < 0 ? -1 : 0;
}

/* Read COUNT entries of ENT bytes at OFF into IMAGE, as far as the file
   goes.  */
static int
read_table (int fd, unsigned char *image, size_t size, uint64_t off,
	    uint64_t count, uint64_t ent)
{
  if (off >= size)
    return 0;
  return read_into (fd, image, size, off, count > (size - off) / ent
					  ? size - off : count * ent);
}

#define FIELD(h, p, hdr, field) ht_elf_get ((h), (p), HT_FIELD ((h), hdr, field))

/* Read into IMAGE, a buffer of the file's SIZE that holds zeros, the
   parts of FD that ht_elf_parse looks at: the ELF header, the program
   and section header tables and the section name table, each where the
   header's fields (read with the reader's own accessors) put it.
   Whether they make sense is for ht_elf_parse to judge.  Returns 0, or
   -1 with errno set after a read error.  */
static int
read_headers (int fd, unsigned char *image, size_t size)
{
  struct ht_elf h = { .data = image, .size = size };
  uint64_t phoff, shoff, phnum, shnum, shstrndx, phent, shent;

  if (read_into (fd, image, size, 0, sizeof (Elf64_Ehdr)) != 0)
    return -1;
  if (size < EI_NIDENT)
    return 0;
  h.elf_class = image[EI_CLASS] == ELFCLASS32 ? 32 : 64;
  h.big_endian = image[EI_DATA] == ELFDATA2MSB;
  if (size < (h.elf_class == 64 ? sizeof (Elf64_Ehdr)
			       : sizeof (Elf32_Ehdr)))
    return 0;
  phoff = FIELD (&h, image, Ehdr, e_phoff);
  phnum = FIELD (&h, image, Ehdr, e_phnum);
  shoff = FIELD (&h, image, Ehdr, e_shoff);
  shnum = FIELD (&h, image, Ehdr, e_shnum);
  shstrndx = FIELD (&h, image, Ehdr, e_shstrndx);
  /* The reader takes no other entry sizes.  */
  phent = h.elf_class == 64 ? sizeof (Elf64_Phdr) : sizeof (Elf32_Phdr);
  shent = h.elf_class == 64 ? sizeof (Elf64_Shdr) : sizeof (Elf32_Shdr);
  if (shoff != 0 && shoff < size && size - shoff >= shent)
    {
      /* Extended numbering keeps the real counts in section 0.  */
      const unsigned char *s0 = image + shoff;

      if (read_into (fd, image, size, shoff, shent) != 0)
	return -1;
      if (shnum == 0)
	shnum = FIELD (&h, s0, Shdr, sh_size);
      if (phnum == PN_XNUM)
	phnum = FIELD (&h, s0, Shdr, sh_info);
      if (shstrndx == SHN_XINDEX)
	shstrndx = FIELD (&h, s0, Shdr, sh_link);
    }
  if (read_table (fd, image, size, phoff, phnum, phent) != 0)
    return -1;
  if (shoff == 0 || shoff >= size)
    return 0;
  if (read_table (fd, image, size, shoff, shnum, shent) != 0)
    return -1;
  if (shstrndx != SHN_UNDEF && shstrndx < shnum
      && shstrndx < (size - shoff) / shent)
    {
      const unsigned char *t = image + shoff + shstrndx * shent;

      return read_into (fd, image, size, FIELD (&h, t, Shdr, sh_offset),
			FIELD (&h, t, Shdr, sh_size));
    }
  return 0;
}

#undef FIELD

/* Whether SEG is a code segment laid out for huge pages: file contents,
   and a start that rule `start` accepts (p_vaddr and p_offset multiples
   of H, p_align H).  */
static bool
laid_out (const struct ht_segment *seg)
{
  return seg->eligible && seg->ph->filesz != 0 && !seg->no_contents
	 && !(seg->problems & (HT_P_VADDR | HT_P_OFFSET | HT_P_ALIGN));
}

/* The laid-out code segment whose file range holds section S, or
   NULL.  */
static const struct ht_segment *
holding_segment (const struct ht_layout *l, const struct ht_shdr *s)
{
  for (size_t i = 0; i < l->nseg; i++)
    {
      const struct ht_phdr *ph = l->seg[i].ph;

      if (laid_out (&l->seg[i]) && s->offset >= ph->offset
	  && s->offset - ph->offset <= ph->filesz
	  && s->size <= ph->filesz - (s->offset - ph->offset))
	return &l->seg[i];
    }
  return NULL;
}

static bool
padding_section (const struct ht_layout *l, const struct ht_shdr *s)
{
  return ht_shdr_name_starts (s, HT_PADDING_SECTION_PREFIX)
	 && holding_segment (l, s) != NULL;
}

/* The parts of the file punch may punch, as whole blocks of BLOCK bytes,
   into OUT (normalized): the padding sections inside laid-out code
   segments, and the gap before each such segment, less what the ELF
   header, the header tables, any other section with file contents and
   (for the gap) any segment cover.  Returns how many laid-out code
   segments the file has, or -1 when out of memory.  */
static long
padding_blocks (const struct ht_layout *l, uint64_t block, struct spans *out)
{
  const struct ht_elf *elf = l->elf;
  struct spans gap = { 0 }, pad = { 0 }, keep_gap = { 0 }, keep_pad = { 0 };
  uint64_t ehdr = elf->elf_class == 64 ? sizeof (Elf64_Ehdr)
				       : sizeof (Elf32_Ehdr);
  long laid = 0;
  int rc = 0;

  /* What neither kind may touch.  */
  rc |= spans_add (&keep_gap, 0, ehdr);
  rc |= spans_add_len (&keep_gap, elf->phoff,
		       (uint64_t) elf->phnum * elf->phentsize);
  if (elf->shnum != 0)
    rc |= spans_add_len (&keep_gap, elf->shoff,
			 (uint64_t) elf->shnum * elf->shentsize);
  for (size_t i = 0; i < elf->shnum; i++)
    {
      const struct ht_shdr *s = &elf->shdrs[i];

      if (s->type == SHT_NULL || s->type == SHT_NOBITS || s->size == 0)
	continue;
      if (padding_section (l, s))
	rc |= spans_add_len (&pad, s->offset, s->size);
      else
	rc |= spans_add_len (&keep_gap, s->offset, s->size);
    }
  for (size_t k = 0; k < keep_gap.n; k++)
    rc |= spans_add (&keep_pad, keep_gap.s[k].start, keep_gap.s[k].end);

  /* What program headers point at (PT_NOTE, PT_INTERP and the like)
     stays, and so does each PT_LOAD for the gap; for the padding, only
     the code of a laid-out one.  */
  for (size_t i = 0; i < elf->phnum; i++)
    {
      const struct ht_phdr *ph = &elf->phdrs[i];

      if (ph->type == PT_LOAD)
	continue;
      rc |= spans_add_len (&keep_gap, ph->offset, ph->filesz);
      rc |= spans_add_len (&keep_pad, ph->offset, ph->filesz);
    }
  for (size_t k = 0; k < l->nseg; k++)
    {
      const struct ht_segment *seg = &l->seg[k];
      const struct ht_phdr *ph = seg->ph;

      rc |= spans_add_len (&keep_gap, ph->offset, ph->filesz);
      if (laid_out (seg))
	{
	  laid++;
	  rc |= spans_add (&gap, 0, ph->offset);
	  rc |= spans_add_len (&keep_pad, ph->offset,
			       seg->code_size < ph->filesz ? seg->code_size
							   : ph->filesz);
	}
      else
	rc |= spans_add_len (&keep_pad, ph->offset, ph->filesz);
    }

  spans_normalize (&keep_gap);
  spans_normalize (&keep_pad);
  for (size_t k = 0; k < gap.n; k++)
    rc |= spans_subtract (out, gap.s[k].start, gap.s[k].end, &keep_gap,
			  block);
  for (size_t k = 0; k < pad.n; k++)
    rc |= spans_subtract (out, pad.s[k].start, pad.s[k].end, &keep_pad,
			  block);
  spans_normalize (out);
  free (gap.s);
  free (pad.s);
  free (keep_gap.s);
  free (keep_pad.s);
  return rc != 0 ? -1 : laid;
}

static bool
all_zero (const unsigned char *p, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (p[i] != 0)
      return false;
  return true;
}

/* Read the blocks of [START, END) of FD, and append those that are all
   zeros to RUNS.  */
static int
scan_data (int fd, uint64_t start, uint64_t end, uint64_t block,
	   unsigned char *buf, size_t buflen, struct spans *runs,
	   struct punch_result *r)
{
  for (uint64_t off = start; off < end;)
    {
      size_t want = end - off < buflen ? (size_t) (end - off) : buflen;
      ssize_t got = read_full (fd, buf, want, off);

      if (got < 0)
	return -1;
      for (size_t b = 0; b + block <= (size_t) got; b += block)
	if (all_zero (buf + b, block))
	  {
	    if (spans_add (runs, off + b, off + b + block) != 0)
	      return -1;
	    r->zero += block;
	  }
	else
	  r->not_zero += block;
      if ((size_t) got < want)
	{
	  /* The file got shorter: what is left is not looked at.  */
	  r->not_zero += end - off - (uint64_t) got / block * block;
	  break;
	}
      off += want;
    }
  return 0;
}

/* Sort the blocks of SPAN: holes already (as SEEK_DATA says), zeros
   (into RUNS) and others.  */
static int
scan_span (int fd, const struct span *span, uint64_t block,
	   unsigned char *buf, size_t buflen, struct spans *runs,
	   struct punch_result *r)
{
  uint64_t from = span->start, to, done = span->start;
  int more;

  while ((more = ht_file_next_data (fd, &from, &to, span->end)) != 0)
    {
      /* Where the file system cannot tell, everything is data.  */
      if (more < 0)
	to = span->end;
      uint64_t a = from / block * block;
      uint64_t b = to > UINT64_MAX - block ? span->end
		   : (to + block - 1) / block * block;

      if (a < done)
	a = done;
      if (b > span->end)
	b = span->end;
      r->holes += a - done;
      if (scan_data (fd, a, b, block, buf, buflen, runs, r) != 0)
	return -1;
      done = from = b;
      if (more < 0 || b == span->end)
	break;
    }
  r->holes += span->end - done;
  return 0;
}

/* The block size to punch in: the file system's preferred I/O size,
   where it is a power of two of 512 or more; 4 KiB otherwise.  */
static uint64_t
block_size (const struct stat *st)
{
  uint64_t b = (uint64_t) st->st_blksize;

  return b >= 512 && ht_is_pow2 (b) ? b : 4096;
}

/* Record in R that ST is not a regular file, and what it is.  */
static void
not_regular (struct punch_result *r, const struct stat *st)
{
  r->status = tool_file_status (0);
  snprintf (r->buf, sizeof r->buf, "not a regular file (%s)",
	    ht_file_kind (st));
  r->error = r->buf;
}

/* Open PATH to read it, a regular file: anything else is refused before
   it is opened, a symbolic link with a note.  Returns the descriptor, or
   -1 with R saying why.  */
static int
open_read (const char *path, struct stat *st, struct punch_result *r)
{
  int flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
  int fd;

  if (lstat (path, st) != 0)
    {
      fail (r, tool_file_status (errno), "cannot open", errno);
      return -1;
    }
  if (S_ISLNK (st->st_mode))
    {
      struct stat target;
      int got = stat (path, &target);

      if (got == 0 && !S_ISREG (target.st_mode))
	{
	  snprintf (r->buf, sizeof r->buf, "a symbolic link to %s: "
		    "nothing to punch", ht_file_kind (&target));
	  r->note = r->buf;
	  return -1;
	}
      r->note = got == 0
		? "a symbolic link: not followed (punch the file it points "
		  "to)"
		: errno == ELOOP
		? "a symbolic link in a loop of symbolic links: nothing to "
		  "punch"
		: errno == EACCES || errno == EPERM
		? "a symbolic link: not followed (its target cannot be looked "
		  "at here: permission denied)"
		: "a symbolic link to nothing (its target is missing): "
		  "nothing to punch";
      return -1;
    }
  if (!S_ISREG (st->st_mode))
    {
      not_regular (r, st);
      return -1;
    }
  /* Reading leaves the access time alone where the kernel lets us.  */
  fd = open (path, flags | O_NOATIME);
  if (fd < 0 && errno == EPERM)
    fd = open (path, flags);
  if (fd < 0)
    {
      fail (r, tool_file_status (errno), "cannot open", errno);
      return -1;
    }
  if (fstat (fd, st) != 0)
    {
      fail (r, HT_EXIT_BAD_INPUT, "cannot open", errno);
      close (fd);
      return -1;
    }
  if (!S_ISREG (st->st_mode))
    {
      not_regular (r, st);
      close (fd);
      return -1;
    }
  /* Only headers and padding are read: no readahead into the text, whose
     small folios would then be in the way of hugetext warm.  */
  posix_fadvise (fd, 0, 0, POSIX_FADV_RANDOM);
  return fd;
}

/* Read the headers of FD (ST its status) with the project's ELF reader
   and put the blocks of its padding into BLOCKS (R->block their size).
   Returns how many code segments are laid out, or -1 having said in R
   why there is nothing to read.  */
static long
read_padding (int fd, const struct stat *st, uint64_t page_size,
	      struct punch_result *r, struct spans *blocks)
{
  unsigned char magic[SELFMAG];
  struct ht_layout_opts lopts = { .page_size = page_size, .min_size = 1,
				  .headers_only = true };
  struct ht_layout layout;
  struct ht_elf elf;
  char err[HT_ERRLEN];
  unsigned char *image;
  size_t size = (size_t) st->st_size;
  long laid;

  if (read_full (fd, magic, sizeof magic, 0) != (ssize_t) sizeof magic
      || memcmp (magic, ELFMAG, SELFMAG) != 0)
    {
      r->note = "not an ELF file: nothing to punch";
      return -1;
    }
  if ((uint64_t) st->st_size > SIZE_MAX)
    {
      fail (r, HT_EXIT_BAD_INPUT, "cannot read", EFBIG);
      return -1;
    }
  /* The reader takes the whole file as one buffer; only the headers are
     read into it.  An anonymous mapping that reserves nothing: the pages
     the headers do not fill are never touched.  */
  image = mmap (NULL, size, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (image == MAP_FAILED)
    {
      fail (r, HT_EXIT_BAD_INPUT, "cannot read", errno);
      return -1;
    }
  if (read_headers (fd, image, size) != 0)
    {
      fail (r, HT_EXIT_BAD_INPUT, "cannot read", errno);
      munmap (image, size);
      return -1;
    }
  if (ht_elf_parse (&elf, image, size, err) != 0)
    {
      r->status = HT_EXIT_BAD_INPUT;
      snprintf (r->buf, sizeof r->buf, "cannot read as ELF: %s", err);
      r->error = r->buf;
      munmap (image, size);
      return -1;
    }
  /* Any code segment that starts on an H boundary of its machine (the
     min size does not matter here: the padding does).  */
  if (ht_layout_check (&layout, &elf, &lopts, err) != 0)
    {
      r->status = HT_EXIT_BAD_INPUT;
      snprintf (r->buf, sizeof r->buf, "%s", err);
      r->error = r->buf;
      ht_elf_free (&elf);
      munmap (image, size);
      return -1;
    }
  r->block = block_size (st);
  r->h = layout.page_size;
  laid = padding_blocks (&layout, r->block, blocks);
  ht_layout_free (&layout);
  ht_elf_free (&elf);
  munmap (image, size);
  if (laid < 0)
    fail (r, HT_EXIT_BAD_INPUT, "cannot read", ENOMEM);
  return laid;
}

/* Find the blocks of FD's padding (ST its status) that read as zeros,
   into RUNS.  Returns 0 when there are some.  */
static int
find_runs (int fd, const struct stat *st, uint64_t page_size,
	   struct punch_result *r,
	   struct spans *runs)
{
  struct spans blocks = { 0 };
  unsigned char *buf = NULL;
  size_t buflen;
  long laid = read_padding (fd, st, page_size, r, &blocks);
  int rc = -1;

  buflen = r->block > SCAN_CHUNK ? (size_t) r->block : SCAN_CHUNK;
  if (laid > 0 && blocks.n > 0 && (buf = malloc (buflen)) == NULL)
    fail (r, HT_EXIT_BAD_INPUT, "cannot read", ENOMEM);
  else if (laid == 0)
    {
      char h[32];

      snprintf (r->buf, sizeof r->buf, "not laid out for huge pages of "
		"%s (no code segment aligned to that H; --page-size names "
		"another): nothing to punch", ht_format_size (r->h, h));
      r->note = r->buf;
    }
  else if (laid > 0)
    {
      rc = 0;
      for (size_t i = 0; rc == 0 && i < blocks.n; i++)
	{
	  r->padding += blocks.s[i].end - blocks.s[i].start;
	  rc = scan_span (fd, &blocks.s[i], r->block, buf, buflen, runs, r);
	}
      if (rc != 0)
	fail (r, HT_EXIT_BAD_INPUT, "cannot read", errno);
    }
  free (buf);
  free (blocks.s);
  return rc == 0 && runs->n > 0 ? 0 : -1;
}

/* Say in R why a laid-out file had no block to punch.  */
static void
nothing_to_punch (struct punch_result *r)
{
  char a[32], b[32];

  if (r->padding == 0)
    snprintf (r->buf, sizeof r->buf, "no whole block of padding: nothing "
	      "to punch");
  else if (r->not_zero == 0)
    snprintf (r->buf, sizeof r->buf, "nothing to punch: its padding is "
	      "holes already (%s)", ht_format_size (r->holes, a));
  else
    snprintf (r->buf, sizeof r->buf, "nothing to punch: %s of its padding "
	      "holes already, %s in blocks that are not zeros",
	      ht_format_size (r->holes, a), ht_format_size (r->not_zero, b));
  r->note = r->buf;
}

/* Set what fallocate would change to what it is already, so that a
   caller who could not set it back afterwards punches nothing (not the
   owner: the times; no CAP_SETFCAP: the capabilities).  ST is the
   file's status from before it was read: reading may have moved its
   access time.  */
static int
keep_prepare (int fd, const struct stat *st, struct kept *k,
	      struct punch_result *r)
{
  k->times[0] = st->st_atim;
  k->times[1] = st->st_mtim;
  k->mode = st->st_mode & 07777;
  k->caps_len = fgetxattr (fd, CAPS_XATTR, k->caps, sizeof k->caps);
  if (k->caps_len < 0 && errno != ENODATA && errno != ENOTSUP)
    {
      fail (r, tool_file_status (errno), "not punched: cannot read its file "
	    "capabilities, which punching clears", errno);
      return -1;
    }
  if (k->caps_len < 0)
    k->caps_len = 0;
  if (futimens (fd, k->times) != 0)
    {
      fail (r, tool_file_status (errno), "not punched: its modification time "
	    "could not be kept (only its owner can set it)", errno);
      return -1;
    }
  if (k->caps_len > 0
      && fsetxattr (fd, CAPS_XATTR, k->caps, (size_t) k->caps_len,
		    XATTR_REPLACE) != 0)
    {
      fail (r, tool_file_status (errno), "not punched: its file capabilities, "
	    "which punching clears, could not be set again", errno);
      return -1;
    }
  return 0;
}

/* Set back what fallocate changed: the capabilities, the mode, then the
   times, which the other two leave alone.  */
static void
keep_restore (int fd, const struct kept *k, struct punch_result *r)
{
  unsigned char caps[sizeof k->caps];
  struct stat st;
  ssize_t n;

  if (k->caps_len > 0)
    {
      n = fgetxattr (fd, CAPS_XATTR, caps, sizeof caps);
      if ((n != k->caps_len || memcmp (caps, k->caps, (size_t) n) != 0)
	  && fsetxattr (fd, CAPS_XATTR, k->caps, (size_t) k->caps_len, 0)
	     != 0)
	fail (r, HT_EXIT_PERMISSION, "punched, but its file capabilities, "
	      "which the kernel cleared, cannot be set again", errno);
    }
  if (fstat (fd, &st) == 0 && (st.st_mode & 07777) != k->mode)
    {
      /* chmod clears set-group-ID silently for an owner outside the
	 file's group: look again.  */
      int e = fchmod (fd, k->mode) != 0 ? errno : EPERM;

      if (fstat (fd, &st) != 0 || (st.st_mode & 07777) != k->mode)
	fail (r, HT_EXIT_PERMISSION, "punched, but its set-user-ID or "
	      "set-group-ID bit, which the kernel cleared, cannot be set "
	      "again", e);
    }
  if (futimens (fd, k->times) != 0)
    fail (r, tool_file_status (errno), "punched, but its modification time "
	  "cannot be set back", errno);
}

/* The name of the file system that holds FD, for a message, in BUF.  */
static const char *
fs_name (int fd, char buf[32])
{
  struct ht_fs_info info;
  struct statfs fs;

  if (fstatfs (fd, &fs) != 0)
    return "unknown";
  ht_fs_describe ((unsigned long) (uint32_t) fs.f_type, ht_kernel_version (),
		  HT_ASSUMED_H, 0, &info);
  if (strcmp (info.name, "unknown") != 0)
    return info.name;
  snprintf (buf, 32, "type 0x%lx", (unsigned long) (uint32_t) fs.f_type);
  return buf;
}

/* Punch RUNS of PATH (ST its status before it was read).  The file is
   opened for writing only now, and only for as long as it takes: while
   it is, an exec of it fails (ETXTBSY).  */
static void
punch_runs (const char *path, const struct stat *st,
	    const struct spans *runs, struct punch_result *r)
{
  struct stat now;
  struct kept k;
  char name[32];
  int fd = open (path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
			 | O_NOCTTY);

  if (fd < 0 && errno == ETXTBSY)
    {
      r->status = HT_EXIT_FAIL;
      r->error = "in use as a running program; punch it when it is not "
		 "running";
      return;
    }
  if (fd < 0)
    {
      fail (r, tool_file_status (errno), "cannot open for writing", errno);
      return;
    }
  if (fstat (fd, &now) != 0 || now.st_dev != st->st_dev
      || now.st_ino != st->st_ino)
    {
      r->status = HT_EXIT_BAD_INPUT;
      r->error = "replaced while it was read; nothing punched";
      close (fd);
      return;
    }
  if (keep_prepare (fd, st, &k, r) != 0)
    {
      close (fd);
      return;
    }
  for (size_t i = 0; i < runs->n; i++)
    {
      const struct span *s = &runs->s[i];

      if (fallocate (fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		     (off_t) s->start, (off_t) (s->end - s->start)) == 0)
	continue;
      if (errno == EOPNOTSUPP && i == 0)
	{
	  snprintf (r->buf, sizeof r->buf, "the file system (%s) cannot "
		    "punch holes: nothing done", fs_name (fd, name));
	  r->note = r->buf;
	}
      else
	fail (r, tool_file_status (errno), "cannot punch holes", errno);
      break;
    }
  keep_restore (fd, &k, r);
  if (r->note == NULL)
    {
      struct stat after;

      if (fstat (fd, &after) == 0 && after.st_blocks < now.st_blocks)
	r->freed = (uint64_t) (now.st_blocks - after.st_blocks) * 512;
    }
  close (fd);
}

/* Whether this process is in group GID.  */
static bool
in_group (gid_t gid)
{
  gid_t groups[256];
  int n;

  if (getegid () == gid)
    return true;
  n = getgroups ((int) (sizeof groups / sizeof groups[0]), groups);
  for (int i = 0; i < n; i++)
    if (groups[i] == gid)
      return true;
  return false;
}

/* Whether what punching changes of the file (FD, ST its status) can be
   set back by this process, decided before anything is changed: its
   times (only the owner, or CAP_FOWNER, sets them), its file
   capabilities (CAP_SETFCAP), and its set-user-ID and set-group-ID bits,
   which the kernel clears for a caller without CAP_FSETID and which only
   the owner sets again, the set-group-ID bit only as a member of the
   file's group.  Where one cannot, R says which: nothing is punched, and
   a dry run says the same.  */
static bool
keep_possible (int fd, const struct stat *st, struct punch_result *r)
{
  bool owner = geteuid () == st->st_uid || tool_capable (CAP_FOWNER);
  bool fsetid = tool_capable (CAP_FSETID);

  if (!owner)
    {
      fail (r, HT_EXIT_PERMISSION, "not punched: its modification time "
	    "could not be kept (only its owner can set it)", EPERM);
      return false;
    }
  if (fgetxattr (fd, CAPS_XATTR, NULL, 0) > 0 && !tool_capable (CAP_SETFCAP))
    {
      fail (r, HT_EXIT_PERMISSION, "not punched: its file capabilities, "
	    "which punching clears, could not be set again (that needs "
	    "CAP_SETFCAP)", EPERM);
      return false;
    }
  if (!fsetid && (st->st_mode & S_ISGID) && (st->st_mode & S_IXGRP)
      && !in_group (st->st_gid))
    {
      fail (r, HT_EXIT_PERMISSION, "not punched: its set-group-ID bit, "
	    "which punching clears, could not be set again (only a member "
	    "of its group, or CAP_FSETID, can)", EPERM);
      return false;
    }
  return true;
}

/* --dry-run: whether the punch could open PATH for writing, as
   punch_runs does; the open changes nothing, and is closed at once.  R
   gets what the punch would say where it could not.  */
static void
try_open_for_writing (const char *path, struct punch_result *r)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
			 | O_NOCTTY);

  if (fd >= 0)
    close (fd);
  else if (errno == ETXTBSY)
    {
      r->status = HT_EXIT_FAIL;
      r->error = "in use as a running program: a punch now would leave it "
		 "as it is; punch it when it is not running";
    }
  else
    fail (r, tool_file_status (errno), "cannot open for writing", errno);
}

/* Whether this process may write PATH at all, asked before whether it
   can keep what punching changes, so that a file it cannot open for
   writing is said to be that, not blamed on its times.  R says why
   where it may not.  */
static bool
may_write (const char *path, struct punch_result *r)
{
  /* A running program (ETXTBSY, where a kernel says so here) is for
     the open to report, as it does.  */
  if (faccessat (AT_FDCWD, path, W_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW)
      == 0 || errno == ETXTBSY)
    return true;
  fail (r, tool_file_status (errno), "cannot open for writing", errno);
  return false;
}

static void
punch_file (const char *path, const struct punch_opts *o,
	    struct punch_result *r)
{
  struct spans runs = { 0 };
  struct stat st;
  int fd;

  memset (r, 0, sizeof *r);
  r->path = path;
  fd = open_read (path, &st, r);
  if (fd < 0)
    return;
  if (find_runs (fd, &st, o->page_size, r, &runs) != 0)
    {
      if (r->error == NULL && r->note == NULL)
	nothing_to_punch (r);
    }
  else if (!may_write (path, r) || !keep_possible (fd, &st, r))
    ;
  else if (!o->dry_run)
    punch_runs (path, &st, &runs, r);
  else
    try_open_for_writing (path, r);
  close (fd);
  free (runs.s);
}

static void
report_text (const struct punch_result *r, const struct punch_opts *o)
{
  char a[32], b[32];

  if (r->error != NULL)
    {
      fflush (stdout);
      fprintf (stderr, "%s punch: %s: %s\n", ht_progname, r->path, r->error);
      return;
    }
  if (o->quiet)
    return;
  if (r->note != NULL)
    printf ("%s: %s\n", r->path, r->note);
  else
    {
      uint64_t n = o->dry_run ? r->zero : r->freed;

      printf ("%s: %s %" PRIu64 " bytes (%s) of zero padding", r->path,
	      o->dry_run ? "would free" : "freed", n, ht_format_size (n, a));
      if (r->not_zero != 0)
	printf ("; %s in blocks that are not zeros left as they are",
		ht_format_size (r->not_zero, b));
      putchar ('\n');
    }
}

static void
report_json (struct ht_json *j, const struct punch_result *r,
	     const struct punch_opts *o)
{
  ht_json_object (j, NULL);
  ht_json_str (j, "file", r->path);
  if (r->error != NULL)
    ht_json_str (j, "error", r->error);
  if (r->note != NULL)
    ht_json_str (j, "note", r->note);
  ht_json_bool (j, "dry_run", o->dry_run);
  ht_json_u64 (j, "block_size", r->block);
  ht_json_u64 (j, "padding", r->padding);
  ht_json_u64 (j, "holes", r->holes);
  ht_json_u64 (j, "zero", r->zero);
  ht_json_u64 (j, "not_zero", r->not_zero);
  ht_json_u64 (j, "freed", r->freed);
  ht_json_u64 (j, "status", (uint64_t) r->status);
  ht_json_end_object (j);
}

/* Punch file I of the command line and report it.  */
struct punch_each
{
  char **files;
  const struct punch_opts *o;
};

static int
punch_one (void *ctx, size_t i, struct ht_json *j)
{
  const struct punch_each *e = ctx;
  struct punch_result r;

  punch_file (e->files[i], e->o, &r);
  if (j != NULL)
    report_json (j, &r, e->o);
  else
    report_text (&r, e->o);
  return r.status;
}

int
cmd_punch (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "dry-run", no_argument, NULL, 'n' },
    { "quiet", no_argument, NULL, 'q' },
    TOOL_OPTION_PAGE_SIZE,
    TOOL_OPTION_JSON,
    TOOL_OPTION_HELP,
    { NULL, 0, NULL, 0 },
  };
  struct punch_opts o = { false, false, false, 0 };
  int c;

  optind = 1;
  while ((c = getopt_long (argc, argv, "qh", longopts, NULL)) != -1)
    switch (c)
      {
      case 'n': o.dry_run = true; break;
      case 'q': o.quiet = true; break;
      case 'j': o.json = true; break;
      case 'p':
	if (tool_parse_size ("punch", "--page-size", optarg, true,
			     &o.page_size) != 0)
	  return HT_EXIT_BAD_INPUT;
	break;
      case 'h': punch_usage (stdout); return HT_EXIT_OK;
      default: punch_usage (stderr); return HT_EXIT_BAD_INPUT;
      }
  if (optind >= argc)
    {
      fprintf (stderr, "%s punch: no FILE given\n", ht_progname);
      punch_usage (stderr);
      return HT_EXIT_BAD_INPUT;
    }
  struct punch_each e = { argv + optind, &o };

  return tool_each_file ((size_t) (argc - optind), o.json, punch_one, &e);
}
