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
   asked.  */

#define _GNU_SOURCE
#include "hugetext/machine.h"
#include "hugetext/thp.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

struct settings
{
  bool collapse;
  bool verbose;
  uintptr_t h;			/* The huge page size.  */
};

static void
report (const struct settings *s, const char *fmt, ...)
{
  char buf[512];
  va_list ap;
  int n;

  if (!s->verbose)
    return;
  va_start (ap, fmt);
  n = vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  if (n > 0)
    {
      size_t len = (size_t) n < sizeof buf ? (size_t) n : sizeof buf - 1;
      /* write(2): no stdio buffering state changes in the program.  */
      if (write (STDERR_FILENO, buf, len) < 0)
	return;
    }
}

/* What MADV_COLLAPSE failing with EINVAL for the text of PATH (NULL: the
   program) means on this kernel, in BUF (HT_FS_WHY_LEN bytes).  */
static const char *
collapse_einval (const char *path, uintptr_t h, char *buf)
{
  struct ht_fs_info fs;
  int fd = open (path ? path : "/proc/self/exe", O_RDONLY | O_CLOEXEC);

  if (fd < 0 || ht_fs_info (fd, h, &fs) != 0)
    ht_fs_describe (0, ht_kernel_version (), h, &fs);
  if (fd >= 0)
    close (fd);
  return ht_collapse_einval (&fs, buf);
}

static int
advise_object (struct dl_phdr_info *info, size_t size, void *data)
{
  const struct settings *s = data;
  const char *name = info->dlpi_name && *info->dlpi_name
		     ? info->dlpi_name : "(the program)";
  int i;

  (void) size;
  for (i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *p = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + p->p_vaddr;
      uintptr_t first, last;

      if (p->p_type != PT_LOAD || !(p->p_flags & PF_X)
	  || (p->p_flags & PF_W))
	continue;
      /* Only where a huge page of the file can back a huge page of the
	 mapping.  */
      if ((start - p->p_offset) % s->h != 0)
	continue;
      first = (start + s->h - 1) & ~(s->h - 1);
      last = (start + p->p_memsz) & ~(s->h - 1);
      if (last <= first)
	continue;
      if (madvise ((void *) first, last - first, MADV_HUGEPAGE) != 0)
	{
	  report (s, "hugetext-startup: %s: MADV_HUGEPAGE: %s\n", name,
		  strerror (errno));
	  continue;
	}
      report (s, "hugetext-startup: %s: MADV_HUGEPAGE on %#lx-%#lx "
	      "(%lu KiB)\n", name, (unsigned long) first,
	      (unsigned long) last, (unsigned long) (last - first) / 1024);
      if (s->collapse)
	{
	  char why[HT_FS_WHY_LEN];

	  if (madvise ((void *) first, last - first, MADV_COLLAPSE) == 0)
	    report (s, "hugetext-startup: %s: MADV_COLLAPSE done\n", name);
	  else if (errno == EINVAL && s->verbose)
	    report (s, "hugetext-startup: %s: %s\n", name,
		    collapse_einval (info->dlpi_name && *info->dlpi_name
				     ? info->dlpi_name : NULL, s->h, why));
	  else
	    report (s, "hugetext-startup: %s: MADV_COLLAPSE: %s\n", name,
		    strerror (errno));
	}
    }
  return 0;
}

/* What the constructor does; it runs before main, so errno is put back
   as it was around it.  */
static void
startup (void)
{
  const char *env = getenv ("HUGETEXT_STARTUP");
  struct settings s = { false, false, 0 };
  enum ht_h_source source;
  char mode[32];
  const char *comma;

  if (env == NULL)
    env = "advise";
  comma = strchr (env, ',');
  snprintf (mode, sizeof mode, "%.*s",
	    comma ? (int) (comma - env) : (int) strlen (env), env);
  s.verbose = comma != NULL && strcmp (comma + 1, "verbose") == 0;
  if (strcmp (mode, "off") == 0)
    return;
  if (strcmp (mode, "collapse") == 0)
    s.collapse = true;
  else if (strcmp (mode, "advise") != 0)
    {
      report (&s, "hugetext-startup: HUGETEXT_STARTUP='%s': expected off, "
	      "advise or collapse; doing nothing\n", env);
      return;
    }
  s.h = (uintptr_t) ht_runtime_page_size (0, &source);
  report (&s, "hugetext-startup: H %lu KiB (%s)\n",
	  (unsigned long) s.h / 1024, ht_h_source_name (source));
  dl_iterate_phdr (advise_object, &s);
}

__attribute__ ((constructor)) static void
hugetext_startup (void)
{
  int saved = errno;

  startup ();
  errno = saved;
}
