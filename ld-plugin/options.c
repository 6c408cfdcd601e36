/* The plugin's options, and what the linker's command line says.  */

#define _DEFAULT_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hugetext/elf.h"
#include "hugetext/file.h"
#include "hugetext/size.h"
#include "options.h"

/* Parse VALUE of option WHAT: a size, with POW2 a page size.  */
static int
parse_size (const char *what, const char *value, bool pow2, uint64_t *out,
	    char *err, size_t errlen)
{
  const char *why = ht_parse_size_check (value, pow2, out);

  if (why == NULL)
    return 0;
  snprintf (err, errlen, "hugetext: invalid %s '%s': %s", what, value, why);
  return -1;
}

/* Whether OPT starts with PREFIX; *VALUE is what follows it.  */
static bool
startswith (const char *opt, const char *prefix, const char **value)
{
  size_t len = strlen (prefix);

  if (strncmp (opt, prefix, len) != 0)
    return false;
  *value = opt + len;
  return true;
}

int
plugin_option_parse (struct plugin_options *opts, const char *opt,
		     char *err, size_t errlen)
{
  const char *value;

  if (strcmp (opt, "hugetext") == 0)
    opts->enabled = true;
  else if (strcmp (opt, "nohugetext") == 0)
    opts->enabled = false;
  else if (strcmp (opt, "verbose") == 0)
    opts->verbose = true;
  else if (startswith (opt, "hugetext-page-size=", &value))
    return parse_size ("hugetext-page-size", value, true, &opts->page_size,
		       err, errlen);
  else if (startswith (opt, "hugetext-min-size=", &value))
    return parse_size ("hugetext-min-size", value, false, &opts->min_size,
		       err, errlen);
  else
    {
      snprintf (err, errlen,
		"hugetext: unknown option '%s' (known: hugetext, nohugetext, "
		"hugetext-page-size=SIZE, hugetext-min-size=SIZE, verbose)",
		opt);
      return -1;
    }
  return 0;
}

/* The value of option NAME at ARGV[*I], as "NAME=VALUE", "NAMEVALUE"
   (when JOINED) or "NAME VALUE"; advances *I past a separate value.  */
static const char *
option_value (char **argv, size_t *i, const char *name, bool joined)
{
  size_t len = strlen (name);
  const char *arg = argv[*i];

  if (strncmp (arg, name, len) != 0)
    return NULL;
  if (arg[len] == '=')
    return arg + len + 1;
  if (arg[len] != '\0')
    return joined ? arg + len : NULL;
  if (argv[*i + 1] == NULL)
    return NULL;
  return argv[++*i];
}

/* Whether the -T script at PATH lays out the output: it is not one that
   INSERTs into the default script.  A -T script replaces the default
   script, so without SECTIONS every section is an orphan that ld places
   itself, and the INSERT the plugin adds has no .init to go before: the
   plugin leaves such a link alone, as GNU ld's -z hugetext does
   (docs/ld-plugin.md).  */
static bool
script_lays_out (const char *path)
{
  FILE *f = fopen (path, "r");
  char *text = NULL;
  size_t len = 0, cap = 0, n;
  bool inserts;

  if (f == NULL)
    return true;		/* ld will say what is wrong with it.  */
  do
    {
      if (cap - len < 4096)
	{
	  char *grown = realloc (text, cap + 65536);

	  if (grown == NULL)
	    {
	      /* Cannot tell: lay nothing out.  */
	      free (text);
	      fclose (f);
	      return true;
	    }
	  text = grown;
	  cap += 65536;
	}
      n = fread (text + len, 1, cap - len - 1, f);
      len += n;
    }
  while (n > 0);
  fclose (f);
  text[len] = '\0';
  inserts = ld_script_inserts (text);
  free (text);
  return !inserts;
}

/* Whether PATH names the same file as SELF.  */
static bool
same_file (const char *path, const char *self)
{
  char *real = realpath (path, NULL);
  bool same = real != NULL && self != NULL && strcmp (real, self) == 0;

  free (real);
  return same;
}

/* Whether the input file at PATH is an object that holds LTO IR: LLVM
   bitcode, or an ELF object with GCC's .gnu.lto_ sections.  Archives and
   anything unreadable count as not.  */
static bool
holds_ir (const char *path)
{
  struct ht_file f;
  struct ht_elf elf;
  char err[HT_ERRLEN];
  bool ir = false;

  if (ht_file_open (&f, path, err) != 0)
    return false;
  if (f.size >= 4 && memcmp (f.data, "BC\xc0\xde", 4) == 0)
    ir = true;
  else if (f.size != 0 && ht_elf_parse (&elf, f.data, f.size, err) == 0)
    {
      for (size_t i = 0; i < elf.shnum && !ir; i++)
	ir = ht_shdr_name_starts (&elf.shdrs[i], ".gnu.lto_")
	     || ht_shdr_name_is (&elf.shdrs[i], ".llvm.lto");
      ht_elf_free (&elf);
    }
  ht_file_close (&f);
  return ir;
}

