/* The hugetext layout contract as a judgement on one ELF file: see
   hugetext/layout.h and docs/contract.md.  */

#include "hugetext/layout.h"
#include "hugetext/file.h"
#include "hugetext/machine.h"
#include "hugetext/size.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t
ht_default_page_size (const struct ht_elf *elf)
{
  const struct ht_machine *m = ht_machine_find (elf->machine,
						elf->elf_class, 0);

  return m != NULL ? m->huge_page : 0;
}

/* Whether section S lies in segment PH and counts as its code.  */
static bool
section_in_segment (const struct ht_shdr *s, const struct ht_phdr *ph)
{
  if (!(s->flags & SHF_ALLOC) || s->size == 0)
    return false;
  /* .tbss takes no room in the segment it appears to overlap.  */
  if (s->type == SHT_NOBITS && (s->flags & SHF_TLS))
    return false;
  if (ht_shdr_name_starts (s, HT_PADDING_SECTION_PREFIX))
    return false;
  return s->addr >= ph->vaddr && s->addr - ph->vaddr < ph->memsz;
}

/* The bytes the sections of SEG occupy, measured from p_vaddr: padding
   after the last section is not code.  Without section headers all of
   p_filesz counts.  */
static void
measure_code (struct ht_segment *seg, const struct ht_elf *elf)
{
  const struct ht_phdr *ph = seg->ph;
  uint64_t end = 0;
  bool contents = false, nobits_code = false;

  for (size_t i = 0; i < elf->shnum; i++)
    {
      const struct ht_shdr *s = &elf->shdrs[i];

      if (!section_in_segment (s, ph))
	continue;
      if ((s->flags & SHF_EXECINSTR) != 0 && s->size != 0)
	{
	  if (s->type == SHT_NOBITS)
	    nobits_code = true;
	  else
	    contents = true;
	}
      uint64_t rel_end = s->addr - ph->vaddr;
      rel_end = s->size > ph->memsz - rel_end ? ph->memsz : rel_end + s->size;
      if (rel_end > end)
	end = rel_end;
      seg->size_from_sections = true;
    }
  seg->code_size = seg->size_from_sections ? end : ph->filesz;
  seg->no_contents = nobits_code && !contents;
  seg->tail_padding = ph->memsz - seg->code_size;
}

/* Whether BYTES[0, LEN) is the trap instruction of machine M, in the
   byte order BIG_ENDIAN, repeated (a partial one may end it).  */
static bool
is_trap_fill (const unsigned char *bytes, uint64_t len,
	      const struct ht_machine *m, bool big_endian)
{
  unsigned char trap[4];

  if (m == NULL || m->trap_len == 0)
    return false;
  for (unsigned i = 0; i < m->trap_len; i++)
    {
      unsigned shift = 8 * (big_endian ? m->trap_len - 1 - i : i);
      trap[i] = (unsigned char) (m->trap >> shift);
    }
  for (uint64_t i = 0; i < len; i++)
    if (bytes[i] != trap[i % m->trap_len])
      return false;
  return true;
}

/* What fills BYTES[0, LEN): zeros, the machine's trap instruction, another
   short repeated pattern (a nop fill), or something else.  */
static enum ht_fill
classify_fill (const unsigned char *bytes, uint64_t len,
	       const struct ht_elf *elf)
{
  static const unsigned periods[] = { 1, 2, 4 };

  if (len == 0)
    return HT_FILL_NONE;
  uint64_t i = 0;
  while (i < len && bytes[i] == 0)
    i++;
  if (i == len)
    return HT_FILL_ZERO;
  if (is_trap_fill (bytes, len, ht_machine_find (elf->machine,
						  elf->elf_class, 0),
		    elf->big_endian))
    return HT_FILL_TRAP;
  for (size_t k = 0; k < sizeof periods / sizeof periods[0]; k++)
    {
      unsigned p = periods[k];

      for (i = p; i < len && bytes[i] == bytes[i - p]; i++)
	;
      if (i >= len)
	return HT_FILL_PATTERN;
    }
  return HT_FILL_DATA;
}

