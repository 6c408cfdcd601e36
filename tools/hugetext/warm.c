/* hugetext warm FILE...: fill the page cache with huge folios for the
   eligible code segments of each file, so that the next exec of the file,
   by anyone, maps its text with huge pages.

   How: drop the range's small folios from the page cache where nothing
   maps them, map the range at an H-aligned address with MADV_HUGEPAGE and
   touch it, so that readahead brings it in as PMD-sized folios (on
   filesystems with large folios; no READ_ONLY_THP_FOR_FS needed), or
   MADV_COLLAPSE it with --collapse (which needs READ_ONLY_THP_FOR_FS on
   older kernels, and a filesystem whose page cache holds PMD-sized folios
   on newer ones: HT_COLLAPSE_PMD_FOLIOS in lib/filesystems.def).  Then
   read this process's own smaps to measure how much of the range is
   PMD-mapped: what the next exec gets.  */

#define _GNU_SOURCE
#include "hugetext.h"

#include "hugetext/elf.h"
#include "hugetext/file.h"
#include "hugetext/json.h"
#include "hugetext/layout.h"
#include "hugetext/machine.h"
#include "hugetext/needed.h"
#include "hugetext/size.h"
#include "hugetext/smaps.h"
#include "hugetext/thp.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* What --running found, for its summary line.  */
struct warm_stats
{
  size_t nproc, denied;		/* Processes read; those not readable.  */
  /* Each file once: warmed in full, in part, failed (an error), left
     cold by --budget, below the min size, not laid out for H.  */
  size_t warmed, in_part, failed, over_budget, below, not_laid_out;
};

struct warm_opts
{
  uint64_t page_size;		/* H.  */
  struct ht_fs_info *fs;	/* The file's filesystem, where known.  */
  enum ht_h_source h_source;
  bool collapse, no_drop, json;
  bool deps;			/* Each FILE is a program: warm its closure.  */
  bool running;			/* Also what running processes map; report
				   only what was warmed or failed.  */
  struct warm_stats *stats;	/* With RUNNING.  */
  uint64_t budget;		/* --budget in bytes; 0: none.  */
  uint64_t *budget_used;	/* The ranges warmed so far.  */
  struct ht_needed_opts needed;
  /* --deps: the libraries not found, each followed by the object that
     needs it (two paths an entry), for --json's array.  */
  const struct file_list *missing;
};

struct warm_result
{
  const char *path;
  const char *error;		/* Why the file could not be warmed.  */
  char why[HT_ERRLEN + HT_FS_WHY_LEN];	/* Room for ERROR.  */
  int status;
  uint64_t offset, size;	/* The range warmed.  */
  uint64_t pmd;			/* Bytes of it PMD-mapped afterwards.  */
  /* Bytes of small folios that could not be dropped and are still
     there at the end: at most what is not PMD-mapped (a collapse
     replaces them).  */
  uint64_t still_cached;
  uint64_t small_code;		/* Below the min size: its largest code
				   segment's code, which the contract leaves
				   as it is (then SIZE is 0).  */
  uint64_t min_size;
  bool over_budget;		/* Left cold: --budget.  */
  const char *note;
  char note_buf[HT_FS_WHY_LEN + 160];	/* Room for NOTE where it says
					   why.  */
};

static void
warm_usage (FILE *out)
{
  fprintf (out,
"Usage: %s warm [OPTION]... FILE...\n"
"       %s warm [OPTION]... --list=LIST [FILE]...\n"
"       %s warm [OPTION]... --deps PROGRAM...\n"
"Fill the page cache with huge folios for the eligible code segments of\n"
"each ELF FILE, so that the next exec of it is mapped with huge pages,\n"
"and report the coverage reached, as measured.  A file whose code is\n"
"below the min size is left alone (-z hugetext changes nothing there).\n"
"\n"
"  --deps            each FILE is a program: warm it and the shared\n"
"                    libraries it needs (its DT_NEEDED closure, found as\n"
"                    ld.so finds them), without running it\n"
"  --library-path=DIRS  with --deps: search DIRS first, as\n"
"                    LD_LIBRARY_PATH would (not read from the environment)\n"
"  --ld-so-cache=FILE   with --deps: the loader's cache (default\n"
"                    /etc/ld.so.cache)\n"
"  --running         also warm the files that running processes map\n"
"                    executable now (other users' need root), those that\n"
"                    most processes map first; only files laid out for H\n"
"                    are reported, then one summary line\n"
"  --budget=SIZE     warm no more than SIZE of text in all (a size such\n"
"                    as 512M, or N%% of the memory, N from 1 to 100); a\n"
"                    file that would pass it is left as it is, and\n"
"                    reported\n"
"  --list=LIST       also warm the files named in LIST, one absolute path\n"
"                    a line ('#' comments and blank lines are skipped);\n"
"                    may be given more than once, and files are warmed\n"
"                    in the order given; no file at all is then no error\n"
"  --page-size=SIZE  H (default: the kernel's hpage_pmd_size; where the\n"
"                    kernel says it, H must be a multiple of it)\n"
"  --collapse        also MADV_COLLAPSE the range (before Linux %u.%u: where\n"
"                    the kernel has READ_ONLY_THP_FOR_FS; from %u.%u: on\n"
"                    filesystems whose page cache holds folios of H)\n"
"  --no-drop         keep small folios already cached\n"
"  --json            a JSON array on standard output, one object per file\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 every file fully covered or below the min size; 1 a file\n"
"only in part, not aligned, or left by the budget; 2 bad usage, a file\n"
"that cannot be read or (--deps) a library not found; 4 permission\n"
"denied; 5 no transparent huge pages; 6 MADV_COLLAPSE refused (the\n"
"message says why); 7 not ELF; 8 the filesystem cannot hold huge folios\n"
"on this kernel. With several files, the highest of their statuses.\n",
	   ht_progname, ht_progname, ht_progname,
	   ht_collapse_pmd_folios_since () / 1000,
	   ht_collapse_pmd_folios_since () % 1000,
	   ht_collapse_pmd_folios_since () / 1000,
	   ht_collapse_pmd_folios_since () % 1000);
}

