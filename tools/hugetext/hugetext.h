/* The hugetext command: one function per subcommand.  */

#ifndef HUGETEXT_TOOL_H
#define HUGETEXT_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The exit statuses, one meaning each in every subcommand (hugetext(1),
   EXIT STATUS, says which subcommand gives which).  With several files,
   a subcommand exits with the highest status of any.  */
enum
{
  HT_EXIT_OK = 0,
  HT_EXIT_FAIL = 1,		/* The input was read and judged: it fails,
				   or was done only in part.  */
  HT_EXIT_BAD_INPUT = 2,	/* Bad usage, or a file that cannot be read
				   (missing, an I/O error, a corrupt ELF
				   file).  */
  HT_EXIT_NO_PROCESS = 3,	/* status: no such process.  */
  HT_EXIT_PERMISSION = 4,	/* Permission denied.  */
  HT_EXIT_NO_THP = 5,		/* The kernel has no transparent huge pages.  */
  HT_EXIT_NO_COLLAPSE = 6,	/* warm --collapse: MADV_COLLAPSE unsupported.  */
  HT_EXIT_NOT_ELF = 7,		/* Not an ELF file: no ELF magic number,
				   empty, or not a regular file.  */
  HT_EXIT_FILESYSTEM = 8,	/* warm: the filesystem cannot hold huge
				   folios (network, read-only and so on).  */
};

/* The exit status of a file that could not be opened or read: ERR, the
   errno value (0 for a file that is not a regular one, as ht_file_open
   reports it), gives permission denied (4), not an ELF file (7), or a
   file that cannot be read (2).  */
int tool_file_status (int err);

/* The exit status of a file of SIZE bytes at DATA that does not parse as
   ELF: a corrupt ELF file (2) where it starts with the ELF magic number,
   else not an ELF file (7).  */
int tool_elf_status (const void *data, size_t size);

extern const char *ht_progname;

/* Parse the value ARG of option OPT of subcommand CMD into *OUT: a size,
   with POW2 a power of two of at least 4K (--page-size).  Returns 0, or
   -1 after saying what is wrong.  */
int tool_parse_size (const char *cmd, const char *opt, const char *arg,
		     bool pow2, uint64_t *out);

struct ht_json;

/* Do file I of a subcommand's files and report it: as an object of the
   JSON array J with --json, J being NULL without.  Returns the file's
   exit status.  */
typedef int tool_file_fn (void *ctx, size_t i, struct ht_json *j);

/* Go over files 0 to N - 1 with EACH, inside a JSON array on standard
   output with JSON (an empty one where N is 0).  Returns the highest exit
   status of the files (a failure to read beats partial coverage), or
   HT_EXIT_OK where there is none.  */
int tool_each_file (size_t n, bool json, tool_file_fn *each, void *ctx);

/* The options that more than one subcommand takes, declared once for
   their getopt_long tables; each subcommand's usage says what they mean
   there.  */
#define TOOL_OPTION_PAGE_SIZE { "page-size", required_argument, NULL, 'p' }
#define TOOL_OPTION_JSON { "json", no_argument, NULL, 'j' }
#define TOOL_OPTION_HELP { "help", no_argument, NULL, 'h' }

/* Whether this process has capability CAP (CAP_SYS_PTRACE...) in its
   effective set, as /proc/self/status says.  */
bool tool_capable (int cap);

int cmd_check (int argc, char **argv);
int cmd_status (int argc, char **argv);
int cmd_warm (int argc, char **argv);
int cmd_punch (int argc, char **argv);

#endif
