/* What both forms of the startup helper do to one object's code
   (advise.h).  Nothing here allocates or uses stdio: it runs before main,
   or inside ld.so's calls to an audit module.  */

#define _GNU_SOURCE
#include "advise.h"
#include "hugetext/machine.h"
#include "hugetext/thp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* Whether the word of LEN bytes at W is NAME.  */
static bool
word_is (const char *w, size_t len, const char *name)
{
  return strlen (name) == len && strncmp (w, name, len) == 0;
}

/* The length of the word at W: up to a comma, a blank or the end.  */
static size_t
word_len (const char *w)
{
  size_t len = 0;

  while (w[len] != '\0' && w[len] != ',' && w[len] != ' ' && w[len] != '\t')
    len++;
  return len;
}

bool
ht_advise_settings (struct ht_advise *s, const char *who)
{
  const char *env = getenv ("HUGETEXT_STARTUP");
  const char *w, *mode = NULL;
  size_t mode_len = 0;
  char bad[32] = "";
  bool no_comma = false;
  int modes = 0;

  s->who = who;
  s->collapse = false;
  s->verbose = false;
  s->h = 0;
  /* Words separated by commas, blanks around them ignored: at most one
     of off, advise, collapse, and verbose.  Unset or empty: advise.  */
  for (w = env ? env : ""; *w != '\0';)
    {
      size_t len;

      while (*w == ' ' || *w == '\t')
	w++;
      len = word_len (w);
      if (word_is (w, len, "verbose"))
	s->verbose = true;
      else if (word_is (w, len, "off") || word_is (w, len, "advise")
	       || word_is (w, len, "collapse"))
	{
	  mode = w;
	  mode_len = len;
	  modes++;
	}
      else if (len > 0 && bad[0] == '\0')
	snprintf (bad, sizeof bad, "%s", w);
      w += len;
      while (*w == ' ' || *w == '\t')
	w++;
      if (*w == ',')
	w++;
      else if (*w != '\0' && bad[0] == '\0')
	{
	  /* Two words with no comma between them.  */
	  no_comma = true;
	  snprintf (bad, sizeof bad, "%s", w);
	}
    }
  if (bad[0] != '\0' || modes > 1)
    {
      /* Said whatever the verbosity: the value was meant to change
	 something, and the default applies instead.  */
      struct ht_advise loud = *s;

      loud.verbose = true;
      bad[word_len (bad)] = '\0';
      if (no_comma)
	ht_advise_report (&loud, "%s: HUGETEXT_STARTUP='%s': words must be "
			  "separated by commas; using advise\n", who, env);
      else if (bad[0] != '\0')
	ht_advise_report (&loud, "%s: HUGETEXT_STARTUP='%s': unknown word "
			  "'%s' (expected off, advise or collapse, and "
			  "verbose, separated by commas); using advise\n",
			  who, env, bad);
      else
	ht_advise_report (&loud, "%s: HUGETEXT_STARTUP='%s': more than one "
			  "of off, advise and collapse; using advise\n", who,
			  env);
      /* The default, as said: advise, quiet.  */
      s->collapse = false;
      s->verbose = false;
      return true;
    }
  if (mode != NULL && word_is (mode, mode_len, "off"))
    return false;
  s->collapse = mode != NULL && word_is (mode, mode_len, "collapse");
  return true;
}

uintptr_t
ht_advise_h (struct ht_advise *s)
{
  enum ht_h_source source;

  if (s->h == 0)
    {
      s->h = (uintptr_t) ht_runtime_page_size (0, &source);
      ht_advise_report (s, "%s: H %lu KiB (%s)\n", s->who,
			(unsigned long) s->h / 1024,
			ht_h_source_name (source));
    }
  return s->h;
}

void
ht_advise_report (const struct ht_advise *s, const char *fmt, ...)
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
      if (write (STDERR_FILENO, buf, len) < 0)
	return;
    }
}

