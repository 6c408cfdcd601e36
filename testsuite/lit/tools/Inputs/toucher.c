/* Reads all of its own code segment, so that every huge page of it is
   mapped, then sleeps for argv[1] seconds (default 2) so that it can be
   sampled.  With "all" as argv[2], the code segments of every loaded
   object too (the shared libraries it needs); with a library as argv[3],
   it loads that one with dlopen first, as a plugin is loaded.  With
   TOUCHER_READY in the environment, it creates that file once it has
   read them: a test waits for it (%wait-for) rather than guess how long
   a start takes on a loaded machine.  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sum;
static int all;

static int
touch (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *p = &info->dlpi_phdr[i];
      const volatile unsigned char *b;

      if (p->p_type != PT_LOAD || !(p->p_flags & PF_X))
	continue;
      b = (const unsigned char *) (info->dlpi_addr + p->p_vaddr);
      for (size_t off = 0; off < p->p_memsz; off += 4096)
	sum += b[off];
    }
  return !all;			/* Stop after the program, unless "all".  */
}

int
main (int argc, char **argv)
{
  all = argc > 2 && argv[2][0] == 'a';
  if (argc > 3 && dlopen (argv[3], RTLD_NOW | RTLD_LOCAL) == NULL)
    {
      fprintf (stderr, "toucher: %s\n", dlerror ());
      return 1;
    }
  dl_iterate_phdr (touch, NULL);
  const char *ready = getenv ("TOUCHER_READY");
  int fd = ready != NULL ? open (ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)
			 : -1;
  if (fd >= 0)
    close (fd);
  sleep (argc > 1 ? (unsigned) atoi (argv[1]) : 2);
  return 0;
}
