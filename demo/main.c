/* The demo program: calls every function of its generated text in a
   shuffled order, so that its run touches all of the text, and reports
   how long that took.  With HUGETEXT_DEMO_WAIT set it then waits for its
   standard input to close, so that a script can read its smaps.  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern long (*const ht_demo_table[]) (long);
extern const long ht_demo_count;

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
main (int argc, char **argv)
{
  long rounds = argc > 1 ? atol (argv[1]) : 20;
  long n = ht_demo_count;
  uint64_t state = 88172645463325252u;	/* xorshift64: same order every run */
  long sum = 0;

  double start = now_ms ();
  for (long r = 0; r < rounds; r++)
    for (long i = 0; i < n; i++)
      {
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	sum = ht_demo_table[state % (uint64_t) n] (sum) & 0xffffff;
      }
  printf ("%ld calls into %ld functions in %.1f ms (checksum %ld)\n",
	  rounds * n, n, now_ms () - start, sum);
  fflush (stdout);

  if (getenv ("HUGETEXT_DEMO_WAIT") != NULL)
    {
      puts ("ready");
      fflush (stdout);
      while (getchar () != EOF)
	;
    }
  return 0;
}
