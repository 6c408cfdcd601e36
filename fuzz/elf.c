/* libFuzzer target: the ELF parser, the contract judgement and both
   report formats of `hugetext check`, on arbitrary bytes.  */

#include "../tools/hugetext/check-report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static FILE *
sink (void)
{
  static FILE *null;

  if (null == NULL)
    null = fopen ("/dev/null", "w");
  return null;
}

static void
judge (const struct ht_elf *elf, const struct ht_layout_opts *opts)
{
  struct ht_layout layout;
  struct check_result r = { "fuzz", NULL, elf, &layout };
  struct ht_json j;
  char err[HT_ERRLEN];

  if (ht_layout_check (&layout, elf, opts, err) != 0)
    return;
  check_report_text (sink (), &r, true);
  ht_json_init (&j, sink ());
  check_report_json (&j, &r);
  ht_layout_free (&layout);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const struct ht_layout_opts defaults = { .page_size = 0 };
  /* Small pages make every segment eligible and misaligned in new ways.  */
  static const struct ht_layout_opts small = { .page_size = 4096,
						 .min_size = 1 };
  struct ht_elf elf;
  char err[HT_ERRLEN];

  if (ht_elf_parse (&elf, data, size, err) != 0)
    return 0;
  judge (&elf, &defaults);
  judge (&elf, &small);
  ht_elf_free (&elf);
  return 0;
}
