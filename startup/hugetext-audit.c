/* hugetext-audit: the startup helper as an ld.so audit module
   (LD_AUDIT=hugetext-audit.so, or DT_AUDIT), so that it also sees the
   libraries a program loads later with dlopen.

   ld.so calls la_objopen for each object once it is mapped, before it is
   relocated and before any of its code runs: there the helper applies
   MADV_HUGEPAGE to the huge pages of each code segment whose address and
   file offset are congruent modulo H, so that the first fault of the text
   reads it in huge folios.  When ld.so says the link map is consistent
   again (la_activity, LA_ACT_CONSISTENT), it applies MADV_COLLAPSE to
   those huge pages where the kernel needs it (needs_collapse): with
   HUGETEXT_STARTUP "advise" (the default) where readahead cannot bring
   huge folios for the file, or the page cache still holds small folios
   of the text; with "collapse" to all.  HUGETEXT_STARTUP is read as
   libhugetext-startup reads it.

   Before the text is first touched the page cache may hold small folios
   of it already: ld.so's faults in the object's other segments (its
   headers, its dynamic section) read around them, as much as the
   device's read_ahead_kb, into the text (QEMU's disks: 8 MiB, so the
   whole text of a small object).  A fault would map those as they are.
   In both modes the module reads in the segments that ld.so's
   relocation touches, so that its faults read nothing around them, drops
   the text's small folios that no process maps (POSIX_FADV_DONTNEED, as
   hugetext warm does), and leaves the rest to MADV_COLLAPSE.

   An object with no such code segment costs a look at its program
   headers: one mincore, which says its ELF header is mapped.  The
   settings, H and the page size are read when the first object that has
   one comes: a program with none pays nothing more.

   Built with HUGETEXT_AUDIT_HINT defined (hugetext-audit-hint.so, not
   installed), it gives advice only, as ld.so itself could: MADV_HUGEPAGE
   on the text and MADV_RANDOM on the object's other segments; nothing
   read in, dropped or collapsed.  The kernel matrix measures what that
   alone gets (testsuite/lit/kernel/userspace.test).  */

#define _GNU_SOURCE
#include "advise.h"
#include "hugetext/thp.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__ ((visibility ("default")))

#ifdef HUGETEXT_AUDIT_HINT
#define HINT_ONLY 1
#else
#define HINT_ONLY 0
#endif

static struct ht_advise settings;
/* HUGETEXT_STARTUP, read when first needed (settings_active).  */
static enum { UNREAD, ACTIVE, INACTIVE } state;

/* The huge pages to collapse when the link map is consistent, and the
   object they are of (la_objclose takes those of an object that goes
   first: a dlopen that failed).  */
static struct pending
{
  const struct link_map *map;
  const char *name, *path;
  uintptr_t first, last;
} pending[64];
static size_t npending;

/* Whether the program headers PHDR[PHNUM] are MAP's: its PT_DYNAMIC at
   the address ld.so read its dynamic section from.  */
static bool
phdrs_of (const struct link_map *map, const ElfW(Phdr) *phdr, size_t phnum)
{
  for (size_t i = 0; i < phnum; i++)
    if (phdr[i].p_type == PT_DYNAMIC)
      return map->l_addr + phdr[i].p_vaddr == (uintptr_t) map->l_ld;
  return false;
}

/* The smallest page size of any Linux machine: a range of this many
   bytes from a page-aligned address lies in one page.  */
#define MIN_PAGE 4096

/* MAP's program headers, and their count in *PHNUM; NULL where they
   cannot be found.  Every object but a program at a fixed address maps
   its ELF header at its load bias (its first segment at address 0 and
   file offset 0, as every linker lays out a shared object or PIE), read
   once mincore has said that its first page is mapped; the headers must
   follow it within that page.  A program at a fixed address has its in
   the auxiliary vector.  */
