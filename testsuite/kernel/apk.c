/* The kernel matrix's model of an Android app's launch: a shared library
   stored uncompressed inside a larger archive file (as an APK holds its
   .so), mapped from there by a loader of its own, then the rest of the
   archive read through another open of it.

     apk ARCHIVE OFFSET random|congruent [advise]

   The library's ELF file starts at byte OFFSET of ARCHIVE (a multiple of
   the page size).  The loader opens ARCHIVE, reads the library's ELF
   and program headers there (pread), reserves its extent aligned to its
   largest p_align, as Android's linker does ("random": at the address
   mmap gives, random under ASLR), or at an address where its code
   segment is congruent with the archive modulo the PMD size
   ("congruent": the launch in which chance puts it there), and maps each
   PT_LOAD segment from the archive with its protections.  With
   "advise", it then advises the code segment's whole PMD-size ranges
   MADV_HUGEPAGE and the other segments MADV_RANDOM before anything
   touches them: what a loader could do without the kernel's help.  Its
   "relocation" reads every page of the segments that are not code, its
   "run" every page of the code segment.  Then the app reads the archive
   before and after the library through another open, 64 KiB at a time,
   as it reads its dex and resources.  Prints

     APK congruent=C pmd_kb=P so_kb=S load_kb=L outside_kb=O read_kb=R
         majflt=M load_ms=A app_ms=B load_ios=I app_ios=J ra_kb=W

   (one line) C: 1 where the code segment is congruent with the archive
   modulo the PMD size; P: KiB of it mapped with PMDs; S: the library's
   size; L: KiB of the archive in the page cache after the library's
   load and run (mincore), O: those outside the library's bytes; R: KiB
   read from disk by the launch (pgpgin of /proc/vmstat, the system's:
   run it alone); M: its major faults; A and B: the wall time in
   milliseconds of the load and run, and of the app's reads; I and J:
   the read requests the archive's disk completed meanwhile (its
   /sys/dev/block/MAJOR:MINOR/stat); W: the disk's read_ahead_kb.  The
   page cache must hold nothing of ARCHIVE before.  */

#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pagecache.h"

#define MAX_PHDRS 16
#define CHUNK (64 * 1024)

static int
fail (const char *what)
{
  printf ("APK error=%s\n", what);
  return 2;
}

/* pgpgin of /proc/vmstat: KiB read from block devices since boot.  */
static unsigned long
pgpgin (void)
{
  unsigned long v = 0;
  char name[64];
  FILE *f = fopen ("/proc/vmstat", "r");

  while (f != NULL && fscanf (f, "%63s %lu", name, &v) == 2)
    if (strcmp (name, "pgpgin") == 0)
      break;
  if (f != NULL)
    fclose (f);
  return v;
}

/* Milliseconds since *T0, and *T0 now.  */
static long
lap_ms (struct timespec *t0)
{
  struct timespec t1;
  long ms;

  clock_gettime (CLOCK_MONOTONIC, &t1);
  ms = (t1.tv_sec - t0->tv_sec) * 1000
       + (t1.tv_nsec - t0->tv_nsec) / 1000000;
  *t0 = t1;
  return ms;
}

/* Read requests completed by the disk of ST since the last call (the
   first field of its stat file), or -1 where it cannot be read.  */
static long
ios (const struct stat *st, unsigned long *last)
{
  char path[64];
  unsigned long n;
  long d;
  FILE *f;

  snprintf (path, sizeof path, "/sys/dev/block/%u:%u/stat",
	    major (st->st_dev), minor (st->st_dev));
  if ((f = fopen (path, "r")) == NULL)
    return -1;
  if (fscanf (f, "%lu", &n) != 1)
    n = *last;
  fclose (f);
  d = (long) (n - *last);
  *last = n;
  return d;
}

