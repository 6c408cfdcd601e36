/* ELF reading for the hugetext tools.

   One job: turn the bytes of an ELF file (ELF32 or ELF64, either byte
   order) into host-order program and section headers, or say in one line
   what is wrong with them.  Nothing here trusts a field before checking it
   against the size of the buffer, so any byte string is safe input.  */

#ifndef HUGETEXT_ELF_H
#define HUGETEXT_ELF_H

#include <elf.h>
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
  uint64_t phoff, shoff;	/* e_phoff, e_shoff.  */
  uint16_t phentsize, shentsize;
  size_t phnum;
  struct ht_phdr *phdrs;
  size_t shnum;			/* 0 when the file has no section headers.  */
  struct ht_shdr *shdrs;
};

/* Where a header field lives in a file of one class: its offset in the
   header and its size, from <elf.h>'s types.  HT_FIELD (ELF, Phdr, p_align)
   is p_align of an Elf64_Phdr or an Elf32_Phdr, as ELF's class says.  */
struct ht_field
{
  size_t offset, size;
};

#define HT_FIELD_OF(type, field) \
  ((struct ht_field) { offsetof (type, field), sizeof ((type *) 0)->field })
#define HT_FIELD(elf, hdr, field) \
  ((elf)->elf_class == 64 ? HT_FIELD_OF (Elf64_##hdr, field) \
			  : HT_FIELD_OF (Elf32_##hdr, field))

/* Read or write field F of the header at HDR, in ELF's byte order.  */
uint64_t ht_elf_get (const struct ht_elf *elf, const unsigned char *hdr,
		     struct ht_field f);
void ht_elf_put (const struct ht_elf *elf, unsigned char *hdr,
		 struct ht_field f, uint64_t v);

/* Parse SIZE bytes at DATA, which must stay valid while ELF is used.
   Returns 0, or -1 with a one-line description of the problem in ERR.  */
int ht_elf_parse (struct ht_elf *elf, const void *data, size_t size,
		  char err[HT_ERRLEN]);

void ht_elf_free (struct ht_elf *elf);

/* Whether section S is named NAME, or starts with PREFIX.  */
bool ht_shdr_name_is (const struct ht_shdr *s, const char *name);
bool ht_shdr_name_starts (const struct ht_shdr *s, const char *prefix);

/* Short human-readable names, never NULL: of a machine of
   lib/machines.def (by e_machine and class), its name there.  */
const char *ht_elf_machine_name (uint16_t machine, unsigned elf_class);
const char *ht_elf_type_name (uint16_t type);

#endif
