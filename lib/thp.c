/* Kernel and filesystem facts about huge pages: see hugetext/thp.h.  */

#define _GNU_SOURCE
#include "hugetext/thp.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

enum ht_thp_mode
ht_thp_mode (void)
{
  int fd = open ("/sys/kernel/mm/transparent_hugepage/enabled",
		 O_RDONLY | O_CLOEXEC);
  char buf[128];
  ssize_t n = fd >= 0 ? read (fd, buf, sizeof buf - 1) : -1;
  enum ht_thp_mode mode = HT_THP_UNAVAILABLE;

  if (fd >= 0)
    close (fd);
  if (n <= 0)
    return HT_THP_UNAVAILABLE;
  buf[n] = '\0';
  if (strstr (buf, "[always]") != NULL)
    mode = HT_THP_ALWAYS;
  else if (strstr (buf, "[madvise]") != NULL)
    mode = HT_THP_MADVISE;
  else if (strstr (buf, "[never]") != NULL)
    mode = HT_THP_NEVER;
  return mode;
}

const char *
ht_thp_mode_name (enum ht_thp_mode mode)
{
  switch (mode)
    {
    case HT_THP_NEVER: return "never";
    case HT_THP_MADVISE: return "madvise";
    case HT_THP_ALWAYS: return "always";
    default: return "unavailable";
    }
}

unsigned
ht_kernel_version (void)
{
  struct utsname u;
  const char *release = getenv ("HUGETEXT_KERNEL_RELEASE");
  unsigned major, minor;
  char *end;
  const char *dot;

  if (release == NULL || *release == '\0')
    {
      if (uname (&u) != 0)
	return 0;
      release = u.release;
    }
  /* "MAJOR.MINOR", then anything.  */
  if (*release < '0' || *release > '9')
    return 0;
  major = (unsigned) strtoul (release, &end, 10);
  dot = end + 1;
  if (*end != '.' || *dot < '0' || *dot > '9')
    return 0;
  minor = (unsigned) strtoul (dot, &end, 10);
  return major * 1000 + minor;
}

/* lib/filesystems.def, the one table of filesystems; its SINCE column's
   two words, its kinds, and MAXFOLIO's word.  */
#define HT_FS_NEVER UINT_MAX
#define HT_FS_UNKNOWN_VERSION (UINT_MAX - 1)
#define HT_FS_PMD UINT64_MAX

enum ht_fs_kind
{
  HT_FS_LOCAL,
  HT_FS_SHMEM,
  HT_FS_NETWORK,
};

static const struct
{
  const char *name;
  unsigned long magic;
  unsigned since;
  enum ht_fs_kind kind;
  uint64_t max_folio;
} filesystems[] = {
#define HT_FS(name, magic, since, kind, max_folio) \
  { name, magic, since, kind, max_folio },
#define HT_KERNEL(name, since, value)
#include "../filesystems.def"
#undef HT_KERNEL
#undef HT_FS
};

/* Its kernel-wide facts: NAME_SINCE and NAME_VALUE.  */
enum
{
#define HT_FS(name, magic, since, kind, max_folio)
#define HT_KERNEL(name, since, value) name##_SINCE = since, \
  name##_VALUE = value,
#include "../filesystems.def"
#undef HT_KERNEL
#undef HT_FS
};

/* SIZE, a power of two, as "256 KiB" or "2 MiB", in BUF.  */
static const char *
size_words (uint64_t size, char buf[32])
{
  if (size >= 1024 * 1024 && size % (1024 * 1024) == 0)
    snprintf (buf, 32, "%llu MiB", (unsigned long long) (size >> 20));
  else
    snprintf (buf, 32, "%llu KiB", (unsigned long long) (size >> 10));
  return buf;
}

bool
ht_collapse_needs_pmd_folios (unsigned kernel)
{
  return kernel >= HT_COLLAPSE_PMD_FOLIOS_SINCE;
}

unsigned
ht_collapse_pmd_folios_since (void)
{
  return HT_COLLAPSE_PMD_FOLIOS_SINCE;
}

