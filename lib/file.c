/* Reading a file for inspection: see hugetext/file.h.  */

#define _GNU_SOURCE		/* SEEK_DATA, SEEK_HOLE.  */
#include "hugetext/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const char *
ht_file_kind (const struct stat *st)
{
  return S_ISDIR (st->st_mode) ? "a directory"
	 : S_ISFIFO (st->st_mode) ? "a FIFO"
	 : S_ISSOCK (st->st_mode) ? "a socket"
	 : S_ISCHR (st->st_mode) ? "a character device"
	 : S_ISBLK (st->st_mode) ? "a block device" : "a special file";
}

/* Record in F and ERR why a step failed: WHAT, and errno's reason.  */
static int
failed (struct ht_file *f, const char *what, char err[HT_ERRLEN])
{
  f->error = errno;
  snprintf (err, HT_ERRLEN, "%s: %s", what, strerror (errno));
  return -1;
}

/* Whether ST, which a stat of F's file returned (RC its status), is a
   regular file that fits in memory; else the reason in F and ERR.  */
static bool
regular (struct ht_file *f, int rc, const struct stat *st,
	 char err[HT_ERRLEN])
{
  if (rc != 0)
    {
      failed (f, "cannot open", err);
      return false;
    }
  if (!S_ISREG (st->st_mode))
    {
      snprintf (err, HT_ERRLEN, "not a regular file (%s)", ht_file_kind (st));
      return false;
    }
  if ((uint64_t) st->st_size > SIZE_MAX)
    {
      errno = EFBIG;
      failed (f, "cannot map", err);
      return false;
    }
  return true;
}

int
ht_file_open (struct ht_file *f, const char *path, char err[HT_ERRLEN])
{
  struct stat st;

  *f = (struct ht_file) { .fd = -1 };
  /* Refuse anything but a regular file before opening it: opening a FIFO
     would wait for a writer, or release one that then dies when we
     close; opening a device can act on it.  */
  if (!regular (f, stat (path, &st), &st, err))
    return -1;
  /* O_NONBLOCK in case the path was replaced since: the open file is
     checked again.  */
  f->fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (f->fd < 0)
    return failed (f, "cannot open", err);
  f->owns_fd = true;
  if (!regular (f, fstat (f->fd, &st), &st, err))
    goto fail;
  /* A regular file: later users of the descriptor want blocking I/O.  */
  fcntl (f->fd, F_SETFL, fcntl (f->fd, F_GETFL) & ~O_NONBLOCK);
  f->mode = st.st_mode;
  f->size = (size_t) st.st_size;
  if (f->size == 0)
    return 0;
  void *p = mmap (NULL, f->size, PROT_READ, MAP_PRIVATE, f->fd, 0);
  if (p == MAP_FAILED)
    {
      failed (f, "cannot map", err);
      f->size = 0;
      goto fail;
    }
  f->data = p;
  return 0;

fail:
  close (f->fd);
  f->fd = -1;
  return -1;
}

void
ht_file_unmap (struct ht_file *f)
{
  if (f->data != NULL)
    munmap ((void *) f->data, f->size);
  f->data = NULL;
}

/* Which pages of MAP, LEN bytes of a file, are cached now: a byte a
   page, bit 0 set where it is (mincore).  NULL where it cannot tell.  */
static unsigned char *
cached_pages (const void *map, uint64_t len)
{
  long page = sysconf (_SC_PAGESIZE);
  size_t pages = (size_t) ((len + (uint64_t) page - 1) / (uint64_t) page);
  unsigned char *vec = malloc (pages ? pages : 1);

  if (vec != NULL && mincore ((void *) map, (size_t) len, vec) != 0)
    {
      free (vec);
      vec = NULL;
    }
  return vec;
}

uint64_t
ht_cached_bytes (const void *map, uint64_t len)
{
  long page = sysconf (_SC_PAGESIZE);
  size_t pages = (size_t) ((len + (uint64_t) page - 1) / (uint64_t) page);
  unsigned char *vec = cached_pages (map, len);
  uint64_t n = 0;

  if (vec == NULL)
    return 0;
  for (size_t i = 0; i < pages; i++)
    n += vec[i] & 1;
  free (vec);
  return n * (uint64_t) page;
}

int
ht_file_quiet (struct ht_file *f)
{
  if (f->data == NULL)
    return 0;
  madvise ((void *) f->data, f->size, MADV_RANDOM);
  free (f->cached);
  f->cached = cached_pages (f->data, f->size);
  return f->cached != NULL ? 0 : -1;
}

void
ht_file_keep (struct ht_file *f, uint64_t offset, uint64_t size)
{
  f->keep_offset = offset;
  f->keep_size = size;
}

/* Drop the pages of F cached now that were not at ht_file_quiet, outside
   its kept range.  Returns the bytes of them there were.  */
static uint64_t
drop_added (const struct ht_file *f)
{
  long page = sysconf (_SC_PAGESIZE);
  size_t pages = (size_t) ((f->size + (uint64_t) page - 1) / (uint64_t) page);
  size_t first = (size_t) (f->keep_offset / (uint64_t) page);
  size_t last = first + (size_t) (f->keep_size / (uint64_t) page);
  uint64_t added = 0;
  unsigned char *now;
  void *map;

  map = mmap (NULL, f->size, PROT_READ, MAP_SHARED, f->fd, 0);
  if (map == MAP_FAILED)
    return 0;
  now = cached_pages (map, f->size);
  munmap (map, f->size);
  if (now == NULL)
    return 0;
  for (size_t i = 0; i < pages;)
    {
      size_t j = i;

      while (j < pages && (j < first || j >= last) && (now[j] & 1)
	     && !(f->cached[j] & 1))
	j++;
      if (j > i)
	{
	  added += (uint64_t) (j - i) * (uint64_t) page;
	  posix_fadvise (f->fd, (off_t) (i * (size_t) page),
			 (off_t) ((j - i) * (size_t) page),
			 POSIX_FADV_DONTNEED);
	}
      i = j > i ? j : i + 1;
    }
  free (now);
  return added;
}

/* POSIX_FADV_DONTNEED drops only whole folios inside the range it is
   given, none that a process maps and none still locked for a read in
   flight (the readahead of the last fault): those are tried again, a
   few times, once their reads have ended.  */
#define DROP_TRIES 8

void
ht_file_close (struct ht_file *f)
{
  ht_file_unmap (f);
  /* Pages that another process maps stay whatever the tries: once two
     tries in a row leave as many, the rest is given up.  */
  if (f->cached != NULL && f->fd >= 0)
    for (uint64_t left, before = 0, i = 1;
	 i <= DROP_TRIES && (left = drop_added (f)) != 0
	 && !(i >= 3 && left == before); i++, before = left)
      usleep (5000 * (useconds_t) i);
  free (f->cached);
  f->cached = NULL;
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

char *
ht_read_file (const char *path, size_t *len)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  size_t cap = 1 << 16, n = 0;
  char *buf;
  ssize_t r = 0;

  *len = 0;
  if (fd < 0)
    return NULL;
  buf = malloc (cap);
  while (buf != NULL && (r = read (fd, buf + n, cap - n - 1)) > 0)
    if ((n += (size_t) r) == cap - 1)
      {
	char *grown = realloc (buf, cap *= 2);

	if (grown == NULL)
	  free (buf);
	buf = grown;
      }
  if (buf != NULL && r < 0)
    {
      int e = errno;

      free (buf);
      buf = NULL;
      errno = e;
    }
  close (fd);
  if (buf == NULL)
    return NULL;
  buf[n] = '\0';
  *len = n;
  return buf;
}
