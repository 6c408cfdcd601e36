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

/* The running kernel's version as major * 1000 + minor (6.12 -> 6012),
   from uname(2), or from HUGETEXT_KERNEL_RELEASE when that is set (a
   release string like uname's, "7.2.13-amd64"; for the tests, which
   judge what the tools say on kernels other than the one they run on).  */
unsigned ht_kernel_version (void);

/* What the page cache of a filesystem can hold (which filesystem can do
   what from which kernel on: lib/filesystems.def).  */
enum ht_fs_folios
{
  HT_FS_LARGE_FOLIOS,		/* Yes: huge folios, of H.  */
  HT_FS_SMALL_FOLIOS,		/* No, on this kernel.  */
  HT_FS_UNKNOWN,		/* It depends on more than the kernel (tmpfs:
				   its huge= option), or nobody knows.  */
};

/* Room for the messages below; ht_fs_info's WHY is shorter, so that
   they can quote it.  */
#define HT_FS_WHY_LEN 512

struct ht_fs_info
{
  const char *name;		/* "xfs", "ext4", "tmpfs", ...  */
  unsigned kernel;		/* The version it is described for.  */
  uint64_t h;			/* The huge page size it is described for.  */
  /* Whether readahead of a MADV_HUGEPAGE mapping brings folios of H:
     what "hugetext warm" and the startup helper rely on.  */
  enum ht_fs_folios folios;
  /* Whether the page cache can hold folios of H at all: what a PMD maps,
     and, from HT_COLLAPSE_PMD_FOLIOS on, what MADV_COLLAPSE needs.  */
  enum ht_fs_folios pmd_folios;
  bool shmem;			/* tmpfs: ShmemPmdMapped, not FilePmdMapped.  */
  bool read_only;
  bool network;
  /* Where FOLIOS is HT_FS_SMALL_FOLIOS: why, in words.  */
  char why[384];
};

/* Describe the filesystem that holds the open file FD, for huge pages of
   H bytes on the running kernel.  Returns 0, or -1 with errno set.  */
int ht_fs_info (int fd, uint64_t h, struct ht_fs_info *info);

/* The read_ahead_kb of the device that holds the open file FD, in bytes,
   or 0 where it has none or it cannot be read: ht_read_ahead_dev of
   /sys.  */
uint64_t ht_read_ahead (int fd);

/* The read_ahead_kb of device MAJOR:MINOR in the sysfs mounted at SYS:
   its backing device's (SYS/class/bdi/MAJOR:MINOR, a whole disk or an
   anonymous device), else, for a partition, its disk's
   (SYS/dev/block/MAJOR:MINOR/../bdi); 0 where neither is there.  */
uint64_t ht_read_ahead_dev (const char *sys, unsigned major,
			    unsigned minor);

/* Fill INFO but read_only for the filesystem whose statfs f_type is
   MAGIC, on kernel version KERNEL (major * 1000 + minor), for huge pages
   of H bytes and a device whose read_ahead_kb is READAHEAD bytes (0:
   not known), from lib/filesystems.def; a MAGIC not there is
   "unknown".  */
void ht_fs_describe (unsigned long magic, unsigned kernel, uint64_t h,
		     uint64_t readahead, struct ht_fs_info *info);

/* Whether MADV_COLLAPSE of file text on kernel version KERNEL works
   exactly where the page cache can hold folios of H (true), or needs
   READ_ONLY_THP_FOR_FS (false): HT_COLLAPSE_PMD_FOLIOS in
   lib/filesystems.def.  */
bool ht_collapse_needs_pmd_folios (unsigned kernel);

/* The first kernel version (MAJOR * 1000 + MINOR) of which that holds.  */
unsigned ht_collapse_pmd_folios_since (void);

/* Why neither readahead of a MADV_HUGEPAGE mapping nor, with COLLAPSE,
   MADV_COLLAPSE can put folios of H for a file on FS into the page cache
   on FS's kernel, in words in BUF (HT_FS_WHY_LEN bytes); NULL when one
   may.  */
const char *ht_fs_refusal (const struct ht_fs_info *fs, bool collapse,
			   char *buf);

/* What MADV_COLLAPSE failing with EINVAL for text in a file on FS means
   on FS's kernel, in words in BUF (HT_FS_WHY_LEN bytes).  */
const char *ht_collapse_einval (const struct ht_fs_info *fs, char *buf);

#endif