static const ElfW(Phdr) *
object_phdrs (const struct link_map *map, size_t *phnum)
{
  const ElfW(Ehdr) *ehdr = (const ElfW(Ehdr) *) map->l_addr;
  const ElfW(Phdr) *phdr;
  unsigned char vec;

  if (map->l_addr == 0 && (map->l_name == NULL || map->l_name[0] == '\0'))
    {
      phdr = (const ElfW(Phdr) *) getauxval (AT_PHDR);
      *phnum = getauxval (AT_PHNUM);
      return phdr != NULL && phdrs_of (map, phdr, *phnum) ? phdr : NULL;
    }
  if (map->l_addr % MIN_PAGE != 0
      || mincore ((void *) map->l_addr, MIN_PAGE, &vec) != 0
      || memcmp (ehdr->e_ident, ELFMAG, SELFMAG) != 0
      || ehdr->e_phentsize != sizeof (ElfW(Phdr))
      || ehdr->e_phoff + (size_t) ehdr->e_phnum * sizeof (ElfW(Phdr))
	 > MIN_PAGE)
    return NULL;
  phdr = (const ElfW(Phdr) *) (map->l_addr + ehdr->e_phoff);
  *phnum = ehdr->e_phnum;
  return phdrs_of (map, phdr, *phnum) ? phdr : NULL;
}

/* Whether HUGETEXT_STARTUP lets the module act, read on first use.  */
static bool
settings_active (void)
{
  if (state == UNREAD)
    state = ht_advise_settings (&settings, "hugetext-audit") ? ACTIVE
							      : INACTIVE;
  return state == ACTIVE;
}

/* The bytes of [FIRST, LAST) that the page cache holds (all of it
   where mincore fails: let MADV_COLLAPSE say what is wrong).  */
static uintptr_t
cached (uintptr_t first, uintptr_t last)
{
  long page = sysconf (_SC_PAGESIZE);
  unsigned char vec[4096];
  uintptr_t n = 0;

  for (uintptr_t at = first; at < last;)
    {
      size_t pages = (last - at) / (size_t) page;

      if (pages > sizeof vec)
	pages = sizeof vec;
      if (mincore ((void *) at, pages * (size_t) page, vec) != 0)
	return last - first;
      for (size_t i = 0; i < pages; i++)
	n += vec[i] & 1;
      at += pages * (size_t) page;
    }
  return n * (uintptr_t) page;
}

/* PAGEMAP_SCAN (Linux 6.7, <linux/fs.h>; Debian 12's headers are
   older): which pages of a range are mapped by a huge page.  */
