/* The hugetext command: one function per subcommand.  */

#ifndef HUGETEXT_TOOL_H
#define HUGETEXT_TOOL_H

#include <stdbool.h>
#include <stdint.h>

/* Exit codes shared by the subcommands.  */
enum
{
  HT_EXIT_OK = 0,
  HT_EXIT_FAIL = 1,		/* The input was read and judged: it fails.  */
  HT_EXIT_BAD_INPUT = 2,	/* Bad usage, or a file that cannot be read.  */
  HT_EXIT_NO_PROCESS = 3,	/* status: no such process.  */
  HT_EXIT_PERMISSION = 4,	/* Permission denied.  */
  HT_EXIT_NO_THP = 5,		/* The kernel has no transparent huge pages.  */
  HT_EXIT_NO_COLLAPSE = 6,	/* warm --collapse: MADV_COLLAPSE unsupported.  */
  HT_EXIT_NOT_ELF = 7,		/* warm: a file that is not ELF.  */
  HT_EXIT_FILESYSTEM = 8,	/* warm: the filesystem cannot hold huge
				   folios (network, read-only and so on).  */
};

extern const char *ht_progname;

/* Parse the value ARG of option OPT of subcommand CMD into *OUT: a size,
   with POW2 a power of two of at least 4K (--page-size).  Returns 0, or
   -1 after saying what is wrong.  */
int tool_parse_size (const char *cmd, const char *opt, const char *arg,
		     bool pow2, uint64_t *out);

int cmd_check (int argc, char **argv);
int cmd_status (int argc, char **argv);
int cmd_warm (int argc, char **argv);
int cmd_punch (int argc, char **argv);

#endif
