/* Calls into the large code and checks, from the inside, that the code
   segment it runs from was loaded on a 2 MiB boundary with p_align 2 MiB
   (the contract's rules `start` and `loader`).  Exit status 0 when it
   was.  */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdint.h>

int bigfn (void);

static int
find (struct dl_phdr_info *info, size_t size, void *data)
{
  uintptr_t self = (uintptr_t) data;
  int i;

  (void) size;
  for (i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *p = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + p->p_vaddr;

      if (p->p_type != PT_LOAD || !(p->p_flags & PF_X)
	  || self < start || self >= start + p->p_memsz)
	continue;
      printf ("code at %#lx, p_align %#lx\n", (unsigned long) start,
	      (unsigned long) p->p_align);
      return p->p_align == 0x200000 && start % 0x200000 == 0 ? 1 : 2;
    }
  return 0;
}

int
main (void)
{
  int found = dl_iterate_phdr (find, (void *) (uintptr_t) bigfn);

  if (bigfn () != 0)
    return 3;
  puts (found == 1 ? "aligned" : "not aligned");
  return found == 1 ? 0 : 1;
}
