/* Reading a file for inspection: map it whole, read-only, and ask the
   file system where its holes are.  */

#ifndef HUGETEXT_FILE_H
#define HUGETEXT_FILE_H

#include "hugetext/elf.h"

#include <stdint.h>

struct ht_file
{
  int fd;
  const void *data;		/* NULL for an empty file.  */
  size_t size;
};

/* Open and map PATH.  Returns 0, or -1 with the reason in ERR (the
   reason does not repeat the path).  */
int ht_file_open (struct ht_file *f, const char *path, char err[HT_ERRLEN]);
void ht_file_close (struct ht_file *f);

/* How many bytes of [START, END) of FD are holes, as SEEK_HOLE reports
   them.  0 where the file system cannot tell.  */
uint64_t ht_file_hole_bytes (int fd, uint64_t start, uint64_t end);

#endif
