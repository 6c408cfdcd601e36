/* The kernel matrix's memory fragmenter: free memory in pieces that no
   PMD-size folio fits in, as on a machine that has run for long.

     fragment [KEEP_FREE_MIB]

   Allocates anonymous memory in base pages (MADV_NOHUGEPAGE) until
   MemFree is below KEEP_FREE_MIB (64 unless given: above the
   watermarks, so that nothing is killed for it), then keeps one page
   locked in each PMD-size block of physical memory it got
   (/proc/self/pagemap, root only) and frees the rest.  With
   /proc/sys/vm/compact_unevictable_allowed at 0, which run-cell sets,
   compaction cannot move the locked pages, so no block it touched can
   become a free PMD-size folio.  The free blocks it did not touch (the
   KEEP_FREE_MIB left, /proc/buddyinfo) it then takes whole, as huge
   pages of MADV_HUGEPAGE memory, until none is left or none more comes.
   Prints

     FRAGMENT free_kb=F blocks=B taken=T left=L

   once ready (F: MemFree then; B: the blocks pinned; T: the blocks
   taken whole; L: free blocks of PMD size left), then waits until it is
   killed, holding them.  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pagecache.h"

#define CHUNK (2UL << 20)

static long
mem_free_kb (void)
{
  FILE *f = fopen ("/proc/meminfo", "r");
  char line[128];
  long kb = -1;

  while (f && fgets (line, sizeof line, f))
    if (sscanf (line, "MemFree: %ld kB", &kb) == 1)
      break;
  if (f)
    fclose (f);
  return kb;
}

/* Free blocks of 2^ORDER pages or more, in blocks of 2^ORDER pages
   (/proc/buddyinfo: "Node 0, zone Normal N0 N1 ...").  */
static unsigned long
free_blocks (unsigned order)
{
  FILE *f = fopen ("/proc/buddyinfo", "r");
  char line[512];
  unsigned long n = 0;

  while (f && fgets (line, sizeof line, f))
    {
      char *p = strstr (line, "zone");
      unsigned long count;
      int used;

      if (p == NULL)
	continue;
      p += 4;
      while (*p == ' ')
	p++;
      while (*p && *p != ' ')	/* The zone's name.  */
	p++;
      for (unsigned o = 0; sscanf (p, "%lu%n", &count, &used) == 1;
	   o++, p += used)
	if (o >= order)
	  n += count << (o - order);
    }
  if (f)
    fclose (f);
  return n;
}

/* The memory taken, in CHUNK-size pieces of base pages.  */
struct chunks
{
  char **c;
  size_t n, cap;
};

/* Take what is free beyond KEEP_KB, in base pages, into CH.  Returns 0,
   or -1 out of memory for the list.  */
static int
take_free (struct chunks *ch, long keep_kb, unsigned long page)
{
  while (mem_free_kb () > keep_kb)
    {
      char *c = mmap (NULL, CHUNK, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

      if (c == MAP_FAILED)
	break;
      madvise (c, CHUNK, MADV_NOHUGEPAGE);
      for (unsigned long o = 0; o < CHUNK; o += page)
	c[o] = 1;
      if (ch->n == ch->cap
	  && (ch->c = realloc (ch->c, (ch->cap *= 2) * sizeof *ch->c)) == NULL)
	return -1;
      ch->c[ch->n++] = c;
    }
  return 0;
}

/* The page frame of the page at P (pagemap PM), or -1 where it has
   none.  */
static int64_t
pfn_of (int pm, const char *p, unsigned long page)
{
  uint64_t e;

  if (pread (pm, &e, sizeof e, (off_t) ((uintptr_t) p / page * sizeof e))
      != sizeof e || !(e >> 63))
    return -1;
  return (int64_t) (e & ((1ULL << 55) - 1));
}

/* Keep and lock one page of CH in each block of PER_BLOCK pages of
   physical memory, and free the rest.  A block is noted by its number in
   a bitmap over the physical address space seen.  Returns the blocks
   pinned, or -1 out of memory.  */
static long
pin_blocks (const struct chunks *ch, int pm, unsigned long page,
	    unsigned long per_block)
{
  int64_t max_pfn = 0, pfn;
  unsigned char *seen;
  long blocks = 0;

  for (size_t i = 0; i < ch->n; i++)
    for (unsigned long o = 0; o < CHUNK; o += page)
      if ((pfn = pfn_of (pm, ch->c[i] + o, page)) > max_pfn)
	max_pfn = pfn;
  if ((seen = calloc (((size_t) max_pfn / per_block + 1 + 7) / 8, 1)) == NULL)
    return -1;
  for (size_t i = 0; i < ch->n; i++)
    {
      char *run = ch->c[i];	/* The pages to free since the last kept.  */

      for (unsigned long o = 0; o < CHUNK; o += page)
	{
	  char *p = ch->c[i] + o;
	  uint64_t block;

	  if ((pfn = pfn_of (pm, p, page)) < 0)
	    continue;
	  block = (uint64_t) pfn / per_block;
	  if (seen[block / 8] & (1 << (block % 8)) || mlock (p, page) != 0)
	    continue;
	  seen[block / 8] |= (unsigned char) (1 << (block % 8));
	  blocks++;
	  if (p > run)
	    madvise (run, (size_t) (p - run), MADV_DONTNEED);
	  run = p + page;
	}
      if (run < ch->c[i] + CHUNK)
	madvise (run, (size_t) (ch->c[i] + CHUNK - run), MADV_DONTNEED);
    }
  return blocks;
}

/* Take the free blocks of 2^ORDER pages (H bytes) left whole, as huge
   pages, one touch each, until none is left or none more comes.  Returns
   the blocks taken.  */
static unsigned long
take_whole (unsigned order, unsigned long h)
{
  unsigned long left, taken = 0;

  while ((left = free_blocks (order)) > 0)
    {
      size_t len = (left + 1) * h;
      char *c = mmap (NULL, len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      unsigned long before = left;

      if (c == MAP_FAILED)
	break;
      /* Only the PMD-aligned part can hold huge pages.  */
      char *a = (char *) (((uintptr_t) c + h - 1) & ~(uintptr_t) (h - 1));
      madvise (c, len, MADV_HUGEPAGE);
      for (unsigned long i = 0; i < left; i++)
	a[i * h] = 1;
      left = free_blocks (order);
      taken += before > left ? before - left : 0;
      if (left >= before)
	break;
    }
  return taken;
}

int
main (int argc, char **argv)
{
  long keep_kb = (argc > 1 ? atol (argv[1]) : 64) * 1024;
  unsigned long page = (unsigned long) sysconf (_SC_PAGESIZE);
  unsigned long h = pmd_size (), per_block = h / page, taken;
  struct chunks ch = { malloc (1024 * sizeof (char *)), 0, 1024 };
  int pm = open ("/proc/self/pagemap", O_RDONLY);
  unsigned order = 0;
  long blocks;

  if (ch.c == NULL || pm < 0 || h == 0 || per_block == 0)
    {
      puts ("FRAGMENT error=setup");
      return 2;
    }
  if (take_free (&ch, keep_kb, page) != 0
      || (blocks = pin_blocks (&ch, pm, page, per_block)) < 0)
    {
      puts ("FRAGMENT error=no-memory");
      return 2;
    }
  while ((page << order) < h)
    order++;
  taken = take_whole (order, h);
  printf ("FRAGMENT free_kb=%ld blocks=%ld taken=%lu left=%lu\n",
	  mem_free_kb (), blocks, taken, free_blocks (order));
  fflush (stdout);
  for (;;)
    pause ();
}
