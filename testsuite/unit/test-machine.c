/* Unit tests of the machine table (lib/machines.def) and of where the
   runtime tools take H from.  */

#include "unit.h"

#include "hugetext/machine.h"
#include "hugetext/size.h"

#include <elf.h>
#include <string.h>
#include <unistd.h>

#define KiB 1024u
#define MiB (1024u * 1024u)

/* A file of a machine is judged by the machine's first entry; a kernel
   with another base page size picks its own.  */
static void
find_by_machine_and_page (void)
{
  static const struct
  {
    uint16_t em;
    unsigned cls;
    uint64_t base, h;
  } v[] = {
    { EM_X86_64, 64, 0, 2 * MiB }, { EM_386, 32, 0, 2 * MiB },
    { EM_AARCH64, 64, 0, 2 * MiB }, { EM_AARCH64, 64, 4 * KiB, 2 * MiB },
    { EM_AARCH64, 64, 16 * KiB, 32 * MiB },
    { EM_AARCH64, 64, 64 * KiB, 512 * MiB }, { EM_PPC64, 64, 0, 2 * MiB },
    { EM_RISCV, 64, 0, 2 * MiB }, { EM_S390, 64, 0, 1 * MiB },
    { EM_LOONGARCH, 64, 0, 32 * MiB },
  };

  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    {
      const struct ht_machine *m = ht_machine_find (v[i].em, v[i].cls,
						    v[i].base);
      CHECK (m != NULL);
      if (m != NULL)
	CHECK_EQ (m->huge_page, v[i].h);
    }
  CHECK (ht_machine_find (EM_RISCV, 32, 0) == NULL);
  CHECK (ht_machine_find (EM_MIPS, 32, 0) == NULL);
  CHECK (ht_machine_find (EM_X86_64, 64, 16 * KiB) == NULL);
}

/* What every line must satisfy for the linkers and the tools to use it.  */
static void
every_entry_is_sane (void)
{
  size_t n;
  const struct ht_machine *m = ht_machines (&n);

  CHECK (n >= 9);
  for (size_t i = 0; i < n; i++)
    {
      CHECK (ht_is_pow2 (m[i].base_page) && ht_is_pow2 (m[i].huge_page)
	     && ht_is_pow2 (m[i].max_page));
      CHECK (m[i].huge_page >= m[i].max_page);
      CHECK (m[i].huge_page > m[i].base_page);
      CHECK (m[i].trap_len <= 4);
      CHECK (ht_machine_by_name (m[i].name) == &m[i]);
    }
  CHECK (ht_machine_by_name ("vax") == NULL);
}

/* This test runs on a machine the table knows (CI: x86-64), with the
   kernel's page size.  */
static void
host_and_runtime_h (void)
{
  const struct ht_machine *host = ht_machine_host ();
  enum ht_h_source src;

  CHECK (host != NULL);
  if (host != NULL)
    CHECK_EQ (host->base_page, (uint64_t) sysconf (_SC_PAGESIZE));
  CHECK_EQ (ht_runtime_page_size (4 * MiB, &src), 4 * MiB);
  CHECK_EQ (src, HT_H_OPTION);
  uint64_t h = ht_runtime_page_size (0, &src);
  CHECK (src == HT_H_KERNEL || src == HT_H_TABLE);
  CHECK (ht_is_pow2 (h));
  CHECK (strstr (ht_h_source_name (HT_H_KERNEL), "hpage_pmd_size") != NULL);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (find_by_machine_and_page), UNIT_TEST (every_entry_is_sane),
    UNIT_TEST (host_and_runtime_h),
  };
  return unit_main ("machine", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
