/* The C library functions that the audit module (hugetext-audit.c and
   what it compiles in) calls, on system calls alone, so that ld.so loads
   no C library into the module's namespace: with libc.so.6 there, every
   process started with LD_AUDIT paid about 160 microseconds for its
   relocation and start (bench/audit-cost.sh).

   Each function is written as hf_NAME and, in the module, given the C
   library's NAME as an alias: the unit test (testsuite/unit) calls the
   hf_ forms beside the C library's own.  Only what the module uses, and
   only as it uses it: sysconf knows _SC_PAGESIZE, vsnprintf the
   conversions s, u, lu, llu, zu, d, ld and x, lx with '#', strerror the
   errors that madvise, open and posix_fadvise give, getenv and getauxval
   the environment and auxiliary vector the process started with (from
   /proc/self).  The module has no DT_NEEDED at all.

   System calls are written for the architectures of the #if below; on
   another this file does not compile, and startup/CMakeLists.txt, which
   tries, builds the module on the C library.  */

#define _GNU_SOURCE
#include "freestanding.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static int hf_errno_value;

int *
hf_errno_location (void)
{
  return &hf_errno_value;
}

/* --- System calls ------------------------------------------------------ */

#if defined __x86_64__
static long
sys6 (long n, long a, long b, long c, long d, long e, long f)
{
  register long r10 __asm__ ("r10") = d;
  register long r8 __asm__ ("r8") = e;
  register long r9 __asm__ ("r9") = f;
  long ret;

  __asm__ volatile ("syscall"
		    : "=a" (ret)
		    : "a" (n), "D" (a), "S" (b), "d" (c), "r" (r10), "r" (r8),
		      "r" (r9)
		    : "rcx", "r11", "memory");
  return ret;
}
#elif defined __aarch64__
static long
sys6 (long n, long a, long b, long c, long d, long e, long f)
{
  register long x8 __asm__ ("x8") = n;
  register long x0 __asm__ ("x0") = a;
  register long x1 __asm__ ("x1") = b;
  register long x2 __asm__ ("x2") = c;
  register long x3 __asm__ ("x3") = d;
  register long x4 __asm__ ("x4") = e;
  register long x5 __asm__ ("x5") = f;

  __asm__ volatile ("svc 0"
		    : "+r" (x0)
		    : "r" (x8), "r" (x1), "r" (x2), "r" (x3), "r" (x4),
		      "r" (x5)
		    : "memory");
  return x0;
}
#elif defined __riscv && __riscv_xlen == 64
static long
sys6 (long n, long a, long b, long c, long d, long e, long f)
{
  register long a7 __asm__ ("a7") = n;
  register long a0 __asm__ ("a0") = a;
  register long a1 __asm__ ("a1") = b;
  register long a2 __asm__ ("a2") = c;
  register long a3 __asm__ ("a3") = d;
  register long a4 __asm__ ("a4") = e;
  register long a5 __asm__ ("a5") = f;

  __asm__ volatile ("ecall"
		    : "+r" (a0)
		    : "r" (a7), "r" (a1), "r" (a2), "r" (a3), "r" (a4),
		      "r" (a5)
		    : "memory");
  return a0;
}
#elif defined __loongarch__ && __loongarch_grlen == 64
static long
sys6 (long n, long a, long b, long c, long d, long e, long f)
{
  register long a7 __asm__ ("$a7") = n;
  register long a0 __asm__ ("$a0") = a;
  register long a1 __asm__ ("$a1") = b;
  register long a2 __asm__ ("$a2") = c;
  register long a3 __asm__ ("$a3") = d;
  register long a4 __asm__ ("$a4") = e;
  register long a5 __asm__ ("$a5") = f;

  /* The kernel may clobber $t0-$t8.  */
  __asm__ volatile ("syscall 0"
		    : "+r" (a0)
		    : "r" (a7), "r" (a1), "r" (a2), "r" (a3), "r" (a4),
		      "r" (a5)
		    : "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7",
		      "$t8", "memory");
  return a0;
}
#else
#error "freestanding.c: no system calls for this architecture"
#endif

