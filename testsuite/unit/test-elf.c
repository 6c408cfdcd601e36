/* Unit tests of the ELF parser: every class and byte order, and the
   malformed inputs it must refuse with a reason.  */

#include "elfbuild.h"
#include "unit.h"

#include "hugetext/elf.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* Parse SPEC; return the parse status, with ERR set on failure.  */
static int
parse_spec (const struct eb_elf *spec, struct ht_elf *elf,
	    unsigned char **buf, char err[HT_ERRLEN])
{
  size_t len;

  *buf = eb_build (spec, &len);
  return ht_elf_parse (elf, *buf, len, err);
}

static void
roundtrip (unsigned cls, bool be, uint16_t machine)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct ht_elf elf;
  unsigned char *buf;
  char err[HT_ERRLEN];

  spec.cls = cls;
  spec.be = be;
  spec.machine = machine;
  CHECK (parse_spec (&spec, &elf, &buf, err) == 0);
  CHECK_EQ (elf.elf_class, cls);
  CHECK (elf.big_endian == be);
  CHECK_EQ (elf.machine, machine);
  CHECK_EQ (elf.type, ET_DYN);
  CHECK_EQ (elf.phnum, 3);
  CHECK_EQ (elf.phdrs[1].flags, PF_R | PF_X);
  CHECK_EQ (elf.phdrs[1].offset, 0x200000);
  CHECK_EQ (elf.phdrs[1].vaddr, 0x200000);
  CHECK_EQ (elf.phdrs[1].filesz, 0x400000);
  CHECK_EQ (elf.phdrs[1].align, 0x200000);
  CHECK_EQ (elf.phdrs[2].memsz, 0x2000);
  CHECK_EQ (elf.shnum, 6);
  CHECK (ht_shdr_name_is (&elf.shdrs[2], ".text"));
  CHECK (ht_shdr_name_starts (&elf.shdrs[5], ".shstr"));
  CHECK_EQ (elf.shdrs[2].size, 0x3f0000);
  CHECK_EQ (elf.shdrs[2].flags, SHF_ALLOC | SHF_EXECINSTR);
  ht_elf_free (&elf);
  free (buf);
}

static void
elf64_lsb (void)
{
  roundtrip (64, false, EM_X86_64);
}

static void
elf64_msb (void)
{
  roundtrip (64, true, EM_PPC64);
}

static void
elf32_lsb (void)
{
  roundtrip (32, false, EM_386);
}

static void
elf32_msb (void)
{
  roundtrip (32, true, EM_PPC);
}

/* Expect SPEC (after MUTATE has had its way with the bytes) to be refused
   with a message containing WHAT.  */
static void
expect_error (const unsigned char *buf, size_t len, const char *what)
{
  struct ht_elf elf;
  char err[HT_ERRLEN] = "";

  if (ht_elf_parse (&elf, buf, len, err) == 0)
    {
      fprintf (stderr, "parsed, expected an error with '%s'\n", what);
      unit_failures++;
      ht_elf_free (&elf);
      return;
    }
  if (strstr (err, what) == NULL)
    {
      fprintf (stderr, "error '%s' does not mention '%s'\n", err, what);
      unit_failures++;
    }
}

static void
not_elf (void)
{
  expect_error ((const unsigned char *) "#!/bin/sh\n", 10, "not an ELF file");
  expect_error ((const unsigned char *) "\177EL", 3, "not an ELF file");
  expect_error ((const unsigned char *) "\177ELF\2\1", 6,
		"truncated ELF identification");
}

static void
bad_ident (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  size_t len;
  unsigned char *buf = eb_build (&spec, &len);

  buf[EI_CLASS] = 3;
  expect_error (buf, len, "unsupported ELF class 3");
  buf[EI_CLASS] = ELFCLASS64;
  buf[EI_DATA] = 0;
  expect_error (buf, len, "unsupported ELF byte order 0");
  buf[EI_DATA] = ELFDATA2LSB;
  buf[EI_VERSION] = 2;
  expect_error (buf, len, "unsupported ELF version 2");
  free (buf);
}