struct find_ctx
{
  uint64_t start;
  uint64_t pmd;
  bool found;
};

static int
find_mapping (void *ctx, const struct ht_mapping *m)
{
  struct find_ctx *f = ctx;

  if (m->start <= f->start && f->start < m->end)
    {
      f->pmd += m->file_pmd_mapped + m->shmem_pmd_mapped;
      f->found = true;
    }
  return 0;
}

/* Bytes of this process's mapping at ADDR that are PMD-mapped.  */
static uint64_t
pmd_mapped (void *addr)
{
  struct find_ctx f = { (uint64_t) (uintptr_t) addr, 0, false };
  char err[HT_ERRLEN];

  if (ht_smaps_read (0, find_mapping, &f, NULL, err) != 0)
    return 0;
  return f.pmd;
}

/* Map LEN bytes of FD at OFFSET (a multiple of H) at an H-aligned
   address.  */
static void *
map_aligned (int fd, uint64_t offset, uint64_t len, uint64_t h)
{
  char *area = mmap (NULL, len + h, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  char *start;
  void *map;

  if (area == MAP_FAILED)
    return MAP_FAILED;
  start = (char *) (((uintptr_t) area + h - 1) & ~(uintptr_t) (h - 1));
  map = mmap (start, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd,
	      (off_t) offset);
  if (start > area)
    munmap (area, (size_t) (start - area));
  munmap (start + len, (size_t) (area + len + h - (start + len)));
  if (map == MAP_FAILED)
    munmap (start, len);
  return map;
}

/* MADV_COLLAPSE fails with EAGAIN where a page of the range is locked,
   off the LRU or has an extra reference for a moment (a readahead still
   in flight, a page in a per-CPU LRU batch); the kernel's documentation
   has the caller try again.  Huge pages already in place are skipped, so
   a retry costs only the part that failed.  */
#define COLLAPSE_TRIES 4

static int
collapse (void *map, uint64_t size)
{
  int i;

  for (i = 1;; i++)
    {
      if (madvise (map, size, MADV_COLLAPSE) == 0)
	return 0;
      if (errno != EAGAIN || i == COLLAPSE_TRIES)
	return -1;
      usleep (10000 * i);
    }
}

/* O's filesystem, or where it is not known one described as unknown in
   *UNKNOWN.  */
static const struct ht_fs_info *
fs_or_unknown (const struct warm_opts *o, struct ht_fs_info *unknown)
{
  if (o->fs != NULL)
    return o->fs;
  ht_fs_describe (0, ht_kernel_version (), o->page_size, 0, unknown);
  return unknown;
}

/* Say in R why MADV_COLLAPSE of the range failed with errno.  NEEDED:
   --running asked for it without --collapse, for a process that maps
   small folios of the range.  */
static void
collapse_failed (struct warm_result *r, const struct warm_opts *o,
		 bool needed)
{
  struct ht_fs_info unknown;
  int e = errno;

  if (needed && (e == EINVAL || e == ENOSYS))
    {
      char why[HT_FS_WHY_LEN];

      /* The small folios stay cached while it maps them, and a restart
	 maps them again: only a warm while nothing maps the file
	 replaces them.  */
      snprintf (r->note_buf, sizeof r->note_buf, "a running process "
		"maps small folios of it, which this kernel cannot "
		"collapse (%s): stop the process, run 'hugetext warm' on "
		"the file again, then start it",
		ht_collapse_einval (fs_or_unknown (o, &unknown), why));
      r->note = r->note_buf;
    }
  else if (e == EINVAL || e == ENOSYS)
    {
      /* What EINVAL means depends on the kernel: no READ_ONLY_THP_FOR_FS,
	 or no folios of H for this file.  */
      r->error = ht_collapse_einval (fs_or_unknown (o, &unknown), r->why);
      r->status = HT_EXIT_NO_COLLAPSE;
    }
  else
    {
      if (e == EAGAIN)
	snprintf (r->note_buf, sizeof r->note_buf,
		  "MADV_COLLAPSE failed for part of the range: %s "
		  "(pages busy, %d tries)", strerror (e), COLLAPSE_TRIES);
      else
	snprintf (r->note_buf, sizeof r->note_buf,
		  "MADV_COLLAPSE failed for part of the range: %s%s",
		  strerror (e),
		  e == ENOMEM ? " (no free huge page: memory too "
				"fragmented, or a cgroup's limit)" : "");
      r->note = r->note_buf;
    }
}

/* The range was warmed only in part: say why in R, where nothing has
   yet.  */
static void
explain_part (struct warm_result *r, const struct warm_opts *o)
{
  if (r->note != NULL)
    return;
  if (o->fs != NULL && o->fs->shmem)
    /* A tmpfs file's pages are the file: none can be dropped, and only
       the mount's huge= option, or MADV_COLLAPSE, gives it huge pages
       (whatever maps it).  */
    r->note = o->collapse
	      ? "tmpfs: MADV_COLLAPSE left part of the range in small pages"
	      : "tmpfs keeps a file's pages, small ones here: use "
		"--collapse, or copy the file to a tmpfs mounted with "
		"huge=always";
  else if (r->still_cached != 0 && o->no_drop)
    r->note = "small folios of the range were cached, and --no-drop kept "
	      "them: run 'hugetext warm' on it without --no-drop";
  else if (r->still_cached != 0)
    {
      /* --collapse is offered only where the facts say it works on this
	 kernel (from HT_COLLAPSE_PMD_FOLIOS, where the page cache holds
	 folios of H); before, it needs a build option Debian's kernels
	 lack, and exits 6 without it.  */
      bool collapse_works = o->fs != NULL
			    && ht_collapse_needs_pmd_folios (o->fs->kernel)
			    && ht_fs_refusal (o->fs, true, r->why) == NULL;

      r->note = collapse_works && !o->collapse
		? "small folios of the range stayed cached: a running "
		  "process maps the file (stop it and run 'hugetext warm' "
		  "on the file again, or use --collapse)"
		: "small folios of the range stayed cached: a running "
		  "process maps the file (stop it and run 'hugetext warm' "
		  "on the file again)";
    }
  else
    r->note = "the kernel did not fill the range with huge folios";
}

static void
warm_range (int fd, struct warm_result *r, const struct warm_opts *o)
{
  long page = sysconf (_SC_PAGESIZE);
  volatile const char *p;
  uint64_t i;
  void *map;

  /* Dirty pages (a file just written by a linker) cannot be dropped:
     write them back first.  */
  if (!o->no_drop)
    {
      fdatasync (fd);
      posix_fadvise (fd, (off_t) r->offset, (off_t) r->size,
		     POSIX_FADV_DONTNEED);
    }
  map = map_aligned (fd, r->offset, r->size, o->page_size);
  if (map == MAP_FAILED)
    {
      r->error = strerror (errno);
      r->status = HT_EXIT_BAD_INPUT;
      return;
    }
  /* What is cached before the faults: after the drop, what could not be
     dropped; with --no-drop, all that was cached (huge folios of it are
     PMD-mapped after, and leave the count below).  */
  r->still_cached = ht_cached_bytes (map, r->size);
  if (madvise (map, r->size, MADV_HUGEPAGE) != 0)
    r->note = "MADV_HUGEPAGE failed";
  for (p = map, i = 0; i < r->size; i += (uint64_t) page)
    (void) p[i];
  /* --running: where a running process keeps small folios of the range
     mapped, only MADV_COLLAPSE can replace them; where the kernel cannot,
     the process gets huge pages when it starts again.  */
  bool needed = !o->collapse && o->running && r->still_cached != 0
		&& pmd_mapped (map) < r->size;
  /* Nothing to collapse where the range is PMD-mapped already.  */
  if ((o->collapse || needed) && pmd_mapped (map) < r->size
      && collapse (map, r->size) != 0)
    collapse_failed (r, o, needed);
  r->pmd = pmd_mapped (map);
  munmap (map, r->size);
  if (r->still_cached > r->size - r->pmd)
    r->still_cached = r->size - r->pmd;
  if (r->status == HT_EXIT_OK && r->pmd < r->size)
    {
      r->status = HT_EXIT_FAIL;
      explain_part (r, o);
    }
}

/* The file range to warm: the first eligible code segment of ELF that
   is aligned to H, whole huge pages of it.  Returns its size, 0 if
   there is none.  */
static uint64_t
aligned_text (const struct ht_elf *elf, uint64_t h, uint64_t *offset,
	      struct warm_result *r)
{
  /* Reading the padding would cache its pages in small folios, which
     --no-drop would then keep.  */
  struct ht_layout_opts lopts = { .page_size = h, .headers_only = true };
  struct ht_layout layout;
  char err[HT_ERRLEN];
  uint64_t size = 0;

  if (ht_layout_check (&layout, elf, &lopts, err) != 0)
    return 0;
  r->min_size = layout.min_size;
  for (size_t i = 0; layout.eligible == 0 && i < layout.nseg; i++)
    if (layout.seg[i].code && layout.seg[i].code_size > r->small_code)
      r->small_code = layout.seg[i].code_size;
  size = ht_layout_aligned_text (&layout, offset);
  ht_layout_free (&layout);
  return size;
}

/* The range of the open file F to warm, into R, or why there is none
   (R's status, error or note).  */
static void
find_range (const struct ht_file *f, const struct warm_opts *o,
	    struct warm_result *r)
{
  struct ht_elf elf;
  char err[HT_ERRLEN];

  if (f->size == 0)
    {
      r->status = HT_EXIT_NOT_ELF;
      r->error = "not an ELF file (empty)";
    }
  else if (ht_elf_parse (&elf, f->data, f->size, err) != 0)
    {
      /* No ELF magic: not an ELF file (7).  Magic, but headers that do
	 not hold (truncated, a bad field): a corrupt ELF file, in the
	 parser's words, as check and punch say it (2).  */
      bool magic = f->size >= 4 && memcmp (f->data, "\177ELF", 4) == 0;

      r->status = tool_elf_status (f->data, f->size);
      snprintf (r->why, sizeof r->why, "%s%s",
		magic ? "cannot read as ELF: " : "", err);
      r->error = r->why;
    }
  else
    {
      r->size = aligned_text (&elf, o->page_size, &r->offset, r);
      ht_elf_free (&elf);
      if (r->size == 0 && r->small_code != 0)
	r->note = "below the min size";
      else if (r->size == 0)
	{
	  r->status = HT_EXIT_FAIL;
	  r->error = "no code segment aligned to H in the file (link it "
		     "with -z hugetext)";
	}
      else if (o->fs != NULL
	       && ht_fs_refusal (o->fs, o->collapse, r->why) != NULL)
	{
	  /* Neither readahead nor, with --collapse, MADV_COLLAPSE can put
	     folios of H into this filesystem's page cache on this kernel;
	     said of a file that has text to warm only.  */
	  r->status = HT_EXIT_FILESYSTEM;
	  r->error = r->why;
	  r->size = 0;
	}
    }
}

/* The page cache of this kernel holds folios of its own PMD size and
   maps them with PMDs: a range to warm for an H (--page-size) that is no
   multiple of it could never be reported covered.  Said of a file that
   has text to warm.  */
static void
other_h (struct warm_result *r, const struct warm_opts *o)
{
  uint64_t pmd = ht_kernel_pmd_size ();
  char a[32], b[32];

  if (r->error != NULL || r->size == 0 || o->h_source != HT_H_OPTION
      || pmd == 0 || o->page_size % pmd == 0)
    return;
  snprintf (r->why, sizeof r->why, "--page-size %s is no multiple of this "
	    "kernel's PMD size, %s (hpage_pmd_size): warm fills and maps "
	    "folios of that size; leave --page-size out",
	    ht_format_size (o->page_size, a), ht_format_size (pmd, b));
  r->error = r->why;
  r->status = HT_EXIT_BAD_INPUT;
  r->size = 0;
}

static void
warm_file (const char *path, const struct warm_opts *opts,
	   struct warm_result *r)
{
  struct warm_opts with_fs = *opts;
  const struct warm_opts *o = &with_fs;
  struct ht_fs_info fs;
  struct ht_file f;
  char err[HT_ERRLEN];

  memset (r, 0, sizeof *r);
  r->path = path;
  if (ht_file_open (&f, path, err) != 0)
    {
      r->status = tool_file_status (f.error);
      snprintf (r->why, sizeof r->why, "%s", err);
      r->error = r->why;
      return;
    }
  /* Only the headers are read here: no readahead around them, which
     would bring the text in small folios (read_ahead_kb can be larger
     than the whole file), for --no-drop to keep.  And what warm adds to
     the page cache is the range and no more: ht_file_close drops the
     headers' pages, and what the faults' readahead reads past the
     range's end (on 6.18, up to 3 huge pages more), so that --budget is
     a ceiling.  */
  ht_file_quiet (&f);
  if (ht_fs_info (f.fd, o->page_size, &fs) == 0)
    with_fs.fs = &fs;
  find_range (&f, o, r);
  /* POSIX_FADV_DONTNEED skips folios that are mapped: our own mapping of
     the headers would keep theirs cached, in small folios.  */
  ht_file_unmap (&f);
  other_h (r, o);
  if (r->error == NULL && r->size != 0 && o->budget != 0
      && r->size > o->budget - *o->budget_used)
    {
      char a[32], b[32];

      snprintf (r->note_buf, sizeof r->note_buf, "left as it is: its text "
		"would pass the budget (%s of %s used)",
		ht_format_size (*o->budget_used, a),
		ht_format_size (o->budget, b));
      r->note = r->note_buf;
      r->status = HT_EXIT_FAIL;
      r->over_budget = true;
    }
  else if (r->error == NULL && r->size != 0)
    {
      if (o->budget_used != NULL)
	*o->budget_used += r->size;
      ht_file_keep (&f, r->offset, r->size);
      warm_range (f.fd, r, o);
    }
  ht_file_close (&f);
}

static void
report_text (const struct warm_result *r, const struct warm_opts *o)
{
  char a[32], b[32], c[32];

  if (r->error != NULL)
    {
      fprintf (stderr, "%s warm: %s: %s\n", ht_progname, r->path, r->error);
      return;
    }
  if (r->size == 0 && r->small_code == 0)
    {
      printf ("%s: %s\n", r->path, r->note);
      return;
    }
  if (r->size == 0)
    {
      printf ("%s: %s of code, below the min size %s: -z hugetext leaves "
	      "such a file as it is; nothing to warm\n", r->path,
	      ht_format_size (r->small_code, a),
	      ht_format_size (r->min_size, b));
      return;
    }
  if (r->over_budget)
    {
      printf ("%s: text at offset %#llx, %s: %s\n", r->path,
	      (unsigned long long) r->offset, ht_format_size (r->size, a),
	      r->note);
      return;
    }
  printf ("%s: text at offset %#llx, %s: %s in huge folios of %s (%s) "
	  "(%.0f%%)%s%s\n", r->path, (unsigned long long) r->offset,
	  ht_format_size (r->size, a), ht_format_size (r->pmd, b),
	  ht_format_size (o->page_size, c), ht_h_source_name (o->h_source),
	  100.0 * (double) r->pmd / (double) r->size,
	  r->note ? ": " : "", r->note ? r->note : "");
}

/* The files to warm, in the order given: FILE arguments and the lines of
   --list files.  Each path is owned.  */
struct file_list
{
  char **path;
  bool *needed;			/* --deps: a library a FILE needs.  */
  size_t n, cap;
};

static int
file_list_add (struct file_list *l, const char *path, size_t len)
{
  char *copy;

  if (l->n == l->cap)
    {
      size_t cap = l->cap ? 2 * l->cap : 16;
      char **p = realloc (l->path, cap * sizeof *p);
      bool *q;

      if (p == NULL)
	return -1;
      l->path = p;
      q = realloc (l->needed, cap * sizeof *q);
      if (q == NULL)
	return -1;
      l->needed = q;
      l->cap = cap;
    }
  copy = strndup (path, len);
  if (copy == NULL)
    return -1;
  l->needed[l->n] = false;
  l->path[l->n++] = copy;
  return 0;
}

static void
file_list_free (struct file_list *l)
{
  for (size_t i = 0; i < l->n; i++)
    free (l->path[i]);
  free (l->path);
  free (l->needed);
}

static bool
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v'
	 || c == '\f';
}