/* Read [FROM, TO) of the file FD, at most CHUNK bytes a read.  */
static int
read_range (int fd, off_t from, off_t to)
{
  static char buf[CHUNK];

  for (off_t at = from; at < to; at += CHUNK)
    if (pread (fd, buf, to - at < CHUNK ? (size_t) (to - at) : CHUNK, at)
	< 0)
      return -1;
  return 0;
}

/* Bytes of the file of SIZE bytes mapped at WHOLE in the page cache,
   those of [SO_START, SO_END) counted in *INSIDE.  */
static unsigned long
in_cache (const char *whole, unsigned long size, long page,
	  unsigned long so_start, unsigned long so_end, unsigned long *inside)
{
  unsigned long pages = (size + page - 1) / page, n = 0;
  unsigned char *vec = malloc (pages);

  *inside = 0;
  if (vec == NULL || mincore ((void *) whole, size, vec) != 0)
    {
      free (vec);
      return 0;
    }
  for (unsigned long i = 0; i < pages; i++)
    if (vec[i] & 1)
      {
	unsigned long at = i * page;

	n += page;
	if (at >= so_start && at < so_end)
	  *inside += page;
      }
  free (vec);
  return n;
}

static int
prot_of (const ElfW(Phdr) *p)
{
  return ((p->p_flags & PF_R) ? PROT_READ : 0)
	 | ((p->p_flags & PF_W) ? PROT_WRITE : 0)
	 | ((p->p_flags & PF_X) ? PROT_EXEC : 0);
}

/* With "advise": the whole PMD-size ranges of the code segment TEXT
   MADV_HUGEPAGE, every other segment of PHDR[PHNUM] at BASE MADV_RANDOM.  */
static int
advise (const ElfW(Phdr) *phdr, int phnum, const ElfW(Phdr) *text,
	unsigned long base, unsigned long h, long page)
{
  for (int i = 0; i < phnum; i++)
    {
      const ElfW(Phdr) *p = &phdr[i];
      unsigned long start = base + p->p_vaddr, end = start + p->p_memsz;
      int advice = MADV_RANDOM;

      if (p->p_type != PT_LOAD)
	continue;
      if (p == text)
	{
	  start = (start + h - 1) & ~(h - 1);
	  end &= ~(h - 1);
	  advice = MADV_HUGEPAGE;
	}
      else
	{
	  start &= ~(page - 1UL);
	  end = (end + page - 1) & ~(page - 1UL);
	}
      if (end > start && madvise ((void *) start, end - start, advice) != 0)
	return -1;
    }
  return 0;
}

/* The library in the archive, as the loader sees it.  */
struct library
{
  int fd;			/* The loader's open of the archive.  */
  struct stat st;		/* The archive's.  */
  off_t offset;			/* Where the library's ELF file starts.  */
  ElfW(Ehdr) ehdr;
  ElfW(Phdr) phdr[MAX_PHDRS];
  const ElfW(Phdr) *text;	/* The code segment.  */
  unsigned long hi;		/* The end of its extent, page-aligned.  */
  unsigned long align;		/* Its largest p_align.  */
  unsigned long so_size;	/* Its bytes in the archive.  */
  unsigned long base;		/* Where it is loaded.  */
};

/* The loader's open of ARCHIVE, which must hold L->offset.  Returns
   NULL, or what went wrong.  */
static const char *
open_archive (struct library *l, const char *archive, long page)
{
  if ((l->fd = open (archive, O_RDONLY)) < 0 || fstat (l->fd, &l->st) != 0
      || l->offset % page != 0 || l->offset >= l->st.st_size)
    return "no-archive-or-bad-offset";
  return NULL;
}

/* Read the headers of the library at L->offset of the archive, its
   extent and its code segment.  Returns NULL, or what went wrong.  */
