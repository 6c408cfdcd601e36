/* libhugetext-startup: ask the kernel for huge pages for a program's text
   at startup.

   Linked into a program (the object or the static library, whole) or
   preloaded (LD_PRELOAD=libhugetext-startup.so), its constructor walks the
   loaded objects with dl_iterate_phdr and, for each code segment whose
   address and file offset are congruent modulo H (what -z hugetext
   gives; H is the kernel's PMD size, or this machine's in lib's machine
   table), applies MADV_HUGEPAGE to the huge pages it covers, and then
   MADV_COLLAPSE where asked and supported.  On THP "madvise" systems this
   lets readahead fill the page cache with huge folios.

   HUGETEXT_STARTUP selects what it does: "off", "advise" (the default) or
   "collapse", optionally followed by ",verbose" to report on standard
   error.  It never makes the program fail and prints nothing unless
   asked.

   It sees only the objects loaded when it runs: hugetext-audit.c is the
   form that also sees those loaded later with dlopen.  */

#define _GNU_SOURCE
#include "advise.h"

#include <errno.h>
#include <stddef.h>

static int
advise_object (struct dl_phdr_info *info, size_t size, void *data)
{
  struct ht_advise *s = data;
  const char *path = info->dlpi_name && *info->dlpi_name
		     ? info->dlpi_name : NULL;
  const char *name = path ? path : "(the program)";
  uintptr_t first, last;

  (void) size;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (ht_advise_range (s, info->dlpi_addr, &info->dlpi_phdr[i], &first,
			 &last)
	&& ht_advise_hugepage (s, name, first, last) && s->collapse)
      ht_advise_collapse (s, name, path, first, last);
  return 0;
}

/* It runs before main, so errno is put back as it was around it.  */
__attribute__ ((constructor)) static void
hugetext_startup (void)
{
  int saved = errno;
  struct ht_advise s;

  if (ht_advise_settings (&s, "hugetext-startup"))
    dl_iterate_phdr (advise_object, &s);
  errno = saved;
}
