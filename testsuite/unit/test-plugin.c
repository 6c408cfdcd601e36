/* Unit tests of the GNU ld plugin's parts that need no linker: the
   command line reader, its options, and the padding of a linked file.  */

#define _GNU_SOURCE
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmdline.h"
#include "elfbuild.h"
#include "hugetext/layout.h"
#include "options.h"
#include "pad.h"
#include "unit.h"

static void
parse (struct cmdline *cmd, const char *buf, size_t len)
{
  CHECK (cmdline_parse (cmd, buf, len) == 0);
}

static void
cmdline_plain (void)
{
  static const char buf[] = "ld\0-o\0a.out\0x.o";
  struct cmdline cmd;

  parse (&cmd, buf, sizeof buf);
  CHECK_EQ (cmd.argc, 4);
  CHECK (strcmp (cmd.argv[0], "ld") == 0);
  CHECK (strcmp (cmd.argv[3], "x.o") == 0);
  CHECK (cmd.argv[4] == NULL);
  cmdline_free (&cmd);
}

/* A response file: white space, quotes and backslashes as libiberty
   reads them, and a response file inside a response file.  */
static void
cmdline_response_files (void)
{
  char outer[] = "/tmp/ht-unit-outer-XXXXXX";
  char inner[] = "/tmp/ht-unit-inner-XXXXXX";
  int fo = mkstemp (outer), fi = mkstemp (inner);
  char text[256], buf[128];
  struct cmdline cmd;
  size_t len;

  CHECK (fo >= 0 && fi >= 0);
  snprintf (text, sizeof text,
	    "-z separate-code\n'a b.o' \"c\\\"d\" e\\ f @%s\n", inner);
  CHECK (write (fo, text, strlen (text)) == (ssize_t) strlen (text));
  CHECK (write (fi, "-T  x.ld ", 9) == 9);
  close (fo);
  close (fi);
  len = (size_t) snprintf (buf, sizeof buf, "ld%c@%s%c@/no/such/file", 0,
			   outer, 0) + 1;
  parse (&cmd, buf, len);
  CHECK_EQ (cmd.argc, 9);
  if (cmd.argc == 9)
    {
      CHECK (strcmp (cmd.argv[1], "-z") == 0);
      CHECK (strcmp (cmd.argv[2], "separate-code") == 0);
      CHECK (strcmp (cmd.argv[3], "a b.o") == 0);
      CHECK (strcmp (cmd.argv[4], "c\"d") == 0);
      CHECK (strcmp (cmd.argv[5], "e f") == 0);
      CHECK (strcmp (cmd.argv[6], "-T") == 0);
      CHECK (strcmp (cmd.argv[7], "x.ld") == 0);
      /* Unreadable: kept as it is, as libiberty does.  */
      CHECK (strcmp (cmd.argv[8], "@/no/such/file") == 0);
    }
  cmdline_free (&cmd);
  unlink (outer);
  unlink (inner);
}

static void
facts_from_command_line (void)
{
  static const char buf[] = "ld\0-zseparate-code\0-z\0noseparate-code\0"
    "-z\0max-page-size=0x10000\0-o\0-N\0--oformat=binary\0x.o";
  struct cmdline cmd;
  struct link_facts facts;

  parse (&cmd, buf, sizeof buf);
  link_facts_read (&facts, &cmd, NULL);
  CHECK_EQ (facts.separate_code, 0);
  CHECK_EQ (facts.max_page_size, 0x10000);
  /* "-N" here is the value of -o, not the option.  */
  CHECK (facts.why_not != NULL
	 && strcmp (facts.why_not, "the output is not ELF") == 0);
  CHECK (!facts.other_plugin);
  cmdline_free (&cmd);
}

static void
plugin_options (void)
{
  struct plugin_options o = { .enabled = true };
  char err[256];

  CHECK (plugin_option_parse (&o, "nohugetext", err, sizeof err) == 0);
  CHECK (!o.enabled);
  CHECK (plugin_option_parse (&o, "hugetext", err, sizeof err) == 0);
  CHECK (o.enabled);
  CHECK (plugin_option_parse (&o, "hugetext-page-size=4M", err,
			      sizeof err) == 0);
  CHECK_EQ (o.page_size, 0x400000);
  CHECK (plugin_option_parse (&o, "hugetext-min-size=0x1000", err,
			      sizeof err) == 0);
  CHECK_EQ (o.min_size, 0x1000);
  CHECK (plugin_option_parse (&o, "hugetext-page-size=3M", err,
			      sizeof err) != 0);
  CHECK (strstr (err, "not a power of two") != NULL);
  CHECK (plugin_option_parse (&o, "hugetext-min-size=", err,
			      sizeof err) != 0);
  CHECK (plugin_option_parse (&o, "bogus", err, sizeof err) != 0);
  CHECK (strstr (err, "unknown option 'bogus'") != NULL);
}