static const char *
read_library (struct library *l, long page)
{
  unsigned long lo = ~0UL;

  if (pread (l->fd, &l->ehdr, sizeof l->ehdr, l->offset) != sizeof l->ehdr
      || memcmp (l->ehdr.e_ident, ELFMAG, SELFMAG) != 0
      || l->ehdr.e_phentsize != sizeof (ElfW(Phdr))
      || l->ehdr.e_phnum > MAX_PHDRS
      || pread (l->fd, l->phdr, l->ehdr.e_phnum * sizeof (ElfW(Phdr)),
		l->offset + (off_t) l->ehdr.e_phoff)
	 != (ssize_t) (l->ehdr.e_phnum * sizeof (ElfW(Phdr))))
    return "no-elf-file-at-offset";
  l->align = (unsigned long) page;
  for (int i = 0; i < l->ehdr.e_phnum; i++)
    {
      const ElfW(Phdr) *p = &l->phdr[i];

      if (p->p_type != PT_LOAD)
	continue;
      if (p->p_vaddr < lo)
	lo = p->p_vaddr & ~(page - 1UL);
      if (p->p_vaddr + p->p_memsz > l->hi)
	l->hi = p->p_vaddr + p->p_memsz;
      if (p->p_align > l->align)
	l->align = p->p_align;
      if (p->p_offset + p->p_filesz > l->so_size)
	l->so_size = p->p_offset + p->p_filesz;
      if ((p->p_flags & PF_X) && l->text == NULL)
	l->text = p;
    }
  if (l->text == NULL)
    return "no-code-segment";
  if (lo != 0)
    return "first-segment-not-at-address-0";
  l->hi = (l->hi + page - 1) & ~(page - 1UL);
  return NULL;
}

/* Reserve L's extent, aligned to its p_align, or to H at the congruent
   place (CONGRUENT): base + text's address = offset + text's offset
   modulo H; then map each segment from the archive, its bss beyond the
   file's bytes anonymous, as loaders map them.  Returns NULL, or what
   went wrong.  */
static const char *
map_library (struct library *l, int congruent, unsigned long h, long page)
{
  unsigned long align = congruent && l->align < h ? h : l->align;
  char *reserved = mmap (NULL, l->hi + 2 * align, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

  if (reserved == MAP_FAILED)
    return "cannot-reserve";
  l->base = ((unsigned long) reserved + align - 1) & ~(align - 1);
  if (congruent)
    l->base += (l->offset + l->text->p_offset - l->text->p_vaddr) % h;
  for (int i = 0; i < l->ehdr.e_phnum; i++)
    {
      const ElfW(Phdr) *p = &l->phdr[i];
      unsigned long start = l->base + (p->p_vaddr & ~(page - 1UL));
      unsigned long file_end = l->base + p->p_vaddr + p->p_filesz;
      unsigned long mapped = (file_end + page - 1) & ~(page - 1UL);
      unsigned long end = l->base + p->p_vaddr + p->p_memsz;
      off_t in_file = l->offset + (off_t) (p->p_offset & ~(page - 1UL));

      if (p->p_type != PT_LOAD)
	continue;
      end = (end + page - 1) & ~(page - 1UL);
      if ((mapped > start
	   && mmap ((void *) start, mapped - start, prot_of (p),
		    MAP_PRIVATE | MAP_FIXED, l->fd, in_file) == MAP_FAILED)
	  || (end > mapped
	      && mmap ((void *) mapped, end - mapped, prot_of (p),
		       MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0)
		 == MAP_FAILED))
	return "cannot-map-segment";
    }
  return NULL;
}

/* The partial pages of bss zeroed, as loaders do, then relocation reads
   the other segments of L, then the code runs.  */
static void
run_library (const struct library *l, long page)
{
  for (int i = 0; i < l->ehdr.e_phnum; i++)
    {
      const ElfW(Phdr) *p = &l->phdr[i];
      unsigned long file_end = l->base + p->p_vaddr + p->p_filesz;
      unsigned long mapped = (file_end + page - 1) & ~(page - 1UL);

      if (p->p_type == PT_LOAD && (p->p_flags & PF_W)
	  && p->p_memsz > p->p_filesz)
	memset ((void *) file_end, 0, mapped - file_end);
    }
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < l->ehdr.e_phnum; i++)
      {
	const ElfW(Phdr) *p = &l->phdr[i];
	unsigned long start = l->base + p->p_vaddr;
	unsigned long end = start + p->p_filesz;

	if (p->p_type != PT_LOAD || (pass == 0) != (p != l->text))
	  continue;
	for (unsigned long at = start & ~(page - 1UL); at < end; at += page)
	  (void) *(volatile const char *) (at < start ? start : at);
      }
}

