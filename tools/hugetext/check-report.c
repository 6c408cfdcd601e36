/* How `hugetext check` shows its judgement of one file: a table for
   people, JSON for machines.  */

#include "check-report.h"

#include "hugetext/size.h"

#include <elf.h>
#include <inttypes.h>

bool
check_passed (const struct check_result *r)
{
  return r->error == NULL && r->layout->failing == 0;
}

static const char *
flags_str (uint32_t flags, char buf[4])
{
  buf[0] = flags & PF_R ? 'R' : '-';
  buf[1] = flags & PF_W ? 'W' : '-';
  buf[2] = flags & PF_X ? 'X' : '-';
  buf[3] = '\0';
  return buf;
}

static const char *
segment_verdict (const struct ht_layout *l, const struct ht_segment *s)
{
  if (s->problems)
    return "FAIL";
  if (!l->applicable)
    return "not applicable";
  if (!s->code)
    return "ok (not code)";
  if (!s->eligible)
    return "ok (below min size, left alone)";
  return "ok";
}

static void
emit_problem_text (void *ctx, const char *id, const char *msg)
{
  fprintf ((FILE *) ctx, "      problem [%s]: %s\n", id, msg);
}

static void
segment_text (FILE *out, const struct ht_layout *l,
	      const struct ht_segment *s, bool verbose)
{
  const struct ht_phdr *ph = s->ph;
  char fl[4], a[32], b[32], c[32];

  fprintf (out, "  [%zu] LOAD %s offset 0x%" PRIx64 " vaddr 0x%" PRIx64
	   " filesz 0x%" PRIx64 " memsz 0x%" PRIx64 " align 0x%" PRIx64
	   ": %s\n", s->phdr_index, flags_str (ph->flags, fl), ph->offset,
	   ph->vaddr, ph->filesz, ph->memsz, ph->align,
	   segment_verdict (l, s));
  if (s->code || verbose)
    {
      bool va = ph->vaddr % l->page_size == 0;
      bool oa = ph->offset % l->page_size == 0;

      fprintf (out, "      %s %s%s%s; %s\n",
	       s->code ? "code" : "contents", ht_format_size (s->code_size, a),
	       s->size_from_sections ? "" : " (no sections: all of p_filesz)",
	       !s->code ? "" : s->eligible ? ", eligible" : ", below min size",
	       va && oa ? "vaddr and offset aligned to H"
	       : va ? "vaddr aligned to H, offset not"
	       : oa ? "offset aligned to H, vaddr not"
	       : "vaddr and offset not aligned to H");
      fprintf (out, "      padding: front gap %s, tail %s (%s); %s of it "
	       "holes on disk\n", ht_format_size (s->front_gap, a),
	       ht_format_size (s->tail_padding, b), ht_fill_name (s->fill),
	       ht_format_size (s->gap_holes + s->tail_holes, c));
    }
  ht_layout_explain (l, s, emit_problem_text, out);
}

/* The rule ids of one segment's problems, for the brief verdict.  */
struct problem_ids
{
  FILE *out;
  int n;
};

static void
emit_problem_id (void *ctx, const char *id, const char *msg)
{
  struct problem_ids *p = ctx;

  (void) msg;
  fprintf (p->out, "%s%s", p->n++ ? ", " : "", id);
}

/* After the FAIL line's words, with BRIEF: which segment breaks which
   rules, as "; [3] 7.22 MiB of code: start.vaddr, end.size", so that a
   one-line verdict says why (the rules: docs/contract.md).  */
static void
failing_segments (FILE *out, const struct ht_layout *l)
{
  char a[32];

  for (size_t i = 0; i < l->nseg; i++)
    {
      const struct ht_segment *s = &l->seg[i];
      struct problem_ids p = { out, 0 };

      if (!s->problems)
	continue;
      fprintf (out, "; [%zu] %s of %s: ", s->phdr_index,
	       ht_format_size (s->code_size, a),
	       s->code ? "code" : "contents");
      ht_layout_explain (l, s, emit_problem_id, &p);
    }
}

static void
summary_text (FILE *out, const struct check_result *r, bool brief)
{
  const struct ht_layout *l = r->layout;
  char a[32];

  if (!l->applicable)
    fprintf (out, "%s: ok: the contract does not apply to %s files\n",
	     r->path, ht_elf_type_name (r->elf->type));
  else if (l->failing)
    {
      fprintf (out, "%s: FAIL: %zu of %zu PT_LOAD segments break the "
	       "contract", r->path, l->failing, l->nseg);
      if (brief)
	failing_segments (out, l);
      fputc ('\n', out);
    }
  else if (l->eligible)
    fprintf (out, "%s: ok: %zu eligible code segment%s meet%s the "
	     "contract\n", r->path, l->eligible, l->eligible == 1 ? "" : "s",
	     l->eligible == 1 ? "s" : "");
  else
    fprintf (out, "%s: ok: no code segment reaches the min size (%s); "
	     "the layout is left alone\n", r->path,
	     ht_format_size (l->min_size, a));
}

