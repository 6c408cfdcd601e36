/* Unit tests of the contract judgement (docs/contract.md): one test per
   rule, each starting from a layout that meets it and breaking
   one thing.  */

#include "elfbuild.h"
#include "unit.h"

#include "hugetext/layout.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#define MiB 0x100000u

struct judged
{
  unsigned char *buf;
  size_t len;
  struct ht_elf elf;
  struct ht_layout layout;
};

/* Build SPEC, let EDIT change its bytes, parse and judge it.  */
static void
judge (struct judged *j, const struct eb_elf *spec,
       const struct ht_layout_opts *opts,
       void (*edit) (unsigned char *buf))
{
  static const struct ht_layout_opts defaults;
  char err[HT_ERRLEN];

  j->buf = eb_build (spec, &j->len);
  if (edit != NULL)
    edit (j->buf);
  CHECK (ht_elf_parse (&j->elf, j->buf, j->len, err) == 0);
  CHECK (ht_layout_check (&j->layout, &j->elf, opts ? opts : &defaults,
			  err) == 0);
}

static void
done (struct judged *j)
{
  ht_layout_free (&j->layout);
  ht_elf_free (&j->elf);
  free (j->buf);
}

/* The problems of each PT_LOAD, in order.  */
static void
expect_problems (const struct judged *j, unsigned p0, unsigned p1,
		 unsigned p2)
{
  unsigned want[] = { p0, p1, p2 };

  CHECK_EQ (j->layout.nseg, 3);
  for (size_t i = 0; i < 3 && i < j->layout.nseg; i++)
    CHECK_EQ (j->layout.seg[i].problems, want[i]);
}

static void
good_layout_passes (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  judge (&j, &spec, NULL, NULL);
  const struct ht_layout *l = &j.layout;
  CHECK_EQ (l->page_size, 2 * MiB);
  CHECK_EQ (l->min_size, 2 * MiB);
  CHECK (l->applicable);
  CHECK_EQ (l->eligible, 1);
  CHECK_EQ (l->failing, 0);
  CHECK (!l->seg[0].code && !l->seg[0].eligible);
  CHECK (l->seg[1].code && l->seg[1].eligible);
  CHECK (l->seg[1].size_from_sections);
  CHECK_EQ (l->seg[1].code_size, 0x3f0000);
  CHECK_EQ (l->seg[1].tail_padding, 0x10000);
  CHECK_EQ (l->seg[1].fill, HT_FILL_ZERO);
  CHECK_EQ (l->seg[1].front_gap, 0x200000 - 0x800);
  CHECK (!l->seg[2].code);
  CHECK_EQ (l->seg[2].tail_padding, 0);
  done (&j);
}

/* The same layout read in each class and byte order.  */
static void
every_class_and_byte_order (void)
{
  static const struct { unsigned cls; bool be; uint16_t machine; } v[] = {
    { 64, false, EM_AARCH64 }, { 64, true, EM_PPC64 },
    { 32, false, EM_386 }, { 32, true, EM_PPC },
  };

  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    {
      struct eb_elf spec = eb_good_x86_64 ();
      struct ht_layout_opts opts = { .page_size = 2 * MiB };
      struct judged j;

      spec.cls = v[i].cls;
      spec.be = v[i].be;
      spec.machine = v[i].machine;
      judge (&j, &spec, &opts, NULL);
      CHECK_EQ (j.layout.eligible, 1);
      CHECK_EQ (j.layout.failing, 0);
      CHECK_EQ (j.layout.seg[1].code_size, 0x3f0000);
      done (&j);

      spec.seg[1].offset += 0x1000;
      judge (&j, &spec, &opts, NULL);
      expect_problems (&j, 0, HT_P_OFFSET, 0);
      done (&j);
    }
}

/* Rule `start`.  */
static void
start_must_be_aligned (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  spec.seg[1].vaddr += 0x1000;
  spec.sec[1].addr += 0x1000;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, HT_P_VADDR, 0);
  CHECK_EQ (j.layout.failing, 1);
  done (&j);

  spec = eb_good_x86_64 ();
  spec.seg[1].align = 0x1000;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, HT_P_ALIGN, 0);
  done (&j);
}