struct pm_region
{
  uint64_t start, end, categories;
};
struct pm_scan_arg
{
  uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages,
    category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PM_PAGE_IS_HUGE (1 << 6)
#define PM_PAGEMAP_SCAN _IOWR ('f', 16, struct pm_scan_arg)

/* Whether the huge page at AT, which the page cache holds whole, is one
   folio of H (an earlier run's: leave it) rather than small folios
   (dropped and read again in one).  A read of one byte maps a folio of
   H with one PMD; PAGEMAP_SCAN says whether it did.  Where it cannot
   tell (a kernel without PAGEMAP_SCAN), the range counts as small
   folios, as before the probe existed.  The probe's own mappings are
   zapped again where they are small.  */
static bool
held_in_huge_folio (int pagemap, uintptr_t at, uintptr_t h)
{
  struct pm_region region;
  struct pm_scan_arg arg = {
    .size = sizeof arg, .start = at, .end = at + h,
    .vec = (uintptr_t) &region, .vec_len = 1,
    .category_mask = PM_PAGE_IS_HUGE, .return_mask = PM_PAGE_IS_HUGE,
  };
  volatile const unsigned char *byte = (const unsigned char *) at;
  long found;

  if (pagemap < 0)
    return false;
  (void) *byte;
  found = ioctl (pagemap, PM_PAGEMAP_SCAN, &arg);
  if (found == 1 && region.start == at && region.end == at + h)
    return true;
  madvise ((void *) at, h, MADV_DONTNEED);
  return false;
}

/* Drop the small folios of [FIRST, LAST), at OFFSET in the file FD of
   the object NAME, that no process maps, and say how much was there and
   is left.  Only those: a huge page that the page cache holds in part is
   small folios (ld.so's faults read around into the text), one held
   whole may be a folio of H from an earlier run, which dropping would
   make every exec read again (held_in_huge_folio tells).  Returns the
   bytes of small folios left.  */
static uintptr_t
drop_text (int fd, const char *name, off_t offset, uintptr_t first,
	   uintptr_t last)
{
  uintptr_t h = settings.h, before = 0, huge = 0, after = 0;
  int pagemap = -1;

  for (uintptr_t at = first; at < last; at += h)
    {
      uintptr_t held = cached (at, at + h);

      before += held;
      if (held == h)
	{
	  if (pagemap == -1)
	    pagemap = open ("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	  if (held_in_huge_folio (pagemap, at, h))
	    {
	      huge += h;
	      continue;
	    }
	}
      if (held != 0)
	{
	  posix_fadvise (fd, offset + (off_t) (at - first), (off_t) h,
			 POSIX_FADV_DONTNEED);
	  after += cached (at, at + h);
	}
    }
  if (pagemap >= 0)
    close (pagemap);
  if (before != 0)
    ht_advise_report (&settings, "hugetext-audit: %s: %lu KiB of its text "
		      "were cached before its first fault, %lu KiB of them "
		      "in huge folios; of the small folios, %lu KiB are "
		      "left after dropping them\n", name,
		      (unsigned long) before / 1024,
		      (unsigned long) huge / 1024,
		      (unsigned long) after / 1024);
  return after;
}

/* The object's segments that ld.so touches while it relocates it (those
   before the code segment TEXT in the file: headers, symbols,
   relocations; and the writable ones), of PHDR[PHNUM] at BIAS, in the
   file FD: read them into the page cache now, exactly their pages, and
   make faults there read nothing around them (MADV_RANDOM), so that
   relocation puts no small folio into the text, neither by read-around
   nor by the readahead that the kernel's and ld.so's reads of the ELF
   header started and a fault on its marked page would go on with.  Once
   they are cached, the advice costs nothing.  */
static void
read_relocated (int fd, uintptr_t bias, const ElfW(Phdr) *phdr,
		size_t phnum, const ElfW(Phdr) *text)
{
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);

  for (size_t i = 0; i < phnum; i++)
    {
      const ElfW(Phdr) *p = &phdr[i];
      uintptr_t start, end;

      if (p->p_type != PT_LOAD || p == text || p->p_filesz == 0
	  || !(p->p_offset < text->p_offset || (p->p_flags & PF_W)))
	continue;
      start = (uintptr_t) p->p_offset & ~(page - 1);
      posix_fadvise (fd, (off_t) start,
		     (off_t) (p->p_offset + p->p_filesz - start),
		     POSIX_FADV_WILLNEED);
      start = (bias + p->p_vaddr) & ~(page - 1);
      end = (bias + p->p_vaddr + p->p_memsz + page - 1) & ~(page - 1);
      madvise ((void *) start, end - start, MADV_RANDOM);
    }
}

/* The variant's advice (HINT_ONLY): MADV_RANDOM on every segment of
   PHDR[PHNUM] at BIAS but the code segment TEXT, whose huge pages
   [FIRST, LAST) are advised MADV_HUGEPAGE already; with "verbose", how
   much of them the page cache holds before their first fault.  */
static void
hint_others (const char *name, uintptr_t bias, const ElfW(Phdr) *phdr,
	     size_t phnum, const ElfW(Phdr) *text, uintptr_t first,
	     uintptr_t last)
{
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);

  for (size_t i = 0; i < phnum; i++)
    {
      uintptr_t start, end;

      if (phdr[i].p_type != PT_LOAD || &phdr[i] == text)
	continue;
      start = (bias + phdr[i].p_vaddr) & ~(page - 1);
      end = (bias + phdr[i].p_vaddr + phdr[i].p_memsz + page - 1)
	    & ~(page - 1);
      madvise ((void *) start, end - start, MADV_RANDOM);
    }
  if (settings.verbose)
    ht_advise_report (&settings, "hugetext-audit: %s: %lu KiB of its text "
		      "were cached before its first fault\n", name,
		      (unsigned long) cached (first, last) / 1024);
}

/* Whether the huge pages [FIRST, LAST) of the code segment TEXT (of
   PHDR[PHNUM]) of the object NAME at BIAS, whose file is PATH (NULL:
   the program), need MADV_COLLAPSE once the link map is consistent, in
   "advise" mode (in "collapse" mode every range is collapsed).

   Where readahead of a MADV_HUGEPAGE mapping brings folios of H for the
   file's filesystem on this kernel (lib/filesystems.def), the first
   fault reads the text in huge folios, unless the page cache holds small
   folios of it already: ld.so's faults in the object's other segments
   read around into the text.  The module reads those segments in now
   (read_relocated), so that relocation reads nothing more, and drops the
   small folios of the text that no process maps (this one has not
   faulted its text yet), as hugetext warm drops them; only what is left
   needs the collapse.  Elsewhere only MADV_COLLAPSE can make huge folios
   of the text.  */
