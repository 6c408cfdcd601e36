/* hugetext status PID|self|NAME | -- COMMAND [ARG]...: how much of each
   file-backed executable mapping of a process is mapped with huge pages
   (PMD-mapped), and, where little is, the likely reason.  */

#define _GNU_SOURCE
#include "hugetext.h"

#include "hugetext/file.h"
#include "hugetext/elf.h"
#include "hugetext/json.h"
#include "hugetext/layout.h"
#include "hugetext/machine.h"
#include "hugetext/size.h"
#include "hugetext/smaps.h"
#include "hugetext/thp.h"

#include <dirent.h>
#include <linux/capability.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
"  --delay=SECONDS   with COMMAND: when to sample it, after its exec\n"
"                    (default 1)\n"
"  --json            one JSON document on standard output\n"
"  -h, --help        this text\n"
"\n"
"Exit status: 0 reported; 2 bad usage, NAME matches several processes, or\n"
"COMMAND cannot be run; 3 no such process, or it ended before it was\n"
"sampled; 4 permission denied; 5 the kernel has no transparent huge pages\n"
"(reported anyway).\n",
	   ht_progname, ht_progname);
}

/* Whether hugetext warm fills any of the file at PATH with huge folios of
   H: it has an eligible code segment that starts on an H boundary.  */
static bool
warm_fills (const char *path, uint64_t h)
{
  struct ht_layout_opts lopts = { .page_size = h, .headers_only = true };
  struct ht_layout layout;
  struct ht_file f;
  struct ht_elf elf;
  char err[HT_ERRLEN];
  uint64_t offset, size = 0;

  if (ht_file_open (&f, path, err) == 0 && f.data != NULL)
    {
      ht_file_quiet (&f);
      if (ht_elf_parse (&elf, f.data, f.size, err) == 0)
	{
	  if (ht_layout_check (&layout, &elf, &lopts, err) == 0)
	    {
	      size = ht_layout_aligned_text (&layout, &offset);
	      ht_layout_free (&layout);
	    }
	  ht_elf_free (&elf);
	}
    }
  ht_file_close (&f);
  return size != 0;
}

/* Whether T's file was deleted (or replaced) since it was mapped: the
   kernel says so after its path.  */
static bool
deleted (const struct text_map *t)
{
  static const char mark[] = " (deleted)";
  size_t len = strlen (t->path);

  return len > sizeof mark - 1
	 && strcmp (t->path + len - (sizeof mark - 1), mark) == 0;
}

/* Why the page cache gives T's file small folios, and what to do: for
   explain.  */
