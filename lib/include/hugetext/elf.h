/* ELF reading for the hugetext tools.

   One job: turn the bytes of an ELF file (ELF32 or ELF64, either byte
   order) into host-order program and section headers, or say in one line
   what is wrong with them.  Nothing here trusts a field before checking it
   against the size of the buffer, so any byte string is safe input.  */

#ifndef HUGETEXT_ELF_H
#define HUGETEXT_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HT_ERRLEN 256

struct ht_phdr
{
  uint32_t type;
  uint32_t flags;
  uint64_t offset;
  uint64_t vaddr;
  uint64_t paddr;
  uint64_t filesz;
  uint64_t memsz;
  uint64_t align;
};

struct ht_shdr
{
  const char *name;		/* Points into the buffer; not NUL-terminated.  */
  size_t name_len;
  uint32_t type;
  uint64_t flags;
  uint64_t addr;
  uint64_t offset;
  uint64_t size;
};

struct ht_elf
{
  const unsigned char *data;
  size_t size;
  unsigned elf_class;		/* 32 or 64.  */
  bool big_endian;
  uint16_t type;		/* e_type.  */
  uint16_t machine;		/* e_machine.  */
  size_t phnum;
  struct ht_phdr *phdrs;
  size_t shnum;			/* 0 when the file has no section headers.  */
  struct ht_shdr *shdrs;
};

/* Parse SIZE bytes at DATA, which must stay valid while ELF is used.
   Returns 0, or -1 with a one-line description of the problem in ERR.  */
int ht_elf_parse (struct ht_elf *elf, const void *data, size_t size,
		  char err[HT_ERRLEN]);

void ht_elf_free (struct ht_elf *elf);

/* Whether section S is named NAME, or starts with PREFIX.  */
bool ht_shdr_name_is (const struct ht_shdr *s, const char *name);
bool ht_shdr_name_starts (const struct ht_shdr *s, const char *prefix);

/* Short human-readable names, never NULL.  */
const char *ht_elf_machine_name (uint16_t machine);
const char *ht_elf_type_name (uint16_t type);

#endif
