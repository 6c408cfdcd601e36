/* The kernel matrix's test program.  It runs the code of its large code
   segment (the program's own, or with "lib" as argument, that of the
   shared library libbig.so it is linked against), then reads
   /proc/self/smaps and prints one line:

     RESULT aligned=A text=T pmd=P palign=L folio=F folios=LIST

   A: the segment starts on a boundary of H, the running kernel's PMD
   size (/sys/kernel/mm/transparent_hugepage/hpage_pmd_size); T: its
   bytes; P: bytes of it the kernel maps with huge pages (FilePmdMapped +
   ShmemPmdMapped); L: the segment's p_align, by which the loader places
   it (a segment aligned to H whose L is smaller may be so by chance, as
   the load address is random); F: the bytes of the largest folio behind its pages,
   from /proc/self/pagemap and /proc/kpageflags (root only), or -1 where
   they give no page frame numbers (not root, or no
   CONFIG_PROC_PAGE_MONITOR); LIST: every folio size seen and how many
   folios of it, largest first, as SIZE:COUNT,... ("-" with F -1).
   With "poke" as the last argument it runs as a traced child, and its
   tracer writes one byte into its text through /proc/PID/mem, as a
   debugger setting a breakpoint does; the child then prints
   "AFTER-WRITE pmd=P" measured again.  With "at" and a list of seconds
   as the last two arguments ("at 10,30,60") it measures again at each of
   those times since its start and prints "RESULT at=S aligned=..." for
   each: what khugepaged does for a process that keeps running.  With
   "place" as the last argument it only prints where the segment is,

     PLACE aligned=A addr=ADDR palign=L

   without running or touching it: the placement cells run it many times
   to see how the load address varies.  With "sparse" as the last
   argument it touches one page in each PMD-size range of the segment,
   as code that runs here and there does, and prints

     SPARSE touched=N cached_kb=C text_kb=T

   N: the pages touched; C: the KiB of the segment then in the page
   cache (mincore), what the faults and their readahead read of it.
   Built static or dynamic, PIE or not, by every producer.  Built with
   PROBE_DLOPEN, it is not linked against libbig.so: with "lib" it loads
   it with dlopen (found by the program's DT_RUNPATH, $ORIGIN) after it
   has started, and measures that.  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <stdint.h>
#include <link.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef PROBE_DLOPEN
#include <dlfcn.h>
#endif

#include "pagecache.h"

#ifdef PROBE_DLOPEN
static int (*bigfn) (void);
#else
int bigfn (void);
#endif

struct target
{
  const char *want;		/* Object name suffix, or "" for the program.  */
  unsigned long start, end;
  unsigned long align;		/* Its p_align.  */
};

static int
find (struct dl_phdr_info *info, size_t size, void *data)
{
  struct target *t = data;
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  size_t len = strlen (name), wlen = strlen (t->want);

  (void) size;
  if (wlen == 0 ? len != 0 : len < wlen || strcmp (name + len - wlen, t->want))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *p = &info->dlpi_phdr[i];

      if (p->p_type == PT_LOAD && (p->p_flags & PF_X)
	  && p->p_memsz > t->end - t->start)
	{
	  t->start = info->dlpi_addr + p->p_vaddr;
	  t->end = t->start + p->p_memsz;
	  t->align = p->p_align;
	}
    }
  return 0;
}
/* Load libbig.so with dlopen, as a plugin is loaded, and find bigfn in
   it.  Returns 0, or 2 on an error it printed.  */
static int
load (void)
{
#ifdef PROBE_DLOPEN
  void *lib = dlopen ("libbig.so", RTLD_NOW | RTLD_LOCAL);

  if (lib == NULL || (bigfn = (int (*) (void)) dlsym (lib, "bigfn")) == NULL)
    {
      printf ("RESULT error=dlopen: %s\n", dlerror ());
      return 2;
    }
#endif
  return 0;
}

/* " aligned=A text=T pmd=P palign=L folio=F folios=LIST" for T's
   segment.  */
static void
print_result (struct target *t, unsigned long h, unsigned long page)
{
  struct folios folios;
  long largest;

  printf (" aligned=%d text=%lu pmd=%lu palign=%lu", t->start % h == 0,
	  t->end - t->start, pmd_mapped (t->start, t->end), t->align);
  largest = largest_folio (t->start, t->end, page, &folios);
  print_folios (largest, &folios);
  putchar ('\n');
  fflush (stdout);
}

/* Run the code of T's segment, touch all of it, print the RESULT line.
   Returns 0, or 2 on an error it printed.  */
static int
measure (struct target *t, unsigned long h, unsigned long page)
{
  volatile unsigned long sum = 0;

  bigfn ();
  dl_iterate_phdr (find, t);
  if (t->end == 0)
    {
      puts ("RESULT error=no-code-segment");
      return 2;
    }
  if (h == 0)
    {
      puts ("RESULT error=no-hpage-pmd-size");
      return 2;
    }
  for (unsigned long a = t->start; a < t->end; a += page)
    sum += *(volatile unsigned char *) a;
  fputs ("RESULT", stdout);
  print_result (t, h, page);
  return 0;
}

/* "place": where T's segment is, nothing run.  Returns 0, or 2 on an
   error it printed.  */
