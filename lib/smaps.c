/* Reading /proc/PID/smaps: see hugetext/smaps.h.  */

#define _GNU_SOURCE
#include "hugetext/smaps.h"

#include "hugetext/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cursor
{
  const char *p, *end;
};

static bool
hexdigit (char c, unsigned *v)
{
  if (c >= '0' && c <= '9')
    *v = (unsigned) (c - '0');
  else if (c >= 'a' && c <= 'f')
    *v = (unsigned) (c - 'a' + 10);
  else if (c >= 'A' && c <= 'F')
    *v = (unsigned) (c - 'A' + 10);
  else
    return false;
  return true;
}

/* A number in BASE (10 or 16) at *P, below END; at least one digit.  */
static bool
number (const char **p, const char *end, unsigned base, uint64_t *out)
{
  uint64_t v = 0;
  unsigned d;
  const char *s = *p;

  while (s < end && hexdigit (*s, &d) && d < base)
    {
      if (v > (UINT64_MAX - d) / base)
	return false;
      v = v * base + d;
      s++;
    }
  if (s == *p)
    return false;
  *p = s;
  *out = v;
  return true;
}

static bool
expect (const char **p, const char *end, char c)
{
  if (*p >= end || **p != c)
    return false;
  (*p)++;
  return true;
}

static void
skip_spaces (const char **p, const char *end)
{
  while (*p < end && (**p == ' ' || **p == '\t'))
    (*p)++;
}

/* "start-end perms offset major:minor inode [path]".  */
static bool
parse_header (const char *p, const char *end, struct ht_mapping *m)
{
  uint64_t major, minor;

  memset (m, 0, sizeof *m);
  if (!number (&p, end, 16, &m->start) || !expect (&p, end, '-')
      || !number (&p, end, 16, &m->end) || m->end < m->start
      || !expect (&p, end, ' ') || end - p < 5)
    return false;
  memcpy (m->perms, p, 4);
  p += 4;
  if (!expect (&p, end, ' ') || !number (&p, end, 16, &m->offset)
      || !expect (&p, end, ' ') || !number (&p, end, 16, &major)
      || !expect (&p, end, ':') || !number (&p, end, 16, &minor)
      || !expect (&p, end, ' ') || !number (&p, end, 10, &m->inode)
      || major > 0xfff || minor > 0xfffff)
    return false;
  m->dev_major = (unsigned) major;
  m->dev_minor = (unsigned) minor;
  skip_spaces (&p, end);
  m->path = p;
  m->path_len = (size_t) (end - p);
  return true;
}

/* Whether the line P..END is "NAME: <n> kB"; stores the bytes.  */
static bool
kb_field (const char *p, const char *end, const char *name, uint64_t *out)
{
  size_t len = strlen (name);
  uint64_t kb;

  if ((size_t) (end - p) <= len || memcmp (p, name, len) != 0
      || p[len] != ':')
    return false;
  p += len + 1;
  skip_spaces (&p, end);
  if (!number (&p, end, 10, &kb) || kb > UINT64_MAX / 1024)
    return false;
  *out = kb * 1024;
  return true;
}

static void
vm_flags (const char *p, const char *end, struct ht_mapping *m)
{
  for (p += 8; p + 1 < end; p++)
    if ((p[-1] == ' ' || p[-1] == ':') && (p + 2 == end || p[2] == ' '))
      {
	if (p[0] == 'h' && p[1] == 'g')
	  m->vm_hugepage = true;
	else if (p[0] == 'n' && p[1] == 'h')
	  m->vm_nohugepage = true;
      }
}

int
ht_smaps_parse (const char *buf, size_t len, ht_mapping_fn fn, void *ctx,
		char err[HT_ERRLEN])
{
  const char *p = buf, *end = buf + len;
  struct ht_mapping m;
  bool have = false;
  unsigned long line = 0;
  int status;

  while (p < end)
    {
      const char *eol = memchr (p, '\n', (size_t) (end - p));
      const char *colon, *space;
      unsigned d;

      if (eol == NULL)
	eol = end;
      line++;
      colon = memchr (p, ':', (size_t) (eol - p));
      space = memchr (p, ' ', (size_t) (eol - p));
      /* A header starts "start-end ", a field "Name:".  */
      if (p < eol && hexdigit (*p, &d) && space != NULL
	  && memchr (p, '-', (size_t) (space - p)) != NULL
	  && (colon == NULL || space < colon))
	{
	  if (have && (status = fn (ctx, &m)) != 0)
	    return status;
	  if (!parse_header (p, eol, &m))
	    {
	      snprintf (err, HT_ERRLEN, "line %lu: not a mapping header", line);
	      return -1;
	    }
	  have = true;
	}
      else if (p < eol)
	{
	  if (!have || colon == NULL)
	    {
	      snprintf (err, HT_ERRLEN, "line %lu: a field outside a mapping",
			line);
	      return -1;
	    }
	  if (!kb_field (p, eol, "Rss", &m.rss)
	      && !kb_field (p, eol, "FilePmdMapped", &m.file_pmd_mapped)
	      && !kb_field (p, eol, "ShmemPmdMapped", &m.shmem_pmd_mapped)
	      && !kb_field (p, eol, "AnonHugePages", &m.anon_huge)
	      && eol - p >= 8 && memcmp (p, "VmFlags:", 8) == 0)
	    vm_flags (p, eol, &m);
	}
      p = eol < end ? eol + 1 : end;
    }
  if (have && (status = fn (ctx, &m)) != 0)
    return status;
  return 0;
}

struct counting
{
  ht_mapping_fn fn;
  void *ctx;
  size_t n;
};

static int
count_mapping (void *ctx, const struct ht_mapping *m)
{
  struct counting *c = ctx;

  c->n++;
  return c->fn (c->ctx, m);
}

int
ht_smaps_read (long pid, ht_mapping_fn fn, void *ctx, size_t *nmaps,
	       char err[HT_ERRLEN])
{
  struct counting c = { fn, ctx, 0 };
  char path[64];
  size_t len;
  char *buf;
  int status;

  if (pid == 0)
    snprintf (path, sizeof path, "/proc/self/smaps");
  else
    snprintf (path, sizeof path, "/proc/%ld/smaps", pid);
  err[0] = '\0';
  buf = ht_read_file (path, &len);
  if (buf == NULL)
    {
      snprintf (err, HT_ERRLEN, "%s: %s", path, strerror (errno));
      return HT_SMAPS_READ_ERROR;
    }
  status = ht_smaps_parse (buf, len, count_mapping, &c, err);
  free (buf);
  if (nmaps != NULL)
    *nmaps = c.n;
  return status;
}
