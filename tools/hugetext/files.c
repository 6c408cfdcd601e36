/* Going over a subcommand's files: one report each, in text or as the
   objects of one JSON array, and the highest of their exit statuses.  */

#include "hugetext.h"

#include "hugetext/json.h"

#include <stdio.h>

int
tool_each_file (size_t n, bool json, tool_file_fn *each, void *ctx)
{
  struct ht_json j;
  int status = HT_EXIT_OK;

  if (json)
    {
      ht_json_init (&j, stdout);
      ht_json_array (&j, NULL);
    }
  for (size_t i = 0; i < n; i++)
    {
      int s = each (ctx, i, json ? &j : NULL);

      if (s > status)
	status = s;
    }
  /* The writer ends the document with a newline.  */
  if (json)
    ht_json_end_array (&j);
  return status;
}