/* Append the paths LIST names to L: one absolute path a line, after
   optional blanks; blank lines and '#' comments are skipped, trailing
   blanks dropped.  Returns 0, or an exit status after saying why.  */
static int
read_list (const char *list, struct file_list *l)
{
  FILE *f = fopen (list, "r");
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  ssize_t len;
  int status = HT_EXIT_OK;

  if (*list == '\0')
    {
      fprintf (stderr, "%s warm: --list names no file (an empty LIST)\n",
	       ht_progname);
      return HT_EXIT_BAD_INPUT;
    }
  if (f == NULL)
    {
      int e = errno;

      fprintf (stderr, "%s warm: cannot read list %s: %s\n", ht_progname,
	       list, strerror (e));
      return tool_file_status (e ? e : EIO);
    }
  errno = 0;
  while (status == HT_EXIT_OK && (len = getline (&line, &cap, f)) != -1)
    {
      const char *p = line, *end = line + len;

      lineno++;
      while (p < end && is_blank (*p))
	p++;
      while (end > p && is_blank (end[-1]))
	end--;
      if (p == end || *p == '#')
	continue;
      if (memchr (p, '\0', (size_t) (end - p)) != NULL)
	{
	  fprintf (stderr, "%s warm: %s:%zu: a NUL byte in the line\n",
		   ht_progname, list, lineno);
	  status = HT_EXIT_BAD_INPUT;
	}
      else if (*p != '/')
	{
	  fprintf (stderr, "%s warm: %s:%zu: not an absolute path: %.*s\n",
		   ht_progname, list, lineno, (int) (end - p), p);
	  status = HT_EXIT_BAD_INPUT;
	}
      else if (file_list_add (l, p, (size_t) (end - p)) != 0)
	{
	  fprintf (stderr, "%s warm: %s: %s\n", ht_progname, list,
		   strerror (errno));
	  status = HT_EXIT_BAD_INPUT;
	}
      errno = 0;
    }
  /* getline returns -1 at the end and on an error (a directory:
     EISDIR); only an error sets the stream's error flag.  */
  if (status == HT_EXIT_OK && ferror (f))
    {
      fprintf (stderr, "%s warm: cannot read list %s: %s\n", ht_progname,
	       list, strerror (errno ? errno : EIO));
      status = HT_EXIT_BAD_INPUT;
    }
  free (line);
  fclose (f);
  return status;
}

