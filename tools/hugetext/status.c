/* hugetext status PID|self|NAME | -- COMMAND [ARG]...: how much of each
   file-backed executable mapping of a process is mapped with huge pages
   (PMD-mapped), and, where little is, the likely reason.  */

#define _GNU_SOURCE
#include "hugetext.h"

#include "hugetext/file.h"
#include "hugetext/json.h"
#include "hugetext/machine.h"
#include "hugetext/size.h"
#include "hugetext/smaps.h"
#include "hugetext/thp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct status_opts
{
  uint64_t page_size;		/* 0 until resolved: H.  */
  enum ht_h_source h_source;
  double delay;
  bool json;
};

/* One executable file mapping, judged.  */
struct text_map
{
  struct ht_mapping m;
  char *path;
  uint64_t size, pmd, eligible;
  bool congruent;
  const char *reason;		/* NULL when fully PMD-mapped.  */
  char why[HT_FS_WHY_LEN];	/* Room for a reason made up for it.  */
};

struct status
{
  struct status_opts *o;
  enum ht_thp_mode mode;
  struct text_map *maps;
  size_t n, cap;
};

static void
status_usage (FILE *out)
{
  fprintf (out,
"Usage: %s status [OPTION]... PID|self|NAME\n"
"       %s status [OPTION]... -- COMMAND [ARG]...\n"
"List each file-backed executable mapping of a process: PID, 'self' (this\n"
"command), the one process whose name is NAME, or COMMAND, started and\n"
"sampled after --delay seconds.  For each: its size, whether its start\n"
"and file offset are congruent modulo H, and how many bytes the kernel\n"
"maps with huge pages (FilePmdMapped, ShmemPmdMapped on tmpfs), with the\n"
"likely reason where that is less than all.\n"
"\n"
"  --page-size=SIZE  H (default: the kernel's hpage_pmd_size)\n"
"  --delay=SECONDS   with COMMAND: when to sample it (default 1)\n"
"  --json            one JSON document on standard output\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 reported; 2 bad usage, or NAME matches several processes;\n"
"3 no such process; 4 permission denied; 5 the kernel has no transparent\n"
"huge pages (reported anyway).\n",
	   ht_progname, ht_progname);
}

/* Why the mapping M is not fully PMD-mapped, in words (in BUF where they
   are made up: HT_FS_WHY_LEN bytes).  */
static const char *
explain (const struct status *st, const struct text_map *t, char *buf)
{
  struct ht_fs_info fs;
  int fd;
  const char *why = NULL;

  if (st->mode == HT_THP_UNAVAILABLE)
    return "the kernel has no transparent huge pages";
  /* No huge page fits a mapping smaller than H, aligned or not, and
     -z hugetext leaves code below its min size (H) as it is: no advice
     to relink it.  */
  if (t->size < st->o->page_size)
    {
      char a[32], b[32];

      snprintf (buf, HT_FS_WHY_LEN, "smaller than one huge page (%s, H "
		"%s): no huge page fits it, aligned or not, and -z hugetext "
		"would leave such code as it is", ht_format_size (t->size, a),
		ht_format_size (st->o->page_size, b));
      return buf;
    }
  if (!t->congruent)
    return "not aligned: the start and the file offset differ modulo H "
	   "(link with -z hugetext)";
  if (t->eligible == 0)
    return "smaller than one aligned huge page";
  if (t->m.vm_nohugepage)
    return "the process turned huge pages off for it (MADV_NOHUGEPAGE or "
	   "PR_SET_THP_DISABLE)";
  /* The kernel maps a huge page on the first touch of its range: text the
     program has not run yet is not mapped at all.  */
  if (t->m.rss < t->eligible && t->m.rss <= t->pmd)
    return "the rest has not been run yet: the kernel maps text, huge or "
	   "not, on first use";
  fd = open (t->path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0 && ht_fs_info (fd, st->o->page_size, &fs) == 0)
    {
      if (fs.shmem)
	why = "tmpfs gives huge pages only when mounted with huge=always or "
	      "huge=within_size";
      else if (fs.pmd_folios == HT_FS_SMALL_FOLIOS)
	{
	  snprintf (buf, HT_FS_WHY_LEN, "the page cache cannot hold huge "
		    "folios for this file on this kernel: %s", fs.why);
	  why = buf;
	}
      else if (fs.folios == HT_FS_SMALL_FOLIOS)
	{
	  /* MADV_COLLAPSE replaces folios a process maps, too.  */
	  snprintf (buf, HT_FS_WHY_LEN, "%s (run 'hugetext warm --collapse "
		    "FILE')", fs.why);
	  why = buf;
	}
    }
  if (fd >= 0)
    close (fd);
  /* In "never" the kernel still maps a huge folio that is in the page
     cache with a PMD; only nothing but MADV_HUGEPAGE readahead or
     MADV_COLLAPSE (hugetext warm) puts one there.  */
  if (why == NULL && st->mode == HT_THP_NEVER)
    why = "the page cache holds small folios for this file, and with THP "
	  "\"never\" nothing reads text in huge folios by itself (run "
	  "stop the program, run 'hugetext warm FILE', then start it)";
  if (why == NULL)
    why = "the page cache holds small folios for this file "
	  "(stop the program, run 'hugetext warm FILE', then start it: the "
	  "small folios it maps cannot be dropped while it runs)";
  return why;
}

