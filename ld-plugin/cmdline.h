/* The linker's own command line, as the plugin sees it.

   GNU ld 2.40 tells a plugin nothing about its command line but the
   output kind and name, so the plugin reads /proc/self/cmdline, expanding
   @FILE response files the way libiberty's expandargv does.  */

#ifndef HUGETEXT_PLUGIN_CMDLINE_H
#define HUGETEXT_PLUGIN_CMDLINE_H

#include <stddef.h>

struct cmdline
{
  char **argv;			/* argv[0] is the linker; NULL-terminated.  */
  size_t argc;
};

/* Read the command line of this process into CMD.  Returns 0, or -1 with
   errno set.  */
int cmdline_read_self (struct cmdline *cmd);

/* The raw contents of /proc/self/cmdline (NUL-separated, response files
   not expanded), malloc'd and NUL-terminated, its length in *LEN; NULL
   with errno set on failure.  */
char *cmdline_read_raw (size_t *len);

/* Split the NUL-separated strings in BUF (LEN bytes) into CMD, expanding
   response files.  Returns 0, or -1 with errno set.  */
int cmdline_parse (struct cmdline *cmd, const char *buf, size_t len);

void cmdline_free (struct cmdline *cmd);

#endif