static bool
file_list_has (const struct file_list *l, const char *path)
{
  for (size_t i = 0; i < l->n; i++)
    if (strcmp (l->path[i], path) == 0)
      return true;
  return false;
}

/* Replace each program of L by its DT_NEEDED closure, the program first,
   each file once.  A program whose closure cannot be read stays in the
   list (warming it says what is wrong with it); a library that cannot be
   found is reported.  Returns the worst status.  */
/* Whether PATH opens and parses as an ELF file.  */
static bool
readable_elf (const char *path)
{
  char err[HT_ERRLEN];
  struct ht_file f;
  struct ht_elf elf;
  bool ok = false;

  if (ht_file_open (&f, path, err) == 0 && f.data != NULL)
    {
      ht_file_quiet (&f);
      ok = ht_elf_parse (&elf, f.data, f.size, err) == 0;
      if (ok)
	ht_elf_free (&elf);
    }
  ht_file_close (&f);
  return ok;
}

static int
expand_deps (struct file_list *l, struct file_list *missing,
	     const struct warm_opts *o)
{
  struct file_list out = { NULL, NULL, 0, 0 };
  int status = HT_EXIT_OK;

  for (size_t i = 0; i < l->n; i++)
    {
      struct ht_needed closure;
      char err[HT_ERRLEN];

      if (ht_needed_resolve (&closure, l->path[i], &o->needed, err) != 0)
	{
	  /* What is wrong with the program itself (it cannot be read as
	     ELF), its own line says.  */
	  if (readable_elf (l->path[i]))
	    {
	      fprintf (stderr, "%s warm: %s: cannot find its libraries: "
		       "%s\n", ht_progname, l->path[i], err);
	      status = HT_EXIT_BAD_INPUT;
	    }
	  ht_needed_free (&closure);
	  if (!file_list_has (&out, l->path[i])
	      && file_list_add (&out, l->path[i], strlen (l->path[i])) != 0)
	    goto oom;
	  continue;
	}
      for (size_t k = 0; k < closure.n; k++)
	{
	  const struct ht_needed_obj *ob = &closure.obj[k];

	  if (ob->path == NULL)
	    {
	      const char *by = closure.obj[ob->parent].path;

	      fprintf (stderr, "%s warm: %s: %s (needed by %s): not found\n",
		       ht_progname, l->path[i], ob->name, by);
	      status = HT_EXIT_BAD_INPUT;
	      if (file_list_add (missing, ob->name, strlen (ob->name)) != 0
		  || file_list_add (missing, by, strlen (by)) != 0)
		{
		  ht_needed_free (&closure);
		  goto oom;
		}
	    }
	  else if (!file_list_has (&out, ob->path))
	    {
	      if (file_list_add (&out, ob->path, strlen (ob->path)) != 0)
		{
		  ht_needed_free (&closure);
		  goto oom;
		}
	      /* The first object of the closure is the program itself.  */
	      out.needed[out.n - 1] = k != 0;
	    }
	}
      ht_needed_free (&closure);
    }
  file_list_free (l);
  *l = out;
  return status;

oom:
  fprintf (stderr, "%s warm: %s\n", ht_progname, strerror (errno));
  file_list_free (&out);
  return HT_EXIT_BAD_INPUT;
}

