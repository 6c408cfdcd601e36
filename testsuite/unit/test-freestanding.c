/* Unit tests of the audit module's own C library (startup/freestanding.c):
   each hf_ function beside the C library's, on the inputs the module
   gives it and on the edges of each.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../startup/freestanding.h"
#include "unit.h"

#define HF_ERRNO (*hf_errno_location ())

/* hf_snprintf and snprintf give the same text and count for FMT, into a
   buffer of SIZE.  */
static void
same_format (size_t size, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static void
same_format (size_t size, const char *fmt, ...)
{
  char ours[64], theirs[64];
  va_list ap, aq;
  int a, b;

  memset (ours, 'x', sizeof ours);
  memset (theirs, 'x', sizeof theirs);
  va_start (ap, fmt);
  va_copy (aq, ap);
  a = hf_vsnprintf (ours, size, fmt, ap);
  b = vsnprintf (theirs, size, fmt, aq);
  va_end (aq);
  va_end (ap);
  CHECK_EQ (a, b);
  CHECK (memcmp (ours, theirs, sizeof ours) == 0);
  if (memcmp (ours, theirs, sizeof ours) != 0)
    fprintf (stderr, "  format '%s': '%.*s' against '%.*s'\n", fmt,
	     (int) size, ours, (int) size, theirs);
}

static void
formats (void)
{
  same_format (64, "plain text");
  same_format (64, "%s: %s", "hugetext-audit", "/lib/libLLVM.so.19.1");
  same_format (64, "%u %u", 0u, UINT_MAX);
  same_format (64, "%lu KiB", 118784ul);
  same_format (64, "%llu MiB", 18446744073709551615ull);
  same_format (64, "%zu", (size_t) 4096);
  same_format (64, "%d %d %ld", 0, INT_MIN, LONG_MIN);
  same_format (64, "%#lx-%#lx", 0x7fc015c00000ul, 0ul);
  same_format (64, "%x %lx", 0xdeadbeefu, 0x10000ul);
  same_format (64, "100%% %s", "");
  /* Truncation: the count is of the whole text, the buffer ends in
     '\0'.  */
  same_format (8, "%s and more", "MADV_COLLAPSE");
  same_format (1, "%u", 12345u);
  same_format (0, "%lu", 12345ul);
}

static void
numbers (void)
{
  static const struct
  {
    const char *s;
    int base;
  } cases[] = {
    { "2097152\n", 10 }, { "0", 10 }, { "", 10 }, { "x", 10 },
    { "  42", 10 }, { "-1", 10 }, { "+7", 10 }, { "18446744073709551615", 10 },
    { "18446744073709551616", 10 }, { "99999999999999999999999", 10 },
    { "0x200000", 0 }, { "0x", 0 }, { "0x", 16 }, { "0xg", 16 },
    { "0755", 0 }, { "ff", 16 }, { "FF", 16 }, { "0X1f", 16 }, { "8", 8 },
    { "7.2.13+deb14", 10 },
  };

/* OURS and THEIRS give the same value, end and errno for case I.  */
#define SAME_NUMBER(ours, theirs)					\
  do									\
    {									\
      char *e1, *e2;							\
      uint64_t a, b;							\
      int err1;								\
									\
      HF_ERRNO = 0;							\
      errno = 0;							\
      a = ours (cases[i].s, &e1, cases[i].base);			\
      err1 = HF_ERRNO;							\
      b = theirs (cases[i].s, &e2, cases[i].base);			\
      CHECK_EQ (a, b);							\
      CHECK (e1 == e2);							\
      CHECK_EQ (err1, errno);						\
    }									\
  while (0)

  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      SAME_NUMBER (hf_strtoull, strtoull);
      SAME_NUMBER (hf_strtoul, strtoul);
    }
#undef SAME_NUMBER
  CHECK_EQ (hf_strtoull ("12", NULL, 10), 12);
}

static int
sign (int v)
{
  return (v > 0) - (v < 0);
}