/* What GNU ld writes with the plugin's script: the code starts on a
   2 MiB boundary in memory but not in the file, and is not padded.  */
static struct eb_elf
linked (unsigned cls, bool be)
{
  struct eb_elf e = {
    .cls = cls, .be = be, .type = ET_EXEC, .machine = EM_X86_64,
    .size = 0x302100,
    .nseg = 3,
    .seg = {
      { PT_LOAD, PF_R, 0, 0x400000, 0x800, 0x800, 0x1000 },
      { PT_LOAD, PF_R | PF_X, 0x1000, 0x600000, 0x300100, 0x300100,
	0x1000 },
      { PT_LOAD, PF_R | PF_W, 0x302000, 0xa00000, 0x100, 0x2000, 0x1000 },
    },
    .nsec = 4,
    .sec = {
      { ".rodata", SHT_PROGBITS, SHF_ALLOC, 0x400100, 0x100, 0x700 },
      { ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x600000,
	0x1000, 0x3000f0 },
      { ".fini", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x9000f0,
	0x3010f0, 0x10 },
      { ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0xa00000, 0x302000,
	0x100 },
    },
  };
  return e;
}

static int
file_with (const unsigned char *data, size_t len)
{
  FILE *f = tmpfile ();
  int fd;

  if (f == NULL)
    return -1;
  fd = dup (fileno (f));
  fclose (f);
  if (fd >= 0 && pwrite (fd, data, len, 0) != (ssize_t) len)
    {
      close (fd);
      return -1;
    }
  return fd;
}

static void
pad_one (unsigned cls, bool be)
{
  struct eb_elf spec = linked (cls, be);
  size_t len, outlen;
  unsigned char *img = eb_build (&spec, &len), *out;
  struct ht_elf elf, padded;
  struct ht_layout_opts lopts = { .page_size = 0x200000,
				  .min_size = 0x200000 };
  struct ht_layout layout;
  struct pad_plan plan;
  char err[HT_ERRLEN];
  int in, fd;

  /* Markers: the first code byte and the first data byte.  */
  img[0x1000] = 0xaa;
  img[0x302000] = 0xbb;
  in = file_with (img, len);
  fd = file_with (NULL, 0);
  CHECK (in >= 0 && fd >= 0);
  CHECK (ht_elf_parse (&elf, img, len, err) == 0);
  CHECK (pad_plan (&plan, &elf, 1, 0x200000, err) == 0);
  CHECK_EQ (plan.front, 0x1ff000);
  CHECK_EQ (plan.tail, 0x100000);
  CHECK_EQ (plan.padded, 0x400000);
  CHECK (pad_write (&plan, &elf, in, fd, err) == 0);

  outlen = (size_t) lseek (fd, 0, SEEK_END);
  CHECK_EQ (outlen, len + 0x2ff000);
  out = mmap (NULL, outlen, PROT_READ, MAP_PRIVATE, fd, 0);
  CHECK (out != MAP_FAILED);
  CHECK (ht_elf_parse (&padded, out, outlen, err) == 0);
  CHECK_EQ (padded.phdrs[1].offset, 0x200000);
  CHECK_EQ (padded.phdrs[1].filesz, 0x400000);
  CHECK_EQ (padded.phdrs[1].memsz, 0x400000);
  CHECK_EQ (padded.phdrs[1].align, 0x200000);
  CHECK_EQ (padded.phdrs[2].offset, 0x601000);
  CHECK_EQ (padded.phdrs[2].align, 0x1000);
  CHECK_EQ (padded.phdrs[0].offset, 0);
  /* .fini grows to the boundary; the data moved with its segment.  */
  CHECK_EQ (padded.shdrs[3].size, 0x400000 - 0x3000f0);
  CHECK_EQ (padded.shdrs[4].offset, 0x601000);
  CHECK_EQ (out[0x200000], 0xaa);
  CHECK_EQ (out[0x601000], 0xbb);
  CHECK (ht_layout_check (&layout, &padded, &lopts, err) == 0);
  CHECK_EQ (layout.eligible, 1);
  CHECK_EQ (layout.failing, 0);
  ht_layout_free (&layout);
  ht_elf_free (&padded);
  munmap (out, outlen);
  ht_elf_free (&elf);
  close (in);
  close (fd);
  free (img);
}