void
ht_fs_describe (unsigned long magic, unsigned kernel, uint64_t h,
		uint64_t readahead, struct ht_fs_info *info)
{
  char a[32], b[32], c[32];

  info->name = "unknown";
  info->kernel = kernel;
  info->h = h;
  info->folios = HT_FS_UNKNOWN;
  info->pmd_folios = HT_FS_UNKNOWN;
  info->shmem = false;
  info->network = false;
  info->why[0] = '\0';
  for (size_t i = 0; i < sizeof filesystems / sizeof filesystems[0]; i++)
    if (filesystems[i].magic == magic)
      {
	unsigned since = filesystems[i].since;
	uint64_t max = filesystems[i].max_folio;

	info->name = filesystems[i].name;
	info->shmem = filesystems[i].kind == HT_FS_SHMEM;
	info->network = filesystems[i].kind == HT_FS_NETWORK;
	if (since == HT_FS_UNKNOWN_VERSION)
	  break;
	info->pmd_folios = info->folios = HT_FS_SMALL_FOLIOS;
	if (since == HT_FS_NEVER)
	  snprintf (info->why, sizeof info->why, "%s has only small "
		    "folios in its page cache on every kernel hugetext "
		    "knows", info->name);
	else if (kernel < since)
	  snprintf (info->why, sizeof info->why, "%s has no large folios "
		    "before Linux %u.%u", info->name, since / 1000,
		    since % 1000);
	else if (max != HT_FS_PMD && max < h)
	  snprintf (info->why, sizeof info->why, "%s's page cache holds "
		    "folios of at most %s, less than H (%s)", info->name,
		    size_words (max, a), size_words (h, b));
	else
	  {
	    info->pmd_folios = info->folios = HT_FS_LARGE_FOLIOS;
	    /* From HT_HUGEPAGE_READAHEAD_CAP on, the fault reads folios of
	       the cap, and no later folio outgrows the readahead window:
	       twice the cap, or read_ahead_kb where that is larger.  */
	    uint64_t cap = HT_HUGEPAGE_READAHEAD_CAP_VALUE;
	    uint64_t window = readahead > 2 * cap ? readahead : 2 * cap;

	    if (kernel >= HT_HUGEPAGE_READAHEAD_CAP_SINCE && h > window)
	      {
		info->folios = HT_FS_SMALL_FOLIOS;
		char ra[48];

		if (readahead != 0)
		  snprintf (ra, sizeof ra, "read_ahead_kb %llu",
			    (unsigned long long) (readahead >> 10));
		else
		  snprintf (ra, sizeof ra, "read_ahead_kb not known");
		snprintf (info->why, sizeof info->why, "from Linux %u.%u, "
			  "MADV_HUGEPAGE readahead reads %s folios and none "
			  "larger than its window, %s (twice that, or the "
			  "device's read_ahead_kb where larger: %s), less "
			  "than H (%s): with that, only MADV_COLLAPSE fills a "
			  "huge page",
			  HT_HUGEPAGE_READAHEAD_CAP_SINCE / 1000,
			  HT_HUGEPAGE_READAHEAD_CAP_SINCE % 1000,
			  size_words (cap, a), size_words (window, c), ra,
			  size_words (h, b));
	      }
	  }
	break;
      }
}

const char *
ht_fs_refusal (const struct ht_fs_info *fs, bool collapse, char *buf)
{
  enum ht_fs_folios need = fs->folios;

  if (fs->folios == HT_FS_LARGE_FOLIOS)
    return NULL;
  /* MADV_COLLAPSE is the other way in: before HT_COLLAPSE_PMD_FOLIOS on
     any filesystem, large folios or not, where the kernel has
     READ_ONLY_THP_FOR_FS (found out by trying); from it wherever the
     page cache can hold folios of H.  */
  if (collapse)
    need = (ht_collapse_needs_pmd_folios (fs->kernel) ? fs->pmd_folios
	    : HT_FS_UNKNOWN);
  if (need == HT_FS_LARGE_FOLIOS)
    return NULL;
  if (need == HT_FS_SMALL_FOLIOS && collapse)
    snprintf (buf, HT_FS_WHY_LEN, "%s; from Linux %u.%u MADV_COLLAPSE "
	      "needs a page cache that holds folios of H, too", fs->why,
	      HT_COLLAPSE_PMD_FOLIOS_SINCE / 1000,
	      HT_COLLAPSE_PMD_FOLIOS_SINCE % 1000);
  else if (need == HT_FS_SMALL_FOLIOS)
    snprintf (buf, HT_FS_WHY_LEN, "%s", fs->why);
  /* Not known either way: a local filesystem is tried, and the result
     measured; a network filesystem is not.  */
  else if (!fs->network)
    return NULL;
  else if (fs->folios == HT_FS_SMALL_FOLIOS)
    snprintf (buf, HT_FS_WHY_LEN, "%s", fs->why);
  else
    snprintf (buf, HT_FS_WHY_LEN, "%s, a network filesystem: its page "
	      "cache is not known to hold huge folios", fs->name);
  return buf;
}

