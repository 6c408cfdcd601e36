/* One description per machine: what the contract and the linkers assume
   about each architecture and base page size.  The facts are the lines of
   lib/machines.def; this is how C code reads them.  */

#ifndef HUGETEXT_MACHINE_H
#define HUGETEXT_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ht_machine
{
  const char *name;		/* "x86-64", "aarch64-16k", ...  */
  uint16_t e_machine;
  unsigned elf_class;		/* 32 or 64.  */
  uint64_t base_page;		/* The kernel's base page size.  */
  uint64_t huge_page;		/* The contract's default H.  */
  uint64_t max_page;		/* GNU ld's default max page size.  */
  bool separate_code;		/* GNU ld's default -z separate-code.  */
  unsigned trap_len;		/* Bytes of TRAP; 0 if there is none.  */
  uint32_t trap;		/* In the target's byte order.  */
  const char *triplet;		/* "x86_64-linux-gnu".  */
};

/* All machines, in the order of lib/machines.def; *N is their count.  */
const struct ht_machine *ht_machines (size_t *n);

/* The machine of an ELF file of E_MACHINE and ELF_CLASS running with
   BASE_PAGE (0: the machine's default entry, the first one listed).
   NULL if none is known.  */
const struct ht_machine *ht_machine_find (uint16_t e_machine,
					  unsigned elf_class,
					  uint64_t base_page);

/* The entry named NAME, or NULL.  */
const struct ht_machine *ht_machine_by_name (const char *name);

/* The machine this process runs on, with the kernel's base page size;
   NULL if lib/machines.def does not know it.  */
const struct ht_machine *ht_machine_host (void);

/* H and the max page size for a machine the table does not know.  */
#define HT_ASSUMED_H (UINT64_C (2) << 20)
#define HT_ASSUMED_MAX_PAGE UINT64_C (4096)

/* The size of a PMD mapping on this kernel, from
   /sys/kernel/mm/transparent_hugepage/hpage_pmd_size; 0 where the kernel
   does not say (no THP, or before Linux 4.19).  No stdio, no malloc, and
   errno as it was: the startup helper calls it before main.  */
uint64_t ht_kernel_pmd_size (void);

/* Where a tool running on the machine it inspects took H from.  */
enum ht_h_source
{
  HT_H_OPTION,			/* --page-size.  */
  HT_H_KERNEL,			/* /sys/kernel/mm/transparent_hugepage/
				   hpage_pmd_size.  */
  HT_H_TABLE,			/* The host's line in lib/machines.def.  */
  HT_H_ASSUMED,			/* Nothing known: 2 MiB.  */
};

/* H for a tool that inspects this machine: OPTION if nonzero, else the
   running kernel's PMD size, else the host's table entry, else
   HT_ASSUMED_H.  *SOURCE says which.  Like ht_kernel_pmd_size, safe
   before main.  */
uint64_t ht_runtime_page_size (uint64_t option, enum ht_h_source *source);

/* "the kernel's hpage_pmd_size" and the like, for messages.  */
const char *ht_h_source_name (enum ht_h_source source);

#endif
