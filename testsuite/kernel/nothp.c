/* Run a command with THP disabled for it, as a service manager does with
   PR_SET_THP_DISABLE (which survives execve):

     nothp [-a] COMMAND [ARG]...

   -a: PR_THP_DISABLE_EXCEPT_ADVISED (Linux 6.18), THP only where the
   program advises it.  Exits 127 where the kernel refuses the prctl or
   the command cannot be run.  */

#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef PR_THP_DISABLE_EXCEPT_ADVISED
#define PR_THP_DISABLE_EXCEPT_ADVISED (1 << 1)
#endif

int
main (int argc, char **argv)
{
  int advised = argc > 1 && strcmp (argv[1], "-a") == 0;
  char **cmd = argv + 1 + advised;

  if (*cmd == NULL)
    {
      fputs ("usage: nothp [-a] COMMAND [ARG]...\n", stderr);
      return 127;
    }
  if (prctl (PR_SET_THP_DISABLE, 1,
	     advised ? PR_THP_DISABLE_EXCEPT_ADVISED : 0, 0, 0) != 0)
    {
      perror ("nothp: prctl PR_SET_THP_DISABLE");
      return 127;
    }
  execvp (*cmd, cmd);
  perror (*cmd);
  return 127;
}
