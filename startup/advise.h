/* What both forms of the startup helper do to one loaded object's code:
   the settings from HUGETEXT_STARTUP, the huge pages a code segment
   covers, MADV_HUGEPAGE and MADV_COLLAPSE on them, and the reports.
   hugetext-startup.c walks the objects loaded at startup;
   hugetext-audit.c is told of each object as ld.so maps it.  */
#ifndef HUGETEXT_STARTUP_ADVISE_H
#define HUGETEXT_STARTUP_ADVISE_H

#include <link.h>
#include <stdbool.h>
#include <stdint.h>

struct ht_advise
{
  const char *who;		/* The prefix of reports.  */
  bool collapse;		/* HUGETEXT_STARTUP=collapse.  */
  bool verbose;			/* ",verbose".  */
  uintptr_t h;			/* H; 0 until ht_advise_h is called.  */
};

/* Read HUGETEXT_STARTUP into *S, reports prefixed by WHO: words
   separated by commas, blanks around them ignored, at most one of off,
   advise (the default, also where it is unset or empty) and collapse,
   and verbose.  A word it does not know, or two modes, is reported on
   standard error whatever the verbosity, and the default applies.
   False where it says off: do nothing.  */
bool ht_advise_settings (struct ht_advise *s, const char *who);

/* H for S, found on first use: the kernel's PMD size, else this
   machine's line of lib/machines.def.  */
uintptr_t ht_advise_h (struct ht_advise *s);

/* Report on standard error when S is verbose; write(2), so that no stdio
   state of the program changes.  */
void ht_advise_report (const struct ht_advise *s, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Whether P is a code segment long enough to cover a huge page of this
   machine, at its smallest H (lib/machines.def): the one check every
   object pays, with no system call.  */
bool ht_advise_candidate (const ElfW(Phdr) *p);

/* The huge pages [*FIRST, *LAST) that the segment P of an object loaded
   at BIAS covers, where it is a code segment whose address and file
   offset are congruent modulo H; false where it covers none.  */
bool ht_advise_range (struct ht_advise *s, uintptr_t bias,
		      const ElfW(Phdr) *p, uintptr_t *first, uintptr_t *last);

/* MADV_HUGEPAGE on [FIRST, LAST) of the object NAME; false, reported,
   where the kernel refused it.  */
bool ht_advise_hugepage (const struct ht_advise *s, const char *name,
			 uintptr_t first, uintptr_t last);

/* MADV_COLLAPSE on [FIRST, LAST) of the object NAME, whose file is PATH
   (NULL: the program); the report says what a refusal means on this
   kernel.  */
void ht_advise_collapse (const struct ht_advise *s, const char *name,
			 const char *path, uintptr_t first, uintptr_t last);

#endif
