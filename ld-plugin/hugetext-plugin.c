/* hugetext.so: the hugetext layout (docs/contract.md) for an unpatched
   GNU ld, through the linker plugin API.

   GNU ld 2.40 gives a plugin no say in the layout, so the plugin works in
   three steps:

   1. claim_file: it claims nothing, but adds up the code in each input
      object, to estimate the size of the code segment.
   2. all_symbols_read: if the estimate reaches the min size, it adds a
      linker script that INSERTs ". = ALIGN (H)" before and after the code
      segment, so the code starts and ends on a huge page boundary in
      memory.
   3. At exit, when ld has written the output and is exiting with status
      0 (an on_exit handler, which sees the status; ld's cleanup hook runs
      on failure too): it checks the output against the contract.  If the
      estimate was right, it moves the code segment to a boundary in the
      file too and pads it with a section of its own, .hugetext_padding
      (pad.c).  If the estimate was wrong (--gc-sections removed code, or
      LTO made it), it runs the link once more with the decision reversed,
      so that the layout follows the final code size.

   A failed step leaves ld's own output, or where a change in place
   fails half-way, no output and a failed link.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <plugin-api.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmdline.h"
#include "hugetext/elf.h"
#include "hugetext/file.h"
#include "hugetext/layout.h"
#include "hugetext/machine.h"
#include "options.h"
#include "pad.h"

/* The environment variable that tells the plugin in a repeated link which
   decision to take.  */
#define DECISION_ENV "HUGETEXT_PLUGIN_DECISION"

static ld_plugin_message message;
static ld_plugin_add_input_file add_input_file;
static enum ld_plugin_output_file_type output_type = LDPO_EXEC;
static const char *output_name;

static struct plugin_options opts = { .enabled = true };
static struct link_facts facts;
static struct cmdline cmd;

/* The estimate, from the input objects.  */
static uint16_t machine;
static unsigned machine_class;
static uint64_t est_code;	/* Executable sections.  */
static uint64_t est_readonly;	/* All read-only allocated sections.  */

/* What all_symbols_read decided, and the scripts it wrote.  */
static enum { UNDECIDED, LEFT_ALONE, ALIGN_OFF, ALIGN_ON } decision;
static bool forced;		/* The decision came from DECISION_ENV.  */
static uint64_t page_size, min_size;
static char script_path[2][PATH_MAX];

/* Report through ld's message hook.  Its format is ld's own, which knows
   no %llx: format here, pass one %s.  */
static void
tell (enum ld_plugin_level level, const char *fmt, ...)
{
  char buf[1024];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  message (level, "%s", buf);
}