static void
pad_elf64_lsb (void)
{
  pad_one (64, false);
}

static void
pad_elf32_msb (void)
{
  pad_one (32, true);
}

/* Padding in place gives the same bytes as padding into a new file,
   also with the file mapped while it changes, as the plugin has it.  The
   code ends mid-block, so the tail gap goes in at a block boundary and
   the end of the code is put back in front of it.  */
static void
pad_in_place_one (unsigned cls, bool be)
{
  struct eb_elf spec = linked (cls, be);
  size_t len, outlen;
  unsigned char *img = eb_build (&spec, &len), *want, *got, *map;
  struct ht_elf elf, mapped;
  struct pad_plan plan;
  char err[HT_ERRLEN];
  int in, out, fd, r;

  for (size_t i = 0x1000; i < 0x301100; i += 0x333)
    img[i] = (unsigned char) i;
  in = file_with (img, len);
  out = file_with (NULL, 0);
  fd = file_with (img, len);
  CHECK (in >= 0 && out >= 0 && fd >= 0);
  CHECK (ht_elf_parse (&elf, img, len, err) == 0);
  CHECK (pad_plan (&plan, &elf, 1, 0x200000, err) == 0);
  CHECK_EQ (plan.tail_at, 0x301100);
  CHECK (pad_write (&plan, &elf, in, out, err) == 0);

  map = mmap (NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
  CHECK (map != MAP_FAILED);
  CHECK (ht_elf_parse (&mapped, map, len, err) == 0);
  r = pad_in_place (&plan, &mapped, fd, err);
  if (r == 1)
    SKIP ("the file system of tmpfile() cannot insert ranges");
  else
    {
      CHECK_EQ (r, 0);
      outlen = (size_t) lseek (out, 0, SEEK_END);
      CHECK_EQ ((size_t) lseek (fd, 0, SEEK_END), outlen);
      want = malloc (outlen);
      got = malloc (outlen);
      CHECK (want != NULL && got != NULL);
      CHECK (pread (out, want, outlen, 0) == (ssize_t) outlen);
      CHECK (pread (fd, got, outlen, 0) == (ssize_t) outlen);
      CHECK (memcmp (want, got, outlen) == 0);
      free (want);
      free (got);
    }
  ht_elf_free (&mapped);
  munmap (map, len);
  ht_elf_free (&elf);
  close (in);
  close (out);
  close (fd);
  free (img);
}

static void
pad_in_place_elf64_lsb (void)
{
  pad_in_place_one (64, false);
}

static void
pad_in_place_elf32_msb (void)
{
  pad_in_place_one (32, true);
}

/* A code segment that does not start on a boundary cannot be padded.  */
static void
pad_refuses_unaligned (void)
{
  struct eb_elf spec = linked (64, false);
  size_t len;
  unsigned char *img;
  struct ht_elf elf;
  struct pad_plan plan;
  char err[HT_ERRLEN];

  spec.seg[1].vaddr += 0x1000;
  img = eb_build (&spec, &len);
  CHECK (ht_elf_parse (&elf, img, len, err) == 0);
  CHECK (pad_plan (&plan, &elf, 1, 0x200000, err) != 0);
  CHECK (strstr (err, "not on a 0x200000 boundary") != NULL);
  ht_elf_free (&elf);
  free (img);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (cmdline_plain),
    UNIT_TEST (cmdline_response_files),
    UNIT_TEST (facts_from_command_line),
    UNIT_TEST (plugin_options),
    UNIT_TEST (pad_elf64_lsb),
    UNIT_TEST (pad_elf32_msb),
    UNIT_TEST (pad_in_place_elf64_lsb),
    UNIT_TEST (pad_in_place_elf32_msb),
    UNIT_TEST (pad_refuses_unaligned),
  };
  return unit_main ("plugin", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
