/* Finishing the hugetext layout in a linked ELF file.

   The plugin's linker script puts the code segment on a huge page
   boundary in memory; ld cannot be told to do the same in the file.  This
   moves everything from the code segment on up to the next boundary in
   the file (a hole), pads the segment to a multiple of H by growing its
   last section (a hole again, so that every strip tool keeps it), moves
   what follows up to stay out of that padding, and sets p_align to H.
   Offsets move by multiples of the largest p_align of the segments they
   belong to, so every other segment stays congruent.  */

#ifndef HUGETEXT_PLUGIN_PAD_H
#define HUGETEXT_PLUGIN_PAD_H

#include <stddef.h>
#include <stdint.h>

#include "hugetext/elf.h"

struct pad_plan
{
  size_t phdr;			/* The code segment.  */
  uint64_t h;
  uint64_t front_at, front;	/* Insert FRONT bytes at file offset FRONT_AT.  */
  uint64_t tail_at, tail;	/* And TAIL bytes at TAIL_AT.  */
  uint64_t padded;		/* The segment's new p_filesz and p_memsz.  */
  size_t last_section;		/* The section that grows, or SIZE_MAX.  */
  uint64_t last_section_size;	/* Its new size.  */
};

/* Plan the padding of program header PHDR of ELF to H.  Returns 0, or -1
   with the reason in ERR.  */
int pad_plan (struct pad_plan *plan, const struct ht_elf *elf, size_t phdr,
	      uint64_t h, char err[HT_ERRLEN]);

/* Write ELF (read from IN, whose contents ELF describes) to OUT as PLAN
   says.  OUT must be empty.  Returns 0, or -1 with the reason in ERR.  */
int pad_write (const struct pad_plan *plan, const struct ht_elf *elf,
	       int in, int out, char err[HT_ERRLEN]);

/* Do the same in place in FD, open for reading and writing, whose
   contents ELF describes (ELF may map FD), by inserting the gaps with
   FALLOC_FL_INSERT_RANGE: no byte is copied, which on a large program
   saves most of the cost of padding.  Returns 0; 1, with FD unchanged,
   where the file system or the offsets do not allow it (use pad_write);
   or -1 with the reason in ERR, and FD no longer a valid file.  Unlike
   pad_write and a rename, this is not atomic: a process killed during
   its few system calls leaves a broken file, as a linker killed while
   writing its output does.  */
int pad_in_place (const struct pad_plan *plan, const struct ht_elf *elf,
		  int fd, char err[HT_ERRLEN]);

#endif
