/* Sizes as people and linkers write them.  */

#ifndef HUGETEXT_SIZE_H
#define HUGETEXT_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/* Parse S: a number in C syntax (decimal, 0x hex, 0 octal), optionally
   followed by K, M or G (binary: KiB, MiB, GiB).  Returns 0, or -1 when S
   is empty, not a number, has trailing garbage or overflows.  */
int ht_parse_size (const char *s, uint64_t *out);

/* Whether X is a power of two.  */
bool ht_is_pow2 (uint64_t x);

/* The smallest huge page size hugetext accepts anywhere, and how the
   messages write it.  */
#define HT_MIN_PAGE_SIZE 4096u
#define HT_MIN_PAGE_SIZE_TEXT "4K"

/* Parse S as a size that is not zero (a min size), or, with POW2, a
   power of two of at least HT_MIN_PAGE_SIZE (a page size).  Returns NULL,
   or what is wrong with S in words ("expected a size such as 2M or
   0x200000").  */
const char *ht_parse_size_check (const char *s, bool pow2, uint64_t *out);

/* "2 MiB", "4.3 MiB", "512 B": for people, never for machines.  */
const char *ht_format_size (uint64_t n, char buf[32]);

#endif
