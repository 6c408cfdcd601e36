/* The kernel matrix's read-around probe: what a fault in a mapping of part
   of a data file reads of the file.

     readaround FILE [exec|other|munmap|mprotect|nohuge]

   Maps 4 MiB of FILE (at least 12 MiB long), from 4 MiB on, read-only,
   reads the page at 6 MiB, and prints

     READAROUND exec=E cached=C window=W

   E: 1 where the whole file was first mapped executable (not touched)
   through the same open file, as ld.so maps a library's segments; "other"
   where it was mapped executable through another open of the file, as
   another process (or an Android app's linker, beside the open that reads
   its APK) would; "munmap", "mprotect" and "nohuge" where it was mapped
   executable through the same open file and that mapping was then
   unmapped, made read-only (mprotect) or advised MADV_NOHUGEPAGE, each of
   which ends what the executable mapping did to the file's readahead;
   else 0.  C: KiB of FILE in the page cache
   afterwards (mincore over a mapping of the whole file); W: the KiB a
   read-around window of the file's device spans (read_ahead_kb, from
   /sys/class/bdi/MAJOR:MINOR).  The page cache must hold nothing of FILE
   before.  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "pagecache.h"

#define MIB (1024UL * 1024)

int
main (int argc, char **argv)
{
  long page = sysconf (_SC_PAGESIZE);
  const char *how = argc > 2 ? argv[2] : "";
  int other = strcmp (how, "other") == 0;
  int undo = strcmp (how, "munmap") == 0 || strcmp (how, "mprotect") == 0
	     || strcmp (how, "nohuge") == 0;
  int exec = strcmp (how, "exec") == 0 || undo;
  unsigned long cached = 0, pages;
  unsigned char *vec;
  struct stat st;
  char *whole, *part, *text = MAP_FAILED;
  int fd, xfd;

  if (argc < 2 || (fd = open (argv[1], O_RDONLY)) < 0
      || fstat (fd, &st) != 0 || (unsigned long) st.st_size < 12 * MIB)
    {
      puts ("READAROUND error=no-file-of-12-MiB");
      return 2;
    }
  xfd = other ? open (argv[1], O_RDONLY) : fd;
  if ((exec || other)
      && (xfd < 0
	  || (text = mmap (NULL, (size_t) st.st_size, PROT_READ | PROT_EXEC,
			   MAP_PRIVATE, xfd, 0)) == MAP_FAILED))
    {
      puts ("READAROUND error=cannot-map-exec");
      return 2;
    }
  if (undo
      && (strcmp (how, "munmap") == 0 ? munmap (text, (size_t) st.st_size)
	  : strcmp (how, "mprotect") == 0
	  ? mprotect (text, (size_t) st.st_size, PROT_READ)
	  : madvise (text, (size_t) st.st_size, MADV_NOHUGEPAGE)) != 0)
    {
      printf ("READAROUND error=cannot-%s\n", how);
      return 2;
    }
  part = mmap (NULL, 4 * MIB, PROT_READ, MAP_PRIVATE, fd, 4 * MIB);
  whole = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  pages = ((unsigned long) st.st_size + page - 1) / page;
  vec = malloc (pages);
  if (part == MAP_FAILED || whole == MAP_FAILED || vec == NULL)
    {
      puts ("READAROUND error=cannot-map");
      return 2;
    }
  (void) *(volatile char *) (part + 2 * MIB);
  if (mincore (whole, (size_t) st.st_size, vec) != 0)
    {
      puts ("READAROUND error=mincore");
      return 2;
    }
  for (unsigned long i = 0; i < pages; i++)
    cached += vec[i] & 1;
  printf ("READAROUND exec=%s cached=%lu window=%ld\n",
	  other || undo ? how : exec ? "1" : "0",
	  cached * (unsigned long) page / 1024, read_ahead_kb (&st));
  return 0;
}
