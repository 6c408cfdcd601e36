/* Unit tests of the DT_NEEDED resolver's parsers: the dynamic section
   and ld.so.cache, on crafted inputs.  */

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "elfbuild.h"
#include "hugetext/needed.h"
#include "unit.h"

enum
{
  DYN_OFF = 0x1000,		/* The dynamic section's file offset.  */
  STR_OFF = 0x1800,		/* The string table's, and its address.  */
};

static const char strings[] = "\0liba.so\0libb.so.2\0$ORIGIN/lib\0libme.so";

/* An object whose PT_DYNAMIC holds TAGS/VALS (NULL-terminated by the
   caller's count), with STRINGS at STR_OFF; its image in *LEN.  */
static unsigned char *
object (unsigned cls, bool be, const uint64_t (*dyn)[2], size_t n,
	size_t *len, struct ht_elf *elf)
{
  size_t entsize = cls == 64 ? sizeof (Elf64_Dyn) : sizeof (Elf32_Dyn);
  struct eb_elf spec = {
    .cls = cls, .be = be, .type = ET_DYN,
    .machine = cls == 64 ? EM_X86_64 : EM_386, .size = 0x2000, .nseg = 2,
    .seg = {
      { PT_LOAD, PF_R | PF_W, 0, 0, 0x2000, 0x2000, 0x1000 },
      { PT_DYNAMIC, PF_R | PF_W, DYN_OFF, DYN_OFF, (n + 1) * entsize,
	(n + 1) * entsize, 8 },
    },
  };
  unsigned char *img = eb_build (&spec, len);
  char err[HT_ERRLEN];

  memcpy (img + STR_OFF, strings, sizeof strings);
  CHECK (ht_elf_parse (elf, img, *len, err) == 0);
  for (size_t i = 0; i <= n; i++)
    {
      unsigned char *e = img + DYN_OFF + i * entsize;

      ht_elf_put (elf, e, HT_FIELD (elf, Dyn, d_tag), i < n ? dyn[i][0] : 0);
      ht_elf_put (elf, e, HT_FIELD (elf, Dyn, d_un), i < n ? dyn[i][1] : 0);
    }
  return img;
}

static void
dynamic_fields (void)
{
  static const uint64_t dyn[][2] = {
    { DT_NEEDED, 1 }, { DT_STRTAB, STR_OFF }, { DT_STRSZ, sizeof strings },
    { DT_NEEDED, 9 }, { DT_RUNPATH, 19 }, { DT_SONAME, 31 },
    { DT_FLAGS_1, DF_1_NODEFLIB },
  };

  for (unsigned cls = 32; cls <= 64; cls += 32)
    for (int be = 0; be <= 1; be++)
      {
	struct ht_elf elf;
	struct ht_dynamic d;
	char err[HT_ERRLEN];
	size_t len;
	unsigned char *img = object (cls, be, dyn, 7, &len, &elf);

	CHECK (ht_dynamic_read (&elf, &d, err) == 0);
	CHECK_EQ (d.nneeded, 2);
	CHECK (d.nneeded == 2 && strcmp (d.needed[0], "liba.so") == 0
	       && strcmp (d.needed[1], "libb.so.2") == 0);
	CHECK (d.runpath && strcmp (d.runpath, "$ORIGIN/lib") == 0);
	CHECK (d.soname && strcmp (d.soname, "libme.so") == 0);
	CHECK (d.rpath == NULL);
	CHECK (d.nodeflib);
	ht_dynamic_free (&d);
	ht_elf_free (&elf);
	free (img);
      }
}

/* Each corruption gets its error, never a read outside the image.  */
static void
dynamic_corrupt (void)
{
  static const struct
  {
    uint64_t dyn[3][2];
    const char *error;
  } cases[] = {
    { { { DT_NEEDED, 1 }, { DT_STRSZ, 8 } }, "no DT_STRTAB" },
    { { { DT_NEEDED, 1 }, { DT_STRTAB, STR_OFF } }, "no DT_STRSZ" },
    /* The string runs past DT_STRSZ.  */
    { { { DT_NEEDED, 1 }, { DT_STRTAB, STR_OFF }, { DT_STRSZ, 4 } },
      "DT_NEEDED string at 0x1 does not end inside DT_STRTAB" },
    { { { DT_NEEDED, 1000 }, { DT_STRTAB, STR_OFF }, { DT_STRSZ, 40 } },
      "DT_NEEDED string at 0x3e8" },
    /* The table lies past the PT_LOAD's file contents.  */
    { { { DT_NEEDED, 1 }, { DT_STRTAB, 0x1fff }, { DT_STRSZ, 0x10 } },
      "is not in the file contents of a PT_LOAD" },
    { { { DT_NEEDED, 1 }, { DT_STRTAB, UINT64_MAX - 2 }, { DT_STRSZ, 8 } },
      "is not in the file contents of a PT_LOAD" },
    { { { DT_SONAME, 99 }, { DT_STRTAB, STR_OFF }, { DT_STRSZ, 40 } },
      "a DT_SONAME string does not end" },
  };

  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      struct ht_elf elf;
      struct ht_dynamic d;
      char err[HT_ERRLEN] = "";
      size_t len;
      unsigned char *img = object (64, false, cases[c].dyn, 3, &len, &elf);

      CHECK (ht_dynamic_read (&elf, &d, err) == -1);
      if (strstr (err, cases[c].error) == NULL)
	{
	  fprintf (stderr, "case %zu: '%s' lacks '%s'\n", c, err,
		   cases[c].error);
	  CHECK (false);
	}
      ht_elf_free (&elf);
      free (img);
    }
}

