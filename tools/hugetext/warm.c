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
#include "hugetext/size.h"
#include "hugetext/smaps.h"
#include "hugetext/thp.h"

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

struct warm_opts
{
  uint64_t page_size;		/* H.  */
  struct ht_fs_info *fs;	/* The file's filesystem, where known.  */
  enum ht_h_source h_source;
  bool collapse, no_drop, json;
};

struct warm_result
{
  const char *path;
  const char *error;		/* Why the file could not be warmed.  */
  char why[HT_ERRLEN + HT_FS_WHY_LEN];	/* Room for ERROR.  */
  int status;
  uint64_t offset, size;	/* The range warmed.  */
  uint64_t pmd;			/* Bytes of it PMD-mapped afterwards.  */
  uint64_t still_cached;	/* Small-folio bytes that could not be dropped.  */
  const char *note;
};

static void
warm_usage (FILE *out)
{
  fprintf (out,
"Usage: %s warm [OPTION]... FILE...\n"
"       %s warm [OPTION]... --list=FILE [FILE]...\n"
"Fill the page cache with huge folios for the eligible code segments of\n"
"each ELF FILE, so that the next exec of it is mapped with huge pages,\n"
"and report the coverage reached, as measured.\n"
"\n"
"  --list=FILE       also warm the files named in FILE, one absolute path\n"
"                    a line ('#' comments and blank lines are skipped);\n"
"                    may be given more than once, and files are warmed\n"
"                    in the order given; no file at all is then no error\n"
"  --page-size=SIZE  H (default: the kernel's hpage_pmd_size)\n"
"  --collapse        also MADV_COLLAPSE the range (older kernels: with\n"
"                    READ_ONLY_THP_FOR_FS; newer ones: on filesystems\n"
"                    whose page cache holds folios of H)\n"
"  --no-drop         keep small folios already cached\n"
"  --json            one JSON document on standard output\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 every file fully covered; 1 a file only in part; 2 bad\n"
"usage or unreadable file; 4 permission denied; 5 no transparent huge\n"
"pages; 6 MADV_COLLAPSE refused (the message says why); 7 not ELF; 8 the\n"
"filesystem cannot hold huge folios on this kernel.\n", ht_progname,
	   ht_progname);
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

/* Bytes of the file range cached now, by mincore on MAP.  */
static uint64_t
cached (void *map, uint64_t len)
{
  long page = sysconf (_SC_PAGESIZE);
  size_t pages = (size_t) ((len + (uint64_t) page - 1) / (uint64_t) page);
  unsigned char *vec = malloc (pages ? pages : 1);
  uint64_t n = 0;
  size_t i;

  if (vec == NULL || mincore (map, (size_t) len, vec) != 0)
    {
      free (vec);
      return 0;
    }
  for (i = 0; i < pages; i++)
    n += vec[i] & 1;
  free (vec);
  return n * (uint64_t) page;
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
  r->still_cached = o->no_drop ? 0 : cached (map, r->size);
  if (madvise (map, r->size, MADV_HUGEPAGE) != 0)
    r->note = "MADV_HUGEPAGE failed";
  for (p = map, i = 0; i < r->size; i += (uint64_t) page)
    (void) p[i];
  if (o->collapse && madvise (map, r->size, MADV_COLLAPSE) != 0)
    {
      if (errno == EINVAL || errno == ENOSYS)
	{
	  /* What EINVAL means depends on the kernel: no
	     READ_ONLY_THP_FOR_FS, or no folios of H for this file.  */
	  struct ht_fs_info unknown;

	  if (o->fs == NULL)
	    ht_fs_describe (0, ht_kernel_version (), o->page_size, &unknown);
	  r->error = ht_collapse_einval (o->fs ? o->fs : &unknown, r->why);
	  r->status = HT_EXIT_NO_COLLAPSE;
	}
      else
	r->note = "MADV_COLLAPSE failed for part of the range";
    }
  r->pmd = pmd_mapped (map);
  munmap (map, r->size);
  if (r->status == HT_EXIT_OK && r->pmd < r->size)
    {
      r->status = HT_EXIT_FAIL;
      if (r->note == NULL)
	r->note = r->still_cached != 0
		  ? "small folios of the range stayed cached: a running "
		    "process maps the file (stop it, or use --collapse)"
		  : "the kernel did not fill the range with huge folios";
    }
}

/* The file range to warm: the first eligible code segment of ELF that
   is aligned to H, whole huge pages of it.  Returns its size, 0 if
   there is none.  */
static uint64_t
aligned_text (const struct ht_elf *elf, uint64_t h, uint64_t *offset)
{
  /* Reading the padding would cache its pages in small folios, which
     --no-drop would then keep.  */
  struct ht_layout_opts lopts = { .page_size = h, .headers_only = true };
  struct ht_layout layout;
  char err[HT_ERRLEN];
  uint64_t size = 0;

  if (ht_layout_check (&layout, elf, &lopts, err) != 0)
    return 0;
  for (size_t i = 0; i < layout.nseg && size == 0; i++)
    {
      const struct ht_phdr *ph = layout.seg[i].ph;

      if (!layout.seg[i].eligible || ph->offset % h != 0
	  || ph->vaddr % h != 0)
	continue;
      *offset = ph->offset;
      size = ph->filesz / h * h;
    }
  ht_layout_free (&layout);
  return size;
}

static void
warm_file (const char *path, const struct warm_opts *opts,
	   struct warm_result *r)
{
  struct warm_opts with_fs = *opts;
  const struct warm_opts *o = &with_fs;
  struct ht_fs_info fs;
  struct ht_file f;
  struct ht_elf elf;
  char err[HT_ERRLEN];

  memset (r, 0, sizeof *r);
  r->path = path;
  if (ht_file_open (&f, path, err) != 0)
    {
      r->status = f.error == EACCES || f.error == EPERM ? HT_EXIT_PERMISSION
		  : f.error == 0 ? HT_EXIT_NOT_ELF : HT_EXIT_BAD_INPUT;
      snprintf (r->why, sizeof r->why, "%s%s",
		f.error == 0 ? "not an ELF file: " : "", err);
      r->error = r->why;
      return;
    }
  /* Only the headers are read here: no readahead around them, which
     would bring the text in small folios (read_ahead_kb can be larger
     than the whole file), for --no-drop to keep.  */
  if (f.data != NULL)
    madvise ((void *) f.data, f.size, MADV_RANDOM);
  if (ht_fs_info (f.fd, o->page_size, &fs) == 0)
    with_fs.fs = &fs;
  if (f.size == 0)
    {
      r->status = HT_EXIT_NOT_ELF;
      r->error = "not an ELF file (empty)";
    }
  else if (o->fs != NULL && ht_fs_refusal (o->fs, o->collapse, r->why))
    {
      /* Neither readahead nor, with --collapse, MADV_COLLAPSE can put
	 folios of H into this filesystem's page cache on this kernel.  */
      r->status = HT_EXIT_FILESYSTEM;
      r->error = r->why;
    }
  else if (ht_elf_parse (&elf, f.data, f.size, err) != 0)
    {
      r->status = HT_EXIT_NOT_ELF;
      r->error = "not an ELF file";
    }
  else
    {
      r->size = aligned_text (&elf, o->page_size, &r->offset);
      ht_elf_free (&elf);
      if (r->size == 0)
	{
	  r->status = HT_EXIT_FAIL;
	  r->error = "no code segment aligned to H in the file (link it "
		     "with -z hugetext)";
	}
    }
  /* POSIX_FADV_DONTNEED skips folios that are mapped: our own mapping of
     the headers would keep theirs cached, in small folios.  */
  ht_file_unmap (&f);
  if (r->error == NULL)
    warm_range (f.fd, r, o);
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

      if (p == NULL)
	return -1;
      l->path = p;
      l->cap = cap;
    }
  copy = strndup (path, len);
  if (copy == NULL)
    return -1;
  l->path[l->n++] = copy;
  return 0;
}

