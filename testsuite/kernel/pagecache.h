/* What the page cache holds behind a mapping, for the kernel matrix's
   programs (probe.c, readaround.c, fsfolios.c): the bytes of a range
   that smaps reports PMD-mapped, the kernel's PMD size, the sizes of the
   folios behind a range's pages (/proc/self/pagemap and
   /proc/kpageflags: root only) and the read-around window of a file's
   device.  Each program includes it once.  */

#ifndef HUGETEXT_PAGECACHE_H
#define HUGETEXT_PAGECACHE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* kpageflags bits (include/uapi/linux/kernel-page-flags.h).  */
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define PM_PFN_MASK ((1ULL << 55) - 1)
#define PM_PRESENT (1ULL << 63)
/* A folio is at most this many pages (MAX_PAGE_ORDER is below 16).  */
#define MAX_FOLIO_PAGES (1UL << 16)
#define MAX_SIZES 32

/* Bytes of [START, END) that smaps reports PMD-mapped.  */
static inline unsigned long
pmd_mapped (unsigned long start, unsigned long end)
{
  unsigned long pmd = 0, lo, hi, off, kb;
  char line[512];
  FILE *f = fopen ("/proc/self/smaps", "r");
  int in = 0;

  if (f == NULL)
    return 0;
  while (fgets (line, sizeof line, f))
    {
      if (sscanf (line, "%lx-%lx %*s %lx", &lo, &hi, &off) == 3
	  && strchr (line, '-') < strchr (line, ' '))
	in = lo < end && hi > start;
      else if (in && (sscanf (line, "FilePmdMapped: %lu kB", &kb) == 1
		      || sscanf (line, "ShmemPmdMapped: %lu kB", &kb) == 1))
	pmd += kb * 1024;
    }
  fclose (f);
  return pmd;
}

/* The kernel's PMD size in bytes, or 0 where it does not say.  */
static inline unsigned long
pmd_size (void)
{
  unsigned long h = 0;
  FILE *f = fopen ("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "r");

  if (f == NULL)
    return 0;
  if (fscanf (f, "%lu", &h) != 1)
    h = 0;
  fclose (f);
  return h;
}

/* The 64-bit entry at index I of the table file FD, in *V.  */
static inline int
entry (int fd, uint64_t i, uint64_t *v)
{
  return pread (fd, v, sizeof *v, (off_t) (i * sizeof *v)) == sizeof *v;
}

struct folios
{
  unsigned long size[MAX_SIZES], count[MAX_SIZES];
  int n;
};

/* The folios behind the pages of [START, END) that are in memory: their
   sizes into *F.  Returns the largest, in bytes, or -1 where pagemap or
   kpageflags give nothing (not root: the PFNs read as 0).  */
static inline long
largest_folio (unsigned long start, unsigned long end, unsigned long page,
	       struct folios *f)
{
  int pm = open ("/proc/self/pagemap", O_RDONLY);
  int kf = open ("/proc/kpageflags", O_RDONLY);
  uint64_t e, flags, pfn, head = 0, pages = 0;
  long largest = -1;

  f->n = 0;
  for (unsigned long a = start; pm >= 0 && kf >= 0 && a < end; a += page)
    {
      if (!entry (pm, a / page, &e) || !(e & PM_PRESENT)
	  || (pfn = e & PM_PFN_MASK) == 0)
	continue;
      if (pfn >= head && pfn < head + pages)
	continue;		/* In the folio seen last.  */
      /* Back over the tail pages to the head, then forward over the
	 head's tails.  */
      head = pfn;
      while (entry (kf, head, &flags) && (flags >> KPF_COMPOUND_TAIL & 1)
	     && head > 0 && pfn - head < MAX_FOLIO_PAGES)
	head--;
      pages = 1;
      if (entry (kf, head, &flags) && (flags >> KPF_COMPOUND_HEAD & 1))
	while (pages < MAX_FOLIO_PAGES && entry (kf, head + pages, &flags)
	       && (flags >> KPF_COMPOUND_TAIL & 1))
	  pages++;
      else
	head = pfn;		/* A page of its own.  */
      unsigned long size = pages * page;
      int i = 0;
      while (i < f->n && f->size[i] != size)
	i++;
      if (i == f->n && f->n < MAX_SIZES)
	{
	  f->size[f->n] = size;
	  f->count[f->n++] = 0;
	}
      if (i < f->n)
	f->count[i]++;
      if ((long) size > largest)
	largest = (long) size;
    }
  if (pm >= 0)
    close (pm);
  if (kf >= 0)
    close (kf);
  return largest;
}

/* The sizes of *F as SIZE:COUNT,..., largest first ("-": none).  */
static inline void
print_sizes (struct folios *f)
{
  if (f->n == 0)
    putchar ('-');
  for (int done = 0; done < f->n; done++)
    {
      int max = 0;
      for (int i = 1; i < f->n; i++)
	if (f->size[i] > f->size[max])
	  max = i;
      printf ("%s%lu:%lu", done ? "," : "", f->size[max], f->count[max]);
      f->size[max] = 0;
    }
}

/* " folio=F folios=LIST", the sizes largest first.  */
static inline void
print_folios (long largest, struct folios *f)
{
  printf (" folio=%ld folios=", largest);
  print_sizes (f);
}

/* The read_ahead_kb of the device that holds ST's file, or -1.  */
static inline long
read_ahead_kb (const struct stat *st)
{
  char path[96];
  long kb = -1;
  FILE *f;

  snprintf (path, sizeof path, "/sys/class/bdi/%u:%u/read_ahead_kb",
	    major (st->st_dev), minor (st->st_dev));
  f = fopen (path, "r");
  if (f == NULL)
    return -1;
  if (fscanf (f, "%ld", &kb) != 1)
    kb = -1;
  fclose (f);
  return kb;
}

#endif