static int
place (struct target *t, unsigned long h)
{
  dl_iterate_phdr (find, t);
  if (t->end == 0 || h == 0)
    {
      puts ("PLACE error=no-code-segment-or-hpage-pmd-size");
      return 2;
    }
  printf ("PLACE aligned=%d addr=%#lx palign=%lu\n", t->start % h == 0,
	  t->start, t->align);
  return 0;
}

/* "sparse": one page touched in each PMD-size range of T's segment, and
   what the page cache then holds of it.  Returns 0, or 2 on an error it
   printed.  */
static int
sparse (struct target *t, unsigned long h, unsigned long page)
{
  unsigned long pages, cached = 0, n = 0;
  unsigned char *vec;

  dl_iterate_phdr (find, t);
  if (t->end == 0 || h == 0)
    {
      puts ("SPARSE error=no-code-segment-or-hpage-pmd-size");
      return 2;
    }
  pages = (t->end - t->start + page - 1) / page;
  if ((vec = malloc (pages)) == NULL)
    {
      puts ("SPARSE error=no-memory");
      return 2;
    }
  for (unsigned long a = t->start; a < t->end; a += h, n++)
    (void) *(volatile unsigned char *) a;
  if (mincore ((void *) t->start, t->end - t->start, vec) != 0)
    {
      puts ("SPARSE error=mincore");
      return 2;
    }
  for (unsigned long i = 0; i < pages; i++)
    cached += vec[i] & 1;
  printf ("SPARSE touched=%lu cached_kb=%lu text_kb=%lu\n", n,
	  cached * page / 1024, (t->end - t->start) / 1024);
  free (vec);
  return 0;
}

/* "at S1,S2,...": after measuring at start, sleep until S1 seconds since
   START, measure again (running bigfn once more, as a server's code keeps
   running), and so on.  Returns 0, or 2 on a bad list.  */
static int
measure_at (struct target *t, unsigned long h, unsigned long page,
	    const char *list, const struct timespec *start)
{
  const char *p = list;

  while (*p)
    {
      char *end;
      long s = strtol (p, &end, 10);
      struct timespec now, until;

      if (end == p || s <= 0 || (*end != ',' && *end != '\0'))
	{
	  printf ("RESULT error=bad-at-list: %s\n", list);
	  return 2;
	}
      until = *start;
      until.tv_sec += s;
      while (clock_gettime (CLOCK_MONOTONIC, &now) == 0
	     && (now.tv_sec < until.tv_sec
		 || (now.tv_sec == until.tv_sec && now.tv_nsec < until.tv_nsec)))
	clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
      bigfn ();
      printf ("RESULT at=%ld", s);
      print_result (t, h, page);
      p = *end ? end + 1 : end;
    }
  return 0;
}

/* "poke": as a debugger sets a breakpoint.  The probe forks; the child
   asks to be traced, measures, and stops; the parent, its tracer, writes
   one int3 into the last page of the child's text (in the padding)
   through /proc/PID/mem, which kernels with PROC_MEM_FORCE_PTRACE allow
   only to a tracer, and lets it go on; the child measures again.  */
static int
poke (struct target *t, unsigned long h, unsigned long page)
{
  unsigned char trap = 0xcc;
  char path[64];
  int status, fd, ok;
  pid_t pid;

  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    {
      puts ("RESULT error=cannot-fork");
      return 2;
    }
  if (pid == 0)
    {
      if (ptrace (PTRACE_TRACEME, 0, NULL, NULL) != 0)
	{
	  puts ("RESULT error=cannot-trace");
	  _exit (2);
	}
      if (measure (t, h, page) != 0)
	_exit (2);
      raise (SIGSTOP);
      printf ("AFTER-WRITE pmd=%lu\n", pmd_mapped (t->start, t->end));
      fflush (stdout);
      _exit (0);
    }
  if (waitpid (pid, &status, 0) != pid || !WIFSTOPPED (status))
    return WIFEXITED (status) ? WEXITSTATUS (status) : 2;
  /* The child found its segment; the parent has the same layout.  */
  dl_iterate_phdr (find, t);
  snprintf (path, sizeof path, "/proc/%d/mem", (int) pid);
  fd = open (path, O_RDWR);
  ok = fd >= 0 && pwrite (fd, &trap, 1, (off_t) (t->end - page)) == 1;
  if (fd >= 0)
    close (fd);
  if (!ok)
    {
      puts ("AFTER-WRITE error=cannot-write");
      fflush (stdout);
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      return 2;
    }
  ptrace (PTRACE_DETACH, pid, NULL, NULL);
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return 2;
  return WEXITSTATUS (status);
}

int
main (int argc, char **argv)
{
  struct target t = { argc > 1 && strcmp (argv[1], "lib") == 0
		      ? "libbig.so" : "", 0, 0, 0 };
  unsigned long h = pmd_size (), page = (unsigned long) sysconf (_SC_PAGESIZE);
  struct timespec start;
  int rc;

  clock_gettime (CLOCK_MONOTONIC, &start);
  if (load () != 0)
    return 2;
  if (strcmp (argv[argc - 1], "poke") == 0)
    return poke (&t, h, page);
  if (strcmp (argv[argc - 1], "place") == 0)
    return place (&t, h);
  if (strcmp (argv[argc - 1], "sparse") == 0)
    return sparse (&t, h, page);
  rc = measure (&t, h, page);
  if (rc == 0 && argc > 2 && strcmp (argv[argc - 2], "at") == 0)
    rc = measure_at (&t, h, page, argv[argc - 1], &start);
  return rc;
}
