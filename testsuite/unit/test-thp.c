/* Unit tests of the filesystem facts: ht_fs_info and ht_fs_describe say
   what lib/filesystems.def says, line by line, and what the tools make
   of them per kernel (ht_fs_refusal, ht_collapse_einval).  */

#define _GNU_SOURCE
#include "unit.h"

#include "hugetext/thp.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The table as text: SINCE, KIND and MAXFOLIO as they are written, so
   that this test reads them as the Python and Tcl readers do, not as
   thp.c does; and its kernel-wide lines.  */
static const struct
{
  const char *name;
  unsigned long magic;
  const char *since;
  const char *kind;
  const char *max_folio;
} table[] = {
#define HT_FS(name, magic, since, kind, max_folio) \
  { name, magic, #since, #kind, #max_folio },
#define HT_KERNEL(name, since, value)
#include "../../lib/filesystems.def"
#undef HT_KERNEL
#undef HT_FS
};

static const struct
{
  const char *name;
  unsigned since;
  unsigned long value;
} kernel_facts[] = {
#define HT_FS(name, magic, since, kind, max_folio)
#define HT_KERNEL(name, since, value) { #name, since, value },
#include "../../lib/filesystems.def"
#undef HT_KERNEL
#undef HT_FS
};

#define NTABLE (sizeof table / sizeof table[0])
#define MIB (1024 * 1024ULL)

/* The SINCE and VALUE of the kernel-wide fact NAME.  */
static unsigned
fact_since (const char *name, unsigned long *value)
{
  for (size_t i = 0; i < sizeof kernel_facts / sizeof kernel_facts[0]; i++)
    if (strcmp (kernel_facts[i].name, name) == 0)
      {
	if (value)
	  *value = kernel_facts[i].value;
	return kernel_facts[i].since;
      }
  fprintf (stderr, "lib/filesystems.def has no HT_KERNEL %s\n", name);
  unit_failures++;
  return 0;
}

/* What the table says of line I on kernel version KERNEL with huge pages
   of H and a device's read_ahead_kb of RA bytes: whether the page cache
   can hold folios of H (PMD) and whether MADV_HUGEPAGE readahead brings
   them (READAHEAD): from HT_HUGEPAGE_READAHEAD_CAP on, not where H is
   larger than both twice the cap and RA.  */
static void
folios_of (size_t i, unsigned kernel, uint64_t h, uint64_t ra,
	   enum ht_fs_folios *pmd, enum ht_fs_folios *readahead)
{
  unsigned long cap;
  unsigned cap_since = fact_since ("HT_HUGEPAGE_READAHEAD_CAP", &cap);
  bool whole = strcmp (table[i].max_folio, "HT_FS_PMD") == 0;

  *pmd = *readahead = HT_FS_SMALL_FOLIOS;
  if (strcmp (table[i].since, "HT_FS_UNKNOWN_VERSION") == 0)
    *pmd = *readahead = HT_FS_UNKNOWN;
  else if (strcmp (table[i].since, "HT_FS_NEVER") != 0
	   && kernel >= strtoul (table[i].since, NULL, 10)
	   && (whole || strtoull (table[i].max_folio, NULL, 0) >= h))
    {
      *pmd = HT_FS_LARGE_FOLIOS;
      *readahead = kernel >= cap_since && h > 2 * cap && h > ra
		   ? HT_FS_SMALL_FOLIOS : HT_FS_LARGE_FOLIOS;
    }
}

/* Every line of the table, on the kernels either side of its SINCE and
   of the kernel-wide facts', with H 2 MiB (x86-64) and 32 MiB (arm64
   with 16 KiB pages).  */
static void
every_line (void)
{
  unsigned collapse = fact_since ("HT_COLLAPSE_PMD_FOLIOS", NULL);
  unsigned cap = fact_since ("HT_HUGEPAGE_READAHEAD_CAP", NULL);

  CHECK (NTABLE >= 10);
  CHECK (collapse > 6018 && cap > 6018);
  for (size_t i = 0; i < NTABLE; i++)
    {
      char *end;
      unsigned long since = strtoul (table[i].since, &end, 10);
      unsigned kernels[] = { 0, 4019, 6001, 6012, 99999, collapse - 1,
			     collapse, cap - 1, cap, 0, 0 };
      uint64_t hs[] = { 2 * MIB, 32 * MIB };
      /* read_ahead_kb: unknown, 128 KiB, 32 MiB.  */
      uint64_t ras[3] = { 0, 128 * 1024, 32 * MIB };

      CHECK (*end == '\0' || strncmp (table[i].since, "HT_FS_", 6) == 0);
      CHECK (strcmp (table[i].kind, "HT_FS_LOCAL") == 0
	     || strcmp (table[i].kind, "HT_FS_SHMEM") == 0
	     || strcmp (table[i].kind, "HT_FS_NETWORK") == 0);
      /* MAXFOLIO is HT_FS_PMD or a power of two, and 0 where SINCE is
	 not a version.  */
      if (*end == '\0')
	{
	  unsigned long long max = strtoull (table[i].max_folio, NULL, 0);

	  CHECK (strcmp (table[i].max_folio, "HT_FS_PMD") == 0
		 || (max > 4096 && (max & (max - 1)) == 0));
	}
      if (*end == '\0' && since > 0)
	{
	  kernels[9] = since - 1;
	  kernels[10] = since;
	}
      for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
	for (size_t j = 0; j < sizeof hs / sizeof hs[0] * 3; j++)
	  {
	    struct ht_fs_info info;
	    enum ht_fs_folios pmd, readahead;
	    uint64_t h = hs[j / 3], ra = ras[j % 3];

	    memset (&info, 0xa5, sizeof info);
	    ht_fs_describe (table[i].magic, kernels[k], h, ra, &info);
	    folios_of (i, kernels[k], h, ra, &pmd, &readahead);
	    if (strcmp (info.name, table[i].name) != 0
		|| info.kernel != kernels[k] || info.h != h
		|| info.folios != readahead || info.pmd_folios != pmd
		|| (info.folios == HT_FS_SMALL_FOLIOS && info.why[0] == '\0')
		|| info.shmem != !strcmp (table[i].kind, "HT_FS_SHMEM")
		|| info.network != !strcmp (table[i].kind, "HT_FS_NETWORK"))
	      {
		fprintf (stderr, "%s (0x%lx) on %u, H %llu: name %s, folios "
			 "%d, pmd_folios %d, shmem %d, network %d; the table "
			 "says %s %s %s\n", table[i].name, table[i].magic,
			 kernels[k], (unsigned long long) h, info.name,
			 (int) info.folios, (int) info.pmd_folios, info.shmem,
			 info.network, table[i].since, table[i].kind,
			 table[i].max_folio);
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

  ht_fs_describe (0xef53, 6012, 2 * MIB, 0, &info);
  CHECK (strcmp (info.name, "ext4") == 0);
  CHECK_EQ (info.folios, HT_FS_SMALL_FOLIOS);
  CHECK (strcmp (info.why, "ext4 has no large folios before Linux 6.16")
	 == 0);
  ht_fs_describe (0xef53, 6015, 2 * MIB, 0, &info);
  CHECK_EQ (info.folios, HT_FS_SMALL_FOLIOS);
  ht_fs_describe (0xef53, 6016, 2 * MIB, 0, &info);
  CHECK_EQ (info.folios, HT_FS_LARGE_FOLIOS);
  CHECK_EQ (info.pmd_folios, HT_FS_LARGE_FOLIOS);
  CHECK (!info.shmem && !info.network);
  ht_fs_describe (0x58465342, 6001, 2 * MIB, 0, &info);
  CHECK (strcmp (info.name, "xfs") == 0);
  CHECK_EQ (info.folios, HT_FS_LARGE_FOLIOS);
  ht_fs_describe (0x01021994, 6012, 2 * MIB, 0, &info);
  CHECK (strcmp (info.name, "tmpfs") == 0);
  CHECK (info.shmem);
  CHECK_EQ (info.folios, HT_FS_UNKNOWN);
  ht_fs_describe (0xfe534d42, 6012, 2 * MIB, 0, &info);
  CHECK (strcmp (info.name, "cifs") == 0);
  CHECK (info.network);
  ht_fs_describe (0x1234, 6012, 2 * MIB, 0, &info);
  CHECK (strcmp (info.name, "unknown") == 0);
  CHECK_EQ (info.folios, HT_FS_UNKNOWN);
  CHECK (!info.shmem && !info.network);

  /* Linux 7.2.  NFS and SMB: large folios, up to H.  */
  ht_fs_describe (0x6969, 7002, 2 * MIB, 0, &info);
  CHECK (strcmp (info.name, "nfs") == 0 && info.network);
  CHECK_EQ (info.folios, HT_FS_LARGE_FOLIOS);
  ht_fs_describe (0xff534d42, 7002, 2 * MIB, 0, &info);
  CHECK_EQ (info.pmd_folios, HT_FS_LARGE_FOLIOS);
  /* btrfs: 256 KiB at most, never a folio of H.  */
  ht_fs_describe (0x9123683e, 7002, 2 * MIB, 0, &info);
  CHECK (strcmp (info.name, "btrfs") == 0);
  CHECK_EQ (info.folios, HT_FS_SMALL_FOLIOS);
  CHECK_EQ (info.pmd_folios, HT_FS_SMALL_FOLIOS);
  CHECK (strcmp (info.why, "btrfs's page cache holds folios of at most "
		 "256 KiB, less than H (2 MiB)") == 0);
  ht_fs_describe (0xe0f5e1e2, 7002, 2 * MIB, 0, &info);
  CHECK (strcmp (info.name, "erofs") == 0);
  CHECK_EQ (info.pmd_folios, HT_FS_LARGE_FOLIOS);
  /* arm64 with 16 KiB pages: ext4 (4 KiB blocks) stops at 8 MiB; XFS
     holds 32 MiB folios, but readahead reads 2 MiB ones at the fault, and
     none larger than its window after it (twice that, or read_ahead_kb
     where larger): measured, 2, 2 and 4 MiB with read_ahead_kb 8192.  */
  ht_fs_describe (0xef53, 7002, 32 * MIB, 0, &info);
  CHECK_EQ (info.pmd_folios, HT_FS_SMALL_FOLIOS);
  CHECK (strcmp (info.why, "ext4's page cache holds folios of at most "
		 "8 MiB, less than H (32 MiB)") == 0);
  ht_fs_describe (0x58465342, 7002, 32 * MIB, 0, &info);
  CHECK_EQ (info.pmd_folios, HT_FS_LARGE_FOLIOS);
  CHECK_EQ (info.folios, HT_FS_SMALL_FOLIOS);
  CHECK (strstr (info.why, "from Linux 7.2, MADV_HUGEPAGE readahead reads "
		 "2 MiB folios and none larger than its window, 4 MiB "
		 "(twice that, or the device's read_ahead_kb where larger: "
		 "read_ahead_kb not known), less than H (32 MiB): with "
		 "that, only MADV_COLLAPSE fills a huge page") != NULL);
  ht_fs_describe (0x58465342, 7002, 32 * MIB, 8 * MIB, &info);
  CHECK_EQ (info.folios, HT_FS_SMALL_FOLIOS);
  CHECK (strstr (info.why, "window, 8 MiB (twice that, or the device's "
		 "read_ahead_kb where larger: read_ahead_kb 8192)") != NULL);
  /* A window of H: readahead may fill a PMD, so warm tries.  */
  ht_fs_describe (0x58465342, 7002, 32 * MIB, 32 * MIB, &info);
  CHECK_EQ (info.folios, HT_FS_LARGE_FOLIOS);
  ht_fs_describe (0x58465342, 6012, 32 * MIB, 0, &info);
  CHECK_EQ (info.folios, HT_FS_LARGE_FOLIOS);

  CHECK (!ht_collapse_needs_pmd_folios (6012));
  CHECK (!ht_collapse_needs_pmd_folios (7001));
  CHECK (ht_collapse_needs_pmd_folios (7002));
}

/* What hugetext warm refuses (its exit status 8) and says, per kernel;
   NULL: it tries.  */
static const char *
refusal (unsigned long magic, unsigned kernel, uint64_t h, bool collapse,
	 char *buf)
{
  struct ht_fs_info info;

  ht_fs_describe (magic, kernel, h, 0, &info);
  return ht_fs_refusal (&info, collapse, buf);
}

static void
warm_refusals (void)
{
  char buf[HT_FS_WHY_LEN];
  const char *why;

  /* 6.1: ext4 has small folios; --collapse tries (READ_ONLY_THP_FOR_FS
     may be there); NFS is refused either way.  */
  why = refusal (0xef53, 6001, 2 * MIB, false, buf);
  CHECK (why != NULL
	 && strcmp (why, "ext4 has no large folios before Linux 6.16") == 0);
  CHECK (refusal (0xef53, 6001, 2 * MIB, true, buf) == NULL);
  why = refusal (0x6969, 6001, 2 * MIB, true, buf);
  CHECK (why != NULL
	 && strcmp (why, "nfs has no large folios before Linux 6.11") == 0);
  /* 6.12: NFS and SMB have large folios: tried, as XFS.  */
  CHECK (refusal (0x6969, 6012, 2 * MIB, false, buf) == NULL);
  CHECK (refusal (0xfe534d42, 6012, 2 * MIB, true, buf) == NULL);
  CHECK (refusal (0x58465342, 6012, 2 * MIB, false, buf) == NULL);
  /* fuse: nobody knows; a network filesystem is not tried.  */
  why = refusal (0x65735546, 6012, 2 * MIB, true, buf);
  CHECK (why != NULL && strstr (why, "fuse, a network filesystem") == why);
  why = refusal (0x65735546, 7002, 2 * MIB, false, buf);
  CHECK (why != NULL);
  /* 9p: small folios on every kernel.  */
  CHECK (refusal (0x01021997, 7002, 2 * MIB, true, buf) != NULL);

  /* 7.2: --collapse on btrfs is refused (no folios of H: MADV_COLLAPSE
     would fail), where before 7.2 it was tried.  */
  CHECK (refusal (0x9123683e, 7001, 2 * MIB, true, buf) == NULL);
  why = refusal (0x9123683e, 7002, 2 * MIB, true, buf);
  CHECK (why != NULL
	 && strcmp (why, "btrfs's page cache holds folios of at most "
		    "256 KiB, less than H (2 MiB); from Linux 7.2 "
		    "MADV_COLLAPSE needs a page cache that holds folios of "
		    "H, too") == 0);
  CHECK (refusal (0x9123683e, 7002, 2 * MIB, false, buf) != NULL);
  /* 7.2, arm64 with 16 KiB pages: XFS only with --collapse; ext4 not.  */
  why = refusal (0x58465342, 7002, 32 * MIB, false, buf);
  CHECK (why != NULL && strstr (why, "only MADV_COLLAPSE") != NULL);
  CHECK (refusal (0x58465342, 7002, 32 * MIB, true, buf) == NULL);
  CHECK (refusal (0xef53, 7002, 32 * MIB, true, buf) != NULL);
  CHECK (refusal (0xef53, 7002, 2 * MIB, true, buf) == NULL);
  /* tmpfs and unknown local filesystems are tried.  */
  CHECK (refusal (0x01021994, 7002, 2 * MIB, false, buf) == NULL);
  CHECK (refusal (0x1234, 7002, 2 * MIB, true, buf) == NULL);
}

/* What MADV_COLLAPSE failing with EINVAL means (warm's exit status 6,
   and the helper's message), per kernel.  */
static void
collapse_einval (void)
{
  char buf[HT_FS_WHY_LEN];
  struct ht_fs_info info;

  ht_fs_describe (0xef53, 6012, 2 * MIB, 0, &info);
  CHECK (strcmp (ht_collapse_einval (&info, buf), "MADV_COLLAPSE is not "
		 "supported for files by this kernel (it needs "
		 "READ_ONLY_THP_FOR_FS)") == 0);
  ht_fs_describe (0xef53, 7001, 2 * MIB, 0, &info);
  CHECK (strstr (ht_collapse_einval (&info, buf), "READ_ONLY_THP_FOR_FS")
	 != NULL);
  /* 7.2: the filesystem, not the kernel.  */
  ht_fs_describe (0x9123683e, 7002, 2 * MIB, 0, &info);
  CHECK (strcmp (ht_collapse_einval (&info, buf), "MADV_COLLAPSE needs a "
		 "page cache that holds folios of H (2 MiB) from Linux 7.2, "
		 "and btrfs's page cache holds folios of at most 256 KiB, "
		 "less than H (2 MiB)") == 0);
  ht_fs_describe (0xef53, 7002, 2 * MIB, 0, &info);
  CHECK (strstr (ht_collapse_einval (&info, buf), "READ_ONLY") == NULL);
  CHECK (strstr (ht_collapse_einval (&info, buf), "from Linux 7.2 it needs "
		 "a page cache that holds folios of H (2 MiB), which this "
		 "filesystem has, but not for this file (ext4: data=journal")
	 != NULL);
  ht_fs_describe (0x1234, 7002, 2 * MIB, 0, &info);
  CHECK (strstr (ht_collapse_einval (&info, buf), "which this filesystem "
		 "may lack") != NULL);
}

/* HUGETEXT_KERNEL_RELEASE stands for uname's release.  */
static void
kernel_release (void)
{
  unsigned real;

  unsetenv ("HUGETEXT_KERNEL_RELEASE");
  real = ht_kernel_version ();
  CHECK (real >= 2006);
  setenv ("HUGETEXT_KERNEL_RELEASE", "7.2.13+deb14-amd64", 1);
  CHECK_EQ (ht_kernel_version (), 7002u);
  setenv ("HUGETEXT_KERNEL_RELEASE", "6.1.0-42-amd64", 1);
  CHECK_EQ (ht_kernel_version (), 6001u);
  setenv ("HUGETEXT_KERNEL_RELEASE", "", 1);
  CHECK_EQ (ht_kernel_version (), real);
  unsetenv ("HUGETEXT_KERNEL_RELEASE");
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
  CHECK (ht_fs_info (fd, 2 * MIB, &info) == 0);
  ht_fs_describe ((uint32_t) fs.f_type, ht_kernel_version (), 2 * MIB,
		  ht_read_ahead (fd), &want);
  CHECK (strcmp (info.name, want.name) == 0);
  CHECK_EQ (info.folios, want.folios);
  CHECK_EQ (info.pmd_folios, want.pmd_folios);
  CHECK_EQ (info.kernel, want.kernel);
  CHECK_EQ (info.shmem, want.shmem);
  CHECK_EQ (info.network, want.network);
  close (fd);
  CHECK (ht_fs_info (-1, 2 * MIB, &info) == -1);
  CHECK_EQ (ht_read_ahead (-1), 0u);
}

/* ht_read_ahead: for a file on a block device, that device's queue's
   read_ahead_kb, in bytes (read here through /sys/dev/block, not the
   backing device's /sys/class/bdi); 0 for a file of /proc.  */
static void
read_ahead (void)
{
  int fd = open ("/proc/self/exe", O_RDONLY);
  int proc = open ("/proc/self/status", O_RDONLY);
  struct stat st;
  char path[96];
  unsigned long long kb = 0;
  FILE *f;

  CHECK (fd >= 0 && proc >= 0 && fstat (fd, &st) == 0);
  snprintf (path, sizeof path, "/sys/dev/block/%u:%u", major (st.st_dev),
	    minor (st.st_dev));
  if (access (path, F_OK) == 0)
    {
      /* A partition's queue is its disk's.  */
      snprintf (path, sizeof path, "/sys/dev/block/%u:%u/queue/read_ahead_kb",
		major (st.st_dev), minor (st.st_dev));
      f = fopen (path, "r");
      if (f == NULL)
	{
	  snprintf (path, sizeof path,
		    "/sys/dev/block/%u:%u/../queue/read_ahead_kb",
		    major (st.st_dev), minor (st.st_dev));
	  f = fopen (path, "r");
	}
      CHECK (f != NULL && fscanf (f, "%llu", &kb) == 1);
      if (f != NULL)
	fclose (f);
      CHECK_EQ (ht_read_ahead (fd), kb * 1024);
    }
  else
    SKIP ("the executable's file system has no block device in "
	  "/sys/dev/block");
  CHECK_EQ (ht_read_ahead (proc), 0u);
  close (fd);
  close (proc);
}

/* Write TEXT to the file at DIR/NAME.  */
static void
put (const char *dir, const char *name, const char *text)
{
  char path[512];
  FILE *f;

  snprintf (path, sizeof path, "%s/%s", dir, name);
  f = fopen (path, "w");
  CHECK (f != NULL);
  if (f != NULL)
    {
      fputs (text, f);
      fclose (f);
    }
}

/* ht_read_ahead_dev in a sysfs of its own, laid out as Linux's: a disk
   8:0 with its backing device, its partition 8:2 (no backing device of
   its own: the disk's is its), an anonymous device 0:50 (NFS), and a
   device that has none.  */
static void
read_ahead_partition (void)
{
  char sys[] = "/tmp/hugetext-sysfs-XXXXXX", path[512], target[512];
  const char *dirs[] = { "class", "class/bdi", "class/bdi/8:0",
			 "class/bdi/0:50", "dev", "dev/block", "devices",
			 "devices/sda", "devices/sda/sda2" };

  CHECK (mkdtemp (sys) != NULL);
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
    {
      snprintf (path, sizeof path, "%s/%s", sys, dirs[i]);
      CHECK (mkdir (path, 0755) == 0);
    }
  put (sys, "class/bdi/8:0/read_ahead_kb", "4096\n");
  put (sys, "class/bdi/0:50/read_ahead_kb", "15360\n");
  snprintf (path, sizeof path, "%s/devices/sda/bdi", sys);
  snprintf (target, sizeof target, "%s/class/bdi/8:0", sys);
  CHECK (symlink (target, path) == 0);
  snprintf (path, sizeof path, "%s/dev/block/8:0", sys);
  snprintf (target, sizeof target, "%s/devices/sda", sys);
  CHECK (symlink (target, path) == 0);
  snprintf (path, sizeof path, "%s/dev/block/8:2", sys);
  snprintf (target, sizeof target, "%s/devices/sda/sda2", sys);
  CHECK (symlink (target, path) == 0);

  CHECK_EQ (ht_read_ahead_dev (sys, 8, 0), UINT64_C (4096) << 10);
  CHECK_EQ (ht_read_ahead_dev (sys, 8, 2), UINT64_C (4096) << 10);
  CHECK_EQ (ht_read_ahead_dev (sys, 0, 50), UINT64_C (15360) << 10);
  CHECK_EQ (ht_read_ahead_dev (sys, 9, 9), 0u);
  /* Not a number: not known.  */
  put (sys, "class/bdi/8:0/read_ahead_kb", "x\n");
  CHECK_EQ (ht_read_ahead_dev (sys, 8, 2), 0u);

  snprintf (path, sizeof path, "rm -rf '%s'", sys);
  CHECK (system (path) == 0);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (every_line),
    UNIT_TEST (facts),
    UNIT_TEST (warm_refusals),
    UNIT_TEST (collapse_einval),
    UNIT_TEST (kernel_release),
    UNIT_TEST (open_file),
    UNIT_TEST (read_ahead),
    UNIT_TEST (read_ahead_partition),
  };
  return unit_main ("thp", tests, sizeof tests / sizeof tests[0], argc,
		    argv);
}
