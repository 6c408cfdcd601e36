/* hugetext check FILE...: does each ELF file meet the layout contract.  */

#define _GNU_SOURCE		/* getopt_long.  */
#include "check-report.h"
#include "hugetext.h"

#include "hugetext/file.h"
#include "hugetext/size.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct check_opts
{
  struct ht_layout_opts layout;
  bool json;
  bool verbose;
};

static void
check_usage (FILE *out)
{
  fprintf (out,
"Usage: %s check [OPTION]... FILE...\n"
"Say, for each PT_LOAD of each ELF FILE, whether it meets the hugetext\n"
"layout contract: code segments of at least the min size start at an\n"
"address and file offset that are multiples of H, have p_align H, and end\n"
"on an H boundary.\n"
"\n"
"  --page-size=SIZE  H (default: the machine's, e.g. 2M on x86-64)\n"
"  --min-size=SIZE   smallest code size that must be aligned (default: H)\n"
"  --json            one JSON document on standard output\n"
"  -v, --verbose     show the padding of segments that are not code, too\n"
"  -h, --help        this text\n"
"\n"
"SIZE is a number (decimal or 0x hex), optionally followed by K, M or G.\n"
"Exit status: 0 every file meets the contract, 1 a file does not,\n"
"2 bad usage or a file that cannot be read as ELF.\n", ht_progname);
}

static int
parse_opts (int argc, char **argv, struct check_opts *o)
{
  static const struct option longopts[] = {
    { "page-size", required_argument, NULL, 'p' },
    { "min-size", required_argument, NULL, 'm' },
    { "json", no_argument, NULL, 'j' },
    { "verbose", no_argument, NULL, 'v' },
    { "help", no_argument, NULL, 'h' },
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

/* Judge PATH and report on it.  Returns the file's exit status.  */
static int
check_file (const char *path, const struct check_opts *o, struct ht_json *j)
{
  struct ht_file f;
  struct ht_elf elf;
  struct ht_layout layout;
  struct check_result r = { path, NULL, &elf, &layout };
  char err[HT_ERRLEN];
  bool have_elf = false, have_layout = false;

  if (ht_file_open (&f, path, err) != 0)
    r.error = err;
  else if (f.size == 0)
    r.error = "not an ELF file (empty)";
  else if (ht_elf_parse (&elf, f.data, f.size, err) != 0)
    r.error = err;
  else if ((have_elf = true, ht_layout_check (&layout, &elf, &o->layout,
					      err) != 0))
    r.error = err;
  else
    {
      have_layout = true;
      ht_layout_measure_holes (&layout, f.fd);
    }

  if (o->json)
    check_report_json (j, &r);
  else
    {
      /* Keep reports and errors in file order when both go to one pipe.  */
      fflush (stdout);
      check_report_text (r.error ? stderr : stdout, &r, o->verbose);
      fflush (stdout);
    }

  int status = r.error ? HT_EXIT_BAD_INPUT
	       : check_passed (&r) ? HT_EXIT_OK : HT_EXIT_FAIL;
  if (have_layout)
    ht_layout_free (&layout);
  if (have_elf)
    ht_elf_free (&elf);
  if (f.fd >= 0)
    ht_file_close (&f);
  return status;
}

int
cmd_check (int argc, char **argv)
{
  struct check_opts o;
  struct ht_json j;
  int status = HT_EXIT_OK;

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
      int s = check_file (argv[i], &o, &j);
      if (s > status)
	status = s;
    }
  if (o.json)
    {
      ht_json_end_array (&j);
      ht_json_end_object (&j);
    }
  return status;
}
