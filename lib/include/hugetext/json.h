/* A minimal streaming JSON writer for the tools' --json output.  Keys and
   strings are escaped; nesting is tracked so commas come out right.  */

#ifndef HUGETEXT_JSON_H
#define HUGETEXT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define HT_JSON_MAX_DEPTH 16

struct ht_json
{
  FILE *out;
  int depth;
  bool need_comma[HT_JSON_MAX_DEPTH];
};

void ht_json_init (struct ht_json *j, FILE *out);

/* KEY is NULL inside arrays and at the top level.  */
void ht_json_object (struct ht_json *j, const char *key);
void ht_json_array (struct ht_json *j, const char *key);
void ht_json_end_object (struct ht_json *j);
void ht_json_end_array (struct ht_json *j);

void ht_json_str (struct ht_json *j, const char *key, const char *val);
void ht_json_u64 (struct ht_json *j, const char *key, uint64_t val);
void ht_json_bool (struct ht_json *j, const char *key, bool val);
void ht_json_null (struct ht_json *j, const char *key);

#endif