static void
file_list_free (struct file_list *l)
{
  for (size_t i = 0; i < l->n; i++)
    free (l->path[i]);
  free (l->path);
}

static bool
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v'
	 || c == '\f';
}

/* Append the paths LIST names to L: one absolute path a line, after
   optional blanks; blank lines and '#' comments are skipped, trailing
   blanks dropped.  Returns 0, or HT_EXIT_BAD_INPUT after saying why.  */
static int
read_list (const char *list, struct file_list *l)
{
  FILE *f = fopen (list, "r");
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  ssize_t len;
  int status = HT_EXIT_OK;

  if (f == NULL)
    {
      fprintf (stderr, "%s warm: cannot read list %s: %s\n", ht_progname,
	       list, strerror (errno));
      return HT_EXIT_BAD_INPUT;
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

/* Warm the files of L, reporting each as O asks.  Returns the worst
   status.  */
static int
warm_files (const struct file_list *l, const struct warm_opts *po)
{
  struct warm_opts o = *po;
  struct ht_json j;
  int status = HT_EXIT_OK;

  if (o.json)
    {
      ht_json_init (&j, stdout);
      ht_json_array (&j, NULL);
    }
  for (size_t i = 0; i < l->n; i++)
    {
      struct warm_result r;

      warm_file (l->path[i], &o, &r);
      if (o.json)
	{
	  ht_json_object (&j, NULL);
	  ht_json_str (&j, "file", r.path);
	  if (r.error)
	    ht_json_str (&j, "error", r.error);
	  ht_json_u64 (&j, "offset", r.offset);
	  ht_json_u64 (&j, "size", r.size);
	  ht_json_u64 (&j, "pmd_mapped", r.pmd);
	  ht_json_u64 (&j, "page_size", o.page_size);
	  ht_json_str (&j, "page_size_from", ht_h_source_name (o.h_source));
	  ht_json_u64 (&j, "small_folios_left", r.still_cached);
	  if (r.note)
	    ht_json_str (&j, "note", r.note);
	  ht_json_u64 (&j, "status", (uint64_t) r.status);
	  ht_json_end_object (&j);
	}
      else
	report_text (&r, &o);
      /* The worst status wins; a failure to read beats partial coverage.  */
      if (r.status > status)
	status = r.status;
    }
  if (o.json)
    {
      ht_json_end_array (&j);
      fputc ('\n', stdout);
    }
  return status;
}

int
cmd_warm (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "list", required_argument, NULL, 'l' },
    { "page-size", required_argument, NULL, 'p' },
    { "collapse", no_argument, NULL, 'c' },
    { "no-drop", no_argument, NULL, 'n' },
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  struct warm_opts o = { 0, NULL, HT_H_OPTION, false, false, false };
  struct file_list files = { NULL, 0, 0 };
  bool lists = false;
  int c, status = HT_EXIT_OK;

  /* "-": FILE arguments come in order among the options, so that
     --list files and FILEs are warmed in the order given.  */
  optind = 1;
  while (status == HT_EXIT_OK
	 && (c = getopt_long (argc, argv, "-h", longopts, NULL)) != -1)
    switch (c)
      {
      case 1:
	if (file_list_add (&files, optarg, strlen (optarg)) != 0)
	  {
	    fprintf (stderr, "%s warm: %s\n", ht_progname, strerror (errno));
	    status = HT_EXIT_BAD_INPUT;
	  }
	break;
      case 'l':
	lists = true;
	status = read_list (optarg, &files);
	break;
      case 'p':
	if (tool_parse_size ("warm", "--page-size", optarg, true,
			     &o.page_size) != 0)
	  status = HT_EXIT_BAD_INPUT;
	break;
      case 'c': o.collapse = true; break;
      case 'n': o.no_drop = true; break;
      case 'j': o.json = true; break;
      case 'h':
	warm_usage (stdout);
	file_list_free (&files);
	return HT_EXIT_OK;
      default:
	warm_usage (stderr);
	status = HT_EXIT_BAD_INPUT;
      }
  /* After "--", the rest are FILEs.  */
  for (; status == HT_EXIT_OK && optind < argc; optind++)
    if (file_list_add (&files, argv[optind], strlen (argv[optind])) != 0)
      {
	fprintf (stderr, "%s warm: %s\n", ht_progname, strerror (errno));
	status = HT_EXIT_BAD_INPUT;
      }
  if (status != HT_EXIT_OK)
    ;
  else if (files.n == 0 && !lists)
    {
      fprintf (stderr, "%s warm: no FILE given\n", ht_progname);
      warm_usage (stderr);
      status = HT_EXIT_BAD_INPUT;
    }
  else if (files.n == 0)
    {
      /* Lists that name nothing (a shipped list of comments only): there
	 is nothing to do, which needs no huge pages either.  */
      if (o.json)
	fputs ("[]\n", stdout);
    }
  else if (ht_thp_mode () == HT_THP_UNAVAILABLE)
    {
      fprintf (stderr, "%s warm: this kernel has no transparent huge pages "
	       "(/sys/kernel/mm/transparent_hugepage is missing)\n",
	       ht_progname);
      status = HT_EXIT_NO_THP;
    }
  else
    {
      /* This command runs on the machine whose page cache it fills: H is
	 the kernel's.  */
      o.page_size = ht_runtime_page_size (o.page_size, &o.h_source);
      status = warm_files (&files, &o);
    }
  file_list_free (&files);
  return status;
}