static void
strings (void)
{
  static const char *const words[] = {
    "", "a", "ab", "abc", "always [madvise] never", "[madvise]", "\xff",
  };
  char buf[16] = "0123456789abcde";

  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    {
      CHECK_EQ (hf_strlen (words[i]), strlen (words[i]));
      CHECK (hf_strchr (words[i], 'b') == strchr (words[i], 'b'));
      CHECK (hf_strchr (words[i], '\0') == strchr (words[i], '\0'));
      for (size_t j = 0; j < sizeof words / sizeof words[0]; j++)
	{
	  CHECK_EQ (sign (hf_strcmp (words[i], words[j])),
		    sign (strcmp (words[i], words[j])));
	  CHECK_EQ (sign (hf_strncmp (words[i], words[j], 2)),
		    sign (strncmp (words[i], words[j], 2)));
	  CHECK (hf_strstr (words[i], words[j])
		 == strstr (words[i], words[j]));
	  CHECK_EQ (sign (hf_memcmp (words[i], words[j], 1)),
		    sign (memcmp (words[i], words[j], 1)));
	}
    }
  /* Overlapping moves, both ways.  */
  hf_memmove (buf + 2, buf, 5);
  CHECK (memcmp (buf, "0101234789abcde", 15) == 0);
  hf_memmove (buf, buf + 3, 5);
  CHECK (memcmp (buf, "1234734789abcde", 15) == 0);
  CHECK (hf_memset (buf, 'z', 3) == buf);
  CHECK (memcmp (buf, "zzz4734789abcde", 15) == 0);
  CHECK (hf_memcpy (buf, "abc", 3) == buf);
  CHECK (memcmp (buf, "abc4734789abcde", 15) == 0);
}

/* The errors it names read as the C library's; others as glibc's
   "Unknown error N".  */
static void
errors (void)
{
  int named = 0;

  for (int e = 0; e < 140; e++)
    {
      const char *name = hf_strerror_name (e);

      if (name == NULL)
	continue;
      named++;
      CHECK (strcmp (name, strerror (e)) == 0);
      CHECK (strcmp (hf_strerror (e), strerror (e)) == 0);
    }
  CHECK (named >= 20);
  CHECK (strcmp (hf_strerror (-5), "Unknown error -5") == 0);
  CHECK (strcmp (hf_strerror (100000), "Unknown error 100000") == 0);
}

/* The environment and auxiliary vector as the process started with
   them.  */
static void
start (void)
{
  const char *path = getenv ("PATH"), *ours;

  ours = hf_getenv ("PATH");
  CHECK ((ours == NULL) == (path == NULL));
  /* Values are kept to 255 bytes.  */
  if (path != NULL && ours != NULL)
    {
      CHECK_EQ (strlen (ours), strlen (path) < 255 ? strlen (path) : 255);
      CHECK (strncmp (ours, path, 255) == 0);
    }
  CHECK (hf_getenv ("HUGETEXT_SURELY_NOT_SET_ANYWHERE") == NULL);
  CHECK_EQ (hf_getauxval (AT_PAGESZ), getauxval (AT_PAGESZ));
  CHECK_EQ (hf_getauxval (AT_PHDR), getauxval (AT_PHDR));
  CHECK_EQ (hf_getauxval (AT_PHNUM), getauxval (AT_PHNUM));
  CHECK_EQ (hf_getauxval (AT_SYSINFO_EHDR), getauxval (AT_SYSINFO_EHDR));
  HF_ERRNO = 0;
  CHECK_EQ (hf_getauxval (0x7fff), 0);
  CHECK_EQ (HF_ERRNO, ENOENT);
  CHECK_EQ (hf_sysconf (_SC_PAGESIZE), sysconf (_SC_PAGESIZE));
  HF_ERRNO = 0;
  CHECK_EQ (hf_sysconf (_SC_NPROCESSORS_ONLN), -1);
  CHECK_EQ (HF_ERRNO, EINVAL);
}

/* What --environ-child checks, in an environment that environ () made:
   names that are prefixes of others, a value across the 1024-byte pieces
   /proc/self/environ is read in, and an empty one.  */
static int
environ_child (void)
{
  const char *v;

  unit_failures = 0;
  v = hf_getenv ("HT_A");
  CHECK (v != NULL && strcmp (v, "first") == 0);
  v = hf_getenv ("HT_AB");
  CHECK (v != NULL && strcmp (v, "second") == 0);
  v = hf_getenv ("HT_LONG");
  CHECK (v != NULL && strlen (v) == 255 && v[0] == 'y' && v[254] == 'y');
  v = hf_getenv ("HT_EMPTY");
  CHECK (v != NULL && *v == '\0');
  CHECK (hf_getenv ("HT_") == NULL);
  CHECK (hf_getenv ("FILLER") != NULL);
  CHECK (hf_getenv ("HT_LAST") != NULL && strcmp (hf_getenv ("HT_LAST"), "z") == 0);
  /* More names than it keeps: still right.  */
  CHECK (hf_getenv ("HT_NONE1") == NULL && hf_getenv ("HT_NONE2") == NULL);
  v = hf_getenv ("HT_A");
  CHECK (v != NULL && strcmp (v, "first") == 0);
  return unit_failures ? 1 : 0;
}

