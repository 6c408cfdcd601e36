/* libFuzzer target: the /proc/PID/smaps parser, on arbitrary bytes.  */

#include "hugetext/smaps.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static int
visit (void *ctx, const struct ht_mapping *m)
{
  uint64_t *sum = ctx;

  /* Read every field, the path to its end, so that a bad pointer or
     length shows.  */
  *sum += m->start + m->end + m->offset + m->inode + m->rss
	  + m->file_pmd_mapped + m->shmem_pmd_mapped + m->anon_huge
	  + m->vm_hugepage + m->vm_nohugepage + (unsigned char) m->perms[0];
  for (size_t i = 0; i < m->path_len; i++)
    *sum += (unsigned char) m->path[i];
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char err[HT_ERRLEN];
  uint64_t sum = 0;

  if (ht_smaps_parse ((const char *) data, size, visit, &sum, err) != 0)
    (void) strlen (err);
  return 0;
}