static void
truncated (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  size_t len;
  unsigned char *buf = eb_build (&spec, &len);

  expect_error (buf, 40, "truncated ELF header");
  /* Cut inside the section headers, which come last.  */
  expect_error (buf, len - 10, "section header table");
  /* Cut inside the text segment.  */
  expect_error (buf, 0x300000, "section header table");
  free (buf);

  spec.no_shdrs = true;
  buf = eb_build (&spec, &len);
  expect_error (buf, 100, "program header table");
  expect_error (buf, 0x300000, "program header 1 (PT_LOAD");
  free (buf);
}

static void
malformed_segment (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  size_t len;

  spec.seg[2].filesz = 0x3000;	/* Larger than p_memsz.  */
  unsigned char *buf = eb_build (&spec, &len);
  expect_error (buf, len, "larger than p_memsz");
  free (buf);

  spec = eb_good_x86_64 ();
  spec.seg[1].offset = UINT64_MAX - 0x10;	/* Wraps around.  */
  buf = eb_build (&spec, &len);
  expect_error (buf, len, "extends past the end of the file");
  free (buf);
}

static void
bad_entsize (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  size_t len;
  unsigned char *buf = eb_build (&spec, &len);

  buf[54] = 40;			/* e_phentsize.  */
  expect_error (buf, len, "e_phentsize is 40");
  buf[54] = sizeof (Elf64_Phdr);
  buf[58] = 40;			/* e_shentsize.  */
  expect_error (buf, len, "e_shentsize is 40");
  free (buf);
}

static void
bad_section_names (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  size_t len;
  unsigned char *buf = eb_build (&spec, &len);

  buf[62] = 77;			/* e_shstrndx.  */
  expect_error (buf, len, "out of range");
  free (buf);

  /* The name table's last byte is its terminating NUL; drop it.  */
  buf = eb_build (&spec, &len);
  uint64_t shoff;
  memcpy (&shoff, buf + 40, 8);
  uint64_t tab = shoff + 5 * sizeof (Elf64_Shdr);
  uint64_t size;
  memcpy (&size, buf + tab + 32, 8);
  size--;
  memcpy (buf + tab + 32, &size, 8);
  expect_error (buf, len, "not NUL-terminated");
  free (buf);
}

static void
no_section_headers (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct ht_elf elf;
  unsigned char *buf;
  char err[HT_ERRLEN];

  spec.no_shdrs = true;
  CHECK (parse_spec (&spec, &elf, &buf, err) == 0);
  CHECK_EQ (elf.shnum, 0);
  CHECK_EQ (elf.phnum, 3);
  ht_elf_free (&elf);
  free (buf);
}

/* e_phnum == PN_XNUM: the count lives in section 0's sh_info.  */
static void
extended_numbering (void)
{
  struct eb_elf spec = eb_good_x86_64 ();
  struct ht_elf elf;
  size_t len;
  char err[HT_ERRLEN];
  unsigned char *buf = eb_build (&spec, &len);
  uint64_t shoff;

  memcpy (&shoff, buf + 40, 8);
  buf[56] = 0xff;		/* e_phnum = PN_XNUM.  */
  buf[57] = 0xff;
  buf[shoff + 44] = 3;		/* sh_info of section 0.  */
  CHECK (ht_elf_parse (&elf, buf, len, err) == 0);
  CHECK_EQ (elf.phnum, 3);
  ht_elf_free (&elf);

  memset (buf + 40, 0, 8);	/* No section headers to hold it.  */
  expect_error (buf, len, "PN_XNUM");
  free (buf);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (elf64_lsb), UNIT_TEST (elf64_msb),
    UNIT_TEST (elf32_lsb), UNIT_TEST (elf32_msb),
    UNIT_TEST (not_elf), UNIT_TEST (bad_ident), UNIT_TEST (truncated),
    UNIT_TEST (malformed_segment), UNIT_TEST (bad_entsize),
    UNIT_TEST (bad_section_names), UNIT_TEST (no_section_headers),
    UNIT_TEST (extended_numbering),
  };
  return unit_main ("elf", tests, sizeof tests / sizeof tests[0], argc, argv);
}