static int
add_mapping (void *ctx, const struct ht_mapping *m)
{
  struct status *st = ctx;
  uint64_t h = st->o->page_size;
  struct text_map *t;
  uint64_t first, last;

  if (m->perms[2] != 'x' || m->path_len == 0 || m->path[0] != '/')
    return 0;
  if (st->n == st->cap)
    {
      size_t cap = st->cap ? st->cap * 2 : 64;
      struct text_map *grown = realloc (st->maps, cap * sizeof *grown);

      if (grown == NULL)
	return 1;		/* Out of memory.  */
      st->maps = grown;
      st->cap = cap;
    }
  t = &st->maps[st->n];
  memset (t, 0, sizeof *t);
  t->m = *m;
  t->path = strndup (m->path, m->path_len);
  if (t->path == NULL)
    return 1;
  t->m.path = t->path;
  t->size = m->end - m->start;
  t->pmd = m->file_pmd_mapped + m->shmem_pmd_mapped;
  t->congruent = m->start % h == m->offset % h;
  first = (m->start + h - 1) / h * h;
  last = m->end / h * h;
  t->eligible = t->congruent && last > first ? last - first : 0;
  st->n++;
  return 0;
}

static void
report_text (const struct status *st, long pid)
{
  uint64_t size = 0, pmd = 0, eligible = 0;
  char a[32], b[32], c[32];
  size_t i;

  printf ("process %ld, THP %s, H %s (%s)\n", pid,
	  ht_thp_mode_name (st->mode), ht_format_size (st->o->page_size, a),
	  ht_h_source_name (st->o->h_source));
  for (i = 0; i < st->n; i++)
    {
      const struct text_map *t = &st->maps[i];

      size += t->size;
      pmd += t->pmd;
      eligible += t->eligible;
      printf ("  %s\n    %#llx-%#llx offset %#llx: %s, %s, PMD-mapped %s "
	      "(%.0f%%)\n", t->path, (unsigned long long) t->m.start,
	      (unsigned long long) t->m.end, (unsigned long long) t->m.offset,
	      ht_format_size (t->size, a),
	      t->congruent ? "congruent mod H" : "not congruent mod H",
	      ht_format_size (t->pmd, b),
	      t->size ? 100.0 * (double) t->pmd / (double) t->size : 0.0);
      if (t->reason != NULL)
	printf ("    why not all: %s\n", t->reason);
    }
  printf ("total: %zu executable file mappings, %s of text, %s in aligned "
	  "huge pages' reach, %s PMD-mapped (%.0f%%)\n", st->n,
	  ht_format_size (size, a), ht_format_size (eligible, b),
	  ht_format_size (pmd, c),
	  size ? 100.0 * (double) pmd / (double) size : 0.0);
}