/* Report at exit, when ld's message hook may no longer be usable.  */
static void
say (const char *fmt, ...)
{
  va_list ap;

  fputs ("hugetext.so: ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

/* The target's line in lib/machines.def, or NULL.  */
static const struct ht_machine *
target (void)
{
  return ht_machine_find (machine, machine_class, 0);
}

/* The largest page size the target runs with, unless -z max-page-size
   says otherwise.  */
static uint64_t
max_page_size (void)
{
  const struct ht_machine *m = target ();

  if (facts.max_page_size != 0)
    return facts.max_page_size;
  return m != NULL ? m->max_page : HT_ASSUMED_MAX_PAGE;
}

static bool
separate_code (void)
{
  const struct ht_machine *m = target ();

  if (facts.separate_code >= 0)
    return facts.separate_code;
  return m != NULL && m->separate_code;
}

/* claim_file: add up the code of every ELF object ld loads.  Claims
   nothing.  */
static enum ld_plugin_status
claim_file (const struct ld_plugin_input_file *file, int *claimed)
{
  long page = sysconf (_SC_PAGESIZE);
  off_t base = file->offset & ~(off_t) (page - 1);
  size_t skip = (size_t) (file->offset - base);
  size_t len = (size_t) file->filesize + skip;
  unsigned char *map;
  struct ht_elf elf;
  char err[HT_ERRLEN];
  size_t i;

  *claimed = 0;
  if (file->filesize <= 0)
    return LDPS_OK;
  map = mmap (NULL, len, PROT_READ, MAP_PRIVATE, file->fd, base);
  if (map == MAP_FAILED)
    return LDPS_OK;
  if (ht_elf_parse (&elf, map + skip, (size_t) file->filesize, err) == 0)
    {
      if (elf.type == ET_REL)
	{
	  if (machine == 0)
	    {
	      machine = elf.machine;
	      machine_class = elf.elf_class;
	    }
	  for (i = 0; i < elf.shnum; i++)
	    {
	      const struct ht_shdr *s = &elf.shdrs[i];

	      if ((s->flags & SHF_ALLOC) == 0 || (s->flags & SHF_WRITE) != 0
		  || s->type == SHT_NOBITS)
		continue;
	      est_readonly += s->size;
	      if (s->flags & SHF_EXECINSTR)
		est_code += s->size;
	    }
	}
      ht_elf_free (&elf);
    }
  munmap (map, len);
  return LDPS_OK;
}

static int
write_script (char path[PATH_MAX], const char *text)
{
  const char *tmp = getenv ("TMPDIR");
  int fd;
  size_t len = strlen (text);

  snprintf (path, PATH_MAX, "%s/hugetext-XXXXXX.ld",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
  fd = mkstemps (path, 3);
  if (fd < 0)
    return -1;
  if (write (fd, text, len) != (ssize_t) len)
    {
      close (fd);
      unlink (path);
      path[0] = '\0';
      return -1;
    }
  return close (fd);
}

/* The last output section statement before the data segment in ld's
   default script, into NAME: with -z noseparate-code the code segment
   ends with it.  It differs between releases (binutils 2.40 ends with
   .exception_ranges, later ones with note sections), so ld is asked: it
   prints the script with --verbose.  Where that fails, 2.40's.  */
static void
last_readonly_section (char *name, size_t size)
{
  const char *argv[8];
  posix_spawn_file_actions_t actions;
  size_t n = 0, len = 0, cap = 0;
  char *text = NULL, *more;
  int fds[2], status;
  pid_t pid;
  ssize_t got;

  snprintf (name, size, ".exception_ranges");
  argv[n++] = "ld";
  if (facts.emulation != NULL)
    {
      argv[n++] = "-m";
      argv[n++] = facts.emulation;
    }
  argv[n++] = "-z";
  argv[n++] = "noseparate-code";
  argv[n++] = "--verbose";
  argv[n] = NULL;
  if (pipe2 (fds, O_CLOEXEC) != 0)
    return;
  if (posix_spawn_file_actions_init (&actions) != 0)
    {
      close (fds[0]);
      close (fds[1]);
      return;
    }
  /* posix_spawn, not fork: ld may be large, and a copy of its page
     tables would cost more than the rest of this.  */
  if (posix_spawn_file_actions_addopen (&actions, 0, "/dev/null", O_RDONLY,
					0) != 0
      || posix_spawn_file_actions_adddup2 (&actions, fds[1], 1) != 0
      || posix_spawn_file_actions_addopen (&actions, 2, "/dev/null",
					   O_WRONLY, 0) != 0
      || posix_spawn (&pid, "/proc/self/exe", &actions, NULL,
		      (char *const *) argv, environ) != 0)
    pid = -1;
  posix_spawn_file_actions_destroy (&actions);
  close (fds[1]);
  while (pid > 0)
    {
      if (cap - len < 4096)
	{
	  more = cap < (1 << 20) ? realloc (text, cap + 65536) : NULL;
	  if (more == NULL)
	    break;
	  text = more;
	  cap += 65536;
	}
      got = read (fds[0], text + len, cap - len - 1);
      if (got < 0 && errno == EINTR)
	continue;
      if (got <= 0)
	break;
      len += (size_t) got;
    }
  close (fds[0]);
  if (pid > 0 && waitpid (pid, &status, 0) == pid && WIFEXITED (status)
      && WEXITSTATUS (status) == 0 && text != NULL)
    {
      text[len] = '\0';
      ld_script_last_readonly (text, name, size);
    }
  free (text);
}

/* Why the layout does not apply to this link, or NULL.  */
static const char *
why_left_alone (void)
{
  struct stat st;

  if (!opts.enabled)
    return "";
  if (output_type == LDPO_REL)
    return "relocatable output";
  if (facts.why_not != NULL)
    return facts.why_not;
  if (output_name != NULL && stat (output_name, &st) == 0
      && !S_ISREG (st.st_mode))
    return "the output is not a regular file";
  return NULL;
}

/* H and the min size, from the options or the target's default; H is
   never below the max page size.  Returns 0, or -1 having said why.  */
static int
resolve_page_size (void)
{
  page_size = opts.page_size;
  if (page_size == 0)
    {
      page_size = target () != NULL ? target ()->huge_page : HT_ASSUMED_H;
      if (page_size < max_page_size ())
	page_size = max_page_size ();
    }
  else if (page_size < max_page_size ())
    {
      tell (LDPL_ERROR, "hugetext: hugetext-page-size (0x%llx) is "
	       "smaller than the max page size (0x%llx)",
	       (unsigned long long) page_size,
	       (unsigned long long) max_page_size ());
      return -1;
    }
  min_size = opts.min_size != 0 ? opts.min_size : page_size;
  return 0;
}

/* Align or not: what the repeated link of the exit step says
   (DECISION_ENV), else whether the code the inputs hold reaches the min
   size.  */
static void
decide (void)
{
  const char *env = getenv (DECISION_ENV);
  uint64_t estimate = separate_code () ? est_code : est_readonly;

  if (env != NULL && (strcmp (env, "on") == 0 || strcmp (env, "off") == 0))
    {
      forced = true;
      decision = strcmp (env, "on") == 0 ? ALIGN_ON : ALIGN_OFF;
    }
  else if (estimate >= min_size || (facts.other_plugin && facts.ir_inputs))
    /* An LTO plugin makes code the estimate cannot see: align, and let
       the check at exit undo it if the code turns out small.  */
    decision = ALIGN_ON;
  else
    decision = ALIGN_OFF;
  if (opts.verbose)
    tell (LDPL_INFO, "hugetext: estimated code 0x%llx bytes, min size "
	     "0x%llx, H 0x%llx: %s%s", (unsigned long long) estimate,
	     (unsigned long long) min_size, (unsigned long long) page_size,
	     decision == ALIGN_ON ? "align" : "leave alone",
	     forced ? " (repeated link)" : "");
}

/* The script that puts the code segment on H boundaries, in TEXT.  With
   separate-code, the code segment ends with .fini.  Its ". = ALIGN (H)"
   comes after the PROVIDE (etext = .) statements of ld's script (an
   INSERT AFTER goes past the assignments after a section, up to the first
   one to "."), so etext stays at the end of the code.  */
static void
alignment_script (char *text, size_t size)
{
  char last[128];

  if (separate_code ())
    snprintf (text, size,
	      "SECTIONS { . = ALIGN (0x%llx); } INSERT BEFORE .init;\n"
	      "SECTIONS { . = ALIGN (0x%llx); } INSERT AFTER .fini;\n",
	      (unsigned long long) page_size, (unsigned long long) page_size);
  else
    {
      last_readonly_section (last, sizeof last);
      snprintf (text, size,
		"SECTIONS { . = ALIGN (0x%llx); } INSERT AFTER %s;\n",
		(unsigned long long) page_size, last);
    }
}

/* Give ld the alignment script as an input file.  ld 2.40 drops the
   assignments of the last script added: an empty one goes last.  Neither
   script may name an output section: ld warns about a script that does,
   added as an input file.  */
static enum ld_plugin_status
add_alignment_script (void)
{
  char text[256];

  alignment_script (text, sizeof text);
  if (opts.verbose)
    tell (LDPL_INFO, "hugetext: %s", text);
  if (write_script (script_path[0], text) != 0
      || write_script (script_path[1], "\n") != 0)
    {
      tell (LDPL_ERROR, "hugetext: cannot write a linker script: %s",
	       strerror (errno));
      return LDPS_ERR;
    }
  if (add_input_file (script_path[0]) != LDPS_OK
      || add_input_file (script_path[1]) != LDPS_OK)
    return LDPS_ERR;
  return LDPS_OK;
}

/* Every input is read: decide whether this link gets the layout, and if
   so, add the script that aligns the code.  */
static enum ld_plugin_status
all_symbols_read (void)
{
  const char *why = why_left_alone ();

  if (why != NULL)
    {
      decision = LEFT_ALONE;
      /* Say so where a layout was expected: a -T script.  Links with -r
	 or -o /dev/null (configure's tests) stay quiet.  */
      if (*why != '\0' && (opts.verbose || facts.layout_script != NULL))
	tell (LDPL_INFO, "hugetext: layout left alone: %s", why);
      return LDPS_OK;
    }
  if (resolve_page_size () != 0)
    return LDPS_ERR;
  decide ();
  if (decision != ALIGN_ON)
    return LDPS_OK;
  return add_alignment_script ();
}

static enum ld_plugin_status
cleanup (void)
{
  int i;

  for (i = 0; i < 2; i++)
    if (script_path[i][0] != '\0')
      {
	unlink (script_path[i]);
	script_path[i][0] = '\0';
      }
  return LDPS_OK;
}

/* Run this link again with DECIDE as the decision, and exit with its
   status.  The raw command line is used, response files and all.  */
static void
relink (const char *decide)
{
  struct cmdline raw;
  size_t len = 0, i, start = 0;
  char *all = cmdline_read_raw (&len);
  pid_t pid;
  int status;

  if (all == NULL)
    goto fail;
  raw.argc = 0;
  raw.argv = calloc (len + 2, sizeof *raw.argv);
  if (raw.argv == NULL)
    goto fail;
  for (i = 0; i < len; i++)
    if (all[i] == '\0')
      {
	raw.argv[raw.argc++] = all + start;
	start = i + 1;
      }
  if (opts.verbose)
    say ("repeating the link with the layout %s", decide);
  fflush (NULL);
  pid = fork ();
  if (pid == 0)
    {
      setenv (DECISION_ENV, decide, 1);
      execv ("/proc/self/exe", raw.argv);
      _exit (127);
    }
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    goto fail;
  _exit (WIFEXITED (status) ? WEXITSTATUS (status) : 1);

fail:
  say ("error: cannot repeat the link: %s", strerror (errno));
  if (output_name != NULL)
    unlink (output_name);
  _exit (1);
}

/* Pad the output in place (FALLOC_FL_INSERT_RANGE), for where no new
   file can be made beside it.  Returns 0; PAD_IN_PLACE_UNSUPPORTED or
   PAD_IN_PLACE_BLOCKS where the file system cannot insert these ranges,
   the output unchanged; or -1 where the output cannot be opened; the
   reason in ERR.  Any other failure of pad_in_place is an error (a
   bug, or a failed write): the output is removed and the link fails,
   rather than leave a broken program or a silent fallback behind.  */
static int
pad_output_in_place (const struct pad_plan *plan, const struct ht_elf *elf,
		     char err[HT_ERRLEN])
{
  int out = open (output_name, O_RDWR), done;

  if (out < 0)
    {
      snprintf (err, HT_ERRLEN, "%s", strerror (errno));
      return -1;
    }
  done = pad_in_place (plan, elf, out, err);
  if (close (out) != 0 && done == PAD_IN_PLACE_DONE)
    {
      snprintf (err, HT_ERRLEN, "closing: %s", strerror (errno));
      done = PAD_IN_PLACE_ERROR;
    }
  if (done == PAD_IN_PLACE_ERROR)
    {
      say ("error: %s: %s; removed", output_name, err);
      unlink (output_name);
      _exit (1);
    }
  return done;
}

/* Pad the output's code segment PHDR: write the padded file next to the
   output and rename it over the output.  That copies the bytes (from the
   page cache, with holes kept), which costs less than inserting the gaps
   in place: on ext4 FALLOC_FL_INSERT_RANGE first writes the whole file
   back to disk and drops its page cache (docs/benchmarks.md, "Where the
   plugin's time goes").  In place only where no file can be made there.
   Returns 0, or -1 with the reason in ERR.  */
static int
finish_layout (const struct ht_elf *elf, int fd, unsigned mode,
	       size_t phdr, char err[HT_ERRLEN])
{
  struct pad_plan plan;
  char tmp[PATH_MAX];
  int out;

  if (pad_plan (&plan, elf, phdr, page_size, err) != 0)
    return -1;
  if (snprintf (tmp, sizeof tmp, "%s.hugetext-XXXXXX", output_name)
      >= (int) sizeof tmp)
    {
      snprintf (err, HT_ERRLEN, "the output name is too long");
      return -1;
    }
  out = mkstemp (tmp);
  if (out < 0)
    {
      int why = errno;
      char in_place[HT_ERRLEN];

      if (pad_output_in_place (&plan, elf, in_place) == 0)
	return 0;
      snprintf (err, HT_ERRLEN, "temporary file: %s; in place: %.180s",
		strerror (why), in_place);
      return -1;
    }
  if (pad_write (&plan, elf, fd, out, err) != 0
      || fchmod (out, mode & 07777) != 0
      || close (out) != 0
      || rename (tmp, output_name) != 0)
    {
      if (err[0] == '\0')
	snprintf (err, HT_ERRLEN, "temporary file: %s", strerror (errno));
      unlink (tmp);
      return -1;
    }
  return 0;
}

/* At exit: finish the layout, or repeat the link where the estimate was
   wrong.  */
static void
at_exit (int status, void *arg)
{
  struct ht_layout_opts lopts = { .page_size = page_size,
				  .min_size = min_size };
  struct ht_layout layout;
  struct ht_file out;
  struct ht_elf elf;
  char err[HT_ERRLEN] = "";
  size_t i, eligible = SIZE_MAX;

  (void) arg;
  cleanup ();
  if (status != 0 || (decision != ALIGN_ON && decision != ALIGN_OFF)
      || output_name == NULL)
    return;
  if (ht_file_open (&out, output_name, err) != 0)
    return;
  if (out.size == 0 || ht_elf_parse (&elf, out.data, out.size, err) != 0)
    goto done;
  if (ht_layout_check (&layout, &elf, &lopts, err) == 0)
    {
      for (i = 0; i < layout.nseg && eligible == SIZE_MAX; i++)
	if (layout.seg[i].eligible)
	  eligible = i;
      if (decision == ALIGN_OFF && eligible != SIZE_MAX && !forced)
	relink ("on");
      else if (decision == ALIGN_ON && eligible == SIZE_MAX && !forced)
	relink ("off");
      else if (eligible != SIZE_MAX
	       && layout.seg[eligible].problems != 0
	       && finish_layout (&elf, out.fd, out.mode,
				 layout.seg[eligible].phdr_index,
				 err) != 0)
	say ("warning: %s: the code segment is not laid out for huge "
	     "pages: %s", output_name, err);
      else if (opts.verbose && eligible != SIZE_MAX)
	say ("%s: code segment aligned and padded to 0x%llx", output_name,
	     (unsigned long long) page_size);
      ht_layout_free (&layout);
    }
  ht_elf_free (&elf);
done:
  ht_file_close (&out);
}

/* The real path of this plugin, to tell its -plugin option apart.  */
static char *
self_path (void)
{
  Dl_info info;

  if (dladdr ((void *) self_path, &info) == 0 || info.dli_fname == NULL)
    return NULL;
  return realpath (info.dli_fname, NULL);
}

/* Say which registration with the linker failed, and fail the load.  */
static enum ld_plugin_status
registration_failed (const char *what)
{
  tell (LDPL_ERROR, "hugetext: cannot register %s", what);
  return LDPS_ERR;
}

/* The hooks the linker offers to register, and what the transfer
   vector says of the linker: GNU ld passes LDPT_GNU_LD_VERSION, gold
   LDPT_GOLD_VERSION, mold and others neither.  */
struct hooks
{
  ld_plugin_register_claim_file claim;
  ld_plugin_register_all_symbols_read read;
  ld_plugin_register_cleanup cleanup;
  int gnu_ld_version;		/* -1: not passed.  */
  int gold_version;		/* -1: not passed.  */
};

/* The first part of the interface the plugin needs that the linker did
   not pass (the message function, the hook registrations in H,
   add_input_file), or NULL.  */
static const char *
missing_interface (const struct hooks *h)
{
  return message == NULL ? "LDPT_MESSAGE"
	 : h->claim == NULL ? "LDPT_REGISTER_CLAIM_FILE_HOOK"
	 : h->read == NULL ? "LDPT_REGISTER_ALL_SYMBOLS_READ_HOOK"
	 : h->cleanup == NULL ? "LDPT_REGISTER_CLEANUP_HOOK"
	 : add_input_file == NULL ? "LDPT_ADD_INPUT_FILE" : NULL;
}

/* Take what the plugin uses from the linker's transfer vector TV: the
   message function, add_input_file, the output's type and name, into
   the globals; the hook registrations into H.  */
static void
read_transfer_vector (const struct ld_plugin_tv *tv, struct hooks *h)
{
  const struct ld_plugin_tv *t;

  for (t = tv; t->tv_tag != LDPT_NULL; t++)
    switch (t->tv_tag)
      {
      case LDPT_MESSAGE:
	message = t->tv_u.tv_message;
	break;
      case LDPT_REGISTER_CLAIM_FILE_HOOK:
	h->claim = t->tv_u.tv_register_claim_file;
	break;
      case LDPT_REGISTER_ALL_SYMBOLS_READ_HOOK:
	h->read = t->tv_u.tv_register_all_symbols_read;
	break;
      case LDPT_REGISTER_CLEANUP_HOOK:
	h->cleanup = t->tv_u.tv_register_cleanup;
	break;
      case LDPT_ADD_INPUT_FILE:
	add_input_file = t->tv_u.tv_add_input_file;
	break;
      case LDPT_LINKER_OUTPUT:
	output_type = (enum ld_plugin_output_file_type) t->tv_u.tv_val;
	break;
      case LDPT_OUTPUT_NAME:
	output_name = t->tv_u.tv_string;
	break;
      case LDPT_GNU_LD_VERSION:
	h->gnu_ld_version = t->tv_u.tv_val;
	break;
      case LDPT_GOLD_VERSION:
	h->gold_version = t->tv_u.tv_val;
	break;
      default:
	break;
      }
}

/* The -plugin-opt= values of TV, in order (the last of hugetext and
   nohugetext wins); false, and said, on a bad one.  */
static bool
read_options (const struct ld_plugin_tv *tv)
{
  const struct ld_plugin_tv *t;
  char err[256];

  for (t = tv; t->tv_tag != LDPT_NULL; t++)
    if (t->tv_tag == LDPT_OPTION
	&& plugin_option_parse (&opts, t->tv_u.tv_string, err,
				sizeof err) != 0)
      {
	tell (LDPL_ERROR, "%s", err);
	return false;
      }
  return true;
}

/* What the linker was asked to do: its command line and what follows
   from it (link_facts_read), and the plugin kept loaded, since ld
   unloads its plugins before the process exits and the exit handler
   must stay.  False, and said, when either cannot be had.  */
static bool
read_link (void)
{
  char *self;
  bool kept;

  if (cmdline_read_self (&cmd) != 0)
    {
      tell (LDPL_ERROR, "hugetext: cannot read the command line: %s",
	    strerror (errno));
      return false;
    }
  self = self_path ();
  link_facts_read (&facts, &cmd, self);
  kept = self != NULL
	 && dlopen (self, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != NULL;
  if (!kept)
    tell (LDPL_ERROR, "hugetext: cannot keep the plugin loaded: %s",
	  self == NULL ? "its path is unknown" : dlerror ());
  free (self);
  return kept;
}

/* Register the hooks in H and the exit handler, naming the one that
   fails.  */
static enum ld_plugin_status
register_hooks (const struct hooks *h)
{
  if (h->claim (claim_file) != LDPS_OK)
    return registration_failed ("the claim-file hook");
  if (h->read (all_symbols_read) != LDPS_OK)
    return registration_failed ("the all-symbols-read hook");
  if (h->cleanup (cleanup) != LDPS_OK)
    return registration_failed ("the cleanup hook");
  if (on_exit (at_exit, NULL) != 0)
    return registration_failed ("the exit handler");
  return LDPS_OK;
}

/* The plugin's one exported symbol.  */
__attribute__ ((visibility ("default")))
enum ld_plugin_status onload (struct ld_plugin_tv *tv);

/* Whether the linker that loads the plugin is the GNU ld it lays out
   links for (its linker scripts, INSERT and all, are how it does).  If
   not, say so once, in words that name the linker, unless the link is
   one nobody looks at (-r; configure's -o /dev/null).  */
static bool
linker_is_gnu_ld (const struct hooks *h)
{
  char which[64];

  if (h->gnu_ld_version >= 0 && h->gold_version < 0)
    return true;
  if (h->gold_version >= 0)
    snprintf (which, sizeof which, "is gold %d.%02d", h->gold_version / 100,
	      h->gold_version % 100);
  else
    snprintf (which, sizeof which, "does not say it is GNU ld");
  if (output_type != LDPO_REL
      && (output_name == NULL || strcmp (output_name, "/dev/null") != 0))
    {
      if (message != NULL)
	tell (LDPL_INFO, "hugetext: layout left alone: the linker %s; the "
	      "plugin lays out GNU ld's links only", which);
      else
	say ("layout left alone: the linker %s; the plugin lays out GNU "
	     "ld's links only", which);
    }
  return false;
}

enum ld_plugin_status
onload (struct ld_plugin_tv *tv)
{
  struct hooks h = { NULL, NULL, NULL, -1, -1 };
  const char *missing;

  read_transfer_vector (tv, &h);
  /* Any other linker gets its link as without the plugin: no hook, no
     option read, nothing changed.  */
  if (!linker_is_gnu_ld (&h))
    return LDPS_OK;
  missing = missing_interface (&h);
  if (missing != NULL)
    {
      say ("error: this linker lacks the plugin interface hugetext.so "
	   "needs (%s; GNU ld 2.40 or later has it)", missing);
      return LDPS_ERR;
    }
  if (!read_options (tv) || !read_link ())
    return LDPS_ERR;
  return register_hooks (&h);
}
