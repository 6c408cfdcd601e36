/* hugetext check PATH...: does each ELF file meet the layout contract.
   A PATH that is a directory is walked, for packaging checks.  */

#define _GNU_SOURCE		/* getopt_long, scandir.  */
#include "check-report.h"
#include "hugetext.h"

#include "hugetext/file.h"
#include "hugetext/size.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct check_opts
{
  struct ht_layout_opts layout;
  bool json;
  bool verbose;
  bool brief;
};

/* What a run over directories found, for its summary line.  */
struct check_tally
{
  size_t elf_files;		/* ELF files the contract applies to.  */
  size_t eligible;		/* ... with an eligible code segment (or a
				   failing one: laid_out + not_laid_out).  */
  size_t laid_out;		/* ... eligible, and the verdict is ok.  */
  size_t not_laid_out;		/* ... eligible, and the verdict is fail.  */
  size_t below_min_size;	/* ... no eligible segment, verdict ok.  */
  size_t skipped;		/* Regular files that are not ELF, and ELF
				   files the contract does not apply to.  */
};

struct check_run
{
  const struct check_opts *o;
  struct ht_json *j;
  struct check_tally tally;
  int status;			/* The worst exit status so far.  */
};

static void
check_usage (FILE *out)
{
  fprintf (out,
"Usage: %s check [OPTION]... FILE|DIR...\n"
"Say, for each PT_LOAD of each ELF FILE, whether it meets the hugetext\n"
"layout contract: code segments of at least the min size start at an\n"
"address and file offset that are multiples of H, have p_align H, and end\n"
"on an H boundary.\n"
"A DIR is walked in name order: each ELF file under it is checked; other\n"
"files, symbolic links and ELF files the contract does not apply to are\n"
"skipped without a word.  A summary line follows:\n"
"  hugetext check: N ELF files: E eligible (L laid out, F not laid out),\n"
"  B below the min size; S other files skipped\n"
"\n"
"  --page-size=SIZE  H (default: the machine's, e.g. 2M on x86-64)\n"
"  --min-size=SIZE   smallest code size that must be aligned (default: H)\n"
"  --brief           only the verdict line of each file, no segments\n"
"  --json            one JSON document on standard output\n"
"  -v, --verbose     show the padding of segments that are not code, too\n"
"  -h, --help        this text\n"
"\n"
"SIZE is a number in C syntax (2097152, 0x200000), optionally followed by\n"
"K, M or G.\n"
"Exit status: 0 every file meets the contract, 1 a file does not, 2 bad\n"
"usage or a file that cannot be read (a corrupt ELF file too), 4\n"
"permission denied, 7 a FILE that is not ELF (or not a regular file: a\n"
"FIFO, a device). With several files, the highest of their statuses.\n",
	   ht_progname);
}

static int
parse_opts (int argc, char **argv, struct check_opts *o)
{
  static const struct option longopts[] = {
    TOOL_OPTION_PAGE_SIZE,
    { "min-size", required_argument, NULL, 'm' },
    TOOL_OPTION_JSON,
    { "brief", no_argument, NULL, 'b' },
    { "verbose", no_argument, NULL, 'v' },
    TOOL_OPTION_HELP,
    { NULL, 0, NULL, 0 },
  };
  int c;

  memset (o, 0, sizeof *o);
  optind = 1;
  while ((c = getopt_long (argc, argv, "vh", longopts, NULL)) != -1)
    switch (c)
      {
      case 'p':
	if (tool_parse_size ("check", "--page-size", optarg, true,
			     &o->layout.page_size))
	  return -1;
	break;
      case 'm':
	if (tool_parse_size ("check", "--min-size", optarg, false,
			     &o->layout.min_size))
	  return -1;
	break;
      case 'j': o->json = true; break;
      case 'b': o->brief = true; break;
      case 'v': o->verbose = true; break;
      case 'h': check_usage (stdout); exit (HT_EXIT_OK);
      default: check_usage (stderr); return -1;
      }
  if (optind >= argc)
    {
      fprintf (stderr, "%s check: no FILE given\n", ht_progname);
      check_usage (stderr);
      return -1;
    }
  return 0;
}

