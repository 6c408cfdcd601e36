/* Sizes as people and linkers write them: see hugetext/size.h.  */

#include "hugetext/size.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int
ht_parse_size (const char *s, uint64_t *out)
{
  char *end;
  unsigned shift = 0;

  /* strtoull accepts leading blanks and a sign; a size has neither.  */
  if (s == NULL || !isdigit ((unsigned char) s[0]))
    return -1;
  errno = 0;
  unsigned long long v = strtoull (s, &end, 0);
  if (errno != 0)
    return -1;
  switch (*end)
    {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    default: break;
    }
  if (*end != '\0')
    return -1;
  if (shift && v > (UINT64_MAX >> shift))
    return -1;
  *out = (uint64_t) v << shift;
  return 0;
}

bool
ht_is_pow2 (uint64_t x)
{
  return x != 0 && (x & (x - 1)) == 0;
}

const char *
ht_parse_size_check (const char *s, bool pow2, uint64_t *out)
{
  if (ht_parse_size (s, out) != 0)
    return "expected a size such as 2M or 0x200000";
  if (*out == 0)
    return "a size must be above 0";
  if (pow2 && (!ht_is_pow2 (*out) || *out < HT_MIN_PAGE_SIZE))
    return "not a power of two of at least " HT_MIN_PAGE_SIZE_TEXT;
  return NULL;
}

const char *
ht_format_size (uint64_t n, char buf[32])
{
  static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };

  if (n < 1024)
    {
      snprintf (buf, 32, "%" PRIu64 " B", n);
      return buf;
    }
  double v = (double) n / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < sizeof units / sizeof units[0])
    {
      v /= 1024;
      u++;
    }
  /* Truncate, never round: 2044 KiB is "1.99 MiB", not "2.0 MiB", since
     being just below a boundary is what matters here.  */
  uint64_t hundredths = (uint64_t) (v * 100);
  if (hundredths % 100 == 0)
    snprintf (buf, 32, "%" PRIu64 " %s", hundredths / 100, units[u]);
  else
    snprintf (buf, 32, "%" PRIu64 ".%02" PRIu64 " %s", hundredths / 100,
	      hundredths % 100, units[u]);
  return buf;
}
