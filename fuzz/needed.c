/* libFuzzer target: the DT_NEEDED resolver's parsers on arbitrary bytes,
   the input taken both as an ELF object (its dynamic section and
   strings) and as an ld.so.cache (its header and every entry).  */

#include "hugetext/needed.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Read each string the way the resolver does, so that a pointer that
   strays out of the input is caught.  */
static size_t
touch (const char *s)
{
  return s ? strlen (s) : 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  struct ht_ldcache c;
  struct ht_elf elf;
  struct ht_dynamic d;
  char err[HT_ERRLEN];
  volatile size_t sink = 0;

  if (ht_elf_parse (&elf, data, size, err) == 0)
    {
      if (ht_dynamic_read (&elf, &d, err) == 0)
	{
	  for (size_t i = 0; i < d.nneeded; i++)
	    sink += touch (d.needed[i]);
	  sink += touch (d.soname) + touch (d.rpath) + touch (d.runpath);
	  ht_dynamic_free (&d);
	}
      ht_elf_free (&elf);
    }
  if (ht_ldcache_parse (&c, data, size, err) == 0)
    for (size_t i = 0; i < c.n; i++)
      {
	const char *key, *value;
	uint64_t hwcap;

	if (ht_ldcache_entry (&c, i, &key, &value, &hwcap) == 0)
	  sink += touch (key) + touch (value) + (size_t) hwcap;
      }
  (void) sink;
  return 0;
}