/* Rule `end`.  */
static void
tail_must_be_padded (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  spec.seg[1].filesz = spec.seg[1].memsz = 0x3f0000;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, HT_P_TAIL, 0);
  CHECK_EQ (j.layout.seg[1].tail_padding, 0);
  CHECK_EQ (j.layout.seg[1].fill, HT_FILL_NONE);
  done (&j);

  /* Padding that is not in the file.  */
  spec = eb_good_x86_64 ();
  spec.seg[1].filesz = 0x3f0000;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, HT_P_MEMSZ | HT_P_TAIL, 0);
  done (&j);
}

static void
fill_with_trap (unsigned char *buf)
{
  memset (buf + 0x5f0000, 0xcc, 0x10000);
}

static void
fill_with_nops (unsigned char *buf)
{
  memset (buf + 0x5f0000, 0x90, 0x10000);
}

static void
fill_with_data (unsigned char *buf)
{
  fill_with_trap (buf);
  buf[0x5f1234] = 0x90;
}

/* Rule `end` (end.fill): padding is zeros or the target's fill.  */
static void
padding_is_fill (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  judge (&j, &spec, NULL, fill_with_trap);
  CHECK_EQ (j.layout.seg[1].fill, HT_FILL_TRAP);
  expect_problems (&j, 0, 0, 0);
  done (&j);

  /* 0xcc is x86's trap (lib/machines.def), not aarch64's.  */
  spec.machine = EM_AARCH64;
  judge (&j, &spec, NULL, fill_with_trap);
  CHECK_EQ (j.layout.seg[1].fill, HT_FILL_PATTERN);
  done (&j);
  spec.machine = EM_X86_64;

  judge (&j, &spec, NULL, fill_with_nops);
  CHECK_EQ (j.layout.seg[1].fill, HT_FILL_PATTERN);
  expect_problems (&j, 0, 0, 0);
  done (&j);

  judge (&j, &spec, NULL, fill_with_data);
  CHECK_EQ (j.layout.seg[1].fill, HT_FILL_DATA);
  expect_problems (&j, 0, HT_P_FILL, 0);
  done (&j);

  /* headers_only: the padding is not read, so not judged.  */
  struct ht_layout_opts headers = { .headers_only = true };
  judge (&j, &spec, &headers, fill_with_data);
  CHECK_EQ (j.layout.seg[1].fill, HT_FILL_NONE);
  expect_problems (&j, 0, 0, 0);
  done (&j);
}

/* Rule `strip`: the copy of a padded segment in a separate debug file has no
   file contents; its address, memory size and alignment are judged.  */
static void
debug_file_segment (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  for (size_t i = 0; i < spec.nseg; i++)
    {
      spec.seg[i].offset = 0;
      spec.seg[i].filesz = 0;
    }
  for (size_t i = 0; i < spec.nsec; i++)
    spec.sec[i].type = SHT_NOBITS;
  judge (&j, &spec, NULL, NULL);
  CHECK_EQ (j.layout.eligible, 1);
  expect_problems (&j, 0, 0, 0);
  done (&j);

  spec.seg[1].memsz = 0x3f0000;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, HT_P_TAIL, 0);
  done (&j);

  /* With -z noseparate-code the code segment holds the ELF headers, which
     the debug file keeps: p_filesz is theirs, and p_offset is 0; a
     p_offset past the end of the file is fine where p_filesz is 0.  */
  spec.seg[1].memsz = 0x400000;
  spec.seg[1].filesz = 0x190;
  spec.seg[2].offset = 0x7fffffff;
  judge (&j, &spec, NULL, NULL);
  CHECK_EQ (j.layout.eligible, 1);
  expect_problems (&j, 0, 0, 0);
  done (&j);

  /* The notes keep their contents in a debug file: still no code.  */
  spec.sec[0].flags = SHF_ALLOC;
  spec.sec[0].type = SHT_NOTE;
  spec.sec[0].addr = 0x200000;
  spec.sec[0].size = 0x20;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, 0, 0);
  done (&j);

  /* But a segment whose code has contents is judged as one.  */
  spec.sec[1].type = SHT_PROGBITS;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, HT_P_MEMSZ | HT_P_TAIL, 0);
  done (&j);
}

