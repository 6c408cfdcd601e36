/* What the plugin knows about the link it is part of, and what it does.  */

#ifndef HUGETEXT_PLUGIN_OPTIONS_H
#define HUGETEXT_PLUGIN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmdline.h"

/* The -plugin-opt= options: the contract's, plus the plugin's own.  */
struct plugin_options
{
  bool enabled;			/* hugetext / nohugetext; on by default.  */
  uint64_t page_size;		/* hugetext-page-size=; 0: the default.  */
  uint64_t min_size;		/* hugetext-min-size=; 0: H.  */
  bool verbose;			/* verbose: say what the plugin decided.  */
};

/* Parse one -plugin-opt= value into OPTS.  Returns 0, or -1 with a
   message in ERR.  */
int plugin_option_parse (struct plugin_options *opts, const char *opt,
			 char *err, size_t errlen);

/* Facts from the linker's command line.  */
struct link_facts
{
  const char *layout_script;	/* A -T script that has SECTIONS, or NULL.  */
  const char *why_not;		/* Why the layout cannot apply, or NULL.  */
  int separate_code;		/* -z [no]separate-code: 1, 0; -1 if unset.  */
  uint64_t max_page_size;	/* -z max-page-size=; 0 if unset.  */
  const char *emulation;	/* -m EMULATION; NULL if unset.  */
  bool other_plugin;		/* Another plugin (an LTO one) is loaded.  */
  bool ir_inputs;		/* An input object holds LTO IR (GCC's or
				   LLVM bitcode): its code is made later.  */
};

/* Read the facts from CMD.  SELF is the real path of this plugin, so
   that its own -plugin option does not count as another plugin.  */
void link_facts_read (struct link_facts *facts, const struct cmdline *cmd,
		      const char *self);

/* Whether TEXT, a linker script, has the command INSERT AFTER or INSERT
   BEFORE: the words outside comments and quoted strings.  */
bool ld_script_inserts (const char *text);

/* The name of the last output section statement before the data segment
   (". = DATA_SEGMENT_ALIGN (...)") in TEXT, a linker script as
   ld --verbose prints it: the code segment's last section with
   -z noseparate-code, which an INSERT AFTER it follows.  Returns 0 with
   the name in NAME (SIZE bytes), or -1 where TEXT has none.  */
int ld_script_last_readonly (const char *text, char *name, size_t size);

#endif
