/* The iTLB stress program: call every function of a large text, one
   function per 4 KiB page, in a fixed random order, ROUNDS times.

   Every call lands on a different page than the one before, in an order
   no prefetcher can follow, so with 4 KiB pages nearly every call misses
   the TLBs, and with the text in 2 MiB pages (32 entries for 64 MiB)
   nearly none does.  The functions are two instructions; the time is
   the calls, their instruction fetch and address translation.

   Usage: itlb-stress [ROUNDS]   (default 1000)
   Prints the calls and the time per call; exits 1 on a wrong sum.  */

#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../bench.h"

typedef long stress_fn (long);
extern stress_fn *const ht_stress_table[];
extern const long ht_stress_count;

int
main (int argc, char **argv)
{
  long rounds = 1000;
  if (argc > 2)
    {
      fprintf (stderr, "usage: %s [ROUNDS]\n", argv[0]);
      return 2;
    }
  if (argc == 2)
    {
      char *end;
      errno = 0;
      rounds = strtol (argv[1], &end, 10);
      if (errno != 0 || end == argv[1] || *end != '\0' || rounds <= 0)
	{
	  fprintf (stderr, "%s: ROUNDS must be a positive number, not '%s'\n",
		   argv[0], argv[1]);
	  return 2;
	}
    }

  long n = ht_stress_count;
  if (rounds > LONG_MAX / n)
    {
      fprintf (stderr, "%s: at most %ld rounds\n", argv[0], LONG_MAX / n);
      return 2;
    }
  uint32_t *order = malloc (n * sizeof *order);
  if (order == NULL)
    {
      perror ("malloc");
      return 1;
    }
  bench_shuffle (order, n, 0x9e3779b97f4a7c15u);

  double t0 = bench_seconds ();
  long sum = 0;
  for (long r = 0; r < rounds; r++)
    for (long i = 0; i < n; i++)
      sum = ht_stress_table[order[i]] (sum);
  double t1 = bench_seconds ();

  printf ("%ld calls over %ld pages: %.2f ns per call\n", rounds * n, n,
	  (t1 - t0) * 1e9 / (rounds * n));
  free (order);
  return sum == rounds * n ? 0 : 1;
}