static void
report (struct check_run *run, const struct check_result *r)
{
  if (run->o->json)
    {
      check_report_json (run->j, r);
      return;
    }
  /* Keep reports and errors in file order when both go to one pipe.  */
  fflush (stdout);
  if (r->error != NULL)
    fprintf (stderr, "%s check: %s: %s\n", ht_progname, r->path, r->error);
  else if (run->o->brief)
    check_report_brief (stdout, r);
  else
    check_report_text (stdout, r, run->o->verbose);
  fflush (stdout);
}

static void
merge_status (struct check_run *run, int status)
{
  if (status > run->status)
    run->status = status;
}

/* Count the judged file R in the summary.  */
static void
tally (struct check_tally *t, const struct check_result *r)
{
  const struct ht_layout *l = r->layout;

  if (!l->applicable)
    {
      t->skipped++;
      return;
    }
  t->elf_files++;
  /* A failing file always has an eligible segment today (`others`
     applies only next to one), but a fail is never "below the min
     size".  */
  if (l->eligible > 0 || l->failing > 0)
    {
      t->eligible++;
      if (l->failing > 0)
	t->not_laid_out++;
      else
	t->laid_out++;
    }
  else
    t->below_min_size++;
}

/* Judge PATH and report on it, merging its exit status into RUN.
   WALKED: PATH was found in a directory, so a file that is not ELF, or
   one the contract does not apply to, is skipped without a word.  */
static void
check_file (struct check_run *run, const char *path, bool walked)
{
  const struct check_opts *o = run->o;
  struct ht_file f;
  struct ht_elf elf;
  struct ht_layout layout;
  struct check_result r = { path, NULL, &elf, &layout };
  char err[HT_ERRLEN];
  bool have_elf = false, have_layout = false, skip = false, not_elf = false;
  int status = HT_EXIT_BAD_INPUT;	/* Of an error.  */

  if (ht_file_open (&f, path, err) != 0)
    {
      r.error = err;
      status = tool_file_status (f.error);
    }
  else if ((not_elf = f.size < SELFMAG
		      || memcmp (f.data, ELFMAG, SELFMAG) != 0) && walked)
    skip = true;
  else if (f.size == 0)
    {
      r.error = "not an ELF file (empty)";
      status = HT_EXIT_NOT_ELF;
    }
  else if (ht_elf_parse (&elf, f.data, f.size, err) != 0)
    {
      r.error = err;
      status = tool_elf_status (f.data, f.size);
    }
  else if ((have_elf = true, ht_layout_check (&layout, &elf, &o->layout,
					      err) != 0))
    r.error = err;
  else
    {
      have_layout = true;
      ht_layout_measure_holes (&layout, f.fd);
      skip = walked && !layout.applicable;
    }

  if (skip)
    run->tally.skipped++;
  else
    {
      /* A regular file named on the command line that is not ELF: its
	 error line, and a place in the summary as in a walk.  */
      if (not_elf)
	run->tally.skipped++;
      if (have_layout)
	tally (&run->tally, &r);
      report (run, &r);
      merge_status (run, r.error ? status
			 : check_passed (&r) ? HT_EXIT_OK : HT_EXIT_FAIL);
    }
  if (have_layout)
    ht_layout_free (&layout);
  if (have_elf)
    ht_elf_free (&elf);
  if (f.fd >= 0)
    ht_file_close (&f);
}

/* Report that PATH, met in a walk, could not be read: WHAT, with errno's
   reason.  */
