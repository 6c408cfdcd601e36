/* Option values shared by the hugetext subcommands.  */

#include "hugetext.h"

#include "hugetext/size.h"

#include <stdio.h>

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