/* A file that --running added, and how many processes map it.  */
struct running_file
{
  char *path;
  size_t users;
  long last_pid;		/* The last process that counted.  */
};

struct running_ctx
{
  const struct file_list *given;	/* The files given: not counted.  */
  struct running_file *file;
  size_t n, cap;
  long pid;			/* The process read now.  */
  int error;			/* errno of a failed append, or 0.  */
};

static int
running_mapping (void *ctx, const struct ht_mapping *m)
{
  static const char deleted[] = " (deleted)";
  struct running_ctx *r = ctx;
  size_t dl = sizeof deleted - 1, i;
  char path[4096];

  if (m->perms[2] != 'x' || m->path_len == 0 || m->path[0] != '/'
      || m->path_len >= sizeof path
      || (m->path_len > dl
	  && memcmp (m->path + m->path_len - dl, deleted, dl) == 0))
    return 0;
  memcpy (path, m->path, m->path_len);
  path[m->path_len] = '\0';
  if (file_list_has (r->given, path))
    return 0;
  for (i = 0; i < r->n && strcmp (r->file[i].path, path) != 0; i++)
    ;
  if (i == r->n)
    {
      if (r->n == r->cap)
	{
	  size_t cap = r->cap ? 2 * r->cap : 64;
	  struct running_file *f = realloc (r->file, cap * sizeof *f);

	  if (f == NULL)
	    goto fail;
	  r->file = f;
	  r->cap = cap;
	}
      if ((r->file[i].path = strdup (path)) == NULL)
	goto fail;
      r->file[i].users = 0;
      r->file[i].last_pid = 0;
      r->n++;
    }
  if (r->file[i].last_pid != r->pid)
    {
      r->file[i].users++;
      r->file[i].last_pid = r->pid;
    }
  return 0;

fail:
  r->error = errno;
  return 1;
}

