/* Preloaded into a link by in-place.exp: the plugin's mkstemp of its
   padded file (NAME.hugetext-XXXXXX) fails with EACCES, so that it pads
   the output in place; and where SHIM_FALLOCATE names EINVAL, EIO or
   EOPNOTSUPP, every FALLOC_FL_INSERT_RANGE fails with it.  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

int
mkstemp (char *template)
{
  int (*real) (char *);

  if (strstr (template, ".hugetext-") != NULL)
    {
      errno = EACCES;
      return -1;
    }
  real = (int (*) (char *)) dlsym (RTLD_NEXT, "mkstemp");
  return real (template);
}

int
fallocate (int fd, int mode, off_t offset, off_t len)
{
  const char *e = getenv ("SHIM_FALLOCATE");
  int (*real) (int, int, off_t, off_t);

  if (e != NULL && mode == FALLOC_FL_INSERT_RANGE)
    {
      errno = strcmp (e, "EINVAL") == 0 ? EINVAL
	      : strcmp (e, "EIO") == 0 ? EIO : EOPNOTSUPP;
      return -1;
    }
  real = (int (*) (int, int, off_t, off_t)) dlsym (RTLD_NEXT, "fallocate");
  return real (fd, mode, offset, len);
}
