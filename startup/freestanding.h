/* The audit module's own C library (freestanding.c): each function as
   hf_NAME, which the module also calls NAME.  */
#ifndef HUGETEXT_STARTUP_FREESTANDING_H
#define HUGETEXT_STARTUP_FREESTANDING_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

struct stat;
struct statfs;
struct statvfs;
struct utsname;

int *hf_errno_location (void);

int hf_open (const char *path, int flags, ...);
ssize_t hf_read (int fd, void *buf, size_t n);
ssize_t hf_write (int fd, const void *buf, size_t n);
int hf_close (int fd);
int hf_ioctl (int fd, unsigned long request, ...);
int hf_madvise (void *addr, size_t len, int advice);
int hf_mincore (void *addr, size_t len, unsigned char *vec);
int hf_posix_fadvise (int fd, off_t offset, off_t len, int advice);
int hf_fstat (int fd, struct stat *buf);
int hf_fstatfs (int fd, struct statfs *buf);
int hf_fstatvfs (int fd, struct statvfs *buf);
int hf_uname (struct utsname *buf);

char *hf_getenv (const char *name);
unsigned long hf_getauxval (unsigned long type);
long hf_sysconf (int name);

size_t hf_strlen (const char *s);
char *hf_strchr (const char *s, int c);
int hf_strcmp (const char *a, const char *b);
int hf_strncmp (const char *a, const char *b, size_t n);
char *hf_strstr (const char *haystack, const char *needle);
int hf_memcmp (const void *a, const void *b, size_t n);
void *hf_memset (void *dst, int c, size_t n);
void *hf_memmove (void *dst, const void *src, size_t n);
void *hf_memcpy (void *dst, const void *src, size_t n);
unsigned long long hf_strtoull (const char *s, char **end, int base);
unsigned long hf_strtoul (const char *s, char **end, int base);
/* The text of error E, NULL for one it does not know.  */
const char *hf_strerror_name (int e);
char *hf_strerror (int e);

int hf_vsnprintf (char *buf, size_t size, const char *fmt, va_list ap)
  __attribute__ ((format (printf, 3, 0)));
int hf_snprintf (char *buf, size_t size, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

#endif
