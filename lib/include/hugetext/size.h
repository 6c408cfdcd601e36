/* Sizes as people and linkers write them.  */

#ifndef HUGETEXT_SIZE_H
#define HUGETEXT_SIZE_H

#include <stdint.h>

/* Parse S: a number in C syntax (decimal, 0x hex, 0 octal), optionally
   followed by K, M or G (binary: KiB, MiB, GiB).  Returns 0, or -1 when S
   is empty, not a number, has trailing garbage or overflows.  */
int ht_parse_size (const char *s, uint64_t *out);

/* "2 MiB", "4.3 MiB", "512 B": for people, never for machines.  */
const char *ht_format_size (uint64_t n, char buf[32]);

#endif
