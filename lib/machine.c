/* The machine table: see hugetext/machine.h and lib/machines.def.  */

#define _GNU_SOURCE
#include "hugetext/machine.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#define KiB(n) ((uint64_t) (n) << 10)

static const struct ht_machine machines[] = {
#define HT_MACHINE(name, em, cls, base, h, maxp, sep, text_start, tlen, trap, \
		   triplet) \
  { name, em, cls, KiB (base), KiB (h), KiB (maxp), sep, tlen, trap, \
    triplet },
#define HT_CROSS(triplet, deb_arch, qemu, cc)
#include "../machines.def"
#undef HT_CROSS
#undef HT_MACHINE
};

#define NMACHINES (sizeof machines / sizeof machines[0])

const struct ht_machine *
ht_machines (size_t *n)
{
  *n = NMACHINES;
  return machines;
}

const struct ht_machine *
ht_machine_find (uint16_t e_machine, unsigned elf_class, uint64_t base_page)
{
  for (size_t i = 0; i < NMACHINES; i++)
    if (machines[i].e_machine == e_machine
	&& machines[i].elf_class == elf_class
	&& (base_page == 0 || machines[i].base_page == base_page))
      return &machines[i];
  return NULL;
}

const struct ht_machine *
ht_machine_by_name (const char *name)
{
  for (size_t i = 0; i < NMACHINES; i++)
    if (strcmp (machines[i].name, name) == 0)
      return &machines[i];
  return NULL;
}

/* e_machine and class of this process, from the vDSO's ELF header, or
   failing that from the program's own file.  */
static bool
host_elf (uint16_t *e_machine, unsigned *elf_class)
{
  unsigned char hdr[EI_NIDENT + 4];
  const unsigned char *p = (const void *) getauxval (AT_SYSINFO_EHDR);

  if (p == NULL)
    {
      int fd = open ("/proc/self/exe", O_RDONLY | O_CLOEXEC);
      ssize_t n = fd >= 0 ? read (fd, hdr, sizeof hdr) : -1;

      if (fd >= 0)
	close (fd);
      if (n != (ssize_t) sizeof hdr)
	return false;
      p = hdr;
    }
  if (memcmp (p, ELFMAG, SELFMAG) != 0)
    return false;
  /* e_machine follows e_type, in the host's own byte order.  */
  memcpy (e_machine, p + EI_NIDENT + 2, sizeof *e_machine);
  *elf_class = p[EI_CLASS] == ELFCLASS64 ? 64 : 32;
  return true;
}

const struct ht_machine *
ht_machine_host (void)
{
  int saved = errno;
  uint16_t em;
  unsigned cls;
  long page = sysconf (_SC_PAGESIZE);

  bool known = host_elf (&em, &cls) && page > 0;

  errno = saved;
  return known ? ht_machine_find (em, cls, (uint64_t) page) : NULL;
}

uint64_t
ht_kernel_pmd_size (void)
{
  int saved = errno;
  int fd = open ("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
		 O_RDONLY | O_CLOEXEC);
  char buf[32];
  ssize_t n = fd >= 0 ? read (fd, buf, sizeof buf - 1) : -1;
  uint64_t size = 0;

  if (fd >= 0)
    close (fd);
  if (n > 0)
    {
      char *end;

      buf[n] = '\0';
      size = strtoull (buf, &end, 10);
      if (end == buf || (*end != '\n' && *end != '\0')
	  || (size & (size - 1)) != 0)
	size = 0;
    }
  errno = saved;
  return size;
}

uint64_t
ht_runtime_page_size (uint64_t option, enum ht_h_source *source)
{
  const struct ht_machine *m;
  uint64_t h;

  if (option != 0)
    {
      *source = HT_H_OPTION;
      return option;
    }
  if ((h = ht_kernel_pmd_size ()) != 0)
    {
      *source = HT_H_KERNEL;
      return h;
    }
  if ((m = ht_machine_host ()) != NULL)
    {
      *source = HT_H_TABLE;
      return m->huge_page;
    }
  *source = HT_H_ASSUMED;
  return HT_ASSUMED_H;
}

const char *
ht_h_source_name (enum ht_h_source source)
{
  switch (source)
    {
    case HT_H_OPTION: return "--page-size";
    case HT_H_KERNEL: return "the kernel's hpage_pmd_size";
    case HT_H_TABLE: return "this machine's default";
    case HT_H_ASSUMED: break;
    }
  return "assumed: this machine is not in the table";
}