static void
report_json (const struct status *st, long pid)
{
  struct ht_json j;
  uint64_t size = 0, pmd = 0;
  size_t i;

  ht_json_init (&j, stdout);
  ht_json_object (&j, NULL);
  ht_json_u64 (&j, "pid", (uint64_t) pid);
  ht_json_str (&j, "thp", ht_thp_mode_name (st->mode));
  ht_json_u64 (&j, "page_size", st->o->page_size);
  ht_json_str (&j, "page_size_from", ht_h_source_name (st->o->h_source));
  ht_json_array (&j, "mappings");
  for (i = 0; i < st->n; i++)
    {
      const struct text_map *t = &st->maps[i];

      size += t->size;
      pmd += t->pmd;
      ht_json_object (&j, NULL);
      ht_json_str (&j, "path", t->path);
      ht_json_u64 (&j, "start", t->m.start);
      ht_json_u64 (&j, "end", t->m.end);
      ht_json_u64 (&j, "offset", t->m.offset);
      ht_json_u64 (&j, "size", t->size);
      ht_json_bool (&j, "congruent", t->congruent);
      ht_json_u64 (&j, "eligible", t->eligible);
      ht_json_u64 (&j, "rss", t->m.rss);
      ht_json_u64 (&j, "file_pmd_mapped", t->m.file_pmd_mapped);
      ht_json_u64 (&j, "shmem_pmd_mapped", t->m.shmem_pmd_mapped);
      ht_json_bool (&j, "madv_hugepage", t->m.vm_hugepage);
      if (t->reason != NULL)
	ht_json_str (&j, "reason", t->reason);
      else
	ht_json_null (&j, "reason");
      ht_json_end_object (&j);
    }
  ht_json_end_array (&j);
  ht_json_u64 (&j, "text_bytes", size);
  ht_json_u64 (&j, "pmd_mapped_bytes", pmd);
  ht_json_end_object (&j);
  fputc ('\n', stdout);
}

/* Sample process PID.  Returns the exit status.  */
static int
sample (long pid, struct status_opts *o)
{
  struct status st = { o, ht_thp_mode (), NULL, 0, 0 };
  char err[HT_ERRLEN];
  size_t nmaps = 0, i;
  int status;

  status = ht_smaps_read (pid, add_mapping, &st, &nmaps, err);
  if (status == HT_SMAPS_READ_ERROR)
    {
      int e = errno;

      fprintf (stderr, "%s status: process %ld: %s\n", ht_progname, pid,
	       e == ENOENT || e == ESRCH ? "no such process"
	       : e == EACCES || e == EPERM
	       ? "permission denied (another user's process needs root or "
		 "CAP_SYS_PTRACE)" : strerror (e));
      status = e == ENOENT || e == ESRCH ? HT_EXIT_NO_PROCESS
	       : e == EACCES || e == EPERM ? HT_EXIT_PERMISSION
	       : HT_EXIT_BAD_INPUT;
    }
  else if (status != 0)
    {
      fprintf (stderr, "%s status: process %ld: %s\n", ht_progname, pid,
	       status == -1 ? err : "out of memory");
      status = HT_EXIT_BAD_INPUT;
    }
  else if (nmaps == 0)
    {
      fprintf (stderr, "%s status: process %ld has no mappings (a kernel "
	       "thread, or it has exited)\n", ht_progname, pid);
      status = HT_EXIT_NO_PROCESS;
    }
  else
    {
      for (i = 0; i < st.n; i++)
	if (st.maps[i].pmd < st.maps[i].size)
	  st.maps[i].reason = explain (&st, &st.maps[i],
					    st.maps[i].why);
      if (o->json)
	report_json (&st, pid);
      else
	report_text (&st, pid);
      status = st.mode == HT_THP_UNAVAILABLE ? HT_EXIT_NO_THP : HT_EXIT_OK;
    }
  for (i = 0; i < st.n; i++)
    free (st.maps[i].path);
  free (st.maps);
  return status;
}

/* Whether process PID is named NAME: its comm (what pgrep -x matches),
   or the last part of its argv[0].  */
static bool
process_named (long pid, const char *name)
{
  char path[64];
  size_t len;
  char *text;
  bool same = false;

  snprintf (path, sizeof path, "/proc/%ld/comm", pid);
  if ((text = ht_read_file (path, &len)) != NULL)
    {
      text[strcspn (text, "\n")] = '\0';
      same = strcmp (text, name) == 0;
      free (text);
    }
  snprintf (path, sizeof path, "/proc/%ld/cmdline", pid);
  if (!same && (text = ht_read_file (path, &len)) != NULL)
    {
      /* argv[0] ends at the first NUL.  */
      const char *base = strrchr (text, '/');
      same = strcmp (base ? base + 1 : text, name) == 0;
      free (text);
    }
  return same;
}

/* The one process named NAME, other than this one; 0 after saying why
   there is none, or that there are several, with *STATUS the exit
   status.  */