/* The kernel's -errno returns, as the C library gives them: -1 and
   errno.  */
static long
sys (long n, long a, long b, long c, long d)
{
  long ret = sys6 (n, a, b, c, d, 0, 0);

  if (ret < 0 && ret > -4096)
    {
      hf_errno_value = (int) -ret;
      return -1;
    }
  return ret;
}

int
hf_open (const char *path, int flags, ...)
{
  mode_t mode = 0;

  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list ap;

      va_start (ap, flags);
      mode = va_arg (ap, mode_t);
      va_end (ap);
    }
  return (int) sys (SYS_openat, AT_FDCWD, (long) path, flags, mode);
}

ssize_t
hf_read (int fd, void *buf, size_t n)
{
  return sys (SYS_read, fd, (long) buf, (long) n, 0);
}

ssize_t
hf_write (int fd, const void *buf, size_t n)
{
  return sys (SYS_write, fd, (long) buf, (long) n, 0);
}

int
hf_close (int fd)
{
  return (int) sys (SYS_close, fd, 0, 0, 0);
}

int
hf_ioctl (int fd, unsigned long request, ...)
{
  va_list ap;
  long arg;

  va_start (ap, request);
  arg = va_arg (ap, long);
  va_end (ap);
  return (int) sys (SYS_ioctl, fd, (long) request, arg, 0);
}

int
hf_madvise (void *addr, size_t len, int advice)
{
  return (int) sys (SYS_madvise, (long) addr, (long) len, advice, 0);
}

int
hf_mincore (void *addr, size_t len, unsigned char *vec)
{
  return (int) sys (SYS_mincore, (long) addr, (long) len, (long) vec, 0);
}

/* posix_fadvise returns the error, and leaves errno alone.  */
int
hf_posix_fadvise (int fd, off_t offset, off_t len, int advice)
{
  long ret = sys6 (SYS_fadvise64, fd, (long) offset, (long) len, advice, 0,
		   0);

  return ret < 0 ? (int) -ret : 0;
}

int
hf_fstat (int fd, struct stat *buf)
{
  return (int) sys (SYS_fstat, fd, (long) buf, 0, 0);
}

int
hf_fstatfs (int fd, struct statfs *buf)
{
  return (int) sys (SYS_fstatfs, fd, (long) buf, 0, 0);
}

/* Only what the kernel's statfs gives: ST_VALID (linux/statfs.h; no C
   library header has it) says its f_flags are the mount flags
   (ST_RDONLY, ...), as the C library reads them.  */
#define ST_VALID 0x0020
int
hf_fstatvfs (int fd, struct statvfs *buf)
{
  struct statfs fs;

  if (hf_fstatfs (fd, &fs) != 0)
    return -1;
  hf_memset (buf, 0, sizeof *buf);
  buf->f_bsize = (unsigned long) fs.f_bsize;
  buf->f_frsize = (unsigned long) (fs.f_frsize ? fs.f_frsize : fs.f_bsize);
  buf->f_blocks = fs.f_blocks;
  buf->f_bfree = fs.f_bfree;
  buf->f_bavail = fs.f_bavail;
  buf->f_files = fs.f_files;
  buf->f_ffree = fs.f_ffree;
  buf->f_favail = fs.f_ffree;
  buf->f_namemax = (unsigned long) fs.f_namelen;
  if (fs.f_flags & ST_VALID)
    buf->f_flag = (unsigned long) (fs.f_flags & ~ST_VALID);
  return 0;
}

int
hf_uname (struct utsname *buf)
{
  return (int) sys (SYS_uname, (long) buf, 0, 0, 0);
}

/* --- The process's start: environment and auxiliary vector ------------- */

/* Both are read from /proc/self, when first asked for: a program in which
   no object has a code segment that could hold a huge page asks for
   neither, and pays no system call for them.  (ld.so's __libc_stack_end
   would give them for nothing, but a module that needs ld.so's symbols
   has ld.so as a DT_NEEDED, which ld.so then looks up on disk for every
   process: about 20 microseconds.)  */