/* File bytes between SEG and the end of the PT_LOAD before it in the
   file (or the start of the file).  */
static uint64_t
front_gap (const struct ht_layout *l, const struct ht_segment *seg)
{
  uint64_t prev_end = 0;

  for (size_t j = 0; j < l->nseg; j++)
    {
      const struct ht_phdr *o = l->seg[j].ph;

      if (&l->seg[j] == seg || o->offset >= seg->ph->offset)
	continue;
      if (o->offset + o->filesz > prev_end)
	prev_end = o->offset + o->filesz;
    }
  return seg->ph->offset > prev_end ? seg->ph->offset - prev_end : 0;
}

/* The checks of hugetext/rules.def.  Each says whether segment S breaks
   it and, if so and MSG is not NULL, why, in a sentence.  The rules
   `start` and `end` apply to eligible code segments, `others` to the
   rest (docs/contract.md).  */

#define SAY(...) (msg != NULL ? snprintf (msg, HT_ERRLEN, __VA_ARGS__) : 0)

/* A segment whose code sections have no file contents is the copy of one
   in a separate debug file (objcopy --only-keep-debug; with -z
   noseparate-code the file still holds the ELF headers and the notes
   there): its address, size and alignment still describe the program, its
   file offset and size nothing.  */
static bool
has_contents (const struct ht_segment *s)
{
  return s->ph->filesz != 0 && !s->no_contents;
}

static bool
check_VADDR (const struct ht_layout *l, const struct ht_segment *s,
	     char *msg)
{
  if (!s->eligible || s->ph->vaddr % l->page_size == 0)
    return false;
  SAY ("p_vaddr 0x%" PRIx64 " is not a multiple of H (0x%" PRIx64 ")",
       s->ph->vaddr, l->page_size);
  return true;
}

static bool
check_OFFSET (const struct ht_layout *l, const struct ht_segment *s,
	      char *msg)
{
  if (!s->eligible || !has_contents (s) || s->ph->offset % l->page_size == 0)
    return false;
  SAY ("p_offset 0x%" PRIx64 " is not a multiple of H (0x%" PRIx64 "), so "
       "the page cache cannot hold it in huge folios", s->ph->offset,
       l->page_size);
  return true;
}

static bool
check_ALIGN (const struct ht_layout *l, const struct ht_segment *s,
	     char *msg)
{
  if (!s->eligible || s->ph->align == l->page_size)
    return false;
  SAY ("p_align is 0x%" PRIx64 ", not H (0x%" PRIx64 ")", s->ph->align,
       l->page_size);
  return true;
}

static bool
check_MEMSZ (const struct ht_layout *l, const struct ht_segment *s,
	     char *msg)
{
  (void) l;
  if (!s->eligible || !has_contents (s) || s->ph->memsz == s->ph->filesz)
    return false;
  SAY ("p_memsz 0x%" PRIx64 " differs from p_filesz 0x%" PRIx64,
       s->ph->memsz, s->ph->filesz);
  return true;
}

static bool
check_TAIL (const struct ht_layout *l, const struct ht_segment *s,
	    char *msg)
{
  const char *field = has_contents (s) ? "p_filesz" : "p_memsz";
  uint64_t size = has_contents (s) ? s->ph->filesz : s->ph->memsz;

  if (!s->eligible || size % l->page_size == 0)
    return false;
  SAY ("%s 0x%" PRIx64 " is not a multiple of H: the tail is not padded to "
       "the next H boundary (0x%" PRIx64 " bytes short)", field, size,
       l->page_size - size % l->page_size);
  return true;
}

static bool
check_FILL (const struct ht_layout *l, const struct ht_segment *s,
	    char *msg)
{
  (void) l;
  if (!s->eligible || s->fill != HT_FILL_DATA)
    return false;
  SAY ("the tail padding holds data, neither zeros nor a repeated fill "
       "pattern");
  return true;
}

