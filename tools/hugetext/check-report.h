/* How `hugetext check` shows its judgement of one file.  */

#ifndef HUGETEXT_CHECK_REPORT_H
#define HUGETEXT_CHECK_REPORT_H

#include "hugetext/json.h"
#include "hugetext/layout.h"

#include <stdio.h>

struct check_result
{
  const char *path;
  const char *error;		/* Non-NULL: the file could not be judged.  */
  const struct ht_elf *elf;
  const struct ht_layout *layout;
};

/* Whether the file meets the contract (false for an error, too).  */
bool check_passed (const struct check_result *r);

/* The report of a file judged (R->error NULL; an error is the caller's
   to say).  */
void check_report_text (FILE *out, const struct check_result *r,
			bool verbose);
/* Only the verdict line: the last line of check_report_text.  */
void check_report_brief (FILE *out, const struct check_result *r);
void check_report_json (struct ht_json *j, const struct check_result *r);

#endif
