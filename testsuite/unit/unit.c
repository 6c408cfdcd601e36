/* A small unit-test harness: see unit.h.  */

#include "unit.h"

#include <string.h>

int unit_failures;
const char *unit_skipped;

static bool
selected (const char *name, int argc, char **argv)
{
  if (argc < 2)
    return true;
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], name) == 0)
      return true;
  return false;
}

int
unit_main (const char *suite, const struct unit_test *tests, size_t n,
	   int argc, char **argv)
{
  int failed = 0, ran = 0;

  for (size_t i = 0; i < n; i++)
    {
      if (!selected (tests[i].name, argc, argv))
	continue;
      unit_failures = 0;
      unit_skipped = NULL;
      tests[i].fn ();
      ran++;
      if (unit_skipped != NULL && !unit_failures)
	printf ("UNSUPPORTED: %s: %s (%s)\n", suite, tests[i].name,
		unit_skipped);
      else
	printf ("%s: %s: %s\n", unit_failures ? "FAIL" : "PASS", suite,
		tests[i].name);
      fflush (stdout);
      if (unit_failures)
	failed++;
    }
  if (ran == 0)
    {
      fprintf (stderr, "%s: no test matched\n", suite);
      return 1;
    }
  return failed ? 1 : 0;
}
