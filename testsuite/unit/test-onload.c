/* Unit tests of the GNU ld plugin's onload, the built hugetext.so loaded
   with dlopen and given transfer vectors as a linker would: what it says
   when the linker lacks part of the interface it needs, when an option
   is bad, and when a registration fails (each named), and that it
   registers its hooks otherwise.  Each case runs in a child process:
   onload keeps state and an exit handler, as in ld.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <plugin-api.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

/* What the fake linker offers: each hook registration, and which of them
   fails.  */
struct linker
{
  bool message, claim, read, cleanup, add_input;
  int gnu_ld, gold;		/* The version tags' values; -1: none.  */
  const char *option;
  int failing;			/* 1 claim, 2 read, 3 cleanup, 0 none.  */
};

static int failing;
static int registered;

static enum ld_plugin_status
fake_message (int level, const char *fmt, ...)
{
  va_list ap;

  (void) level;
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  return LDPS_OK;
}

static enum ld_plugin_status
registration (int which)
{
  if (failing == which)
    return LDPS_ERR;
  registered++;
  return LDPS_OK;
}

static enum ld_plugin_status
reg_claim (ld_plugin_claim_file_handler h)
{
  (void) h;
  return registration (1);
}

static enum ld_plugin_status
reg_read (ld_plugin_all_symbols_read_handler h)
{
  (void) h;
  return registration (2);
}

static enum ld_plugin_status
reg_cleanup (ld_plugin_cleanup_handler h)
{
  (void) h;
  return registration (3);
}

static enum ld_plugin_status
add_input (const char *path)
{
  (void) path;
  return LDPS_OK;
}

/* Load the plugin in a child, call onload with L's transfer vector, and
   put what it said (its messages and stderr) and "status N registered
   M" into OUT.  */
static void
load (const struct linker *l, char *out, size_t size)
{
  int fd[2];
  pid_t pid;
  size_t len = 0;
  ssize_t n;

  out[0] = '\0';
  if (pipe (fd) != 0 || (pid = fork ()) < 0)
    {
      CHECK (!"pipe and fork");
      return;
    }
  if (pid == 0)
    {
      struct ld_plugin_tv tv[10];
      int i = 0;
      void *so;
      ld_plugin_onload onload;
      enum ld_plugin_status status;

      dup2 (fd[1], STDERR_FILENO);
      failing = l->failing;
#define TV(tag, member, value)						\
      (tv[i].tv_tag = (tag), tv[i].tv_u.member = (value), i++)
      if (l->message)
	TV (LDPT_MESSAGE, tv_message, fake_message);
      if (l->claim)
	TV (LDPT_REGISTER_CLAIM_FILE_HOOK, tv_register_claim_file, reg_claim);
      if (l->read)
	TV (LDPT_REGISTER_ALL_SYMBOLS_READ_HOOK,
	    tv_register_all_symbols_read, reg_read);
      if (l->cleanup)
	TV (LDPT_REGISTER_CLEANUP_HOOK, tv_register_cleanup, reg_cleanup);
      if (l->add_input)
	TV (LDPT_ADD_INPUT_FILE, tv_add_input_file, add_input);
      if (l->option)
	TV (LDPT_OPTION, tv_string, l->option);
      if (l->gnu_ld >= 0)
	TV (LDPT_GNU_LD_VERSION, tv_val, l->gnu_ld);
      if (l->gold >= 0)
	TV (LDPT_GOLD_VERSION, tv_val, l->gold);
      TV (LDPT_NULL, tv_val, 0);
#undef TV
      so = dlopen (HT_PLUGIN_PATH, RTLD_NOW);
      onload = so ? (ld_plugin_onload) dlsym (so, "onload") : NULL;
      if (onload == NULL)
	{
	  fprintf (stderr, "cannot load %s: %s\n", HT_PLUGIN_PATH, dlerror ());
	  _exit (1);
	}
      status = onload (tv);
      fprintf (stderr, "status %d registered %d\n", (int) status, registered);
      /* Leave without the exit handlers, the plugin's among them.  */
      _exit (0);
    }
  close (fd[1]);
  while (len + 1 < size && (n = read (fd[0], out + len, size - len - 1)) > 0)
    len += (size_t) n;
  out[len] = '\0';
  close (fd[0]);
  waitpid (pid, NULL, 0);
}

/* GNU ld 2.47, as it says in LDPT_GNU_LD_VERSION.  */
static const struct linker full = {
  .message = true, .claim = true, .read = true, .cleanup = true,
  .add_input = true, .gnu_ld = 247, .gold = -1
};

/* Whether onload returned STATUS, with COUNT hooks registered, and said
   WORDS (or nothing, for NULL).  */
static void
expect (const struct linker *l, int status, int count, const char *words)
{
  char out[4096], tail[64];
  int before = unit_failures;

  load (l, out, sizeof out);
  snprintf (tail, sizeof tail, "status %d registered %d\n", status, count);
  CHECK (strstr (out, tail) != NULL);
  if (words != NULL)
    CHECK (strstr (out, words) != NULL);
  else
    CHECK (strncmp (out, "status ", 7) == 0);
  if (unit_failures > before)
    fprintf (stderr, "said: %s", out);
}

static void
registers_hooks (void)
{
  expect (&full, LDPS_OK, 3, NULL);
}

static void
names_missing_interface (void)
{
  struct linker l = full;

  l.message = false;
  expect (&l, LDPS_ERR, 0, "(LDPT_MESSAGE;");
  l = full;
  l.read = false;
  expect (&l, LDPS_ERR, 0, "(LDPT_REGISTER_ALL_SYMBOLS_READ_HOOK;");
  l = full;
  l.add_input = false;
  expect (&l, LDPS_ERR, 0, "(LDPT_ADD_INPUT_FILE;");
}

static void
names_failed_registration (void)
{
  struct linker l = full;

  l.failing = 1;
  expect (&l, LDPS_ERR, 0, "cannot register the claim-file hook");
  l.failing = 2;
  expect (&l, LDPS_ERR, 1, "cannot register the all-symbols-read hook");
  l.failing = 3;
  expect (&l, LDPS_ERR, 2, "cannot register the cleanup hook");
}

/* gold (LDPT_GOLD_VERSION, with or without GNU ld's tag) and a linker
   that passes neither tag (mold) get no hook, and one line naming them;
   not for -r.  */
static void
leaves_other_linkers_alone (void)
{
  struct linker l = full;

  l.gnu_ld = -1;
  l.gold = 116;
  expect (&l, LDPS_OK, 0, "hugetext: layout left alone: the linker is "
	  "gold 1.16; the plugin lays out GNU ld's links only");
  l.gnu_ld = 247;
  expect (&l, LDPS_OK, 0, "the linker is gold 1.16;");
  l.gnu_ld = -1;
  l.gold = -1;
  expect (&l, LDPS_OK, 0, "hugetext: layout left alone: the linker does "
	  "not say it is GNU ld; the plugin lays out GNU ld's links only");
  /* Without a message function, on stderr; a bad option is not even
     read.  */
  l.message = false;
  l.option = "no-such-option";
  expect (&l, LDPS_OK, 0, "hugetext.so: layout left alone: the linker "
	  "does not say it is GNU ld");
}

static void
rejects_bad_option (void)
{
  struct linker l = full;

  l.option = "no-such-option";
  expect (&l, LDPS_ERR, 0, "no-such-option");
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (registers_hooks),
    UNIT_TEST (names_missing_interface),
    UNIT_TEST (names_failed_registration),
    UNIT_TEST (rejects_bad_option),
    UNIT_TEST (leaves_other_linkers_alone),
  };

  return unit_main ("onload", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
