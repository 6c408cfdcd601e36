/* Option values shared by the hugetext subcommands.  */

#include "hugetext.h"

#include "hugetext/file.h"
#include "hugetext/size.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
tool_parse_size (const char *cmd, const char *opt, const char *arg,
		 bool pow2, uint64_t *out)
{
  const char *why = ht_parse_size_check (arg, pow2, out);

  if (why == NULL)
    return 0;
  fprintf (stderr, "%s %s: invalid %s '%s': %s\n", ht_progname, cmd, opt,
	   arg, why);
  return -1;
}

bool
tool_capable (int cap)
{
  size_t len;
  char *text = ht_read_file ("/proc/self/status", &len);
  const char *eff = text ? strstr (text, "\nCapEff:") : NULL;
  bool yes = false;

  if (eff != NULL)
    yes = (strtoull (eff + 8, NULL, 16) >> cap) & 1;
  free (text);
  return yes;
}
