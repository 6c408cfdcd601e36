/* The kernel matrix's test program.  It runs the code of its large code
   segment (the program's own, or with "lib" as argument, that of the
   shared library libbig.so it is linked against), then reads
   /proc/self/smaps and prints one line:

     RESULT aligned=A text=T pmd=P

   A: the segment starts on a 2 MiB boundary; T: its bytes; P: bytes of
   it the kernel maps with huge pages (FilePmdMapped + ShmemPmdMapped).
   With "poke" as the last argument it then writes one byte into its text
   through /proc/self/mem, as a debugger setting a breakpoint does, and
   prints "AFTER-WRITE pmd=P" measured again.
   Built static or dynamic, PIE or not, by every producer.  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define H 0x200000UL

int bigfn (void);

struct target
{
  const char *want;		/* Object name suffix, or "" for the program.  */
  unsigned long start, end;
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
	}
    }
  return 0;
}

/* Bytes of [START, END) that smaps reports PMD-mapped.  */
static unsigned long
pmd_mapped (unsigned long start, unsigned long end)
{
  unsigned long pmd = 0, lo, hi, off, kb;
  char line[512];
  FILE *f = fopen ("/proc/self/smaps", "r");
  int in = 0;

  if (f == NULL)
    return 0;
  while (fgets (line, sizeof line, f))
    {
      if (sscanf (line, "%lx-%lx %*s %lx", &lo, &hi, &off) == 3
	  && strchr (line, '-') < strchr (line, ' '))
	in = lo < end && hi > start;
      else if (in && (sscanf (line, "FilePmdMapped: %lu kB", &kb) == 1
		      || sscanf (line, "ShmemPmdMapped: %lu kB", &kb) == 1))
	pmd += kb * 1024;
    }
  fclose (f);
  return pmd;
}

int
main (int argc, char **argv)
{
  struct target t = { argc > 1 && strcmp (argv[1], "lib") == 0
		      ? "libbig.so" : "", 0, 0 };
  volatile unsigned long sum = 0;
  unsigned char trap = 0xcc;
  int fd;

  bigfn ();
  dl_iterate_phdr (find, &t);
  if (t.end == 0)
    {
      puts ("RESULT error=no-code-segment");
      return 2;
    }
  for (unsigned long a = t.start; a < t.end; a += 4096)
    sum += *(volatile unsigned char *) a;
  printf ("RESULT aligned=%d text=%lu pmd=%lu\n", t.start % H == 0,
	  t.end - t.start, pmd_mapped (t.start, t.end));
  if (strcmp (argv[argc - 1], "poke") != 0)
    return 0;
  /* A breakpoint in the last page of the text, in the padding.  */
  fd = open ("/proc/self/mem", O_RDWR);
  if (fd < 0 || pwrite (fd, &trap, 1, (off_t) (t.end - 4096)) != 1)
    {
      puts ("AFTER-WRITE error=cannot-write");
      return 2;
    }
  close (fd);
  printf ("AFTER-WRITE pmd=%lu\n", pmd_mapped (t.start, t.end));
  return 0;
}