static void
environment (void)
{
  static char filler[1500], longer[700];
  char *env[] = { filler, "HT_AB=second", longer, "HT_A=first",
		  "HT_EMPTY=", "HT=1", "HT_LAST=z", NULL };
  char *args[] = { "test-freestanding", "--environ-child", NULL };
  int status = -1;
  pid_t pid;

  memset (filler, 'x', sizeof filler - 1);
  memcpy (filler, "FILLER=", 7);
  /* HT_LONG's value starts before the second piece and ends after it.  */
  memset (longer, 'y', sizeof longer - 1);
  memcpy (longer, "HT_LONG=", 8);
  pid = fork ();
  if (pid == 0)
    {
      execve ("/proc/self/exe", args, env);
      _exit (127);
    }
  CHECK (pid > 0 && waitpid (pid, &status, 0) == pid);
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

static void
system_calls (void)
{
  char ours[64], theirs[64];
  struct statvfs a, b;
  struct statfs fa, fb;
  struct stat sa, sb;
  struct utsname ua, ub;
  long page = sysconf (_SC_PAGESIZE);
  unsigned char vec;
  int fd = hf_open ("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  int theirs_fd = open ("/proc/self/exe", O_RDONLY | O_CLOEXEC);

  CHECK (fd >= 0 && theirs_fd >= 0);
  CHECK_EQ (hf_read (fd, ours, sizeof ours), sizeof ours);
  CHECK_EQ (read (theirs_fd, theirs, sizeof theirs), sizeof theirs);
  CHECK (memcmp (ours, theirs, sizeof ours) == 0);
  CHECK_EQ (hf_fstat (fd, &sa), 0);
  CHECK_EQ (fstat (theirs_fd, &sb), 0);
  CHECK (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
	 && sa.st_size == sb.st_size && sa.st_mode == sb.st_mode);
  CHECK_EQ (hf_fstatfs (fd, &fa), 0);
  CHECK_EQ (fstatfs (theirs_fd, &fb), 0);
  CHECK_EQ (fa.f_type, fb.f_type);
  CHECK_EQ (hf_fstatvfs (fd, &a), 0);
  CHECK_EQ (fstatvfs (theirs_fd, &b), 0);
  CHECK_EQ (a.f_flag, b.f_flag);
  CHECK_EQ (a.f_bsize, b.f_bsize);
  CHECK_EQ (a.f_namemax, b.f_namemax);
  CHECK_EQ (hf_posix_fadvise (fd, 0, 0, POSIX_FADV_NORMAL), 0);
  CHECK_EQ (hf_close (fd), 0);
  close (theirs_fd);

  /* Failures: -1 and errno; posix_fadvise returns its error.  */
  HF_ERRNO = 0;
  CHECK_EQ (hf_open ("/nonexistent/hugetext", O_RDONLY), -1);
  CHECK_EQ (HF_ERRNO, ENOENT);
  HF_ERRNO = 0;
  CHECK_EQ (hf_close (-1), -1);
  CHECK_EQ (HF_ERRNO, EBADF);
  HF_ERRNO = 0;
  CHECK_EQ (hf_posix_fadvise (-1, 0, 0, POSIX_FADV_NORMAL), EBADF);
  CHECK_EQ (HF_ERRNO, 0);
  HF_ERRNO = 0;
  CHECK_EQ (hf_madvise ((void *) 1, 1, MADV_NORMAL), -1);
  CHECK_EQ (HF_ERRNO, EINVAL);
  CHECK_EQ (hf_mincore ((void *) ((uintptr_t) &vec & ~(uintptr_t) (page - 1)),
			(size_t) page, &vec), 0);
  CHECK_EQ (vec & 1, 1);
  CHECK_EQ (hf_write (-1, "x", 1), -1);
  CHECK_EQ (HF_ERRNO, EBADF);

  CHECK_EQ (hf_uname (&ua), 0);
  CHECK_EQ (uname (&ub), 0);
  CHECK (strcmp (ua.release, ub.release) == 0);
  CHECK (strcmp (ua.machine, ub.machine) == 0);
}

int
main (int argc, char **argv)
{
  static const struct unit_test tests[] = {
    UNIT_TEST (formats), UNIT_TEST (numbers), UNIT_TEST (strings),
    UNIT_TEST (errors), UNIT_TEST (start), UNIT_TEST (environment),
    UNIT_TEST (system_calls),
  };

  if (argc == 2 && strcmp (argv[1], "--environ-child") == 0)
    return environ_child ();

  return unit_main ("freestanding", tests, sizeof tests / sizeof tests[0],
		    argc, argv);
}