int
main (int argc, char **argv)
{
  long page = sysconf (_SC_PAGESIZE);
  unsigned long h = pmd_size (), in0 = pgpgin ();
  unsigned long cached, inside, text_start, text_end, io_count = 0;
  struct library l = { .fd = -1 };
  struct timespec t0;
  struct rusage ru0, ru;
  const char *error;
  char *whole;
  long load_ms, load_ios;
  int other, look, congruent;

  clock_gettime (CLOCK_MONOTONIC, &t0);
  getrusage (RUSAGE_SELF, &ru0);
  if ((argc != 4 && argc != 5)
      || (strcmp (argv[3], "random") != 0
	  && strcmp (argv[3], "congruent") != 0)
      || (argc == 5 && strcmp (argv[4], "advise") != 0))
    return fail ("usage:apk-ARCHIVE-OFFSET-random|congruent-[advise]");
  congruent = strcmp (argv[3], "congruent") == 0;
  l.offset = (off_t) strtoul (argv[2], NULL, 0);
  if (h == 0)
    return fail ("no-hpage-pmd-size");
  if ((error = open_archive (&l, argv[1], page)) != NULL)
    return fail (error);
  /* The load's reads count from here, its headers' too.  */
  ios (&l.st, &io_count);
  if ((error = read_library (&l, page)) != NULL)
    return fail (error);
  if ((error = map_library (&l, congruent, h, page)) != NULL)
    return fail (error);
  if (argc == 5 && advise (l.phdr, l.ehdr.e_phnum, l.text, l.base, h, page))
    return fail ("cannot-advise");
  run_library (&l, page);
  load_ms = lap_ms (&t0);
  load_ios = ios (&l.st, &io_count);
  text_start = l.base + l.text->p_vaddr;
  text_end = text_start + l.text->p_memsz;

  /* What the page cache holds of the archive, seen through an open of
     its own (mincore: no fault, nothing read).  */
  if ((look = open (argv[1], O_RDONLY)) < 0
      || (whole = mmap (NULL, (size_t) l.st.st_size, PROT_READ, MAP_SHARED,
			look, 0)) == MAP_FAILED)
    return fail ("cannot-map-archive");
  cached = in_cache (whole, (unsigned long) l.st.st_size, page,
		     (unsigned long) l.offset,
		     (unsigned long) l.offset + l.so_size, &inside);

  /* The app reads the rest of the archive through its own open.  */
  lap_ms (&t0);
  if ((other = open (argv[1], O_RDONLY)) < 0
      || read_range (other, 0, l.offset) != 0
      || read_range (other, l.offset + (off_t) l.so_size, l.st.st_size) != 0)
    return fail ("cannot-read-archive");
  getrusage (RUSAGE_SELF, &ru);
  printf ("APK congruent=%d pmd_kb=%lu so_kb=%lu load_kb=%lu outside_kb=%lu "
	  "read_kb=%lu majflt=%ld load_ms=%ld app_ms=%ld load_ios=%ld "
	  "app_ios=%ld ra_kb=%ld\n",
	  (text_start - (l.offset + l.text->p_offset)) % h == 0,
	  pmd_mapped (text_start, text_end) / 1024, l.so_size / 1024,
	  cached / 1024, (cached - inside) / 1024, pgpgin () - in0,
	  ru.ru_majflt - ru0.ru_majflt, load_ms, lap_ms (&t0), load_ios,
	  ios (&l.st, &io_count), read_ahead_kb (&l.st));
  return 0;
}
