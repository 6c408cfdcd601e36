/* hugetext: tools for huge-page-aligned program text.  */

#include "hugetext.h"

#include "hugetext/thp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ht_progname = "hugetext";

static const struct command
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} commands[] = {
  { "check", cmd_check, "does each ELF file meet the hugetext layout contract" },
  { "status", cmd_status, "how much of a process's text is mapped with huge pages" },
  { "warm", cmd_warm, "fill the page cache with huge folios for each file's text" },
  { "punch", cmd_punch, "give the zero padding of each file back as holes" },
};

static void
usage (FILE *out)
{
  fprintf (out, "Usage: %s COMMAND [OPTION]... [ARG]...\n"
	   "       %s --help | --version\n\nCommands:\n", ht_progname,
	   ht_progname);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf (out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\n'%s COMMAND --help' describes one command.\n",
	   ht_progname);
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      usage (stderr);
      return HT_EXIT_BAD_INPUT;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      usage (stdout);
      return HT_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("hugetext " HUGETEXT_VERSION "\n");
      return HT_EXIT_OK;
    }
  /* A value the tools would read as no kernel at all: said, not taken
     for a very old one.  */
  const char *release = getenv ("HUGETEXT_KERNEL_RELEASE");
  if (release != NULL && *release != '\0' && ht_kernel_version () == 0)
    {
      fprintf (stderr, "%s: HUGETEXT_KERNEL_RELEASE='%s' is not a kernel "
	       "release (MAJOR.MINOR, such as 7.2.0); unset it to use the "
	       "running kernel's\n", ht_progname, release);
      return HT_EXIT_BAD_INPUT;
    }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
	/* getopt names argv[0] in its messages: "hugetext check:
	   unrecognized option", as the commands' own errors begin.  */
	static char name[32];

	snprintf (name, sizeof name, "%s %s", ht_progname,
		  commands[i].name);
	argv[1] = name;
	return commands[i].run (argc - 1, argv + 1);
      }
  fprintf (stderr, "%s: unknown %s '%s'\n", ht_progname,
	   argv[1][0] == '-' ? "option" : "command", argv[1]);
  usage (stderr);
  return HT_EXIT_BAD_INPUT;
}
