/* The exit statuses of a file that the subcommands cannot take: one
   condition, one status, whichever subcommand meets it.  */

#include "hugetext.h"

#include <elf.h>
#include <errno.h>
#include <string.h>

int
tool_file_status (int err)
{
  if (err == EACCES || err == EPERM)
    return HT_EXIT_PERMISSION;
  return err == 0 ? HT_EXIT_NOT_ELF : HT_EXIT_BAD_INPUT;
}

int
tool_elf_status (const void *data, size_t size)
{
  return size >= SELFMAG && memcmp (data, ELFMAG, SELFMAG) == 0
	 ? HT_EXIT_BAD_INPUT : HT_EXIT_NOT_ELF;
}