static const char *
cache_explain (const struct status *st, const struct text_map *t,
	       char *buf)
{
  struct ht_fs_info fs;
  const char *why = NULL;
  int fd;

  fd = open (t->path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0 && ht_fs_info (fd, st->o->page_size, &fs) == 0)
    {
      if (fs.shmem)
	/* The words and the advice of warm's, tested there: a file copied
	   onto huge=within_size gets small pages.  */
	why = "tmpfs keeps a file's pages, small ones here: run 'hugetext "
	      "warm --collapse FILE', or copy the file to a tmpfs mounted "
	      "with huge=always";
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
  /* warm fills only a code segment that starts on an H boundary: for
     any other, its advice would not work.  */
  if (why == NULL && !warm_fills (t->path, st->o->page_size))
    why = "the page cache holds small folios for this file, and its code "
	  "segment does not start on an H boundary, which 'hugetext warm' "
	  "needs: link it with -z hugetext";
  if (why == NULL && st->mode == HT_THP_NEVER)
    why = "the page cache holds small folios for this file, and with THP "
	  "\"never\" nothing reads text in huge folios by itself ("
	  "stop the program, run 'hugetext warm FILE', then start it)";
  if (why == NULL)
    why = "the page cache holds small folios for this file "
	  "(stop the program, run 'hugetext warm FILE', then start it: the "
	  "small folios it maps cannot be dropped while it runs)";
  return why;
}

/* Why the mapping M is not fully PMD-mapped, in words (in BUF where they
   are made up: HT_FS_WHY_LEN bytes).  */
static const char *
explain (const struct status *st, const struct text_map *t, char *buf)
{
  if (st->mode == HT_THP_UNAVAILABLE)
    return "the kernel has no transparent huge pages";
  /* Any advice on the file would be about another file now.  */
  if (deleted (t))
    return "the file was deleted or replaced since the process mapped it; "
	   "the process keeps the old file's pages: restart it";
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
  /* Congruent by chance (the kernel places a large file mapping on an H
     boundary): the huge pages inside are mapped, the ends cannot be.  */
  if (t->pmd >= t->eligible)
    return "all of its aligned huge pages are PMD-mapped; its ends are "
	   "not whole huge pages, as the code segment does not start and "
	   "end on H boundaries (link with -z hugetext)";
  if (t->m.vm_nohugepage)
    return "the process turned huge pages off for it (MADV_NOHUGEPAGE or "
	   "PR_SET_THP_DISABLE)";
  /* The kernel maps a huge page on the first touch of its range: text the
     program has not run yet is not mapped at all.  */
  if (t->m.rss < t->eligible && t->m.rss <= t->pmd)
    return "the rest has not been run yet: the kernel maps text, huge or "
	   "not, on first use";
  return cache_explain (st, t, buf);
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
}

/* The real user ID of process PID, from its status file (which anyone
   can read); -1 where there is none.  */
static long
process_uid (long pid)
{
  char path[64];
  size_t len;
  char *text;
  const char *uid;
  long id = -1;

  snprintf (path, sizeof path, "/proc/%ld/status", pid);
  text = ht_read_file (path, &len);
  uid = text ? strstr (text, "\nUid:") : NULL;
  if (uid != NULL)
    id = strtol (uid + 5, NULL, 10);
  free (text);
  return id;
}

/* Why the maps of process PID could not be read (EACCES), in words true
   for who asks.  */
static const char *
permission_denied (long pid)
{
  if (tool_capable (CAP_SYS_PTRACE))
    return "permission denied, even with CAP_SYS_PTRACE: the process is in "
	   "a user namespace this one does not own (a container), or a "
	   "security module (Yama, SELinux, AppArmor) refuses";
  if (process_uid (pid) == (long) getuid ())
    return "permission denied: the process is yours but not dumpable (it "
	   "ran set-user-ID or with file capabilities, or turned "
	   "PR_SET_DUMPABLE off): only root, or CAP_SYS_PTRACE, reads its "
	   "maps";
  return "permission denied (another user's process needs root or "
	 "CAP_SYS_PTRACE)";
}

/* With --json, the document for process PID that could not be sampled:
   WHY and the exit status, so that standard output always holds one.  */
static void
json_error (const struct status_opts *o, long pid, int status,
	    const char *why)
{
  struct ht_json j;

  if (!o->json)
    return;
  ht_json_init (&j, stdout);
  ht_json_object (&j, NULL);
  ht_json_u64 (&j, "pid", (uint64_t) pid);
  ht_json_str (&j, "error", why);
  ht_json_u64 (&j, "status", (uint64_t) status);
  ht_json_end_object (&j);
}

/* Say that process PID could not be sampled, and why.  */
static void
report_error (const struct status_opts *o, long pid, int status,
	      const char *why)
{
  fprintf (stderr, "%s status: process %ld: %s\n", ht_progname, pid, why);
  json_error (o, pid, status, why);
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

      status = e == ENOENT || e == ESRCH ? HT_EXIT_NO_PROCESS
	       : e == EACCES || e == EPERM ? HT_EXIT_PERMISSION
	       : HT_EXIT_BAD_INPUT;
      report_error (o, pid, status,
		    e == ENOENT || e == ESRCH ? "no such process"
		    : e == EACCES || e == EPERM ? permission_denied (pid)
		    : strerror (e));
    }
  else if (status != 0)
    {
      status = HT_EXIT_BAD_INPUT;
      report_error (o, pid, status, status == -1 ? err : "out of memory");
    }
  else if (nmaps == 0)
    {
      status = HT_EXIT_NO_PROCESS;
      report_error (o, pid, status, "it has no mappings (a kernel thread, "
		    "or it has exited)");
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

/* Whether process PID has exited and waits for its parent to reap it
   (state Z, or X): it has no mappings left to sample.  */
static bool
zombie (long pid)
{
  char path[64];
  size_t len;
  char *text;
  const char *paren;
  bool dead = false;

  snprintf (path, sizeof path, "/proc/%ld/stat", pid);
  text = ht_read_file (path, &len);
  /* The state follows the name, which is in parentheses and may hold
     any byte: after the last ')'.  */
  paren = text ? strrchr (text, ')') : NULL;
  if (paren != NULL && paren[1] == ' ')
    dead = paren[2] == 'Z' || paren[2] == 'X';
  free (text);
  return dead;
}

/* The one process named NAME, other than this one, and not a zombie; 0 after saying why
   there is none, or that there are several, with *STATUS the exit
   status.  */
static long
find_process (const char *name, int *status, long *pids, size_t *npids)
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
	  || !process_named (pid, name) || zombie (pid))
	continue;
      if (matches < *npids)
	pids[matches] = pid;
      if (++matches == 1)
	found = pid;
      size_t used = strlen (others);
      snprintf (others + used, sizeof others - used, "%s%ld",
		used ? ", " : "", pid);
    }
  closedir (d);
  if (matches < *npids)
    *npids = matches;
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

