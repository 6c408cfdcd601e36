/* The hugetext layout contract (docs/contract.md), as a judgement on one
   parsed ELF file.

   ht_layout_check() looks at every PT_LOAD, decides which are eligible code
   segments and records, per segment, which rules they break.  It reads only
   the headers (and the padding bytes, to see that they are fill); how much
   of the padding is a hole on disk is measured separately from the file
   descriptor, by ht_layout_measure_holes().  */

#ifndef HUGETEXT_LAYOUT_H
#define HUGETEXT_LAYOUT_H

#include "hugetext/elf.h"

/* Sections whose name starts with this hold padding a producer added
   (LLD keeps its padding in a section so that every strip tool keeps it).
   They do not count towards the code size.  */
#define HT_PADDING_SECTION_PREFIX ".hugetext_padding"

struct ht_layout_opts
{
  uint64_t page_size;		/* H; 0: the machine's default.  */
  uint64_t min_size;		/* 0: same as H.  */
  bool headers_only;		/* Do not read the padding bytes (no fill
				   check): for a caller that must not bring
				   the file's pages into the page cache.  */
};

/* One bit per check of the contract (hugetext/rules.def): HT_P_VADDR
   and so on.  */
enum ht_problem_index
{
#define HT_RULE(bit, id) HT_PI_##bit,
#include "hugetext/rules.def"
#undef HT_RULE
  HT_NPROBLEMS
};

enum ht_problem
{
#define HT_RULE(bit, id) HT_P_##bit = 1u << HT_PI_##bit,
#include "hugetext/rules.def"
#undef HT_RULE
};

/* The bits are an unsigned int's, and enum constants must fit an int.  */
_Static_assert (HT_NPROBLEMS < 31, "too many checks for a problem mask");

enum ht_fill
{
  HT_FILL_NONE,			/* No padding bytes in the file.  */
  HT_FILL_ZERO,
  HT_FILL_TRAP,			/* The machine's trap instruction, repeated.  */
  HT_FILL_PATTERN,		/* Another repeated 1-, 2- or 4-byte pattern.  */
  HT_FILL_DATA,			/* Anything else.  */
};

struct ht_segment
{
  size_t phdr_index;		/* Index in the program header table.  */
  const struct ht_phdr *ph;
  bool code;			/* PF_X set, PF_W clear.  */
  bool eligible;		/* Code, and code size >= min size.  */
  bool size_from_sections;	/* False: no sections, code size = filesz.  */
  bool no_contents;		/* Its code sections have no file contents
				   (a separate debug file); the file may
				   still hold the ELF headers and notes.  */
  uint64_t code_size;
  uint64_t tail_padding;	/* Bytes from the code's end to p_memsz.  */
  uint64_t front_gap;		/* File bytes between the previous PT_LOAD
				   in file order and this one.  */
  enum ht_fill fill;
  /* Set by ht_layout_measure_holes(); 0 until then.  */
  uint64_t gap_holes, tail_holes;
  unsigned problems;		/* enum ht_problem bits.  */
};

struct ht_layout
{
  const struct ht_elf *elf;	/* The file judged.  */
  uint64_t page_size;
  uint64_t min_size;
  bool page_size_guessed;	/* No known default for this machine.  */
  bool applicable;		/* ET_EXEC or ET_DYN.  */
  bool uniform_align;		/* Every PT_LOAD has the same p_align.  */
  bool headers_only;		/* From the options: no fill read.  */
  uint64_t max_align;		/* Largest p_align of all PT_LOADs.  */
  size_t nseg;
  struct ht_segment *seg;	/* One per PT_LOAD, in header order.  */
  size_t eligible;		/* How many segments are eligible.  */
  size_t failing;		/* How many segments have problems.  */
};

/* The contract's default H for a machine; 0 if there is none.  */
uint64_t ht_default_page_size (const struct ht_elf *elf);

/* Judge ELF.  Returns 0, or -1 with the reason in ERR (bad options, out
   of memory).  */
int ht_layout_check (struct ht_layout *out, const struct ht_elf *elf,
		     const struct ht_layout_opts *opts, char err[HT_ERRLEN]);

/* The range of the file that hugetext warm fills with huge folios: the
   whole huge pages of L's first eligible code segment that starts on an
   H boundary in both address and file offset, at *OFFSET.  Returns its
   size; 0 where no segment does.  */
uint64_t ht_layout_aligned_text (const struct ht_layout *l,
				 uint64_t *offset);

/* Fill in gap_holes and tail_holes from FD, the file ELF was read from.  */
void ht_layout_measure_holes (struct ht_layout *layout, int fd);

void ht_layout_free (struct ht_layout *layout);

/* Each problem of SEG: calls EMIT once per problem with the check's id
   ("start.vaddr"; see docs/contract.md) and a full sentence for a person
   (no trailing newline).  */
void ht_layout_explain (const struct ht_layout *layout,
			const struct ht_segment *seg,
			void (*emit) (void *ctx, const char *id,
				      const char *msg), void *ctx);

/* The id of problem bit P (one of enum ht_problem), or NULL.  */
const char *ht_problem_id (unsigned p);

const char *ht_fill_name (enum ht_fill fill);

#endif