/* The value of NAME in /proc/self/environ, the environment the process
   started with, into VALUE (SIZE bytes, cut short to fit); false where it
   is not set.  Read in pieces: an environment has no size limit.  */
static bool
read_environ (const char *name, char *value, size_t size)
{
  size_t len = hf_strlen (name), at = 0, kept = 0;
  /* MATCHING: the entry so far is NAME's first AT bytes; COPYING: it is
     "NAME=", and the rest goes into VALUE.  */
  bool matching = true, copying = false, done = false;
  char buf[1024];
  ssize_t n;
  int fd = hf_open ("/proc/self/environ", O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return false;
  while (!done && (n = hf_read (fd, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n && !done; i++)
      {
	char c = buf[i];

	if (copying)
	  {
	    done = c == '\0';
	    if (!done && kept + 1 < size)
	      value[kept++] = c;
	  }
	else if (c == '\0')
	  {
	    matching = true;
	    at = 0;
	  }
	else if (matching && at < len)
	  matching = c == name[at++];
	else if (matching)
	  {
	    copying = c == '=';
	    matching = false;
	  }
      }
  hf_close (fd);
  if (copying)
    value[kept] = '\0';
  return copying;
}

char *
hf_getenv (const char *name)
{
  /* The names the module asks for, each read once.  */
  static struct
  {
    const char *name;
    bool set;
    char value[256];
  } seen[4];

  for (size_t i = 0; i < sizeof seen / sizeof seen[0]; i++)
    {
      if (seen[i].name == NULL)
	{
	  seen[i].name = name;
	  seen[i].set = read_environ (name, seen[i].value,
				      sizeof seen[i].value);
	}
      if (hf_strcmp (seen[i].name, name) == 0)
	return seen[i].set ? seen[i].value : NULL;
    }
  /* More names than that: read again each time.  */
  static char spare[256];
  return read_environ (name, spare, sizeof spare) ? spare : NULL;
}

unsigned long
hf_getauxval (unsigned long type)
{
  static ElfW(auxv_t) aux[128];
  static bool read_once;
  size_t n = sizeof aux / sizeof aux[0];

  if (!read_once)
    {
      int fd = hf_open ("/proc/self/auxv", O_RDONLY | O_CLOEXEC);

      read_once = true;
      if (fd >= 0)
	{
	  if (hf_read (fd, aux, sizeof aux - sizeof aux[0]) <= 0)
	    aux[0].a_type = AT_NULL;
	  hf_close (fd);
	}
    }
  for (size_t i = 0; i < n && aux[i].a_type != AT_NULL; i++)
    if (aux[i].a_type == type)
      return aux[i].a_un.a_val;
  hf_errno_value = ENOENT;
  return 0;
}

long
hf_sysconf (int name)
{
  if (name == _SC_PAGESIZE)
    return (long) hf_getauxval (AT_PAGESZ);
  hf_errno_value = EINVAL;
  return -1;
}

/* --- Strings and memory ------------------------------------------------ */

size_t
hf_strlen (const char *s)
{
  size_t n = 0;

  while (s[n] != '\0')
    n++;
  return n;
}

char *
hf_strchr (const char *s, int c)
{
  for (;; s++)
    {
      if (*s == (char) c)
	return (char *) s;
      if (*s == '\0')
	return NULL;
    }
}

int
hf_strncmp (const char *a, const char *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      unsigned char x = (unsigned char) a[i], y = (unsigned char) b[i];

      if (x != y || x == '\0')
	return x - y;
    }
  return 0;
}

int
hf_strcmp (const char *a, const char *b)
{
  return hf_strncmp (a, b, SIZE_MAX);
}

char *
hf_strstr (const char *haystack, const char *needle)
{
  size_t n = hf_strlen (needle);

  for (; *haystack != '\0' || n == 0; haystack++)
    {
      if (hf_strncmp (haystack, needle, n) == 0)
	return (char *) haystack;
      if (*haystack == '\0')
	break;
    }
  return NULL;
}

int
hf_memcmp (const void *a, const void *b, size_t n)
{
  const unsigned char *x = a, *y = b;

  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i])
      return x[i] - y[i];
  return 0;
}