/* Start COMMAND into *PID.  The delay counts from its exec, which a
   close-on-exec pipe reports: before that, the child is this program.
   With --json, the command's standard output goes to standard error, so
   that standard output holds the one JSON document.  Returns HT_EXIT_OK,
   or an exit status having said why it could not run.  */
static int
start_command (char **argv, const struct status_opts *o, pid_t *pid)
{
  int wstatus, exec_error = 0, fds[2];

  fflush (NULL);
  if (pipe2 (fds, O_CLOEXEC) != 0 || (*pid = fork ()) < 0)
    {
      fprintf (stderr, "%s status: cannot start %s: %s\n", ht_progname,
	       argv[0], strerror (errno));
      return HT_EXIT_BAD_INPUT;
    }
  if (*pid == 0)
    {
      int e;

      close (fds[0]);
      if (o->json)
	dup2 (STDERR_FILENO, STDOUT_FILENO);
      execvp (argv[0], argv);
      e = errno;
      if (write (fds[1], &e, sizeof e) != (ssize_t) sizeof e)
	_exit (126);
      _exit (127);
    }
  close (fds[1]);
  while (read (fds[0], &exec_error, sizeof exec_error) < 0 && errno == EINTR)
    ;
  close (fds[0]);
  if (exec_error == 0)
    return HT_EXIT_OK;
  waitpid (*pid, &wstatus, 0);
  fprintf (stderr, "%s status: cannot run %s: %s\n", ht_progname,
	   argv[0], strerror (exec_error));
  if (o->json)
    {
      struct ht_json j;
      char why[HT_ERRLEN];

      snprintf (why, sizeof why, "cannot run: %s", strerror (exec_error));
      ht_json_init (&j, stdout);
      ht_json_object (&j, NULL);
      ht_json_str (&j, "command", argv[0]);
      ht_json_str (&j, "error", why);
      ht_json_u64 (&j, "status", HT_EXIT_BAD_INPUT);
      ht_json_end_object (&j);
    }
  return HT_EXIT_BAD_INPUT;
}

/* Wait the delay for the started COMMAND, process PID.  Returns
   HT_EXIT_OK, or HT_EXIT_NO_PROCESS having said that it exited before.  */
