/* hugetext warm FILE...: fill the page cache with huge folios for the
   eligible code segments of each file, so that the next exec of the file,
   by anyone, maps its text with huge pages.

   How: drop the range's small folios from the page cache where nothing
   maps them, map the range at an H-aligned address with MADV_HUGEPAGE and
   touch it, so that readahead brings it in as PMD-sized folios (on
   filesystems with large folios; no READ_ONLY_THP_FOR_FS needed), or
   MADV_COLLAPSE it with --collapse.  Then read this process's own smaps to
   measure how much of the range is PMD-mapped: what the next exec gets.  */

#define _GNU_SOURCE
#include "hugetext.h"

#include "hugetext/elf.h"
#include "hugetext/json.h"
#include "hugetext/layout.h"
#include "hugetext/size.h"
#include "hugetext/smaps.h"
#include "hugetext/thp.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

struct warm_opts
{
  uint64_t page_size;
  bool collapse, no_drop, json;
};

struct warm_result
{
  const char *path;
  const char *error;		/* Why the file could not be warmed.  */
  int status;
  uint64_t offset, size;	/* The range warmed.  */
  uint64_t pmd;			/* Bytes of it PMD-mapped afterwards.  */
  uint64_t still_cached;	/* Small-folio bytes that could not be dropped.  */
  const char *fs;
  const char *note;
};

