/* Unit tests of size parsing and formatting, and of the JSON writer.  */

#define _POSIX_C_SOURCE 200809L	/* open_memstream.  */
#include "unit.h"

#include "hugetext/json.h"
#include "hugetext/size.h"

#include <stdlib.h>
#include <string.h>

static void
parse_sizes (void)
{
  static const struct { const char *s; uint64_t v; } good[] = {
    { "4096", 4096 }, { "0x200000", 0x200000 }, { "2M", 0x200000 },
    { "64K", 0x10000 }, { "1G", 0x40000000 }, { "0", 0 },
    { "0x10K", 0x4000 },
  };
  static const char *const bad[] = {
    "", "M", "2X", "2MB", "-1", " 2", "+2", "0x", "2M ",
    "99999999999999999999", "17179869184G",
  };

  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    {
      uint64_t v = 0;
      CHECK (ht_parse_size (good[i].s, &v) == 0);
      CHECK_EQ (v, good[i].v);
    }
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      uint64_t v;
      if (ht_parse_size (bad[i], &v) == 0)
	{
	  fprintf (stderr, "accepted bad size '%s'\n", bad[i]);
	  unit_failures++;
	}
    }
}

static void
format_sizes (void)
{
  char buf[32];

  CHECK (strcmp (ht_format_size (512, buf), "512 B") == 0);
  CHECK (strcmp (ht_format_size (2048, buf), "2 KiB") == 0);
  CHECK (strcmp (ht_format_size (0x200000, buf), "2 MiB") == 0);
  CHECK (strcmp (ht_format_size (0x3f0000, buf), "3.93 MiB") == 0);
  CHECK (strcmp (ht_format_size (0x1ff000, buf), "1.99 MiB") == 0);
  CHECK (strcmp (ht_format_size (0x1fffff, buf), "1.99 MiB") == 0);
}

static void
json_writer (void)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);
  struct ht_json j;

  ht_json_init (&j, out);
  ht_json_object (&j, NULL);
  ht_json_str (&j, "file", "a\"b\\c\n\x01");
  ht_json_array (&j, "list");
  ht_json_u64 (&j, NULL, 1);
  ht_json_bool (&j, NULL, true);
  ht_json_null (&j, NULL);
  ht_json_object (&j, NULL);
  ht_json_end_object (&j);
  ht_json_end_array (&j);
  ht_json_u64 (&j, "n", UINT64_MAX);
  ht_json_end_object (&j);
  fclose (out);
  CHECK (strcmp (text, "{\"file\":\"a\\\"b\\\\c\\u000a\\u0001\","
		 "\"list\":[1,true,null,{}],\"n\":18446744073709551615}\n")
	 == 0);
  free (text);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (parse_sizes), UNIT_TEST (format_sizes),
    UNIT_TEST (json_writer),
  };
  return unit_main ("util", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
