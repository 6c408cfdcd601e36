/* Option values shared by the hugetext subcommands.  */

#include "hugetext.h"

#include "hugetext/size.h"

#include <stdio.h>

int
tool_parse_page_size (const char *cmd, const char *arg, uint64_t *out)
{
  if (ht_parse_size (arg, out) != 0 || *out == 0)
    {
      fprintf (stderr, "%s %s: invalid --page-size '%s': expected a size "
	       "such as 2M or 0x200000\n", ht_progname, cmd, arg);
      return -1;
    }
  if ((*out & (*out - 1)) != 0 || *out < 4096)
    {
      fprintf (stderr, "%s %s: invalid --page-size '%s': not a power of two "
	       "of at least 4K\n", ht_progname, cmd, arg);
      return -1;
    }
  return 0;
}