void *
hf_memset (void *dst, int c, size_t n)
{
  unsigned char *d = dst;

  for (size_t i = 0; i < n; i++)
    d[i] = (unsigned char) c;
  return dst;
}

void *
hf_memmove (void *dst, const void *src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;

  if (d < s)
    for (size_t i = 0; i < n; i++)
      d[i] = s[i];
  else
    for (size_t i = n; i > 0; i--)
      d[i - 1] = s[i - 1];
  return dst;
}

void *
hf_memcpy (void *dst, const void *src, size_t n)
{
  return hf_memmove (dst, src, n);
}

static int
digit_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

/* As the C library's, for BASE 0, 8, 10 and 16.  */
unsigned long long
hf_strtoull (const char *s, char **end, int base)
{
  const char *p = s, *digits;
  unsigned long long v = 0;
  bool negative = false, overflow = false;

  while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
    p++;
  if (*p == '+' || *p == '-')
    negative = *p++ == '-';
  if ((base == 0 || base == 16) && p[0] == '0' && (p[1] | 0x20) == 'x'
      && digit_value (p[2]) < 16)
    {
      p += 2;
      base = 16;
    }
  else if (base == 0)
    base = *p == '0' ? 8 : 10;
  digits = p;
  for (; digit_value (*p) < base; p++)
    {
      unsigned d = (unsigned) digit_value (*p);

      if (v > (ULLONG_MAX - d) / (unsigned) base)
	overflow = true;
      v = v * (unsigned) base + d;
    }
  if (end != NULL)
    *end = (char *) (p == digits ? s : p);
  if (overflow)
    {
      hf_errno_value = ERANGE;
      return ULLONG_MAX;
    }
  return negative ? -v : v;
}

unsigned long
hf_strtoul (const char *s, char **end, int base)
{
  unsigned long long v = hf_strtoull (s, end, base);

  if (v > ULONG_MAX && v < -(unsigned long long) ULONG_MAX)
    {
      hf_errno_value = ERANGE;
      return ULONG_MAX;
    }
  return (unsigned long) v;
}

const char *
hf_strerror_name (int e)
{
  switch (e)
    {
    case EPERM: return "Operation not permitted";
    case ENOENT: return "No such file or directory";
    case EINTR: return "Interrupted system call";
    case EIO: return "Input/output error";
    case EBADF: return "Bad file descriptor";
    case EAGAIN: return "Resource temporarily unavailable";
    case ENOMEM: return "Cannot allocate memory";
    case EACCES: return "Permission denied";
    case EFAULT: return "Bad address";
    case EBUSY: return "Device or resource busy";
    case ENOTDIR: return "Not a directory";
    case EISDIR: return "Is a directory";
    case EINVAL: return "Invalid argument";
    case ENFILE: return "Too many open files in system";
    case EMFILE: return "Too many open files";
    case ESPIPE: return "Illegal seek";
    case ENAMETOOLONG: return "File name too long";
    case ENOSYS: return "Function not implemented";
    case ELOOP: return "Too many levels of symbolic links";
    case EOVERFLOW: return "Value too large for defined data type";
    case EOPNOTSUPP: return "Operation not supported";
    case EHWPOISON: return "Memory page has hardware error";
    default: return NULL;
    }
}

char *
hf_strerror (int e)
{
  static char unknown[32];
  const char *name = hf_strerror_name (e);

  if (name != NULL)
    return (char *) name;
  hf_snprintf (unknown, sizeof unknown, "Unknown error %d", e);
  return unknown;
}

/* --- Formatting -------------------------------------------------------- */

struct out
{
  char *buf;
  size_t size, len;		/* LEN: what the whole output needs.  */
};

static void
put (struct out *o, char c)
{
  if (o->len + 1 < o->size)
    o->buf[o->len] = c;
  o->len++;
}