/* The file that more processes map first; then by path, so that the
   order does not depend on /proc's.  */
static int
by_users (const void *a, const void *b)
{
  const struct running_file *x = a, *y = b;

  if (x->users != y->users)
    return x->users > y->users ? -1 : 1;
  return strcmp (x->path, y->path);
}

/* Append to L the files that running processes (not this one) map
   executable and L does not hold yet, each once, those that most
   processes map first.  *NPROC gets the processes read, *DENIED those
   whose maps this user may not read.  Returns 0, or -1 after saying
   why.  */
static int
running_files (struct file_list *l, size_t *nproc, size_t *denied)
{
  DIR *proc = opendir ("/proc");
  struct running_ctx ctx = { .given = l };
  struct dirent *e;
  pid_t self = getpid ();

  *nproc = *denied = 0;
  if (proc == NULL)
    {
      fprintf (stderr, "%s warm: --running: cannot read /proc: %s\n",
	       ht_progname, strerror (errno));
      return -1;
    }
  while (ctx.error == 0 && (e = readdir (proc)) != NULL)
    {
      char path[64], err[HT_ERRLEN];
      char *maps;
      size_t len;

      if (!isdigit ((unsigned char) e->d_name[0])
	  || (ctx.pid = atol (e->d_name)) == (long) self)
	continue;
      snprintf (path, sizeof path, "/proc/%.20s/maps", e->d_name);
      maps = ht_read_file (path, &len);
      if (maps == NULL)
	{
	  /* A process that exited meanwhile is no loss.  */
	  if (errno == EACCES || errno == EPERM)
	    ++*denied;
	  continue;
	}
      /* A kernel thread maps nothing: not a process that runs code.  */
      if (len != 0)
	++*nproc;
      ht_smaps_parse (maps, len, running_mapping, &ctx, err);
      free (maps);
    }
  closedir (proc);
  if (ctx.n > 1)
    qsort (ctx.file, ctx.n, sizeof *ctx.file, by_users);
  for (size_t i = 0; i < ctx.n; i++)
    {
      if (ctx.error == 0
	  && file_list_add (l, ctx.file[i].path, strlen (ctx.file[i].path)) != 0)
	ctx.error = errno;
      free (ctx.file[i].path);
    }
  free (ctx.file);
  if (ctx.error != 0)
    {
      fprintf (stderr, "%s warm: --running: %s\n", ht_progname,
	       strerror (ctx.error));
      return -1;
    }
  return 0;
}

/* The JSON object of a library that --deps did not find, needed by BY.  */
static void
report_missing_json (struct ht_json *j, const char *name, const char *by)
{
  ht_json_object (j, NULL);
  ht_json_str (j, "file", name);
  ht_json_str (j, "needed_by", by);
  ht_json_str (j, "error", "not found");
  ht_json_u64 (j, "status", HT_EXIT_BAD_INPUT);
  ht_json_end_object (j);
}

static void
report_json (struct ht_json *j, const struct warm_result *r,
	     const struct warm_opts *o)
{
  ht_json_object (j, NULL);
  ht_json_str (j, "file", r->path);
  if (r->error)
    ht_json_str (j, "error", r->error);
  ht_json_u64 (j, "offset", r->offset);
  ht_json_u64 (j, "size", r->size);
  ht_json_u64 (j, "pmd_mapped", r->pmd);
  ht_json_u64 (j, "page_size", o->page_size);
  ht_json_str (j, "page_size_from", ht_h_source_name (o->h_source));
  ht_json_u64 (j, "small_folios_left", r->still_cached);
  if (r->size == 0 && r->small_code != 0)
    {
      ht_json_u64 (j, "code_size", r->small_code);
      ht_json_u64 (j, "min_size", r->min_size);
    }
  if (r->note)
    ht_json_str (j, "note", r->note);
  ht_json_u64 (j, "status", (uint64_t) r->status);
  ht_json_end_object (j);
}

