/* A stand-in for `hugetext check --json FILE` that judges every file
   "fail" and exits 1 (HT_EXIT_FAIL), as the tool does for a file that
   breaks the contract, but, as SANITIZER_PROBE says, first makes the
   error a sanitizer finds: "heap" (a heap buffer overflow), "undefined"
   (a signed overflow), "leak" (memory not freed), or nothing ("none", or
   the variable unset).  Built like hugetext-san (hugetext_elf_san, with
   lib/sanitize.c), for testsuite/lit/testsuite/sanitizer-exit.test:
   a memory error in a run that would exit 1 must not pass for a
   verdict.  */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kept out of the optimizer's sight.  */
static volatile int ht_one = 1;
static void *volatile ht_kept;

int
main (int argc, char **argv)
{
  const char *mode = getenv ("SANITIZER_PROBE");

  printf ("{\"files\": [{\"file\": \"%s\", \"verdict\": \"fail\", "
	  "\"segments\": []}]}\n", argc > 1 ? argv[argc - 1] : "-");
  fflush (stdout);
  if (mode == NULL || strcmp (mode, "none") == 0)
    return 1;
  if (strcmp (mode, "heap") == 0)
    {
      char *p = malloc (4);
      if (p == NULL)
	return 2;
      memset (p, 0, 4 + (size_t) ht_one);
      ht_kept = p;
      free (ht_kept);
    }
  else if (strcmp (mode, "undefined") == 0)
    {
      int x = INT_MAX;
      x += ht_one;
      printf ("%d\n", x);
    }
  else if (strcmp (mode, "leak") == 0)
    {
      ht_kept = malloc (64);
      ht_kept = NULL;
    }
  else
    {
      fprintf (stderr, "sanitizer-probe: SANITIZER_PROBE: unknown '%s'\n",
	       mode);
      return 2;
    }
  return 1;
}
