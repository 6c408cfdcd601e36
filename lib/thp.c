/* Kernel and filesystem facts about huge pages: see hugetext/thp.h.  */

#define _GNU_SOURCE
#include "hugetext/thp.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>

enum ht_thp_mode
ht_thp_mode (void)
{
  FILE *f = fopen ("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  char buf[128];
  enum ht_thp_mode mode = HT_THP_UNAVAILABLE;

  if (f == NULL)
    return HT_THP_UNAVAILABLE;
  if (fgets (buf, sizeof buf, f) != NULL)
    {
      if (strstr (buf, "[always]") != NULL)
	mode = HT_THP_ALWAYS;
      else if (strstr (buf, "[madvise]") != NULL)
	mode = HT_THP_MADVISE;
      else if (strstr (buf, "[never]") != NULL)
	mode = HT_THP_NEVER;
    }
  fclose (f);
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
  unsigned major = 0, minor = 0;

  if (uname (&u) != 0 || sscanf (u.release, "%u.%u", &major, &minor) != 2)
    return 0;
  return major * 1000 + minor;
}

/* lib/filesystems.def, the one table of filesystems; its SINCE column's
   two words, and its kinds.  */
#define HT_FS_NEVER UINT_MAX
#define HT_FS_UNKNOWN_VERSION (UINT_MAX - 1)

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
} filesystems[] = {
#define HT_FS(name, magic, since, kind) { name, magic, since, kind },
#include "../filesystems.def"
#undef HT_FS
};

void
ht_fs_describe (unsigned long magic, unsigned kernel, struct ht_fs_info *info)
{
  info->name = "unknown";
  info->folios = HT_FS_UNKNOWN;
  info->shmem = false;
  info->network = false;
  for (size_t i = 0; i < sizeof filesystems / sizeof filesystems[0]; i++)
    if (filesystems[i].magic == magic)
      {
	unsigned since = filesystems[i].since;

	info->name = filesystems[i].name;
	info->shmem = filesystems[i].kind == HT_FS_SHMEM;
	info->network = filesystems[i].kind == HT_FS_NETWORK;
	if (since == HT_FS_UNKNOWN_VERSION)
	  info->folios = HT_FS_UNKNOWN;
	else
	  info->folios = (since != HT_FS_NEVER && kernel >= since
			  ? HT_FS_LARGE_FOLIOS : HT_FS_SMALL_FOLIOS);
	break;
      }
}

int
ht_fs_info (int fd, struct ht_fs_info *info)
{
  struct statfs fs;
  struct statvfs vfs;

  memset (info, 0, sizeof *info);
  if (fstatfs (fd, &fs) != 0 || fstatvfs (fd, &vfs) != 0)
    return -1;
  info->read_only = (vfs.f_flag & ST_RDONLY) != 0;
  /* f_type is signed on some ABIs: 0xff534d42 must not sign-extend.  */
  ht_fs_describe ((uint32_t) fs.f_type, ht_kernel_version (), info);
  return 0;
}