/* --running: count R in O's summary.  Returns whether R is reported:
   what -z hugetext did not lay out is most of a system, counted, not
   reported, and no failure.  */
static bool
running_tally (const struct warm_result *r, const struct warm_opts *o)
{
  if (r->size == 0 && r->small_code != 0)
    o->stats->below++;
  else if (r->size == 0 && r->status == HT_EXIT_FAIL)
    o->stats->not_laid_out++;
  else if (r->over_budget)
    o->stats->over_budget++;
  else if (r->status == HT_EXIT_OK)
    o->stats->warmed++;
  else if (r->status == HT_EXIT_FAIL)
    o->stats->in_part++;
  else
    o->stats->failed++;
  return r->size != 0 || (r->small_code == 0 && r->status != HT_EXIT_FAIL);
}

/* The files of L warmed with O: first, with --json, the libraries that
   --deps did not find (O->missing), each an error of its own (their
   messages went out before); then L's files.  */
struct warm_each
{
  const struct file_list *l;
  const struct warm_opts *o;
  size_t nmissing;
};

static int
warm_one (void *ctx, size_t i, struct ht_json *j)
{
  const struct warm_each *e = ctx;
  const struct warm_opts *o = e->o;
  struct warm_result r;

  if (i < e->nmissing)
    {
      if (j != NULL)
	report_missing_json (j, o->missing->path[2 * i],
			     o->missing->path[2 * i + 1]);
      return HT_EXIT_BAD_INPUT;
    }
  i -= e->nmissing;
  warm_file (e->l->path[i], o, &r);
  /* A library that --deps found, not laid out: most libraries of a
     system are not, and nothing asked for them by name.  Said, and no
     failure.  */
  if (e->l->needed[i] && r.size == 0 && r.small_code == 0
      && r.status == HT_EXIT_FAIL)
    {
      r.status = HT_EXIT_OK;
      r.error = NULL;
      r.note = "not laid out for H (no code segment aligned to H): a "
	       "library it needs, left as it is";
    }
  if (o->running && !running_tally (&r, o))
    return HT_EXIT_OK;
  if (j != NULL)
    report_json (j, &r, o);
  else
    report_text (&r, o);
  return r.status;
}

/* Warm the files of L, reporting each as O asks.  Returns the worst
   status.  */
static int
warm_files (const struct file_list *l, const struct warm_opts *o)
{
  size_t nmissing = o->json && o->missing != NULL ? o->missing->n / 2 : 0;
  struct warm_each e = { l, o, nmissing };

  return tool_each_file (nmissing + l->n, o->json, warm_one, &e);
}

/* The memory of this machine, from /proc/meminfo's MemTotal; 0 where it
   cannot be read.  */
static uint64_t
mem_total (void)
{
  FILE *f = fopen ("/proc/meminfo", "r");
  unsigned long long kib = 0;
  char line[128];

  if (f == NULL)
    return 0;
  while (fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "MemTotal: %llu kB", &kib) == 1)
      break;
  fclose (f);
  return (uint64_t) kib * 1024;
}

/* --budget=ARG: a size, or N% of the memory (N from 1 to 100).  */
static int
parse_budget (const char *arg, uint64_t *out)
{
  size_t len = strlen (arg);
  uint64_t mem;
  char *end;

  if (len == 0 || arg[len - 1] != '%')
    {
      const char *why = ht_parse_size_check (arg, false, out);

      if (why == NULL)
	return 0;
      fprintf (stderr, "%s warm: invalid --budget '%s': expected a size "
	       "above 0 such as 512M, or a share of the memory from 1%% to "
	       "100%%\n", ht_progname, arg);
      return -1;
    }
  errno = 0;
  unsigned long pct = strtoul (arg, &end, 10);
  if (end != arg + len - 1 || end == arg || errno != 0 || pct == 0
      || pct > 100)
    {
      fprintf (stderr, "%s warm: invalid --budget '%s': expected a size "
	       "above 0 such as 512M, or a share of the memory from 1%% to "
	       "100%%\n", ht_progname, arg);
      return -1;
    }
  if ((mem = mem_total ()) == 0)
    {
      fprintf (stderr, "%s warm: --budget '%s': cannot read MemTotal from "
	       "/proc/meminfo\n", ht_progname, arg);
      return -1;
    }
  *out = mem / 100 * pct;
  return 0;
}

/* What parse_warm_args returns after --help.  */
#define WARM_HELP (-1)

/* The command line: the options in O, the FILEs and the lines of --list
   files in FILES, in the order given (*LISTS: a --list was given).
   Returns HT_EXIT_OK, WARM_HELP, or an exit status having said why.  */
static int
parse_warm_args (int argc, char **argv, struct warm_opts *o,
		 struct file_list *files, bool *lists)
{
  static const struct option longopts[] = {
    { "list", required_argument, NULL, 'l' },
    TOOL_OPTION_PAGE_SIZE,
    { "collapse", no_argument, NULL, 'c' },
    { "no-drop", no_argument, NULL, 'n' },
    TOOL_OPTION_JSON,
    { "deps", no_argument, NULL, 'd' },
    { "library-path", required_argument, NULL, 'L' },
    { "ld-so-cache", required_argument, NULL, 'C' },
    { "running", no_argument, NULL, 'r' },
    { "budget", required_argument, NULL, 'b' },
    TOOL_OPTION_HELP,
    { NULL, 0, NULL, 0 },
  };
  int c, status = HT_EXIT_OK;