/* The smallest H that lib/machines.def gives this machine, any base
   page: a code segment shorter than that covers no huge page here, and
   costs no look at the kernel's H.  The machine is the one this code was
   linked for, read from the ELF header of the object it is in (the
   linker's __ehdr_start): no system call, no auxiliary vector.  A link
   that maps no ELF header defines no __ehdr_start; then the host's, as
   lib/machine.c finds it (every machine's where it cannot).  */
static uint64_t
smallest_h (void)
{
  extern const ElfW(Ehdr) __ehdr_start
    __attribute__ ((weak, visibility ("hidden")));
  static uint64_t smallest;
  const struct ht_machine *m, *host = NULL;
  uint16_t e_machine = 0;
  unsigned elf_class = 0;
  size_t n;

  if (smallest != 0)
    return smallest;
  if (&__ehdr_start != NULL)
    {
      e_machine = __ehdr_start.e_machine;
      elf_class = __ehdr_start.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
    }
  else if ((host = ht_machine_host ()) != NULL)
    {
      e_machine = host->e_machine;
      elf_class = host->elf_class;
    }
  m = ht_machines (&n);
  smallest = HT_ASSUMED_H;
  for (size_t i = 0; i < n; i++)
    if ((e_machine == 0
	 || (m[i].e_machine == e_machine && m[i].elf_class == elf_class))
	&& m[i].huge_page < smallest)
      smallest = m[i].huge_page;
  return smallest;
}

bool
ht_advise_candidate (const ElfW(Phdr) *p)
{
  return p->p_type == PT_LOAD && (p->p_flags & PF_X) && !(p->p_flags & PF_W)
	 && p->p_memsz >= smallest_h ();
}

bool
ht_advise_range (struct ht_advise *s, uintptr_t bias, const ElfW(Phdr) *p,
		 uintptr_t *first, uintptr_t *last)
{
  uintptr_t start = bias + p->p_vaddr, h;

  if (!ht_advise_candidate (p))
    return false;
  h = ht_advise_h (s);
  /* Only where a huge page of the file can back a huge page of the
     mapping.  */
  if ((start - p->p_offset) % h != 0)
    return false;
  *first = (start + h - 1) & ~(h - 1);
  *last = (start + p->p_memsz) & ~(h - 1);
  return *last > *first;
}

bool
ht_advise_hugepage (const struct ht_advise *s, const char *name,
		    uintptr_t first, uintptr_t last)
{
  if (madvise ((void *) first, last - first, MADV_HUGEPAGE) != 0)
    {
      ht_advise_report (s, "%s: %s: MADV_HUGEPAGE: %s\n", s->who, name,
			strerror (errno));
      return false;
    }
  ht_advise_report (s, "%s: %s: MADV_HUGEPAGE on %#lx-%#lx (%lu KiB)\n",
		    s->who, name, (unsigned long) first, (unsigned long) last,
		    (unsigned long) (last - first) / 1024);
  return true;
}

/* What MADV_COLLAPSE failing with EINVAL for the text of PATH (NULL: the
   program) means on this kernel, in BUF (HT_FS_WHY_LEN bytes).  */
static const char *
collapse_einval (const char *path, uintptr_t h, char *buf)
{
  struct ht_fs_info fs;
  int fd = open (path ? path : "/proc/self/exe", O_RDONLY | O_CLOEXEC);

  if (fd < 0 || ht_fs_info (fd, h, &fs) != 0)
    ht_fs_describe (0, ht_kernel_version (), h, 0, &fs);
  if (fd >= 0)
    close (fd);
  return ht_collapse_einval (&fs, buf);
}

void
ht_advise_collapse (const struct ht_advise *s, const char *name,
		    const char *path, uintptr_t first, uintptr_t last)
{
  char why[HT_FS_WHY_LEN];

  if (madvise ((void *) first, last - first, MADV_COLLAPSE) == 0)
    ht_advise_report (s, "%s: %s: MADV_COLLAPSE done\n", s->who, name);
  else if (errno == EINVAL && s->verbose)
    ht_advise_report (s, "%s: %s: %s\n", s->who, name,
		      collapse_einval (path, s->h, why));
  else
    ht_advise_report (s, "%s: %s: MADV_COLLAPSE: %s\n", s->who, name,
		      strerror (errno));
}