/* No PT_DYNAMIC (a static program): nothing needed, no error.  */
static void
dynamic_none (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct ht_elf elf;
  struct ht_dynamic d;
  char err[HT_ERRLEN];
  size_t len;
  unsigned char *img = eb_build (&spec, &len);

  CHECK (ht_elf_parse (&elf, img, len, err) == 0);
  CHECK (ht_dynamic_read (&elf, &d, err) == 0);
  CHECK_EQ (d.nneeded, 0);
  CHECK (d.runpath == NULL && d.rpath == NULL);
  ht_elf_free (&elf);
  free (img);
}

/* A cache image: optional old table of OLD entries, then the new format
   with the entries of KEYS/VALUES and their strings.  */
struct cache_image
{
  unsigned char buf[1024];
  size_t len;
};

static void
put32 (unsigned char *p, uint32_t v)
{
  memcpy (p, &v, 4);
}

static void
cache (struct cache_image *c, unsigned old, unsigned endian,
       const char *const *kv, size_t n)
{
  size_t base = 0, strings;

  memset (c, 0, sizeof *c);
  if (old)
    {
      memcpy (c->buf, "ld.so-1.7.0", 11);
      put32 (c->buf + 12, old);
      base = (16 + old * 12 + 7) & ~(size_t) 7;
    }
  memcpy (c->buf + base, "glibc-ld.so.cache1.1", 20);
  put32 (c->buf + base + 20, (uint32_t) n);
  c->buf[base + 28] = (unsigned char) endian;
  strings = 48 + n * 24;
  for (size_t i = 0; i < n; i++)
    {
      unsigned char *e = c->buf + base + 48 + i * 24;

      for (int k = 0; k < 2; k++)
	{
	  size_t l = strlen (kv[2 * i + k]) + 1;

	  put32 (e + 4 + 4 * k, (uint32_t) strings);
	  memcpy (c->buf + base + strings, kv[2 * i + k], l);
	  strings += l;
	}
      e[16] = i == 1;		/* The second entry: a hwcaps one.  */
    }
  c->len = base + strings;
}

static const char *const entries[] = {
  "libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1",
  "libz.so.1", "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libz.so.1",
};

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
enum { HOST = 3, OTHER = 2 };
#else
enum { HOST = 2, OTHER = 3 };
#endif

static void
cache_entries (void)
{
  for (unsigned old = 0; old <= 3; old += 3)
    for (unsigned endian = 0; endian <= HOST; endian += HOST)
      {
	struct cache_image img;
	struct ht_ldcache c;
	const char *key, *value;
	uint64_t hwcap;
	char err[HT_ERRLEN];

	cache (&img, old, endian, entries, 2);
	CHECK (ht_ldcache_parse (&c, img.buf, img.len, err) == 0);
	CHECK_EQ (c.n, 2);
	CHECK (ht_ldcache_entry (&c, 0, &key, &value, &hwcap) == 0);
	CHECK (strcmp (key, "libz.so.1") == 0 && hwcap == 0);
	CHECK (strcmp (value, entries[1]) == 0);
	CHECK (ht_ldcache_entry (&c, 1, &key, &value, &hwcap) == 0);
	CHECK (hwcap == 1 && strcmp (value, entries[3]) == 0);
	CHECK (ht_ldcache_entry (&c, 2, &key, &value, &hwcap) == -1);
      }
}

static void
expect_cache_error (const unsigned char *buf, size_t len, const char *what)
{
  struct ht_ldcache c;
  char err[HT_ERRLEN] = "";

  CHECK (ht_ldcache_parse (&c, buf, len, err) == -1);
  if (strstr (err, what) == NULL)
    {
      fprintf (stderr, "'%s' lacks '%s'\n", err, what);
      CHECK (false);
    }
}

static void
cache_corrupt (void)
{
  struct cache_image img;
  struct ht_ldcache c;
  const char *key, *value;
  uint64_t hwcap;
  char err[HT_ERRLEN];

  cache (&img, 0, OTHER, entries, 2);
  expect_cache_error (img.buf, img.len, "written for the other byte order");
  cache (&img, 0, 1, entries, 2);
  expect_cache_error (img.buf, img.len, "marks its byte order invalid");
  cache (&img, 0, HOST, entries, 2);
  expect_cache_error (img.buf, 47, "not an ld.so.cache");
  expect_cache_error (img.buf, 48 + 24, "2 entries do not fit in its 72 bytes");
  put32 (img.buf + 20, UINT32_MAX);
  expect_cache_error (img.buf, img.len, "entries do not fit");
  expect_cache_error ((const unsigned char *) "garbage\n", 8,
		      "not an ld.so.cache");
  /* An old table alone, and one whose count runs past the file.  */
  cache (&img, 3, HOST, entries, 2);
  expect_cache_error (img.buf, 60, "only the old format");
  put32 (img.buf + 12, 1000000);
  expect_cache_error (img.buf, img.len, "runs past the end of the file");
  /* A string offset past the end, and a string without its NUL: the
     entry is refused, the parse itself was fine.  */
  cache (&img, 0, HOST, entries, 2);
  put32 (img.buf + 48 + 8, 100000);
  CHECK (ht_ldcache_parse (&c, img.buf, img.len, err) == 0);
  CHECK (ht_ldcache_entry (&c, 0, &key, &value, &hwcap) == -1);
  CHECK (ht_ldcache_parse (&c, img.buf, img.len - 1, err) == 0);
  CHECK (ht_ldcache_entry (&c, 1, &key, &value, &hwcap) == -1);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (dynamic_fields),
    UNIT_TEST (dynamic_corrupt),
    UNIT_TEST (dynamic_none),
    UNIT_TEST (cache_entries),
    UNIT_TEST (cache_corrupt),
  };
  return unit_main ("needed", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
