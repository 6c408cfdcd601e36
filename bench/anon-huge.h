/* How much of an anonymous mapping is in huge pages, from
   /proc/self/smaps (libhugetext's reader): for the benchmark's probes
   that ask the kernel for huge pages and must know whether they got
   them (tlb-reach, fault-cost).  */

#ifndef HUGETEXT_BENCH_ANON_HUGE_H
#define HUGETEXT_BENCH_ANON_HUGE_H

#include <stdint.h>

#include "hugetext/smaps.h"

struct bench_huge_query
{
  uint64_t start, anon_huge;
};

static int
bench_find_region (void *ctx, const struct ht_mapping *m)
{
  struct bench_huge_query *q = ctx;
  if (m->start <= q->start && q->start < m->end)
    q->anon_huge = m->anon_huge;
  return 0;
}

/* Bytes of the mapping that holds P in anonymous huge pages, or -1.  */
static long
bench_anon_huge_bytes (const void *p)
{
  struct bench_huge_query q = { (uintptr_t) p, 0 };
  char err[HT_ERRLEN];

  if (ht_smaps_read (0, bench_find_region, &q, NULL, err) != 0)
    return -1;
  return q.anon_huge;
}

#endif