const char *
ht_collapse_einval (const struct ht_fs_info *fs, char *buf)
{
  char a[32];

  if (!ht_collapse_needs_pmd_folios (fs->kernel))
    snprintf (buf, HT_FS_WHY_LEN, "MADV_COLLAPSE is not supported for "
	      "files by this kernel (it needs READ_ONLY_THP_FOR_FS)");
  else if (fs->pmd_folios == HT_FS_SMALL_FOLIOS)
    snprintf (buf, HT_FS_WHY_LEN, "MADV_COLLAPSE needs a page cache that "
	      "holds folios of H (%s) from Linux %u.%u, and %s",
	      size_words (fs->h, a), HT_COLLAPSE_PMD_FOLIOS_SINCE / 1000,
	      HT_COLLAPSE_PMD_FOLIOS_SINCE % 1000, fs->why);
  else
    snprintf (buf, HT_FS_WHY_LEN, "MADV_COLLAPSE refused the range: from "
	      "Linux %u.%u it needs a page cache that holds folios of H "
	      "(%s), %s, or THP is off for the mapping",
	      HT_COLLAPSE_PMD_FOLIOS_SINCE / 1000,
	      HT_COLLAPSE_PMD_FOLIOS_SINCE % 1000, size_words (fs->h, a),
	      fs->pmd_folios == HT_FS_LARGE_FOLIOS
	      ? "which this filesystem has, but not for this file "
		"(ext4: data=journal or encryption)"
	      : "which this filesystem may lack (hugetext knows nothing "
		"of it)");
  return buf;
}

/* The number in the file at PATH as bytes of KiB, or 0.  */
static uint64_t
read_kib (const char *path)
{
  char buf[32], *end;
  unsigned long long kb;
  ssize_t n;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return 0;
  n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  kb = strtoull (buf, &end, 10);
  if (end == buf || kb >= (UINT64_MAX >> 10))
    return 0;
  return (uint64_t) kb << 10;
}

uint64_t
ht_read_ahead_dev (const char *sys, unsigned major, unsigned minor)
{
  char path[256];
  uint64_t bytes;

  /* A whole disk's backing device, or an anonymous device's (NFS,
     btrfs).  */
  snprintf (path, sizeof path, "%s/class/bdi/%u:%u/read_ahead_kb", sys,
	    major, minor);
  bytes = read_kib (path);
  if (bytes != 0)
    return bytes;
  /* A partition has none of its own: its disk's, the folder above it.  */
  snprintf (path, sizeof path, "%s/dev/block/%u:%u/../bdi/read_ahead_kb",
	    sys, major, minor);
  return read_kib (path);
}

uint64_t
ht_read_ahead (int fd)
{
  struct stat st;

  if (fstat (fd, &st) != 0)
    return 0;
  return ht_read_ahead_dev ("/sys", major (st.st_dev), minor (st.st_dev));
}

int
ht_fs_info (int fd, uint64_t h, struct ht_fs_info *info)
{
  struct statfs fs;
  struct statvfs vfs;

  memset (info, 0, sizeof *info);
  if (fstatfs (fd, &fs) != 0 || fstatvfs (fd, &vfs) != 0)
    return -1;
  info->read_only = (vfs.f_flag & ST_RDONLY) != 0;
  /* f_type is signed on some ABIs: 0xff534d42 must not sign-extend.  */
  ht_fs_describe ((uint32_t) fs.f_type, ht_kernel_version (), h,
		  ht_read_ahead (fd), info);
  return 0;
}
