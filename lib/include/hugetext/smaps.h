/* Reading /proc/PID/smaps.

   One job: turn the text of an smaps file into one record per mapping,
   with the fields the hugetext tools need.  Any byte string is safe
   input: a malformed line is an error with its line number, never a
   crash (fuzz/smaps.c).  */

#ifndef HUGETEXT_SMAPS_H
#define HUGETEXT_SMAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hugetext/elf.h"	/* HT_ERRLEN.  */

struct ht_mapping
{
  uint64_t start, end;		/* Addresses.  */
  uint64_t offset;		/* File offset of START.  */
  char perms[5];		/* "r-xp" and the like.  */
  unsigned dev_major, dev_minor;
  uint64_t inode;
  const char *path;		/* Into the buffer; not NUL-terminated.  */
  size_t path_len;		/* 0 for an anonymous mapping.  */
  /* Bytes, from the "kB" fields; 0 where the kernel has no such field.  */
  uint64_t rss, file_pmd_mapped, shmem_pmd_mapped, anon_huge;
  bool vm_hugepage;		/* VmFlags has "hg" (MADV_HUGEPAGE).  */
  bool vm_nohugepage;		/* VmFlags has "nh".  */
};

/* Called once per mapping, after its last field; a nonzero return stops
   the parse and is returned.  */
typedef int (*ht_mapping_fn) (void *ctx, const struct ht_mapping *m);

/* Parse LEN bytes of smaps text at BUF.  Returns 0, FN's nonzero return,
   or -1 with the problem (and its line) in ERR.  */
int ht_smaps_parse (const char *buf, size_t len, ht_mapping_fn fn,
		    void *ctx, char err[HT_ERRLEN]);

/* What ht_smaps_read returns when the file cannot be read.  */
#define HT_SMAPS_READ_ERROR (-2)

/* Read /proc/PID/smaps (PID 0: this process) and parse it as
   ht_smaps_parse does.  Returns what ht_smaps_parse returns (0, FN's
   nonzero return, or -1 with the problem in ERR), or HT_SMAPS_READ_ERROR
   with the reason in ERR and errno (ENOENT: no such process, EACCES:
   another user's).  *NMAPS, if not NULL, gets the number of mappings
   read: 0 for a kernel thread or an exited process.  FN must not return
   a negative number.  */
int ht_smaps_read (long pid, ht_mapping_fn fn, void *ctx, size_t *nmaps,
		   char err[HT_ERRLEN]);

#endif
