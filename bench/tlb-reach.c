/* tlb-reach: do huge pages enlarge the TLB's reach on this machine?

   The same random walk over 16384 cache lines (1 MiB), three ways:
   - dense: the lines packed into 1 MiB, whose 256 pages fit in the
     TLB: what the walk costs with no TLB misses (cache latency);
   - 4 KiB: one line in each page of 64 MiB (MADV_NOHUGEPAGE): 16384
     pages, more than any TLB holds, so nearly every access misses;
   - H (the kernel's PMD size, 2 MiB on x86-64): the same 64 MiB in
     huge pages (MADV_HUGEPAGE, checked in
     /proc/self/smaps): 32 pages, which every TLB holds.

   On bare metal the huge page walk costs about what the dense one does.  In
   a virtual machine whose host backs guest memory with 4 KiB pages, the
   TLB caches translations no larger than the host's pages, so the guest's
   huge pages only shorten each page walk: the huge page walk stays above
   the dense one.  The iTLB stress program and the compiler see the same
   for their text.

   Usage: tlb-reach [ROUNDS]   (default 5 alternating runs of each)
   Prints one line per way, the ratio H / 4 KiB, and a verdict.  */

#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hugetext/machine.h"
#include "hugetext/size.h"
#include "anon-huge.h"
#include "bench.h"

#define REGION (64ul << 20)
#define PAGE 4096ul
#define PAGES (REGION / PAGE)
#define STEPS (PAGES * 64)

/* Where the chain keeps line I: one line in each page, a different
   line in each, so that lines do not pile up in one cache set; or, with
   DENSE, all lines side by side.  */
static void **
slot_of (char *p, size_t i, bool dense)
{
  return (void **) (dense ? p + i * 64 : p + i * PAGE + i % 64 * 64);
}

/* The huge page size: the running kernel's PMD size (2 MiB on x86-64),
   else lib/machines.def's H of this machine.  */
static uintptr_t huge_size;

/* Map REGION at a huge page boundary, advised as asked, with a pointer
   chain through its lines in the random ORDER.  */
static char *
make_chain (int advice, const uint32_t *order, bool dense)
{
  char *raw = mmap (NULL, REGION + huge_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    return NULL;
  char *p = (char *) (((uintptr_t) raw + huge_size - 1)
		      & ~(huge_size - 1));
  if (madvise (p, REGION, advice) != 0 && advice == MADV_HUGEPAGE)
    fprintf (stderr, "tlb-reach: MADV_HUGEPAGE: %s\n", strerror (errno));
  memset (p, 0, REGION);
  for (size_t i = 0; i < PAGES; i++)
    *slot_of (p, order[i], dense) = slot_of (p, order[(i + 1) % PAGES], dense);
  return p;
}

static double
walk_ns (char *p, const uint32_t *order, bool dense)
{
  void **at = slot_of (p, order[0], dense);
  for (size_t i = 0; i < PAGES; i++)	/* Warm the caches.  */
    at = *at;
  double t0 = bench_seconds ();
  for (size_t i = 0; i < STEPS; i++)
    at = *at;
  double t1 = bench_seconds ();
  /* Keep the walk.  */
  if (at == NULL)
    abort ();
  return (t1 - t0) * 1e9 / STEPS;
}

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  long rounds = 5;
  if (argc > 2 || (argc == 2 && ((rounds = atol (argv[1])) < 1
				 || rounds > 100)))
    {
      fprintf (stderr, "usage: %s [ROUNDS (1-100)]\n", argv[0]);
      return 2;
    }

  enum ht_h_source source;
  char hname[32];
  huge_size = (uintptr_t) ht_runtime_page_size (0, &source);
  ht_format_size (huge_size, hname);

  static uint32_t order[PAGES];
  bench_shuffle (order, PAGES, 0x2545f4914f6cdd1du);

  char *dense = make_chain (MADV_NOHUGEPAGE, order, true);
  char *small = make_chain (MADV_NOHUGEPAGE, order, false);
  char *huge = make_chain (MADV_HUGEPAGE, order, false);
  if (dense == NULL || small == NULL || huge == NULL)
    {
      perror ("tlb-reach: mmap");
      return 1;
    }
  long small_huge = bench_anon_huge_bytes (small);
  long huge_huge = bench_anon_huge_bytes (huge);

  double d[100], s[100], h[100];
  for (long r = 0; r < rounds; r++)
    {
      d[r] = walk_ns (dense, order, true);
      s[r] = walk_ns (small, order, false);
      h[r] = walk_ns (huge, order, false);
    }
  qsort (d, rounds, sizeof *d, by_value);
  qsort (s, rounds, sizeof *s, by_value);
  qsort (h, rounds, sizeof *h, by_value);
  double dm = d[rounds / 2], sm = s[rounds / 2], hm = h[rounds / 2];

  printf ("dense 1 MiB: %.2f ns per access (no TLB misses)\n", dm);
  printf ("4 KiB pages: %.2f ns per access (%ld MiB of 64 in huge pages)\n",
	  sm, small_huge < 0 ? -1 : small_huge >> 20);
  printf ("%s pages: %.2f ns per access (%ld MiB of 64 in huge pages)\n",
	  hname, hm, huge_huge < 0 ? -1 : huge_huge >> 20);
  if (huge_huge < (long) REGION)
    {
      printf ("ratio unknown: the kernel did not give 64 MiB of huge pages"
	      " (THP enabled=never, or no free %s blocks)\n", hname);
      return 1;
    }
  printf ("ratio %.3f\n", hm / sm);
  /* Half the dense cost is a generous margin for the few misses that
     32 huge pages can still take.  */
  if (hm < 1.5 * dm)
    printf ("verdict: full reach: in %s pages the walk costs what it"
	    " costs without TLB misses\n", hname);
  else
    printf ("verdict: limited reach: in %s pages each access still"
	    " costs %.0f ns more than without TLB misses; the TLB holds"
	    " translations smaller than %s (in a virtual machine,"
	    " likely because the host maps guest memory with small"
	    " pages)\n", hname, hm - dm, hname);
  return 0;
}
