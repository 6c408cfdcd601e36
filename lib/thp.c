/* Kernel and filesystem facts about huge pages: see hugetext/thp.h.  */

#define _GNU_SOURCE
#include "hugetext/thp.h"

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

uint64_t
ht_thp_pmd_size (void)
{
  FILE *f = fopen ("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
		   "r");
  unsigned long long size = 0;

  if (f == NULL)
    return 0;
  if (fscanf (f, "%llu", &size) != 1 || size == 0 || (size & (size - 1)))
    size = 0;
  fclose (f);
  return size;
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

int
ht_fs_info (int fd, struct ht_fs_info *info)
{
  struct statfs fs;
  struct statvfs vfs;
  unsigned kernel = ht_kernel_version ();

  memset (info, 0, sizeof *info);
  if (fstatfs (fd, &fs) != 0 || fstatvfs (fd, &vfs) != 0)
    return -1;
  info->read_only = (vfs.f_flag & ST_RDONLY) != 0;
  info->folios = HT_FS_UNKNOWN;
  switch ((unsigned long) fs.f_type)
    {
    case 0x58465342:
      info->name = "xfs";
      info->folios = HT_FS_LARGE_FOLIOS;
      break;
    case 0xef53:
      info->name = "ext4";
      /* Large folios for regular files from Linux 6.16.  */
      info->folios = kernel >= 6016 ? HT_FS_LARGE_FOLIOS : HT_FS_SMALL_FOLIOS;
      break;
    case 0x01021994:
      info->name = "tmpfs";
      info->shmem = true;
      break;
    case 0x858458f6:
      info->name = "ramfs";
      info->folios = HT_FS_SMALL_FOLIOS;
      break;
    case 0x9123683e:
      info->name = "btrfs";
      break;
    case 0x6969:
      info->name = "nfs";
      info->network = true;
      break;
    case 0x01021997:
      info->name = "9p";
      info->network = true;
      info->folios = HT_FS_SMALL_FOLIOS;
      break;
    case 0xff534d42:
    case 0xfe534d42:
      info->name = "cifs";
      info->network = true;
      break;
    case 0x65735546:
      info->name = "fuse";
      info->network = true;
      break;
    case 0x794c7630:
      info->name = "overlayfs";
      break;
    case 0x73717368:
      info->name = "squashfs";
      info->folios = HT_FS_SMALL_FOLIOS;
      break;
    default:
      info->name = "unknown";
      break;
    }
  return 0;
}
