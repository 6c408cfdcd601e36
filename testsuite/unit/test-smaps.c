/* Unit tests of the smaps parser.  */

#include <string.h>

#include "hugetext/smaps.h"
#include "unit.h"

struct seen
{
  struct ht_mapping m[4];
  char path[4][128];
  size_t n;
};

static int
keep (void *ctx, const struct ht_mapping *m)
{
  struct seen *s = ctx;

  if (s->n < 4)
    {
      s->m[s->n] = *m;
      snprintf (s->path[s->n], sizeof s->path[0], "%.*s", (int) m->path_len,
		m->path);
      s->n++;
    }
  return 0;
}

static void
fields (void)
{
  static const char text[] =
    "55d794200000-55d794600000 r-xp 00200000 fe:01 1234        /a b/prog\n"
    "Size:               4096 kB\n"
    "Rss:                2048 kB\n"
    "AnonHugePages:         0 kB\n"
    "ShmemPmdMapped:       12 kB\n"
    "FilePmdMapped:      2048 kB\n"
    "THPeligible:    1\n"
    "VmFlags: rd ex mr mw me hg \n"
    "7ffd1000-7ffd2000 r-xp 00000000 00:00 0 \n"
    "VmFlags: rd ex nh\n"
    "7ffd3000-7ffd4000 rw-p 00000000 00:00 0                [stack]";
  struct seen s = { .n = 0 };
  char err[HT_ERRLEN];

  CHECK (ht_smaps_parse (text, strlen (text), keep, &s, err) == 0);
  CHECK_EQ (s.n, 3);
  CHECK_EQ (s.m[0].start, 0x55d794200000);
  CHECK_EQ (s.m[0].end, 0x55d794600000);
  CHECK_EQ (s.m[0].offset, 0x200000);
  CHECK_EQ (s.m[0].dev_major, 0xfe);
  CHECK_EQ (s.m[0].inode, 1234);
  CHECK (strcmp (s.path[0], "/a b/prog") == 0);
  CHECK (strcmp (s.m[0].perms, "r-xp") == 0);
  CHECK_EQ (s.m[0].rss, 2048 * 1024);
  CHECK_EQ (s.m[0].file_pmd_mapped, 2048 * 1024);
  CHECK_EQ (s.m[0].shmem_pmd_mapped, 12 * 1024);
  CHECK (s.m[0].vm_hugepage && !s.m[0].vm_nohugepage);
  CHECK_EQ (s.m[1].path_len, 0);
  CHECK (!s.m[1].vm_hugepage && s.m[1].vm_nohugepage);
  CHECK (strcmp (s.path[2], "[stack]") == 0);
}

static void
errors (void)
{
  struct seen s = { .n = 0 };
  char err[HT_ERRLEN];

  CHECK (ht_smaps_parse ("Rss: 4 kB\n", 10, keep, &s, err) == -1);
  CHECK (strstr (err, "line 1: a field outside a mapping") != NULL);
  CHECK (ht_smaps_parse ("2-1 r-xp 0 0:0 0\n", 17, keep, &s, err) == -1);
  CHECK (strstr (err, "line 1: not a mapping header") != NULL);
  CHECK (ht_smaps_parse ("", 0, keep, &s, err) == 0);
  CHECK_EQ (s.n, 0);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (fields),
    UNIT_TEST (errors),
  };
  return unit_main ("smaps", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