/* A link whose max page size is already >= H aligns every PT_LOAD alike;
   that is the linker's choice, not the option's, and is accepted.  */
static bool
check_OVERALIGNED (const struct ht_layout *l, const struct ht_segment *s,
		   char *msg)
{
  if (s->eligible || l->eligible == 0 || l->uniform_align
      || s->ph->align < l->page_size)
    return false;
  SAY ("p_align 0x%" PRIx64 " is at least H, but this is not an eligible "
       "code segment: only those may be aligned to H", s->ph->align);
  return true;
}

/* A padding section (HT_PADDING_SECTION_PREFIX) in S must be what the
   contract's rule `strip` asks for: allocated and executable, ending
   where the segment ends, so that every strip tool keeps the padding.  */
static bool
check_PAD_SECTION (const struct ht_layout *l, const struct ht_segment *s,
		   char *msg)
{
  const struct ht_phdr *ph = s->ph;

  if (!s->eligible)
    return false;
  for (size_t i = 0; i < l->elf->shnum; i++)
    {
      const struct ht_shdr *sh = &l->elf->shdrs[i];

      if (!ht_shdr_name_starts (sh, HT_PADDING_SECTION_PREFIX)
	  || sh->addr < ph->vaddr || sh->addr - ph->vaddr >= ph->memsz)
	continue;
      bool flags_ok = (sh->flags & (SHF_ALLOC | SHF_EXECINSTR))
		      == (SHF_ALLOC | SHF_EXECINSTR);
      bool ends = sh->size == ph->vaddr + ph->memsz - sh->addr;

      if (flags_ok && ends)
	continue;
      SAY ("the padding section %.*s %s", (int) sh->name_len, sh->name,
	   !flags_ok ? "is not allocated and executable"
	   : "does not end where the segment ends");
      return true;
    }
  return false;
}

#undef SAY

static const struct
{
  const char *id;
  bool (*broken) (const struct ht_layout *, const struct ht_segment *,
		  char *);
} checks[HT_NPROBLEMS] = {
#define HT_RULE(bit, id) [HT_PI_##bit] = { id, check_##bit },
#include "hugetext/rules.def"
#undef HT_RULE
};

const char *
ht_problem_id (unsigned p)
{
  for (size_t i = 0; i < HT_NPROBLEMS; i++)
    if (p == 1u << i)
      return checks[i].id;
  return NULL;
}

static unsigned
segment_problems (const struct ht_layout *l, const struct ht_segment *s)
{
  unsigned p = 0;

  if (!l->applicable)
    return 0;
  for (size_t i = 0; i < HT_NPROBLEMS; i++)
    if (checks[i].broken (l, s, NULL))
      p |= 1u << i;
  return p;
}

static int
resolve_sizes (struct ht_layout *l, const struct ht_elf *elf,
	       const struct ht_layout_opts *opts, char err[HT_ERRLEN])
{
  l->page_size = opts->page_size;
  if (l->page_size == 0)
    l->page_size = ht_default_page_size (elf);
  if (l->page_size == 0)
    {
      l->page_size = HT_ASSUMED_H;
      l->page_size_guessed = true;
    }
  if (!ht_is_pow2 (l->page_size) || l->page_size < HT_MIN_PAGE_SIZE)
    {
      snprintf (err, HT_ERRLEN, "huge page size 0x%" PRIx64 " is not a "
		"power of two of at least %u bytes", l->page_size,
		HT_MIN_PAGE_SIZE);
      return -1;
    }
  l->min_size = opts->min_size ? opts->min_size : l->page_size;
  l->headers_only = opts->headers_only;
  return 0;
}

static void
judge_segment (struct ht_layout *l, struct ht_segment *seg,
	       const struct ht_elf *elf)
{
  const struct ht_phdr *ph = seg->ph;

  seg->code = (ph->flags & PF_X) && !(ph->flags & PF_W);
  measure_code (seg, elf);
  seg->front_gap = front_gap (l, seg);
  if (seg->code_size < ph->filesz && !l->headers_only)
    seg->fill = classify_fill (elf->data + ph->offset + seg->code_size,
			       ph->filesz - seg->code_size, elf);
  seg->eligible = l->applicable && seg->code
		  && seg->code_size >= l->min_size;
  if (seg->eligible)
    l->eligible++;
}

