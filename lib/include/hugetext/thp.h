/* What this kernel and a file's filesystem can do with huge pages for
   program text (docs/kernel-matrix.md says what each kernel does with
   aligned text).  */

#ifndef HUGETEXT_THP_H
#define HUGETEXT_THP_H

#include <stdbool.h>
#include <stdint.h>

enum ht_thp_mode
{
  HT_THP_UNAVAILABLE,		/* No /sys/kernel/mm/transparent_hugepage.  */
  HT_THP_NEVER,
  HT_THP_MADVISE,
  HT_THP_ALWAYS,
};

/* The mode in /sys/kernel/mm/transparent_hugepage/enabled.  */
enum ht_thp_mode ht_thp_mode (void);
const char *ht_thp_mode_name (enum ht_thp_mode mode);

/* The running kernel's version as major * 1000 + minor (6.12 -> 6012).  */
unsigned ht_kernel_version (void);

/* What the page cache of a filesystem can hold (which filesystem can do
   what from which kernel on: lib/filesystems.def).  */
enum ht_fs_folios
{
  HT_FS_LARGE_FOLIOS,		/* Huge folios through readahead.  */
  HT_FS_SMALL_FOLIOS,		/* Only small pages on this kernel.  */
  HT_FS_UNKNOWN,		/* It depends on more than the kernel (tmpfs:
				   its huge= option), or nobody knows.  */
};

struct ht_fs_info
{
  const char *name;		/* "xfs", "ext4", "tmpfs", ...  */
  enum ht_fs_folios folios;
  bool shmem;			/* tmpfs: ShmemPmdMapped, not FilePmdMapped.  */
  bool read_only;
  bool network;
};

/* Describe the filesystem that holds the open file FD.  Returns 0, or -1
   with errno set.  */
int ht_fs_info (int fd, struct ht_fs_info *info);

/* Fill INFO's name, folios, shmem and network for the filesystem whose
   statfs f_type is MAGIC, on kernel version KERNEL (major * 1000 +
   minor), from lib/filesystems.def; a MAGIC not there is "unknown".  */
void ht_fs_describe (unsigned long magic, unsigned kernel,
		     struct ht_fs_info *info);

#endif