  /* "-": FILE arguments come in order among the options, so that
     --list files and FILEs are warmed in the order given.  */
  optind = 1;
  while (status == HT_EXIT_OK
	 && (c = getopt_long (argc, argv, "-h", longopts, NULL)) != -1)
    switch (c)
      {
      case 1:
	if (file_list_add (files, optarg, strlen (optarg)) != 0)
	  {
	    fprintf (stderr, "%s warm: %s\n", ht_progname, strerror (errno));
	    status = HT_EXIT_BAD_INPUT;
	  }
	break;
      case 'l':
	*lists = true;
	status = read_list (optarg, files);
	break;
      case 'p':
	if (tool_parse_size ("warm", "--page-size", optarg, true,
			     &o->page_size) != 0)
	  status = HT_EXIT_BAD_INPUT;
	break;
      case 'c': o->collapse = true; break;
      case 'n': o->no_drop = true; break;
      case 'j': o->json = true; break;
      case 'd': o->deps = true; break;
      case 'L': o->needed.library_path = optarg; break;
      case 'C': o->needed.cache = optarg; break;
      case 'r': o->running = true; break;
      case 'b':
	if (parse_budget (optarg, &o->budget) != 0)
	  status = HT_EXIT_BAD_INPUT;
	break;
      case 'h':
	warm_usage (stdout);
	return WARM_HELP;
      default:
	warm_usage (stderr);
	status = HT_EXIT_BAD_INPUT;
      }
  /* After "--", the rest are FILEs.  */
  for (; status == HT_EXIT_OK && optind < argc; optind++)
    if (file_list_add (files, argv[optind], strlen (argv[optind])) != 0)
      {
	fprintf (stderr, "%s warm: %s\n", ht_progname, strerror (errno));
	status = HT_EXIT_BAD_INPUT;
      }
  return status;
}

/* Options that do not go together, or nothing to warm at all: an exit
   status having said why; else HT_EXIT_OK.  */
static int
check_warm_args (const struct warm_opts *o, const struct file_list *files,
		 bool lists)
{
  if (o->deps && o->running)
    {
      fprintf (stderr, "%s warm: --deps and --running do not go together: "
	       "a running process maps its libraries already\n", ht_progname);
      return HT_EXIT_BAD_INPUT;
    }
  if (!o->deps && (o->needed.library_path || o->needed.cache))
    {
      fprintf (stderr, "%s warm: --library-path and --ld-so-cache need "
	       "--deps\n", ht_progname);
      return HT_EXIT_BAD_INPUT;
    }
  if (files->n == 0 && !lists && !o->running)
    {
      fprintf (stderr, "%s warm: no FILE given\n", ht_progname);
      warm_usage (stderr);
      return HT_EXIT_BAD_INPUT;
    }
  return HT_EXIT_OK;
}

/* --running's summary line, after the files' own lines.  */
static void
report_running (const struct warm_opts *o, size_t nfiles)
{
  const struct warm_stats *stats = o->stats;

  printf ("%s warm --running: %zu processes read", ht_progname, stats->nproc);
  if (stats->denied)
    printf (" (%zu more not readable%s)", stats->denied,
	    geteuid () == 0 ? "" : ": other users' need root");
  printf (", %zu files: %zu warmed in full, %zu in part, %zu failed, %zu "
	  "below the min size, %zu not laid out for H", nfiles, stats->warmed,
	  stats->in_part, stats->failed, stats->below, stats->not_laid_out);
  if (o->budget != 0)
    {
      char a[32], b[32];

      printf (", %zu left by the budget (%s of %s used)",
	      stats->over_budget, ht_format_size (*o->budget_used, a),
	      ht_format_size (o->budget, b));
    }
  putchar ('\n');
}

/* Warm FILES (with --deps, each one's closure too) with H the running
   kernel's.  Returns the exit status.  */
static int
warm_all (struct file_list *files, struct warm_opts *o)
{
  int found, warmed;

  if (files->n == 0)
    {
      /* Lists that name nothing (a shipped list of comments only), and
	 no running process that maps a file: there is nothing to do,
	 which needs no huge pages either.  --running's summary still
	 ends the report.  */
      if (o->running && !o->json)
	report_running (o, 0);
      return warm_files (files, o);
    }
  if (ht_thp_mode () == HT_THP_UNAVAILABLE)
    {
      fprintf (stderr, "%s warm: this kernel has no transparent huge pages "
	       "(/sys/kernel/mm/transparent_hugepage is missing)\n",
	       ht_progname);
      return HT_EXIT_NO_THP;
    }
  struct file_list missing = { NULL, NULL, 0, 0 };

  found = o->deps ? expand_deps (files, &missing, o) : HT_EXIT_OK;
  o->missing = &missing;
  /* This command runs on the machine whose page cache it fills: H is the
     kernel's.  */
  o->page_size = ht_runtime_page_size (o->page_size, &o->h_source);
  warmed = warm_files (files, o);
  o->missing = NULL;
  file_list_free (&missing);
  if (o->running && !o->json)
    report_running (o, files->n);
  return warmed > found ? warmed : found;
}

int
cmd_warm (int argc, char **argv)
{
  struct warm_stats stats = { 0 };
  uint64_t budget_used = 0;
  struct warm_opts o = { .h_source = HT_H_OPTION, .stats = &stats,
			 .budget_used = &budget_used };
  struct file_list files = { NULL, NULL, 0, 0 };
  bool lists = false;
  int status = parse_warm_args (argc, argv, &o, &files, &lists);

  if (status == HT_EXIT_OK && o.running
      && running_files (&files, &stats.nproc, &stats.denied) != 0)
    status = HT_EXIT_BAD_INPUT;
  if (status == HT_EXIT_OK)
    status = check_warm_args (&o, &files, lists);
  if (status == HT_EXIT_OK)
    status = warm_all (&files, &o);
  file_list_free (&files);
  return status == WARM_HELP ? HT_EXIT_OK : status;
}