void
link_facts_read (struct link_facts *facts, const struct cmdline *cmd,
		 const char *self)
{
  size_t i;
  const char *v;

  memset (facts, 0, sizeof *facts);
  facts->separate_code = -1;
  for (i = 1; i < cmd->argc; i++)
    {
      const char *arg = cmd->argv[i];

      if ((v = option_value (cmd->argv, &i, "-z", true)) != NULL)
	{
	  if (strcmp (v, "separate-code") == 0)
	    facts->separate_code = 1;
	  else if (strcmp (v, "noseparate-code") == 0)
	    facts->separate_code = 0;
	  else if (startswith (v, "max-page-size=", &v))
	    facts->max_page_size = strtoull (v, NULL, 0);
	}
      else if (strcmp (arg, "-plugin") == 0 || strcmp (arg, "--plugin") == 0)
	{
	  if (cmd->argv[i + 1] != NULL && !same_file (cmd->argv[++i], self))
	    facts->other_plugin = true;
	}
      else if (strncmp (arg, "-Ttext", 6) == 0
	       || strncmp (arg, "--section-start", 15) == 0
	       || strncmp (arg, "-Tbss", 5) == 0
	       || strncmp (arg, "-Tdata", 6) == 0
	       || strncmp (arg, "-Tldata", 7) == 0
	       || strncmp (arg, "-Trodata-segment", 16) == 0)
	facts->why_not = "an option fixes section addresses";
      else if ((v = option_value (cmd->argv, &i, "-T", true)) != NULL
	       || (v = option_value (cmd->argv, &i, "--script", false)) != NULL
	       || (v = option_value (cmd->argv, &i, "-dT", true)) != NULL
	       || (v = option_value (cmd->argv, &i, "--default-script",
				     false)) != NULL)
	{
	  if (script_lays_out (v))
	    facts->layout_script = v;
	}
      else if ((v = option_value (cmd->argv, &i, "--oformat", false)) != NULL)
	{
	  if (strncmp (v, "elf", 3) != 0)
	    facts->why_not = "the output is not ELF";
	}
      else if (strcmp (arg, "-N") == 0 || strcmp (arg, "-n") == 0
	       || strcmp (arg, "--omagic") == 0
	       || strcmp (arg, "--nmagic") == 0)
	facts->why_not = "-N and -n turn off paging";
      else if (strcmp (arg, "-m") == 0 && cmd->argv[i + 1] != NULL)
	facts->emulation = cmd->argv[++i];
      else if (strcmp (arg, "-o") == 0 || strcmp (arg, "--output") == 0
	       || strcmp (arg, "-e") == 0
	       || strcmp (arg, "-soname") == 0 || strcmp (arg, "-h") == 0
	       || strcmp (arg, "-L") == 0 || strcmp (arg, "-l") == 0
	       || strcmp (arg, "-plugin-opt") == 0
	       || strcmp (arg, "-dynamic-linker") == 0
	       || strcmp (arg, "-rpath") == 0)
	i += cmd->argv[i + 1] != NULL;	/* Skip the value.  */
      else if (arg[0] != '-' && !facts->ir_inputs)
	facts->ir_inputs = holds_ir (arg);
    }
  if (facts->layout_script != NULL && facts->why_not == NULL)
    facts->why_not = "a linker script lays out the output";
}

/* Whether C may be part of an output section's name.  */
static bool
name_char (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	 || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'
	 || c == '$';
}

bool
ld_script_inserts (const char *text)
{
  const char *s = text;
  bool after_insert = false;

  while (*s != '\0')
    {
      if (s[0] == '/' && s[1] == '*')
	{
	  const char *end = strstr (s + 2, "*/");

	  if (end == NULL)
	    return false;
	  s = end + 2;
	}
      else if (*s == '"')
	{
	  const char *end = strchr (s + 1, '"');

	  if (end == NULL)
	    return false;
	  s = end + 1;
	  after_insert = false;
	}
      else if (name_char (*s))
	{
	  const char *word = s;
	  size_t len;

	  while (name_char (*s))
	    s++;
	  len = (size_t) (s - word);
	  if (after_insert
	      && ((len == 5 && strncmp (word, "AFTER", 5) == 0)
		  || (len == 6 && strncmp (word, "BEFORE", 6) == 0)))
	    return true;
	  after_insert = len == 6 && strncmp (word, "INSERT", 6) == 0;
	}
      else
	{
	  if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
	    after_insert = false;
	  s++;
	}
    }
  return false;
}

int
ld_script_last_readonly (const char *text, char *name, size_t size)
{
  const char *end = strstr (text, "DATA_SEGMENT_ALIGN");
  const char *line, *found = NULL;
  size_t found_len = 0;

  if (end == NULL)
    return -1;
  /* Each line before it that starts an output section statement:
     ".NAME", then anything but an assignment or a brace up to a colon
     (an address, a type), as in ".tdata : ALIGN (8) {".  */
  for (line = text; line < end; line = strchr (line, '\n') + 1)
    {
      const char *p = line, *n;

      while (*p == ' ' || *p == '\t')
	p++;
      if (*p == '.' && name_char (p[1]))
	{
	  for (n = p + 1; name_char (*n); n++)
	    ;
	  const char *q = n;

	  while (q < end && *q != '\n' && *q != ':' && *q != '='
		 && *q != ';' && *q != '{' && *q != '}')
	    q++;
	  if (q < end && *q == ':')
	    {
	      found = p;
	      found_len = (size_t) (n - p);
	    }
	}
      if (strchr (line, '\n') == NULL)
	break;
    }
  if (found == NULL || found_len >= size)
    return -1;
  memcpy (name, found, found_len);
  name[found_len] = '\0';
  return 0;
}
