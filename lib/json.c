/* A minimal streaming JSON writer: see hugetext/json.h.  */

#include "hugetext/json.h"

#include <inttypes.h>

void
ht_json_init (struct ht_json *j, FILE *out)
{
  j->out = out;
  j->depth = 0;
  j->need_comma[0] = false;
}

static void
put_string (FILE *out, const char *s)
{
  fputc ('"', out);
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      if (*p == '"' || *p == '\\')
	fprintf (out, "\\%c", *p);
      else if (*p < 0x20 || *p == 0x7f)
	fprintf (out, "\\u%04x", *p);
      else
	fputc (*p, out);
    }
  fputc ('"', out);
}

/* Start a value: the comma before it, and its key if it has one.  */
static void
begin_value (struct ht_json *j, const char *key)
{
  if (j->need_comma[j->depth])
    fputc (',', j->out);
  j->need_comma[j->depth] = true;
  if (key != NULL)
    {
      put_string (j->out, key);
      fputc (':', j->out);
    }
}

static void
open_nested (struct ht_json *j, const char *key, char c)
{
  begin_value (j, key);
  fputc (c, j->out);
  /* Deeper nesting than the writer tracks is a programming error; keep
     the output well-formed anyway by sharing the last level.  */
  if (j->depth + 1 < HT_JSON_MAX_DEPTH)
    j->depth++;
  j->need_comma[j->depth] = false;
}

static void
close_nested (struct ht_json *j, char c)
{
  fputc (c, j->out);
  if (j->depth > 0)
    j->depth--;
  if (j->depth == 0)
    fputc ('\n', j->out);
}

void
ht_json_object (struct ht_json *j, const char *key)
{
  open_nested (j, key, '{');
}

void
ht_json_array (struct ht_json *j, const char *key)
{
  open_nested (j, key, '[');
}

void
ht_json_end_object (struct ht_json *j)
{
  close_nested (j, '}');
}

void
ht_json_end_array (struct ht_json *j)
{
  close_nested (j, ']');
}

void
ht_json_str (struct ht_json *j, const char *key, const char *val)
{
  begin_value (j, key);
  put_string (j->out, val);
}

void
ht_json_u64 (struct ht_json *j, const char *key, uint64_t val)
{
  begin_value (j, key);
  fprintf (j->out, "%" PRIu64, val);
}

void
ht_json_bool (struct ht_json *j, const char *key, bool val)
{
  begin_value (j, key);
  fputs (val ? "true" : "false", j->out);
}

void
ht_json_null (struct ht_json *j, const char *key)
{
  begin_value (j, key);
  fputs ("null", j->out);
}
