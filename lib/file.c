/* Reading a file for inspection: see hugetext/file.h.  */

#define _GNU_SOURCE		/* SEEK_DATA, SEEK_HOLE.  */
#include "hugetext/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Check that FD is a regular file and map it whole into F.  */
static int
map_regular (struct ht_file *f, int fd, char err[HT_ERRLEN])
{
  struct stat st;

  f->data = NULL;
  f->size = 0;
  f->error = 0;
  if (fstat (fd, &st) != 0)
    {
      f->error = errno;
      snprintf (err, HT_ERRLEN, "cannot stat: %s", strerror (errno));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      snprintf (err, HT_ERRLEN, "not a regular file (%s)",
		S_ISDIR (st.st_mode) ? "a directory"
		: S_ISFIFO (st.st_mode) ? "a FIFO"
		: S_ISSOCK (st.st_mode) ? "a socket"
		: S_ISCHR (st.st_mode) ? "a character device"
		: S_ISBLK (st.st_mode) ? "a block device" : "a special file");
      return -1;
    }
  f->size = (size_t) st.st_size;
  if (f->size == 0)
    return 0;
  void *p = mmap (NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED)
    {
      f->error = errno;
      snprintf (err, HT_ERRLEN, "cannot map: %s", strerror (errno));
      f->size = 0;
      return -1;
    }
  f->data = p;
  return 0;
}

int
ht_file_open (struct ht_file *f, const char *path, char err[HT_ERRLEN])
{
  /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     writer.  Reads of a regular file do not care.  */
  f->fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (f->fd < 0)
    {
      f->data = NULL;
      f->size = 0;
      f->error = errno;
      snprintf (err, HT_ERRLEN, "cannot open: %s", strerror (errno));
      return -1;
    }
  f->owns_fd = true;
  if (map_regular (f, f->fd, err) != 0)
    {
      close (f->fd);
      f->fd = -1;
      return -1;
    }
  return 0;
}

int
ht_file_map_fd (struct ht_file *f, int fd, char err[HT_ERRLEN])
{
  f->fd = fd;
  f->owns_fd = false;
  return map_regular (f, fd, err);
}

void
ht_file_unmap (struct ht_file *f)
{
  if (f->data != NULL)
    munmap ((void *) f->data, f->size);
  f->data = NULL;
}

void
ht_file_close (struct ht_file *f)
{
  ht_file_unmap (f);
  if (f->fd >= 0 && f->owns_fd)
    close (f->fd);
  f->data = NULL;
  f->fd = -1;
}

int
ht_file_next_data (int fd, uint64_t *from, uint64_t *to, uint64_t end)
{
  if (*from >= end)
    return 0;
  off_t data = lseek (fd, (off_t) *from, SEEK_DATA);
  if (data < 0)
    return errno == ENXIO ? 0 : -1;	/* ENXIO: no data up to EOF.  */
  if ((uint64_t) data >= end)
    return 0;
  off_t hole = lseek (fd, data, SEEK_HOLE);
  if (hole < 0)
    return -1;
  *from = (uint64_t) data;
  *to = (uint64_t) hole < end ? (uint64_t) hole : end;
  return 1;
}

uint64_t
ht_file_hole_bytes (int fd, uint64_t start, uint64_t end)
{
  uint64_t data = 0, from = start, to;
  int r;

  if (end <= start)
    return 0;
  while ((r = ht_file_next_data (fd, &from, &to, end)) == 1)
    {
      data += to - from;
      from = to;
    }
  /* Where the file system cannot say, count nothing.  */
  return r < 0 ? 0 : end - start - data;
}
