/* Run a fuzz target once on each file of a corpus, without libFuzzer, so
   that the corpus is a regression test under any compiler's sanitizers.
   Each input sits in a buffer of exactly its size, so that an overread
   is caught.  */

#define _POSIX_C_SOURCE 200809L	/* DIR, stat.  */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static int
replay_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    {
      fprintf (stderr, "replay: %s: %s\n", path, strerror (errno));
      return -1;
    }
  fseek (f, 0, SEEK_END);
  long len = ftell (f);
  rewind (f);
  uint8_t *buf = malloc (len > 0 ? (size_t) len : 1);
  if (buf == NULL || len < 0 || fread (buf, 1, (size_t) len, f) != (size_t) len)
    {
      fprintf (stderr, "replay: %s: cannot read\n", path);
      free (buf);
      fclose (f);
      return -1;
    }
  fclose (f);
  LLVMFuzzerTestOneInput (buf, (size_t) len);
  free (buf);
  return 0;
}

static int
replay_path (const char *path, unsigned *count)
{
  struct stat st;

  if (stat (path, &st) != 0)
    {
      fprintf (stderr, "replay: %s: %s\n", path, strerror (errno));
      return -1;
    }
  if (!S_ISDIR (st.st_mode))
    {
      ++*count;
      return replay_file (path);
    }

  DIR *d = opendir (path);
  if (d == NULL)
    {
      fprintf (stderr, "replay: %s: %s\n", path, strerror (errno));
      return -1;
    }
  int rc = 0;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      if (e->d_name[0] == '.')
	continue;
      char sub[4096];
      snprintf (sub, sizeof sub, "%s/%s", path, e->d_name);
      if (replay_path (sub, count) != 0)
	rc = -1;
    }
  closedir (d);
  return rc;
}

int
main (int argc, char **argv)
{
  unsigned count = 0;
  int rc = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE|DIR...\n", argv[0]);
      return 2;
    }
  for (int i = 1; i < argc; i++)
    if (replay_path (argv[i], &count) != 0)
      rc = 1;
  if (count == 0)
    {
      fprintf (stderr, "replay: no inputs found\n");
      return 1;
    }
  printf ("replayed %u inputs\n", count);
  return rc;
}