void
check_report_text (FILE *out, const struct check_result *r, bool verbose)
{
  const struct ht_elf *e = r->elf;
  const struct ht_layout *l = r->layout;
  char a[32], b[32];

  fprintf (out, "%s: ELF%u %s-endian %s %s; H %s%s, min size %s\n", r->path,
	   e->elf_class, e->big_endian ? "big" : "little",
	   ht_elf_machine_name (e->machine, e->elf_class),
	   ht_elf_type_name (e->type),
	   ht_format_size (l->page_size, a),
	   l->page_size_guessed ? " (no default for this machine: assumed)"
				: "", ht_format_size (l->min_size, b));
  for (size_t i = 0; i < l->nseg; i++)
    segment_text (out, l, &l->seg[i], verbose);
  summary_text (out, r, false);
}

void
check_report_brief (FILE *out, const struct check_result *r)
{
  summary_text (out, r, true);
}

struct problem_ctx
{
  struct ht_json *j;
};

static void
emit_problem_json (void *ctx, const char *id, const char *msg)
{
  struct ht_json *j = ((struct problem_ctx *) ctx)->j;

  ht_json_object (j, NULL);
  ht_json_str (j, "rule", id);
  ht_json_str (j, "message", msg);
  ht_json_end_object (j);
}

static void
segment_json (struct ht_json *j, const struct ht_layout *l,
	      const struct ht_segment *s)
{
  const struct ht_phdr *ph = s->ph;
  char fl[4];
  struct problem_ctx ctx = { j };

  ht_json_object (j, NULL);
  ht_json_u64 (j, "phdr_index", s->phdr_index);
  ht_json_str (j, "flags", flags_str (ph->flags, fl));
  ht_json_u64 (j, "offset", ph->offset);
  ht_json_u64 (j, "vaddr", ph->vaddr);
  ht_json_u64 (j, "filesz", ph->filesz);
  ht_json_u64 (j, "memsz", ph->memsz);
  ht_json_u64 (j, "align", ph->align);
  ht_json_bool (j, "code", s->code);
  ht_json_u64 (j, "code_size", s->code_size);
  ht_json_str (j, "code_size_from", s->size_from_sections ? "sections"
						       : "p_filesz");
  ht_json_bool (j, "eligible", s->eligible);
  ht_json_bool (j, "vaddr_aligned", ph->vaddr % l->page_size == 0);
  ht_json_bool (j, "offset_aligned", ph->offset % l->page_size == 0);
  ht_json_u64 (j, "front_gap", s->front_gap);
  ht_json_u64 (j, "tail_padding", s->tail_padding);
  ht_json_str (j, "tail_fill", ht_fill_name (s->fill));
  ht_json_u64 (j, "padding", s->front_gap + s->tail_padding);
  ht_json_u64 (j, "padding_holes", s->gap_holes + s->tail_holes);
  ht_json_bool (j, "ok", s->problems == 0);
  ht_json_array (j, "problems");
  ht_layout_explain (l, s, emit_problem_json, &ctx);
  ht_json_end_array (j);
  ht_json_end_object (j);
}

void
check_report_json (struct ht_json *j, const struct check_result *r)
{
  ht_json_object (j, NULL);
  ht_json_str (j, "file", r->path);
  if (r->error != NULL)
    {
      ht_json_str (j, "verdict", "error");
      ht_json_str (j, "error", r->error);
      ht_json_end_object (j);
      return;
    }

  const struct ht_elf *e = r->elf;
  const struct ht_layout *l = r->layout;
  ht_json_str (j, "verdict", check_passed (r) ? "ok" : "fail");
  ht_json_u64 (j, "class", e->elf_class);
  ht_json_str (j, "byte_order", e->big_endian ? "big" : "little");
  ht_json_str (j, "machine", ht_elf_machine_name (e->machine, e->elf_class));
  ht_json_u64 (j, "e_machine", e->machine);
  ht_json_str (j, "type", ht_elf_type_name (e->type));
  ht_json_bool (j, "applicable", l->applicable);
  ht_json_u64 (j, "page_size", l->page_size);
  ht_json_bool (j, "page_size_assumed", l->page_size_guessed);
  ht_json_u64 (j, "min_size", l->min_size);
  ht_json_u64 (j, "eligible_segments", l->eligible);
  ht_json_u64 (j, "failing_segments", l->failing);
  ht_json_array (j, "segments");
  for (size_t i = 0; i < l->nseg; i++)
    segment_json (j, l, &l->seg[i]);
  ht_json_end_array (j);
  ht_json_end_object (j);
}
