/* The kernel matrix's folio probe: what readahead of a MADV_HUGEPAGE
   mapping puts in a filesystem's page cache on the running kernel, to be
   held against what lib/filesystems.def says of that filesystem and
   kernel (tables/filesystems.py's readahead_folio).

     fsfolios FILE

   Drops FILE from the page cache (fdatasync, POSIX_FADV_DONTNEED) and
   checks that nothing of it is left there (mincore), maps all of it
   read-only at an address aligned to the kernel's PMD size H, advises
   the mapping MADV_HUGEPAGE, as hugetext warm does, reads one byte of
   each page, and prints

     FOLIOS largest=F folios=LIST pmd=P h=H ra=KB size=S

   F: the bytes of the largest folio behind the mapping, from
   /proc/self/pagemap and /proc/kpageflags (-1 where they give no page
   frames: not root); LIST: every folio size seen and how many of it,
   largest first; P: bytes of the mapping that smaps reports PMD-mapped;
   KB: the read_ahead_kb of FILE's device (-1 where it has none); S:
   FILE's size.  Or "FOLIOS error=..." and exit status 2.  The same
   program runs in the guests of the kernel matrix (run-cell folios) and
   on the host (testsuite/lit/kernel/host-folios.test).  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pagecache.h"

int
main (int argc, char **argv)
{
  unsigned long page = (unsigned long) sysconf (_SC_PAGESIZE);
  unsigned long h = pmd_size (), size, pages, cached = 0, start;
  volatile unsigned long sum = 0;
  struct folios folios;
  unsigned char *vec;
  struct stat st;
  char *whole, *area;
  long largest;
  int fd;

  if (argc != 2 || (fd = open (argv[1], O_RDONLY)) < 0
      || fstat (fd, &st) != 0 || st.st_size == 0)
    {
      puts ("FOLIOS error=no-file");
      return 2;
    }
  if (h == 0)
    {
      puts ("FOLIOS error=no-hpage-pmd-size");
      return 2;
    }
  size = (unsigned long) st.st_size;
  pages = (size + page - 1) / page;
  /* A cold start: what is in the page cache now did not come from this
     readahead.  */
  fdatasync (fd);
  posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);
  whole = mmap (NULL, size, PROT_READ, MAP_SHARED, fd, 0);
  vec = malloc (pages);
  if (whole == MAP_FAILED || vec == NULL || mincore (whole, size, vec) != 0)
    {
      puts ("FOLIOS error=mincore");
      return 2;
    }
  for (unsigned long i = 0; i < pages; i++)
    cached += vec[i] & 1;
  munmap (whole, size);
  if (cached)
    {
      printf ("FOLIOS error=cached: %lu of %lu pages still in the page "
	      "cache\n", cached, pages);
      return 2;
    }
  /* An address aligned to H, so that a folio of H can be PMD-mapped.  */
  area = mmap (NULL, size + h, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (area == MAP_FAILED)
    {
      puts ("FOLIOS error=cannot-reserve");
      return 2;
    }
  start = ((unsigned long) area + h - 1) & ~(h - 1);
  if (mmap ((void *) start, size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0)
      == MAP_FAILED)
    {
      puts ("FOLIOS error=cannot-map");
      return 2;
    }
  if (madvise ((void *) start, size, MADV_HUGEPAGE) != 0)
    {
      puts ("FOLIOS error=madvise-hugepage");
      return 2;
    }
  for (unsigned long a = start; a < start + size; a += page)
    sum += *(volatile unsigned char *) a;
  largest = largest_folio (start, start + size, page, &folios);
  printf ("FOLIOS largest=%ld folios=", largest);
  print_sizes (&folios);
  printf (" pmd=%lu h=%lu ra=%ld size=%lu\n", pmd_mapped (start, start + size),
	  h, read_ahead_kb (&st), size);
  return 0;
}