static void
put_string (struct out *o, const char *s)
{
  if (s == NULL)
    s = "(null)";
  while (*s != '\0')
    put (o, *s++);
}

static void
put_number (struct out *o, unsigned long long v, unsigned base,
	    bool negative, bool alternate)
{
  char digits[24];
  size_t n = 0;

  if (negative)
    put (o, '-');
  if (alternate && v != 0)
    put_string (o, "0x");
  do
    {
      digits[n++] = "0123456789abcdef"[v % base];
      v /= base;
    }
  while (v != 0);
  while (n > 0)
    put (o, digits[--n]);
}

int
hf_vsnprintf (char *buf, size_t size, const char *fmt, va_list ap)
{
  struct out o = { buf, size, 0 };

  for (const char *p = fmt; *p != '\0'; p++)
    {
      bool alternate = false;
      int longs = 0;
      unsigned long long u;
      long long d;

      if (*p != '%')
	{
	  put (&o, *p);
	  continue;
	}
      p++;
      if (*p == '#')
	{
	  alternate = true;
	  p++;
	}
      for (; *p == 'l'; p++)
	longs++;
      if (*p == 'z')
	{
	  longs = 3;
	  p++;
	}
      switch (*p)
	{
	case '%':
	  put (&o, '%');
	  break;
	case 's':
	  put_string (&o, va_arg (ap, const char *));
	  break;
	case 'd':
	  d = longs == 0 ? va_arg (ap, int)
	    : longs == 1 ? va_arg (ap, long)
	    : longs == 2 ? va_arg (ap, long long)
	    : (long long) va_arg (ap, ssize_t);
	  put_number (&o, d < 0 ? -(unsigned long long) d
			       : (unsigned long long) d, 10, d < 0, false);
	  break;
	case 'u':
	case 'x':
	  u = longs == 0 ? va_arg (ap, unsigned)
	    : longs == 1 ? va_arg (ap, unsigned long)
	    : longs == 2 ? va_arg (ap, unsigned long long)
	    : va_arg (ap, size_t);
	  put_number (&o, u, *p == 'x' ? 16 : 10, false,
		      alternate && *p == 'x');
	  break;
	default:
	  /* Not one this module writes: show it as it is.  */
	  put (&o, '%');
	  if (*p == '\0')
	    p--;
	  else
	    put (&o, *p);
	  break;
	}
    }
  if (size > 0)
    buf[o.len < size ? o.len : size - 1] = '\0';
  return o.len > INT_MAX ? -1 : (int) o.len;
}

int
hf_snprintf (char *buf, size_t size, const char *fmt, ...)
{
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = hf_vsnprintf (buf, size, fmt, ap);
  va_end (ap);
  return n;
}

/* --- The C library's names, in the module ------------------------------ */

#ifndef HT_FREESTANDING_TEST
#define AS(name) __typeof__ (hf_##name) name __attribute__ ((alias ("hf_" #name)))
AS (open);
AS (read);
AS (write);
AS (close);
AS (ioctl);
AS (madvise);
AS (mincore);
AS (posix_fadvise);
AS (fstat);
AS (fstatfs);
AS (fstatvfs);
AS (uname);
AS (getenv);
AS (getauxval);
AS (sysconf);
AS (strlen);
AS (strchr);
AS (strcmp);
AS (strncmp);
AS (strstr);
AS (memcmp);
AS (memset);
AS (memmove);
AS (memcpy);
AS (strtoull);
AS (strtoul);
AS (strerror);
AS (vsnprintf);
AS (snprintf);
int *__errno_location (void) __attribute__ ((alias ("hf_errno_location")));
/* glibc 2.38's headers and later name them so with _GNU_SOURCE (the
   C2X strtol family, which also reads "0b").  */
__typeof__ (hf_strtoull) __isoc23_strtoull
  __attribute__ ((alias ("hf_strtoull")));
__typeof__ (hf_strtoul) __isoc23_strtoul __attribute__ ((alias ("hf_strtoul")));
#endif