static bool
needs_collapse (const char *name, const char *path, uintptr_t bias,
		const ElfW(Phdr) *phdr, size_t phnum, const ElfW(Phdr) *text,
		uintptr_t first, uintptr_t last)
{
  int fd = open (path ? path : "/proc/self/exe", O_RDONLY | O_CLOEXEC);
  off_t offset = (off_t) (text->p_offset + (first - (bias + text->p_vaddr)));
  struct ht_fs_info fs;
  uintptr_t left;

  if (fd < 0)
    {
      ht_advise_report (&settings, "hugetext-audit: %s: cannot open it: "
			"%s\n", name, strerror (errno));
      return false;
    }
  if (ht_fs_info (fd, settings.h, &fs) != 0
      || fs.folios != HT_FS_LARGE_FOLIOS)
    {
      close (fd);
      return true;
    }
  read_relocated (fd, bias, phdr, phnum, text);
  left = drop_text (fd, name, offset, first, last);
  close (fd);
  return left != 0;
}

static void
collapse_pending (void)
{
  for (size_t i = 0; i < npending; i++)
    ht_advise_collapse (&settings, pending[i].name, pending[i].path,
			pending[i].first, pending[i].last);
  npending = 0;
}

EXPORT unsigned int
la_version (unsigned int version)
{
  /* Only la_objopen, la_objclose and la_activity, whose forms have not
     changed since the first version: any version ld.so speaks will do.  */
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

EXPORT unsigned int
la_objopen (struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
  int saved = errno;
  const char *path = map->l_name && *map->l_name ? map->l_name : NULL;
  const char *name = path ? path : "(the program)";
  const ElfW(Phdr) *phdr;
  uintptr_t first, last;
  size_t phnum;

  (void) lmid;
  *cookie = (uintptr_t) map;
  if (state == INACTIVE)
    return 0;
  if ((phdr = object_phdrs (map, &phnum)) == NULL)
    {
      if (settings_active ())
	ht_advise_report (&settings, "hugetext-audit: %s: program headers "
			  "not found at its load bias; left as it is\n",
			  name);
      errno = saved;
      return 0;
    }
  for (size_t i = 0; i < phnum; i++)
    {
      if (!ht_advise_candidate (&phdr[i]) || !settings_active ()
	  || !ht_advise_range (&settings, map->l_addr, &phdr[i], &first,
			       &last))
	continue;
      if (!ht_advise_hugepage (&settings, name, first, last))
	continue;
      if (HINT_ONLY)
	{
	  hint_others (name, map->l_addr, phdr, phnum, &phdr[i], first,
		       last);
	  continue;
	}
      /* "advise": the collapse where the kernel needs it; "collapse":
	 everywhere.  Both prepare the text as advise does (its small
	 folios dropped): where the kernel refuses to collapse file text
	 (no READ_ONLY_THP_FOR_FS before 7.2), the first fault still reads
	 it in huge folios.  */
      if (!needs_collapse (name, path, map->l_addr, phdr, phnum, &phdr[i],
			   first, last)
	  && !settings.collapse)
	continue;
      if (npending == sizeof pending / sizeof pending[0])
	collapse_pending ();
      pending[npending++] = (struct pending) { map, name, path, first,
					       last };
    }
  errno = saved;
  return 0;
}

/* An object goes before the link map was consistent again (a dlopen
   that failed after mapping it): forget its huge pages.  */
EXPORT unsigned int
la_objclose (uintptr_t *cookie)
{
  size_t kept = 0;

  for (size_t i = 0; i < npending; i++)
    if ((uintptr_t) pending[i].map != *cookie)
      pending[kept++] = pending[i];
  npending = kept;
  return 0;
}

EXPORT void
la_activity (uintptr_t *cookie, unsigned int flag)
{
  int saved = errno;

  (void) cookie;
  if (flag == LA_ACT_CONSISTENT)
    collapse_pending ();
  errno = saved;
}