/* Rule `noop`: below the min size nothing is required.  */
static void
below_min_size_is_left_alone (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  /* A plain small link: text right after the headers.  */
  spec.seg[1].offset = spec.seg[1].vaddr = 0x1000;
  spec.seg[1].filesz = spec.seg[1].memsz = 0x1fffff;
  spec.seg[1].align = 0x1000;
  spec.sec[1].addr = spec.sec[1].offset = 0x1000;
  spec.sec[1].size = 0x1fffff;
  judge (&j, &spec, NULL, NULL);
  CHECK_EQ (j.layout.eligible, 0);
  CHECK_EQ (j.layout.failing, 0);
  CHECK (j.layout.seg[1].code && !j.layout.seg[1].eligible);
  done (&j);

  /* One byte more and it is eligible, and fails.  */
  spec.sec[1].size = spec.seg[1].filesz = spec.seg[1].memsz = 0x200000;
  judge (&j, &spec, NULL, NULL);
  CHECK_EQ (j.layout.eligible, 1);
  expect_problems (&j, 0, HT_P_OFFSET | HT_P_VADDR | HT_P_ALIGN, 0);
  done (&j);
}

static void
min_size_option (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct ht_layout_opts opts = { .min_size = 0x400000 };
  struct judged j;

  /* 0x3f0000 bytes of code: below a 4 MiB min size.  */
  judge (&j, &spec, &opts, NULL);
  CHECK_EQ (j.layout.min_size, 0x400000);
  CHECK_EQ (j.layout.eligible, 0);
  CHECK_EQ (j.layout.failing, 0);
  done (&j);
}

static void
page_size_option (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct ht_layout_opts opts = { .page_size = 4 * MiB,
				 .min_size = 0x1000 };
  struct judged j;

  judge (&j, &spec, &opts, NULL);
  CHECK_EQ (j.layout.page_size, 4 * MiB);
  expect_problems (&j, 0, HT_P_ALIGN | HT_P_VADDR | HT_P_OFFSET, 0);
  done (&j);

  struct ht_elf elf;
  struct ht_layout l;
  char err[HT_ERRLEN];
  size_t len;
  unsigned char *buf = eb_build (&spec, &len);
  opts.page_size = 3 * MiB;
  CHECK (ht_elf_parse (&elf, buf, len, err) == 0);
  CHECK (ht_layout_check (&l, &elf, &opts, err) != 0);
  CHECK (strstr (err, "not a power of two") != NULL);
  ht_elf_free (&elf);
  free (buf);
}

/* Rule `others`: only eligible code segments are aligned to H...  */
static void
others_keep_their_alignment (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  spec.seg[2].align = 2 * MiB;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, 0, HT_P_OVERALIGNED);
  done (&j);
}

/* ...unless the max page size already aligns every PT_LOAD to H.  */
static void
max_page_size_at_least_h (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  spec.seg[0].align = spec.seg[2].align = 2 * MiB;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, 0, 0);
  done (&j);
}

/* A producer's padding section is not code.  */
static void
padding_section_is_not_code (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  spec.sec[spec.nsec++] = (struct eb_sec) {
    HT_PADDING_SECTION_PREFIX, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
    0x5f0000, 0x5f0000, 0x10000 };
  judge (&j, &spec, NULL, NULL);
  CHECK_EQ (j.layout.seg[1].code_size, 0x3f0000);
  CHECK_EQ (j.layout.seg[1].tail_padding, 0x10000);
  expect_problems (&j, 0, 0, 0);
  done (&j);
}

/* Rule `strip` (strip.section): a padding section is allocated and
   executable and ends with the segment.  */
static void
padding_section_is_well_formed (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;
  size_t pad = spec.nsec++;

  spec.sec[pad] = (struct eb_sec) {
    HT_PADDING_SECTION_PREFIX, SHT_PROGBITS, SHF_ALLOC, 0x5f0000,
    0x5f0000, 0x10000 };
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, HT_P_PAD_SECTION, 0);
  done (&j);

  spec.sec[pad].flags = SHF_ALLOC | SHF_EXECINSTR;
  spec.sec[pad].size = 0x8000;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, HT_P_PAD_SECTION, 0);
  done (&j);

  spec.sec[pad].size = 0x10000;
  judge (&j, &spec, NULL, NULL);
  expect_problems (&j, 0, 0, 0);
  done (&j);
}

/* Without section headers the whole segment counts as code.  */
static void
no_sections_means_filesz (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  spec.no_shdrs = true;
  judge (&j, &spec, NULL, NULL);
  CHECK (!j.layout.seg[1].size_from_sections);
  CHECK_EQ (j.layout.seg[1].code_size, 0x400000);
  CHECK_EQ (j.layout.seg[1].tail_padding, 0);
  expect_problems (&j, 0, 0, 0);
  done (&j);
}