static void
warm_usage (FILE *out)
{
  fprintf (out,
"Usage: %s warm [OPTION]... FILE...\n"
"Fill the page cache with huge folios for the eligible code segments of\n"
"each ELF FILE, so that the next exec of it is mapped with huge pages,\n"
"and report the coverage reached, as measured.\n"
"\n"
"  --page-size=SIZE  H (default 2M)\n"
"  --collapse        also MADV_COLLAPSE the range (kernels with\n"
"                    READ_ONLY_THP_FOR_FS)\n"
"  --no-drop         keep small folios already cached\n"
"  --json            one JSON document on standard output\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 every file fully covered; 1 a file only in part; 2 bad\n"
"usage or unreadable file; 4 permission denied; 5 no transparent huge\n"
"pages; 6 MADV_COLLAPSE unsupported; 7 not ELF; 8 the filesystem cannot\n"
"hold huge folios.\n", ht_progname);
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
  size_t cap = 1 << 20, n = 0;
  char *buf = malloc (cap);
  int fd = open ("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
  ssize_t r;

  if (buf == NULL || fd < 0)
    {
      free (buf);
      if (fd >= 0)
	close (fd);
      return 0;
    }
  while ((r = read (fd, buf + n, cap - n)) > 0)
    if ((n += (size_t) r) == cap)
      {
	char *grown = realloc (buf, cap *= 2);

	if (grown == NULL)
	  break;
	buf = grown;
      }
  close (fd);
  ht_smaps_parse (buf, n, find_mapping, &f, err);
  free (buf);
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
	  r->error = "MADV_COLLAPSE is not supported for files by this "
		     "kernel (it needs READ_ONLY_THP_FOR_FS)";
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

static void
warm_file (const char *path, const struct warm_opts *o,
	   struct warm_result *r)
{
  struct ht_layout_opts lopts = { o->page_size, 0 };
  struct ht_fs_info fs;
  struct ht_layout layout;
  struct ht_elf elf;
  char err[HT_ERRLEN];
  struct stat st;
  void *map;
  int fd;
  size_t i;

  memset (r, 0, sizeof *r);
  r->path = path;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      r->status = errno == EACCES || errno == EPERM ? HT_EXIT_PERMISSION
		  : HT_EXIT_BAD_INPUT;
      r->error = strerror (errno);
      if (fd >= 0)
	close (fd);
      return;
    }
  if (!S_ISREG (st.st_mode) || st.st_size == 0)
    {
      r->status = HT_EXIT_NOT_ELF;
      r->error = "not an ELF file (not a non-empty regular file)";
      close (fd);
      return;
    }
  if (ht_fs_info (fd, &fs) == 0)
    {
      r->fs = fs.name;
      /* MADV_COLLAPSE needs no large folios in the filesystem
	 (READ_ONLY_THP_FOR_FS), readahead does.  */
      if (fs.network || (fs.folios == HT_FS_SMALL_FOLIOS && !o->collapse))
	{
	  r->status = HT_EXIT_FILESYSTEM;
	  r->error = fs.network
		     ? "a network filesystem: its page cache holds no huge "
		       "folios for text"
		     : "this kernel has no large folios for this filesystem";
	  close (fd);
	  return;
	}
    }
  map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    {
      r->status = HT_EXIT_BAD_INPUT;
      r->error = strerror (errno);
      close (fd);
      return;
    }
  if (ht_elf_parse (&elf, map, (size_t) st.st_size, err) != 0)
    {
      r->status = HT_EXIT_NOT_ELF;
      r->error = "not an ELF file";
    }
  else
    {
      if (ht_layout_check (&layout, &elf, &lopts, err) == 0)
	{
	  for (i = 0; i < layout.nseg; i++)
	    {
	      const struct ht_phdr *ph = layout.seg[i].ph;

	      if (!layout.seg[i].eligible || ph->offset % o->page_size != 0
		  || ph->vaddr % o->page_size != 0)
		continue;
	      r->offset = ph->offset;
	      r->size = ph->filesz / o->page_size * o->page_size;
	      break;
	    }
	  ht_layout_free (&layout);
	}
      ht_elf_free (&elf);
      if (r->size == 0)
	{
	  r->status = HT_EXIT_FAIL;
	  r->error = "no code segment aligned to H in the file (link it "
		     "with -z hugetext)";
	}
    }
  munmap (map, (size_t) st.st_size);
  if (r->error == NULL)
    warm_range (fd, r, o);
  close (fd);
}

static void
report_text (const struct warm_result *r)
{
  char a[32], b[32];

  if (r->error != NULL)
    {
      fprintf (stderr, "%s warm: %s: %s\n", ht_progname, r->path, r->error);
      return;
    }
  printf ("%s: text at offset %#llx, %s: %s in huge folios (%.0f%%)%s%s\n",
	  r->path, (unsigned long long) r->offset, ht_format_size (r->size, a),
	  ht_format_size (r->pmd, b),
	  100.0 * (double) r->pmd / (double) r->size,
	  r->note ? ": " : "", r->note ? r->note : "");
}

int
cmd_warm (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "page-size", required_argument, NULL, 'p' },
    { "collapse", no_argument, NULL, 'c' },
    { "no-drop", no_argument, NULL, 'n' },
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  struct warm_opts o = { 0x200000, false, false, false };
  struct ht_json j;
  int c, status = HT_EXIT_OK;

  optind = 1;
  while ((c = getopt_long (argc, argv, "h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'p':
	if (tool_parse_page_size ("warm", optarg, &o.page_size) != 0)
	  return HT_EXIT_BAD_INPUT;
	break;
      case 'c': o.collapse = true; break;
      case 'n': o.no_drop = true; break;
      case 'j': o.json = true; break;
      case 'h': warm_usage (stdout); return HT_EXIT_OK;
      default: warm_usage (stderr); return HT_EXIT_BAD_INPUT;
      }
  if (optind >= argc)
    {
      fprintf (stderr, "%s warm: no FILE given\n", ht_progname);
      warm_usage (stderr);
      return HT_EXIT_BAD_INPUT;
    }
  if (ht_thp_mode () == HT_THP_UNAVAILABLE)
    {
      fprintf (stderr, "%s warm: this kernel has no transparent huge pages "
	       "(/sys/kernel/mm/transparent_hugepage is missing)\n",
	       ht_progname);
      return HT_EXIT_NO_THP;
    }
  if (o.json)
    {
      ht_json_init (&j, stdout);
      ht_json_array (&j, NULL);
    }
  for (; optind < argc; optind++)
    {
      struct warm_result r;

      warm_file (argv[optind], &o, &r);
      if (o.json)
	{
	  ht_json_object (&j, NULL);
	  ht_json_str (&j, "file", r.path);
	  if (r.error)
	    ht_json_str (&j, "error", r.error);
	  ht_json_u64 (&j, "offset", r.offset);
	  ht_json_u64 (&j, "size", r.size);
	  ht_json_u64 (&j, "pmd_mapped", r.pmd);
	  ht_json_u64 (&j, "small_folios_left", r.still_cached);
	  if (r.note)
	    ht_json_str (&j, "note", r.note);
	  ht_json_u64 (&j, "status", (uint64_t) r.status);
	  ht_json_end_object (&j);
	}
      else
	report_text (&r);
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