static long
find_process (const char *name, int *status)
{
  DIR *d = opendir ("/proc");
  struct dirent *e;
  long found = 0, self = (long) getpid ();
  size_t matches = 0;
  char others[256] = "";

  if (d == NULL)
    {
      fprintf (stderr, "%s status: /proc: %s\n", ht_progname,
	       strerror (errno));
      *status = HT_EXIT_BAD_INPUT;
      return 0;
    }
  while ((e = readdir (d)) != NULL)
    {
      char *end;
      long pid = strtol (e->d_name, &end, 10);

      if (*end != '\0' || pid <= 0 || pid == self
	  || !process_named (pid, name))
	continue;
      if (++matches == 1)
	found = pid;
      size_t used = strlen (others);
      snprintf (others + used, sizeof others - used, "%s%ld",
		used ? ", " : "", pid);
    }
  closedir (d);
  if (matches == 1)
    return found;
  if (matches == 0)
    {
      fprintf (stderr, "%s status: no process is named '%s'\n", ht_progname,
	       name);
      *status = HT_EXIT_NO_PROCESS;
    }
  else
    {
      fprintf (stderr, "%s status: %zu processes are named '%s' (%s): give "
	       "one PID\n", ht_progname, matches, name, others);
      *status = HT_EXIT_BAD_INPUT;
    }
  return 0;
}

/* Start COMMAND, sample it after the delay, then wait for it.  */
static int
sample_command (char **argv, struct status_opts *o)
{
  struct timespec step = { 0, 20 * 1000 * 1000 };
  double waited = 0;
  int wstatus, status;
  pid_t pid;

  fflush (NULL);
  pid = fork ();
  if (pid < 0)
    {
      fprintf (stderr, "%s status: fork: %s\n", ht_progname, strerror (errno));
      return HT_EXIT_BAD_INPUT;
    }
  if (pid == 0)
    {
      execvp (argv[0], argv);
      fprintf (stderr, "%s status: %s: %s\n", ht_progname, argv[0],
	       strerror (errno));
      _exit (127);
    }
  while (waited < o->delay)
    {
      if (waitpid (pid, &wstatus, WNOHANG) == pid)
	{
	  fprintf (stderr, "%s status: %s exited before it was sampled "
		   "(status %d); give a shorter --delay\n", ht_progname,
		   argv[0], WIFEXITED (wstatus) ? WEXITSTATUS (wstatus) : -1);
	  return HT_EXIT_NO_PROCESS;
	}
      nanosleep (&step, NULL);
      waited += 0.02;
    }
  status = sample (pid, o);
  waitpid (pid, &wstatus, 0);
  return status;
}

int
cmd_status (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "page-size", required_argument, NULL, 'p' },
    { "delay", required_argument, NULL, 'd' },
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  struct status_opts o = { 0, HT_H_OPTION, 1.0, false };
  const char *arg;
  char *end;
  long pid;
  int c;

  optind = 1;
  while ((c = getopt_long (argc, argv, "+h", longopts, NULL)) != -1)
    switch (c)
      {
      case 'p':
	if (tool_parse_size ("status", "--page-size", optarg, true,
			     &o.page_size) != 0)
	  return HT_EXIT_BAD_INPUT;
	break;
      case 'd':
	o.delay = strtod (optarg, &end);
	if (*end != '\0' || o.delay < 0 || o.delay > 3600)
	  {
	    fprintf (stderr, "%s status: invalid --delay '%s'\n", ht_progname,
		     optarg);
	    return HT_EXIT_BAD_INPUT;
	  }
	break;
      case 'j': o.json = true; break;
      case 'h': status_usage (stdout); return HT_EXIT_OK;
      default: status_usage (stderr); return HT_EXIT_BAD_INPUT;
      }
  /* This command runs on the machine it inspects: H is the kernel's.  */
  o.page_size = ht_runtime_page_size (o.page_size, &o.h_source);
  if (optind < argc && strcmp (argv[optind - 1], "--") == 0)
    return sample_command (argv + optind, &o);
  if (optind + 1 != argc)
    {
      status_usage (stderr);
      return HT_EXIT_BAD_INPUT;
    }
  arg = argv[optind];
  if (strcmp (arg, "self") == 0)
    return sample ((long) getpid (), &o);
  if (arg[0] == '\0')
    {
      fprintf (stderr, "%s status: an empty process name\n", ht_progname);
      return HT_EXIT_BAD_INPUT;
    }
  if (arg[strspn (arg, "0123456789")] != '\0')
    {
      int status = HT_EXIT_OK;

      pid = find_process (arg, &status);
      return pid != 0 ? sample (pid, &o) : status;
    }
  errno = 0;
  pid = strtol (arg, &end, 10);
  if (*end != '\0' || pid <= 0 || errno != 0)
    {
      fprintf (stderr, "%s status: '%s' is not a process ID\n", ht_progname,
	       arg);
      return HT_EXIT_BAD_INPUT;
    }
  return sample (pid, &o);
}
