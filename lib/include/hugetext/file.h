/* Reading a file for inspection: map it whole, read-only, and ask the
   file system where its holes are.  */

#ifndef HUGETEXT_FILE_H
#define HUGETEXT_FILE_H

#include "hugetext/elf.h"

#include <stdbool.h>
#include <stdint.h>

struct ht_file
{
  int fd;			/* -1 after a failure.  */
  const void *data;		/* NULL for an empty file.  */
  size_t size;
  unsigned mode;		/* st_mode.  */
  bool owns_fd;			/* ht_file_open opened FD.  */
  int error;			/* After a failure: the errno value, or 0
				   for a file that is not a regular file.  */
  unsigned char *cached;	/* ht_file_quiet: the pages cached then.  */
  uint64_t keep_offset, keep_size; /* ht_file_keep's range.  */
};

/* Open and map PATH, a regular file: anything else (a FIFO, a device, a
   directory) is refused without being opened.  Returns 0, or -1 with
   the reason in ERR (the reason does not repeat the path); F can be given
   to ht_file_close either way.  */
int ht_file_open (struct ht_file *f, const char *path, char err[HT_ERRLEN]);

struct stat;

/* The kind of file ST is, in words ("a directory", "a FIFO"...), for a
   refusal of anything that is not a regular file.  */
const char *ht_file_kind (const struct stat *st);

/* Read F without adding to the page cache: note which of its pages are
   cached now, and keep readahead from reading around the pages read
   (MADV_RANDOM on F's map).  ht_file_close then drops the pages of F
   that are cached then and were not now, outside the range that
   ht_file_keep names; pages another process maps stay.  Returns 0, or
   -1 where the page cache cannot be read (mincore) and nothing will be
   dropped.  */
int ht_file_quiet (struct ht_file *f);

/* The range of F, SIZE bytes at OFFSET, that ht_file_close keeps in
   the page cache after ht_file_quiet: what the caller read on purpose.  */
void ht_file_keep (struct ht_file *f, uint64_t offset, uint64_t size);

/* The bytes of MAP, LEN bytes of a file's mapping, that are in the page
   cache now (mincore); 0 where it cannot tell.  */
uint64_t ht_cached_bytes (const void *map, uint64_t len);

/* Unmap F's contents, keeping F->fd open.  */
void ht_file_unmap (struct ht_file *f);

/* Unmap F, drop what it added to the page cache after ht_file_quiet,
   and close it if ht_file_open opened it.  */
void ht_file_close (struct ht_file *f);

/* The first extent of data in [*FROM, END) of FD, as SEEK_DATA and
   SEEK_HOLE report it (they move FD's file offset): returns 1 with it in [*FROM, *TO), 0 when the
   rest of the range is a hole, -1 with errno set when the file system
   cannot tell.  */
int ht_file_next_data (int fd, uint64_t *from, uint64_t *to, uint64_t end);

/* How many bytes of [START, END) of FD are holes, as SEEK_HOLE reports
   them.  0 where the file system cannot tell.  */
uint64_t ht_file_hole_bytes (int fd, uint64_t start, uint64_t end);

/* All of the file at PATH (a /proc file too: read to the end, whatever
   its size says), malloc'd and NUL-terminated, its length in *LEN; NULL
   with errno set on failure.  */
char *ht_read_file (const char *path, size_t *len);

#endif