static int
await_delay (char **argv, const struct status_opts *o, pid_t pid)
{
  struct timespec step = { 0, 20 * 1000 * 1000 }, start, now;
  double waited = 0;
  int wstatus;

  clock_gettime (CLOCK_MONOTONIC, &start);
  for (;;)
    {
      if (waitpid (pid, &wstatus, WNOHANG) == pid)
	{
	  /* A shorter delay helps only a command that ran for a while.  */
	  if (waited >= 0.1)
	    fprintf (stderr, "%s status: %s exited before it was sampled "
		     "(status %d), after about %.1f s: give a --delay "
		     "shorter than that\n", ht_progname, argv[0],
		     WIFEXITED (wstatus) ? WEXITSTATUS (wstatus) : -1,
		     waited);
	  else
	    fprintf (stderr, "%s status: %s exited before it was sampled "
		     "(status %d): it ran for less than %.1f s, too short "
		     "to sample\n", ht_progname, argv[0],
		     WIFEXITED (wstatus) ? WEXITSTATUS (wstatus) : -1, 0.1);
	  json_error (o, pid, HT_EXIT_NO_PROCESS, "it exited before it was "
		      "sampled");
	  return HT_EXIT_NO_PROCESS;
	}
      if (waited >= o->delay)
	return HT_EXIT_OK;
      nanosleep (&step, NULL);
      clock_gettime (CLOCK_MONOTONIC, &now);
      waited = (double) (now.tv_sec - start.tv_sec)
	       + (double) (now.tv_nsec - start.tv_nsec) / 1e9;
    }
}

/* Start COMMAND, sample it after the delay, then wait for it.  */
static int
sample_command (char **argv, struct status_opts *o)
{
  pid_t pid;
  int wstatus, status = start_command (argv, o, &pid);

  if (status == HT_EXIT_OK)
    status = await_delay (argv, o, pid);
  if (status != HT_EXIT_OK)
    return status;
  status = sample (pid, o);
  /* The report now, not when the command ends (a service may run on). */
  fflush (stdout);
  waitpid (pid, &wstatus, 0);
  return status;
}

/* Sample the one process named ARG (its command name), or say that
   there is none or that there are several.  */
static int
sample_named (const char *arg, struct status_opts *o)
{
  int status = HT_EXIT_OK;
  long pids[64], pid;
  size_t npids = sizeof pids / sizeof pids[0];
  struct ht_json j;

  pid = find_process (arg, &status, pids, &npids);
  if (pid != 0)
    return sample (pid, o);
  if (!o->json)
    return status;
  ht_json_init (&j, stdout);
  ht_json_object (&j, NULL);
  ht_json_str (&j, "name", arg);
  ht_json_str (&j, "error", status == HT_EXIT_NO_PROCESS
			     ? "no process is named so"
			     : "several processes are named so");
  if (status != HT_EXIT_NO_PROCESS)
    {
      ht_json_array (&j, "pids");
      for (size_t i = 0; i < npids; i++)
	ht_json_u64 (&j, NULL, (uint64_t) pids[i]);
      ht_json_end_array (&j);
    }
  ht_json_u64 (&j, "status", (uint64_t) status);
  ht_json_end_object (&j);
  return status;
}

int
cmd_status (int argc, char **argv)
{
  static const struct option longopts[] = {
    TOOL_OPTION_PAGE_SIZE,
    { "delay", required_argument, NULL, 'd' },
    TOOL_OPTION_JSON,
    TOOL_OPTION_HELP,
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
	/* NaN fails both comparisons.  */
	if (end == optarg || *end != '\0'
	    || !(o.delay >= 0 && o.delay <= 3600))
	  {
	    fprintf (stderr, "%s status: invalid --delay '%s': expected "
		     "seconds from 0 to 3600, such as 0.5\n", ht_progname,
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
      if (optind == argc)
	fprintf (stderr, "%s status: no process given: a PID, 'self' or a "
		 "NAME, or -- COMMAND\n", ht_progname);
      else
	fprintf (stderr, "%s status: one process only, after the options: "
		 "'%s' follows '%s'\n", ht_progname, argv[optind + 1],
		 argv[optind]);
      fprintf (stderr, "Try '%s status --help'.\n", ht_progname);
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
    return sample_named (arg, &o);
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
