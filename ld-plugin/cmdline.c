/* Reading the linker's command line from /proc/self/cmdline.  */

#define _GNU_SOURCE
#include "cmdline.h"

#include "hugetext/file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Response files may name response files; libiberty stops at this depth.  */
#define MAX_RESPONSE_DEPTH 2000

static int
push (struct cmdline *cmd, const char *s, size_t len)
{
  char **argv = realloc (cmd->argv, (cmd->argc + 2) * sizeof *argv);

  if (argv == NULL)
    return -1;
  cmd->argv = argv;
  argv[cmd->argc] = strndup (s, len);
  if (argv[cmd->argc] == NULL)
    return -1;
  argv[++cmd->argc] = NULL;
  return 0;
}

static int add_arg (struct cmdline *cmd, const char *arg, size_t len,
		    int depth);

/* Split the text of a response file as libiberty's buildargv does:
   white space separates arguments; quotes and backslashes escape.  */
static int
add_response_text (struct cmdline *cmd, const char *text, int depth)
{
  size_t cap = strlen (text) + 1;
  char *word = malloc (cap);
  const char *p = text;
  int status = 0;

  if (word == NULL)
    return -1;
  while (status == 0)
    {
      size_t n = 0;
      bool squote = false, dquote = false, bsquote = false, any = false;

      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'
	     || *p == '\f' || *p == '\v')
	p++;
      if (*p == '\0')
	break;
      for (; *p != '\0'; p++)
	{
	  if (!squote && !dquote && !bsquote
	      && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'
		  || *p == '\f' || *p == '\v'))
	    break;
	  any = true;
	  if (bsquote)
	    {
	      bsquote = false;
	      word[n++] = *p;
	    }
	  else if (*p == '\\')
	    bsquote = true;
	  else if (squote)
	    {
	      if (*p == '\'')
		squote = false;
	      else
		word[n++] = *p;
	    }
	  else if (dquote)
	    {
	      if (*p == '"')
		dquote = false;
	      else
		word[n++] = *p;
	    }
	  else if (*p == '\'')
	    squote = true;
	  else if (*p == '"')
	    dquote = true;
	  else
	    word[n++] = *p;
	}
      if (any)
	status = add_arg (cmd, word, n, depth + 1);
    }
  free (word);
  return status;
}

/* Add ARG (LEN bytes), or the contents of the response file it names.
   Like libiberty, an @FILE that cannot be read stays as it is.  */
static int
add_arg (struct cmdline *cmd, const char *arg, size_t len, int depth)
{
  if (len > 1 && arg[0] == '@' && depth < MAX_RESPONSE_DEPTH)
    {
      char *path = strndup (arg + 1, len - 1);
      char *text;
      size_t text_len;
      int status;

      if (path == NULL)
	return -1;
      text = ht_read_file (path, &text_len);
      free (path);
      if (text != NULL)
	{
	  status = add_response_text (cmd, text, depth);
	  free (text);
	  return status;
	}
      if (errno == ENOMEM)
	return -1;
    }
  return push (cmd, arg, len);
}

int
cmdline_parse (struct cmdline *cmd, const char *buf, size_t len)
{
  size_t start = 0, i;

  cmd->argv = calloc (1, sizeof *cmd->argv);
  cmd->argc = 0;
  if (cmd->argv == NULL)
    goto fail;
  for (i = 0; i < len; i++)
    if (buf[i] == '\0')
      {
	/* argv[0] is never a response file.  */
	if (cmd->argc == 0 ? push (cmd, buf + start, i - start)
	    : add_arg (cmd, buf + start, i - start, 0))
	  goto fail;
	start = i + 1;
      }
  if (start < len && add_arg (cmd, buf + start, len - start, 0))
    goto fail;
  return 0;

fail:
  cmdline_free (cmd);
  if (errno == 0)
    errno = ENOMEM;
  return -1;
}

char *
cmdline_read_raw (size_t *len)
{
  return ht_read_file ("/proc/self/cmdline", len);
}

int
cmdline_read_self (struct cmdline *cmd)
{
  size_t len;
  int status;
  char *buf = cmdline_read_raw (&len);

  if (buf == NULL)
    return -1;
  status = cmdline_parse (cmd, buf, len);
  free (buf);
  return status;
}

void
cmdline_free (struct cmdline *cmd)
{
  size_t i;

  if (cmd->argv != NULL)
    for (i = 0; cmd->argv[i] != NULL; i++)
      free (cmd->argv[i]);
  free (cmd->argv);
  cmd->argv = NULL;
  cmd->argc = 0;
}
