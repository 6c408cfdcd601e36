/* What the benchmark's C programs share: a random order that is the
   same on every run and every machine, and a clock.  */

#ifndef HUGETEXT_BENCH_H
#define HUGETEXT_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* xorshift64.  */
static inline uint64_t
bench_random (uint64_t *state)
{
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *state = x;
}

/* Fill ORDER with 0 .. N-1 shuffled (Fisher-Yates) from SEED, nonzero.  */
static inline void
bench_shuffle (uint32_t *order, size_t n, uint64_t seed)
{
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  for (size_t i = n; i > 1; i--)
    {
      size_t j = bench_random (&seed) % i;
      uint32_t t = order[i - 1];
      order[i - 1] = order[j];
      order[j] = t;
    }
}

static inline double
bench_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
