/* The hugetext command: one function per subcommand.  */

#ifndef HUGETEXT_TOOL_H
#define HUGETEXT_TOOL_H

/* Exit codes shared by the subcommands.  */
enum
{
  HT_EXIT_OK = 0,
  HT_EXIT_FAIL = 1,		/* The input was read and judged: it fails.  */
  HT_EXIT_BAD_INPUT = 2,	/* Bad usage, or a file that cannot be read.  */
};

extern const char *ht_progname;

int cmd_check (int argc, char **argv);

#endif