int
ht_layout_check (struct ht_layout *l, const struct ht_elf *elf,
		 const struct ht_layout_opts *opts, char err[HT_ERRLEN])
{
  memset (l, 0, sizeof *l);
  l->elf = elf;
  if (resolve_sizes (l, elf, opts, err) != 0)
    return -1;
  l->applicable = elf->type == ET_EXEC || elf->type == ET_DYN;

  for (size_t i = 0; i < elf->phnum; i++)
    if (elf->phdrs[i].type == PT_LOAD)
      l->nseg++;
  l->seg = calloc (l->nseg ? l->nseg : 1, sizeof *l->seg);
  if (l->seg == NULL)
    {
      snprintf (err, HT_ERRLEN, "out of memory");
      return -1;
    }
  for (size_t i = 0, n = 0; i < elf->phnum; i++)
    if (elf->phdrs[i].type == PT_LOAD)
      {
	l->seg[n].phdr_index = i;
	l->seg[n].ph = &elf->phdrs[i];
	if (elf->phdrs[i].align > l->max_align)
	  l->max_align = elf->phdrs[i].align;
	n++;
      }

  l->uniform_align = true;
  for (size_t i = 0; i < l->nseg; i++)
    {
      judge_segment (l, &l->seg[i], elf);
      if (l->seg[i].ph->align != l->seg[0].ph->align)
	l->uniform_align = false;
    }
  for (size_t i = 0; i < l->nseg; i++)
    {
      l->seg[i].problems = segment_problems (l, &l->seg[i]);
      if (l->seg[i].problems)
	l->failing++;
    }
  return 0;
}

uint64_t
ht_layout_aligned_text (const struct ht_layout *l, uint64_t *offset)
{
  uint64_t h = l->page_size;

  for (size_t i = 0; i < l->nseg; i++)
    {
      const struct ht_phdr *ph = l->seg[i].ph;

      if (l->seg[i].eligible && ph->offset % h == 0 && ph->vaddr % h == 0
	  && ph->filesz >= h)
	{
	  *offset = ph->offset;
	  return ph->filesz / h * h;
	}
    }
  return 0;
}

void
ht_layout_measure_holes (struct ht_layout *l, int fd)
{
  for (size_t i = 0; i < l->nseg; i++)
    {
      struct ht_segment *seg = &l->seg[i];
      const struct ht_phdr *ph = seg->ph;

      seg->gap_holes = ht_file_hole_bytes (fd, ph->offset - seg->front_gap,
					   ph->offset);
      if (seg->code_size < ph->filesz)
	seg->tail_holes = ht_file_hole_bytes (fd, ph->offset + seg->code_size,
					      ph->offset + ph->filesz);
    }
}

void
ht_layout_free (struct ht_layout *l)
{
  free (l->seg);
  l->seg = NULL;
  l->nseg = 0;
}

void
ht_layout_explain (const struct ht_layout *l, const struct ht_segment *seg,
		   void (*emit) (void *ctx, const char *id, const char *msg),
		   void *ctx)
{
  char msg[HT_ERRLEN];

  for (size_t i = 0; i < HT_NPROBLEMS; i++)
    if ((seg->problems & (1u << i)) && checks[i].broken (l, seg, msg))
      emit (ctx, checks[i].id, msg);
}

const char *
ht_fill_name (enum ht_fill fill)
{
  switch (fill)
    {
    case HT_FILL_NONE: return "none";
    case HT_FILL_ZERO: return "zero";
    case HT_FILL_TRAP: return "trap";
    case HT_FILL_PATTERN: return "pattern";
    case HT_FILL_DATA: return "data";
    }
  return "?";
}
