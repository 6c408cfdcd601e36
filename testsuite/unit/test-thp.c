/* Unit tests of the filesystem facts: ht_fs_info and ht_fs_describe say
   what lib/filesystems.def says, line by line.  */

#define _GNU_SOURCE
#include "unit.h"

#include "hugetext/thp.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

/* The table as text: SINCE and KIND as they are written, so that this
   test reads them as the Python and Tcl readers do, not as thp.c does.  */
static const struct
{
  const char *name;
  unsigned long magic;
  const char *since;
  const char *kind;
} table[] = {
#define HT_FS(name, magic, since, kind) { name, magic, #since, #kind },
#include "../../lib/filesystems.def"
#undef HT_FS
};

#define NTABLE (sizeof table / sizeof table[0])

/* What the table says of line I on kernel version KERNEL.  */
static enum ht_fs_folios
folios_of (size_t i, unsigned kernel)
{
  if (strcmp (table[i].since, "HT_FS_UNKNOWN_VERSION") == 0)
    return HT_FS_UNKNOWN;
  if (strcmp (table[i].since, "HT_FS_NEVER") == 0)
    return HT_FS_SMALL_FOLIOS;
  return (kernel >= strtoul (table[i].since, NULL, 10)
	  ? HT_FS_LARGE_FOLIOS : HT_FS_SMALL_FOLIOS);
}

/* Every line of the table, on the kernels either side of its SINCE.  */
static void
every_line (void)
{
  CHECK (NTABLE >= 10);
  for (size_t i = 0; i < NTABLE; i++)
    {
      char *end;
      unsigned long since = strtoul (table[i].since, &end, 10);
      unsigned kernels[] = { 0, 4019, 6001, 6012, 99999, 0, 0 };

      CHECK (*end == '\0' || strncmp (table[i].since, "HT_FS_", 6) == 0);
      CHECK (strcmp (table[i].kind, "HT_FS_LOCAL") == 0
	     || strcmp (table[i].kind, "HT_FS_SHMEM") == 0
	     || strcmp (table[i].kind, "HT_FS_NETWORK") == 0);
      if (*end == '\0' && since > 0)
	{
	  kernels[5] = since - 1;
	  kernels[6] = since;
	}
      for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
	{
	  struct ht_fs_info info;

	  memset (&info, 0xa5, sizeof info);
	  ht_fs_describe (table[i].magic, kernels[k], &info);
	  if (strcmp (info.name, table[i].name) != 0
	      || info.folios != folios_of (i, kernels[k])
	      || info.shmem != !strcmp (table[i].kind, "HT_FS_SHMEM")
	      || info.network != !strcmp (table[i].kind, "HT_FS_NETWORK"))
	    {
	      fprintf (stderr, "%s (0x%lx) on %u: name %s, folios %d, "
		       "shmem %d, network %d; the table says %s %s\n",
		       table[i].name, table[i].magic, kernels[k], info.name,
		       (int) info.folios, info.shmem, info.network,
		       table[i].since, table[i].kind);
	      unit_failures++;
	    }
	}
    }
}

/* The facts the kernel matrix and the tools rely on, written out.  */
static void
facts (void)
{
  struct ht_fs_info info;

  ht_fs_describe (0xef53, 6012, &info);
  CHECK (strcmp (info.name, "ext4") == 0);
  CHECK_EQ (info.folios, HT_FS_SMALL_FOLIOS);
  ht_fs_describe (0xef53, 6015, &info);
  CHECK_EQ (info.folios, HT_FS_SMALL_FOLIOS);
  ht_fs_describe (0xef53, 6016, &info);
  CHECK_EQ (info.folios, HT_FS_LARGE_FOLIOS);
  CHECK (!info.shmem && !info.network);
  ht_fs_describe (0x58465342, 6001, &info);
  CHECK (strcmp (info.name, "xfs") == 0);
  CHECK_EQ (info.folios, HT_FS_LARGE_FOLIOS);
  ht_fs_describe (0x01021994, 6012, &info);
  CHECK (strcmp (info.name, "tmpfs") == 0);
  CHECK (info.shmem);
  CHECK_EQ (info.folios, HT_FS_UNKNOWN);
  ht_fs_describe (0xfe534d42, 6012, &info);
  CHECK (strcmp (info.name, "cifs") == 0);
  CHECK (info.network);
  ht_fs_describe (0x1234, 6012, &info);
  CHECK (strcmp (info.name, "unknown") == 0);
  CHECK_EQ (info.folios, HT_FS_UNKNOWN);
  CHECK (!info.shmem && !info.network);
}

/* ht_fs_info on a real file: what ht_fs_describe says of its
   filesystem on this kernel.  */
static void
open_file (void)
{
  int fd = open ("/proc/self/exe", O_RDONLY);
  struct statfs fs;
  struct ht_fs_info info, want;

  CHECK (fd >= 0);
  if (fd < 0)
    return;
  CHECK (fstatfs (fd, &fs) == 0);
  CHECK (ht_fs_info (fd, &info) == 0);
  ht_fs_describe ((uint32_t) fs.f_type, ht_kernel_version (), &want);
  CHECK (strcmp (info.name, want.name) == 0);
  CHECK_EQ (info.folios, want.folios);
  CHECK_EQ (info.shmem, want.shmem);
  CHECK_EQ (info.network, want.network);
  close (fd);
  CHECK (ht_fs_info (-1, &info) == -1);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (every_line),
    UNIT_TEST (facts),
    UNIT_TEST (open_file),
  };
  return unit_main ("thp", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