static void
walk_error (struct check_run *run, const char *path, const char *what)
{
  char err[HT_ERRLEN];
  struct check_result r = { path, err, NULL, NULL };

  int status = tool_file_status (errno);

  snprintf (err, sizeof err, "%s: %s", what, strerror (errno));
  report (run, &r);
  merge_status (run, status);
}

static int
not_dots (const struct dirent *d)
{
  return strcmp (d->d_name, ".") != 0 && strcmp (d->d_name, "..") != 0;
}

/* Names in byte order, whatever the locale.  */
static int
by_name (const struct dirent **a, const struct dirent **b)
{
  return strcmp ((*a)->d_name, (*b)->d_name);
}

/* Check every ELF file under DIR, in name order, depth first.  Symbolic
   links are not followed: what they point to in a package is walked
   anyway.  */
static void
walk_dir (struct check_run *run, const char *dir)
{
  struct dirent **names;
  size_t len = strlen (dir);
  bool slash = len > 0 && dir[len - 1] == '/';
  int n = scandir (dir, &names, not_dots, by_name);

  if (n < 0)
    {
      walk_error (run, dir, "cannot read directory");
      return;
    }
  for (int i = 0; i < n; i++)
    {
      size_t size = len + 1 + strlen (names[i]->d_name) + 1;
      char *path = malloc (size);
      struct stat st;

      if (path == NULL)
	walk_error (run, dir, "cannot read directory");
      else
	{
	  snprintf (path, size, "%s%s%s", dir, slash ? "" : "/",
		    names[i]->d_name);
	  if (lstat (path, &st) != 0)
	    walk_error (run, path, "cannot stat");
	  else if (S_ISDIR (st.st_mode))
	    walk_dir (run, path);
	  else if (S_ISREG (st.st_mode))
	    check_file (run, path, true);
	}
      free (path);
      free (names[i]);
    }
  free (names);
}

static void
tally_json (struct ht_json *j, const struct check_tally *t)
{
  ht_json_object (j, "summary");
  ht_json_u64 (j, "elf_files", t->elf_files);
  ht_json_u64 (j, "eligible", t->eligible);
  ht_json_u64 (j, "laid_out", t->laid_out);
  ht_json_u64 (j, "not_laid_out", t->not_laid_out);
  ht_json_u64 (j, "below_min_size", t->below_min_size);
  ht_json_u64 (j, "skipped", t->skipped);
  ht_json_end_object (j);
}

/* The summary line: its form is an interface (packaging checks grep for
   it), so keep it as it is.  */
static void
tally_text (FILE *out, const struct check_tally *t)
{
  fprintf (out, "hugetext check: %zu ELF files: %zu eligible (%zu laid out, "
	   "%zu not laid out), %zu below the min size; %zu other files "
	   "skipped\n", t->elf_files, t->eligible, t->laid_out,
	   t->not_laid_out, t->below_min_size, t->skipped);
}

int
cmd_check (int argc, char **argv)
{
  struct check_opts o;
  struct ht_json j;
  struct check_run run = { &o, &j, { 0 }, HT_EXIT_OK };
  bool walked = false;

  if (parse_opts (argc, argv, &o) != 0)
    return HT_EXIT_BAD_INPUT;
  if (o.json)
    {
      ht_json_init (&j, stdout);
      ht_json_object (&j, NULL);
      ht_json_array (&j, "files");
    }
  for (int i = optind; i < argc; i++)
    {
      struct stat st;

      /* A link to a directory named on the command line is walked.  */
      if (stat (argv[i], &st) == 0 && S_ISDIR (st.st_mode))
	{
	  walked = true;
	  walk_dir (&run, argv[i]);
	}
      else
	check_file (&run, argv[i], false);
    }
  if (o.json)
    {
      ht_json_end_array (&j);
      if (walked)
	tally_json (&j, &run.tally);
      ht_json_end_object (&j);
    }
  else if (walked)
    {
      fflush (stderr);
      tally_text (stdout, &run.tally);
    }
  return run.status;
}
