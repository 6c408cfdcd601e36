/* fault-cost: what memory and processes cost on this machine.

   - A first touch of anonymous memory, 256 MiB, one write per 4 KiB:
     with MADV_NOHUGEPAGE (a fault per 4 KiB page) and with
     MADV_HUGEPAGE (a fault per huge page, which the kernel clears whole),
     alternately, ROUNDS times each; the median cost per 4 KiB of each,
     and their ratio.  On bare metal a 4 KiB fault costs well under a
     microsecond; in a virtual machine whose host backs the guest's
     memory lazily it can cost ten times that, and builds and test suites
     that start many short processes pay it for every page they touch.
   - Starting a process: posix_spawn of /bin/true and waiting for it,
     SPAWNS times; the mean per process.

   Usage: fault-cost [ROUNDS [SPAWNS]]   (default 5 and 200)
   Needs THP "madvise" or "always" for the huge page way (it says so
   otherwise).  */

#define _DEFAULT_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "anon-huge.h"
#include "bench.h"

#define REGION (256ul << 20)
#define PAGE 4096ul
#define MAX_ROUNDS 99

extern char **environ;

/* Microseconds per 4 KiB of a first touch of REGION advised ADVICE;
   negative if the region cannot be had, or if MADV_HUGEPAGE got less
   than half of it in huge pages.  */
static double
touch_us (int advice)
{
  long huge;
  char *p = mmap (NULL, REGION, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return -1;
  if (madvise (p, REGION, advice) != 0)
    {
      munmap (p, REGION);
      return -1;
    }
  double t0 = bench_seconds ();
  for (size_t i = 0; i < REGION; i += PAGE)
    p[i] = 1;
  double t1 = bench_seconds ();
  huge = bench_anon_huge_bytes (p);
  munmap (p, REGION);
  if (advice == MADV_HUGEPAGE && huge < (long) (REGION / 2))
    return -1;
  return (t1 - t0) * 1e6 / (REGION / PAGE);
}

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Milliseconds per posix_spawn and wait of /bin/true; negative if one
   fails.  */
static double
spawn_ms (int n)
{
  char *argv[] = { "true", NULL };
  double t0 = bench_seconds ();
  for (int i = 0; i < n; i++)
    {
      pid_t pid;
      int status;
      if (posix_spawn (&pid, "/bin/true", NULL, NULL, argv, environ) != 0
	  || waitpid (pid, &status, 0) != pid
	  || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
	return -1;
    }
  return (bench_seconds () - t0) * 1e3 / n;
}

/* A count from ARG between 1 and MAX, or exit with a usage error.  */
static int
count_arg (const char *arg, int max)
{
  char *end;
  long v = strtol (arg, &end, 10);
  if (*arg == '\0' || *end != '\0' || v < 1 || v > max)
    {
      fprintf (stderr, "fault-cost: not a count from 1 to %d: '%s'\n"
	       "usage: fault-cost [ROUNDS [SPAWNS]]\n", max, arg);
      exit (2);
    }
  return (int) v;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? count_arg (argv[1], MAX_ROUNDS) : 5;
  int spawns = argc > 2 ? count_arg (argv[2], 100000) : 200;
  double small[MAX_ROUNDS], huge[MAX_ROUNDS];
  int have_huge = 1;

  if (argc > 3)
    {
      fprintf (stderr, "usage: fault-cost [ROUNDS [SPAWNS]]\n");
      return 2;
    }
  for (int r = 0; r < rounds; r++)
    {
      small[r] = touch_us (MADV_NOHUGEPAGE);
      huge[r] = touch_us (MADV_HUGEPAGE);
      if (small[r] < 0)
	{
	  fprintf (stderr, "fault-cost: cannot map %lu MiB: %s\n",
		   REGION >> 20, strerror (errno));
	  return 1;
	}
      have_huge &= huge[r] >= 0;
    }
  double s = median (small, rounds);
  printf ("4 KiB pages: %.2f us per 4 KiB (median of %d)\n", s, rounds);
  if (have_huge)
    {
      double h = median (huge, rounds);
      printf ("huge pages:  %.2f us per 4 KiB (median of %d)\n", h, rounds);
      printf ("ratio huge / 4 KiB: %.3f\n", h / s);
    }
  else
    printf ("huge pages:  not measured (MADV_HUGEPAGE refused, or it got "
	    "less than half of the region in huge pages: THP \"never\"?)\n");
  double ms = spawn_ms (spawns);
  if (ms < 0)
    {
      fprintf (stderr, "fault-cost: posix_spawn of /bin/true failed\n");
      return 1;
    }
  printf ("process: %.2f ms per posix_spawn and wait of /bin/true (%d)\n",
	  ms, spawns);
  return 0;
}
