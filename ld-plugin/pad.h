/* Finishing the hugetext layout in a linked ELF file: the padding
   section.

   The plugin's linker script puts the code segment on a huge page
   boundary in memory; ld cannot be told to do the same in the file, nor
   (from a plugin, without a warning) to make a section of its own.  This
   moves everything from the code segment on up to the next boundary in
   the file (a hole), pads the segment to a multiple of H with a section
   of its own, PAD_SECTION (a hole again; a section, so that tools that
   rebuild segments from sections, strip and objcopy among them, keep
   it), moves what follows up to stay out of that padding, and sets
   p_align to H.  The padding section's header goes last in the
   section header table, so that no other section's index changes, and
   its name at the end of the section names, so that no other name
   moves; both are written anew after the last section.  No other section
   changes, but for the file offsets that move and the section names,
   which grow by the new name.  Offsets move by multiples of the largest
   p_align of the segments they belong to, so every other segment stays
   congruent.  */

#ifndef HUGETEXT_PLUGIN_PAD_H
#define HUGETEXT_PLUGIN_PAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hugetext/elf.h"

/* The name of the padding section (docs/contract.md); GNU ld's
   -z hugetext names its own the same.  */
#define PAD_SECTION ".hugetext_padding"

struct pad_plan
{
  size_t phdr;			/* The code segment.  */
  uint64_t h;
  uint64_t front_at, front;	/* Insert FRONT bytes at file offset FRONT_AT.  */
  uint64_t tail_at, tail;	/* And TAIL bytes at TAIL_AT.  */
  uint64_t padded;		/* The segment's new p_filesz and p_memsz.  */
  /* The padding section, after the code: its address and size (0: the
     code ends on a boundary, there is no padding and no section).  */
  uint64_t pad_addr, pad_size;
  size_t names;			/* The section names' section (e_shstrndx).  */
  /* Where in ELF the section names and the section header table are
     written anew, with the padding section: after the last byte of
     anything else.  0 where no section is added.  */
  uint64_t names_at;
};

/* Plan the padding of program header PHDR of ELF to H.  Returns 0, or -1
   with the reason in ERR.  */
int pad_plan (struct pad_plan *plan, const struct ht_elf *elf, size_t phdr,
	      uint64_t h, char err[HT_ERRLEN]);

/* Write ELF (read from IN, whose contents ELF describes) to OUT as PLAN
   says.  OUT must be empty.  Returns 0, or -1 with the reason in ERR.  */
int pad_write (const struct pad_plan *plan, const struct ht_elf *elf,
	       int in, int out, char err[HT_ERRLEN]);

/* What pad_in_place did.  */
enum
{
  /* Failed, for the reason in ERR: the file is not the one the plan was
     made for (gaps too large for an off_t among them), a read, a
     write or an insert failed for a reason other than below (EIO,
     ENOSPC), or memory ran out.  FD is unchanged where
     the failure came before the first insert, else it may no longer be
     a valid file.  */
  PAD_IN_PLACE_ERROR = -1,
  PAD_IN_PLACE_DONE = 0,
  /* The file system cannot insert ranges: FALLOC_FL_INSERT_RANGE failed
     with EOPNOTSUPP (ENOTSUP), or ENOSYS.  FD is unchanged; ERR says
     so, with the errno.  Use pad_write.  */
  PAD_IN_PLACE_UNSUPPORTED = 1,
  /* It could, but not these gaps: one is not whole blocks of the file
     system (st_blksize, which may be larger than the page alignment
     the plan keeps; or the code is the last segment, and its tail is
     not page-rounded), its block size is not a power of two of at most
     64 KiB, the code ends the file, or the insert failed with EINVAL
     (the file system wants larger units than st_blksize: ext4 with
     bigalloc, whole clusters).  FD is unchanged; ERR says which.  Use
     pad_write.  */
  PAD_IN_PLACE_BLOCKS = 2
};

/* Do the same in place in FD, open for reading and writing, whose
   contents ELF describes (ELF may map FD), by inserting the gaps with
   FALLOC_FL_INSERT_RANGE: no byte is copied.  Returns one of the
   PAD_IN_PLACE_ values above, with the reason in ERR where it is not
   PAD_IN_PLACE_DONE.  Unlike pad_write and a rename, this is not
   atomic: a process killed during its few system calls leaves a broken
   file, as a linker killed while writing its output does.  */
int pad_in_place (const struct pad_plan *plan, const struct ht_elf *elf,
		  int fd, char err[HT_ERRLEN]);

#endif