/* Writable or non-executable segments are never code.  */
static void
what_counts_as_code (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  spec.seg[1].flags = PF_R | PF_W | PF_X;
  spec.seg[1].offset = 0x201000;
  judge (&j, &spec, NULL, NULL);
  CHECK (!j.layout.seg[1].code);
  CHECK_EQ (j.layout.eligible, 0);
  CHECK_EQ (j.layout.failing, 0);
  done (&j);
}

/* Rule `scope`: relocatable objects are not judged.  */
static void
relocatable_not_applicable (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;

  spec.type = ET_REL;
  spec.seg[1].offset = 0x1000;
  judge (&j, &spec, NULL, NULL);
  CHECK (!j.layout.applicable);
  CHECK_EQ (j.layout.eligible, 0);
  CHECK_EQ (j.layout.failing, 0);
  done (&j);
}

static void
default_page_sizes (void)
{
  static const struct { uint16_t machine; unsigned cls; uint64_t h; } v[] = {
    { EM_X86_64, 64, 2 * MiB }, { EM_386, 32, 2 * MiB },
    { EM_AARCH64, 64, 2 * MiB }, { EM_RISCV, 64, 2 * MiB },
    { EM_PPC64, 64, 2 * MiB }, { EM_S390, 64, 1 * MiB },
    { EM_LOONGARCH, 64, 32 * MiB }, { EM_MIPS, 32, 0 },
  };

  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    {
      struct ht_elf elf = { .machine = v[i].machine, .elf_class = v[i].cls };
      CHECK_EQ (ht_default_page_size (&elf), v[i].h);
    }

  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;
  spec.machine = EM_MIPS;
  judge (&j, &spec, NULL, NULL);
  CHECK (j.layout.page_size_guessed);
  CHECK_EQ (j.layout.page_size, 2 * MiB);
  done (&j);
}

struct seen
{
  int n;
  unsigned bits;
};

/* Each problem comes with the id of its bit, once.  */
static void
count_problem (void *ctx, const char *id, const char *msg)
{
  struct seen *seen = ctx;
  unsigned bit = 0;

  CHECK (msg != NULL && msg[0] != '\0');
  for (unsigned i = 0; i < HT_NPROBLEMS; i++)
    if (ht_problem_id (1u << i) != NULL
	&& strcmp (ht_problem_id (1u << i), id) == 0)
      bit = 1u << i;
  CHECK (bit != 0);
  CHECK ((seen->bits & bit) == 0);
  seen->bits |= bit;
  seen->n++;
}

static void
every_problem_explained (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct judged j;
  struct seen seen = { 0, 0 };

  spec.seg[1].vaddr += 0x1000;
  spec.seg[1].offset += 0x1000;
  spec.seg[1].align = 0x1000;
  spec.seg[1].filesz = 0x3f0000;
  judge (&j, &spec, NULL, NULL);
  unsigned p = j.layout.seg[1].problems;
  ht_layout_explain (&j.layout, &j.layout.seg[1], count_problem, &seen);
  CHECK_EQ (seen.n, __builtin_popcount (p));
  CHECK_EQ (seen.n, 5);
  CHECK_EQ (seen.bits, p);
  CHECK_EQ (strcmp (ht_problem_id (HT_P_VADDR), "start.vaddr"), 0);
  CHECK (ht_problem_id (0) == NULL);
  done (&j);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (good_layout_passes), UNIT_TEST (every_class_and_byte_order),
    UNIT_TEST (start_must_be_aligned), UNIT_TEST (tail_must_be_padded),
    UNIT_TEST (padding_is_fill), UNIT_TEST (debug_file_segment),
    UNIT_TEST (below_min_size_is_left_alone),
    UNIT_TEST (min_size_option), UNIT_TEST (page_size_option),
    UNIT_TEST (others_keep_their_alignment),
    UNIT_TEST (max_page_size_at_least_h),
    UNIT_TEST (padding_section_is_not_code),
    UNIT_TEST (padding_section_is_well_formed),
    UNIT_TEST (no_sections_means_filesz), UNIT_TEST (what_counts_as_code),
    UNIT_TEST (relocatable_not_applicable), UNIT_TEST (default_page_sizes),
    UNIT_TEST (every_problem_explained),
  };
  return unit_main ("layout", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
