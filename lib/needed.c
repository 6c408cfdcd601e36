/* The DT_NEEDED closure of a program, searched for as glibc's ld.so
   searches (hugetext/needed.h).  */

#define _GNU_SOURCE
#include "hugetext/needed.h"

#include "hugetext/file.h"
#include "hugetext/machine.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Say in ERR what went wrong; a long path is cut, not overrun.  */
static void __attribute__ ((format (printf, 2, 3)))
say (char *err, const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (err, HT_ERRLEN, fmt, ap);
  va_end (ap);
}

/* The dynamic section.  */

/* The file offset of the LEN bytes at address ADDR, inside one PT_LOAD's
   file contents; -1 if they are not all there.  */
static int64_t
vaddr_to_offset (const struct ht_elf *elf, uint64_t addr, uint64_t len)
{
  for (size_t i = 0; i < elf->phnum; i++)
    {
      const struct ht_phdr *ph = &elf->phdrs[i];

      if (ph->type != PT_LOAD || addr < ph->vaddr
	  || addr - ph->vaddr > ph->filesz
	  || len > ph->filesz - (addr - ph->vaddr))
	continue;
      if (ph->offset > elf->size
	  || addr - ph->vaddr + len > elf->size - ph->offset)
	return -1;
      return (int64_t) (ph->offset + (addr - ph->vaddr));
    }
  return -1;
}

/* One past the last NUL of the SIZE bytes at STR (0: none): a string at
   an offset below it ends inside them.  Found once per table, so that
   many strings of one table cost no rescan each.  */
static uint64_t
strings_end (const char *str, uint64_t size)
{
  const char *nul = size ? memrchr (str, '\0', (size_t) size) : NULL;

  return nul ? (uint64_t) (nul - str) + 1 : 0;
}

/* The string at offset OFF of the table STR whose strings end before
   END, or NULL when it does not end inside it.  */
static const char *
table_string (const char *str, uint64_t end, uint64_t off)
{
  return off < end ? str + off : NULL;
}

/* The entries of a dynamic section that name strings, as offsets into
   its DT_STRTAB, and what else of it ht_dynamic_read needs.  */
struct dyn_tags
{
  uint64_t *needed;		/* DT_NEEDED's offsets, NNEEDED of them.  */
  size_t nneeded;
  uint64_t strtab, strsz, soname, rpath, runpath;
  bool has_strtab, has_strsz, has_soname, has_rpath, has_runpath;
};

/* Read the entries of ELF's dynamic section DYN up to DT_NULL into T,
   and DT_FLAGS_1's DF_1_NODEFLIB into D.  Returns 0, or -1 after saying
   why in ERR.  */
static int
read_tags (const struct ht_elf *elf, const struct ht_phdr *dyn,
	   struct ht_dynamic *d, struct dyn_tags *t, char err[HT_ERRLEN])
{
  struct ht_field tag_f = HT_FIELD (elf, Dyn, d_tag);
  struct ht_field val_f = HT_FIELD (elf, Dyn, d_un);
  size_t entsize = elf->elf_class == 64 ? sizeof (Elf64_Dyn)
				       : sizeof (Elf32_Dyn);
  size_t count;

  if (dyn->offset > elf->size || dyn->filesz > elf->size - dyn->offset)
    {
      say (err, "PT_DYNAMIC (offset %#llx, %#llx bytes) "
		"lies outside the file", (unsigned long long) dyn->offset,
		(unsigned long long) dyn->filesz);
      return -1;
    }
  count = (size_t) (dyn->filesz / entsize);
  t->needed = malloc ((count ? count : 1) * sizeof *t->needed);
  if (t->needed == NULL)
    {
      say (err, "%s", strerror (errno));
      return -1;
    }
  for (size_t i = 0; i < count; i++)
    {
      const unsigned char *e = elf->data + dyn->offset + i * entsize;
      uint64_t tag = ht_elf_get (elf, e, tag_f);
      uint64_t val = ht_elf_get (elf, e, val_f);

      if (tag == DT_NULL)
	break;
      switch (tag)
	{
	case DT_NEEDED: t->needed[t->nneeded++] = val; break;
	case DT_STRTAB: t->strtab = val; t->has_strtab = true; break;
	case DT_STRSZ: t->strsz = val; t->has_strsz = true; break;
	case DT_SONAME: t->soname = val; t->has_soname = true; break;
	case DT_RPATH: t->rpath = val; t->has_rpath = true; break;
	case DT_RUNPATH: t->runpath = val; t->has_runpath = true; break;
	case DT_FLAGS_1: d->nodeflib = (val & DF_1_NODEFLIB) != 0; break;
	default: break;
	}
    }
  return 0;
}

/* The strings that T names, from ELF's DT_STRTAB, into D.  Returns 0,
   or -1 after saying why in ERR (where a string does not end inside
   DT_STRTAB, D is freed too).  */
static int
read_strings (const struct ht_elf *elf, const struct dyn_tags *t,
	      struct ht_dynamic *d, char err[HT_ERRLEN])
{
  int64_t stroff = vaddr_to_offset (elf, t->strtab, t->strsz);
  const char *str;
  uint64_t end;

  if (stroff < 0)
    {
      say (err, "DT_STRTAB (%#llx, %#llx bytes) is not in "
		"the file contents of a PT_LOAD",
		(unsigned long long) t->strtab, (unsigned long long) t->strsz);
      return -1;
    }
  str = (const char *) elf->data + stroff;
  end = strings_end (str, t->strsz);
  d->needed = malloc ((t->nneeded ? t->nneeded : 1) * sizeof *d->needed);
  if (d->needed == NULL)
    {
      say (err, "%s", strerror (errno));
      return -1;
    }
  for (size_t i = 0; i < t->nneeded; i++)
    if ((d->needed[i] = table_string (str, end, t->needed[i])) == NULL)
      {
	say (err, "DT_NEEDED string at %#llx does not end "
		  "inside DT_STRTAB", (unsigned long long) t->needed[i]);
	ht_dynamic_free (d);
	return -1;
      }
  d->nneeded = t->nneeded;
  d->soname = t->has_soname ? table_string (str, end, t->soname) : NULL;
  d->rpath = t->has_rpath ? table_string (str, end, t->rpath) : NULL;
  d->runpath = t->has_runpath ? table_string (str, end, t->runpath) : NULL;
  if ((t->has_soname && d->soname == NULL)
      || (t->has_rpath && d->rpath == NULL)
      || (t->has_runpath && d->runpath == NULL))
    {
      say (err, "a DT_%s string does not end inside DT_STRTAB",
		t->has_soname && d->soname == NULL ? "SONAME"
		: t->has_rpath && d->rpath == NULL ? "RPATH" : "RUNPATH");
      ht_dynamic_free (d);
      return -1;
    }
  return 0;
}

int
ht_dynamic_read (const struct ht_elf *elf, struct ht_dynamic *d,
		 char err[HT_ERRLEN])
{
  const struct ht_phdr *dyn = NULL;
  struct dyn_tags t = { 0 };
  int rc = 0;

  memset (d, 0, sizeof *d);
  for (size_t i = 0; dyn == NULL && i < elf->phnum; i++)
    if (elf->phdrs[i].type == PT_DYNAMIC)
      dyn = &elf->phdrs[i];
  if (dyn == NULL)
    return 0;
  if (read_tags (elf, dyn, d, &t, err) != 0)
    rc = -1;
  else if (t.nneeded == 0 && !t.has_soname && !t.has_rpath
	   && !t.has_runpath)
    rc = 0;
  else if (!t.has_strtab || !t.has_strsz)
    {
      say (err, "the dynamic section names strings but has "
		"no %s", t.has_strtab ? "DT_STRSZ" : "DT_STRTAB");
      rc = -1;
    }
  else
    rc = read_strings (elf, &t, d, err);
  free (t.needed);
  return rc;
}

void
ht_dynamic_free (struct ht_dynamic *d)
{
  free (d->needed);
  memset (d, 0, sizeof *d);
}

/* ld.so.cache, as glibc's sysdeps/generic/dl-cache.h lays it out.  */

#define CACHE_OLD_MAGIC "ld.so-1.7.0"
#define CACHE_NEW_MAGIC "glibc-ld.so.cache1.1"
enum
{
  CACHE_OLD_HEADER = 16,	/* magic[11], padding, nlibs.  */
  CACHE_OLD_ENTRY = 12,		/* flags, key, value.  */
  CACHE_NEW_HEADER = 48,	/* magic+version[20], nlibs, len_strings,
				   flags, pad[3], extension_offset,
				   unused[3].  */
  CACHE_NEW_ENTRY = 24,		/* flags, key, value, osversion, hwcap.  */
  CACHE_NEW_ALIGN = 8,		/* Of the new header after the old table.  */
  CACHE_ENDIAN_LITTLE = 2,
  CACHE_ENDIAN_BIG = 3,
};

static uint32_t
get32 (const unsigned char *p)
{
  uint32_t v;

  memcpy (&v, p, sizeof v);
  return v;
}

static uint64_t
get64 (const unsigned char *p)
{
  uint64_t v;

  memcpy (&v, p, sizeof v);
  return v;
}

int
ht_ldcache_parse (struct ht_ldcache *c, const void *data, size_t size,
		  char err[HT_ERRLEN])
{
  const unsigned char *p = data;
  size_t off = 0;
  unsigned endian;
  uint32_t nlibs;

  memset (c, 0, sizeof *c);
  if (size >= CACHE_OLD_HEADER
      && memcmp (p, CACHE_OLD_MAGIC, sizeof CACHE_OLD_MAGIC - 1) == 0)
    {
      uint64_t old = get32 (p + 12);

      off = (size_t) ((CACHE_OLD_HEADER + old * CACHE_OLD_ENTRY
		       + CACHE_NEW_ALIGN - 1) & ~(uint64_t) (CACHE_NEW_ALIGN - 1));
      if (old > size / CACHE_OLD_ENTRY || off > size)
	{
	  say (err, "its old-format table (%llu entries) "
		    "runs past the end of the file", (unsigned long long) old);
	  return -1;
	}
    }
  if (size - off < CACHE_NEW_HEADER
      || memcmp (p + off, CACHE_NEW_MAGIC, sizeof CACHE_NEW_MAGIC - 1) != 0)
    {
      say (err, "%s", off != 0
		? "only the old format (ld.so-1.7.0), which glibc no longer "
		  "reads"
		: "not an ld.so.cache (no glibc-ld.so.cache1.1 header)");
      return -1;
    }
  p += off;
  size -= off;
  endian = p[28] & 3;
  if (endian == 1
      || (endian != 0
	  && endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			? CACHE_ENDIAN_BIG : CACHE_ENDIAN_LITTLE)))
    {
      say (err, "%s", endian == 1
		? "its header marks its byte order invalid"
		: "written for the other byte order");
      return -1;
    }
  nlibs = get32 (p + 20);
  if (nlibs > (size - CACHE_NEW_HEADER) / CACHE_NEW_ENTRY)
    {
      say (err, "%lu entries do not fit in its %zu bytes",
		(unsigned long) nlibs, size);
      return -1;
    }
  if (nlibs > HT_LDCACHE_MAX_ENTRIES)
    {
      say (err, "%lu entries, more than %u: not a cache ldconfig wrote",
	   (unsigned long) nlibs, HT_LDCACHE_MAX_ENTRIES);
      return -1;
    }
  c->base = p;
  c->size = size;
  c->n = nlibs;
  c->strings_end = (size_t) strings_end ((const char *) p, size);
  return 0;
}

int
ht_ldcache_entry (const struct ht_ldcache *c, size_t i, const char **key,
		  const char **value, uint64_t *hwcap)
{
  const unsigned char *e;

  if (i >= c->n)
    return -1;
  e = c->base + CACHE_NEW_HEADER + i * CACHE_NEW_ENTRY;
  *key = table_string ((const char *) c->base, c->strings_end, get32 (e + 4));
  *value = table_string ((const char *) c->base, c->strings_end,
			 get32 (e + 8));
  *hwcap = get64 (e + 16);
  return *key != NULL && *value != NULL ? 0 : -1;
}

/* The search.  */

/* FNV-1a of the LEN bytes at P.  */
static uint64_t
hash (const char *p, size_t len)
{
  uint64_t h = UINT64_C (0xcbf29ce484222325);

  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char) p[i]) * UINT64_C (0x100000001b3);
  return h;
}

/* One cache entry in the index: its key's hash.  */
struct cache_key
{
  uint64_t hash;
  size_t entry;
};

static int
cache_key_cmp (const void *a, const void *b)
{
  const struct cache_key *x = a, *y = b;

  if (x->hash != y->hash)
    return x->hash < y->hash ? -1 : 1;
  return x->entry < y->entry ? -1 : x->entry > y->entry;
}

struct object
{
  struct ht_file file;
  struct ht_elf elf;
  struct ht_dynamic dyn;
  char *origin;			/* $ORIGIN: the directory it was found in.  */
  uint64_t name_hash, soname_hash;	/* Compared before the strings.  */
  dev_t dev;
  ino_t ino;
  bool open;
};

struct search
{
  const struct ht_needed_opts *opts;
  struct ht_needed *out;
  struct object *objs;		/* Parallel to OUT->obj.  */
  struct ht_ldcache cache;
  struct ht_file cache_file;
  struct cache_key *index;	/* The cache's keys, sorted by hash.  */
  size_t nindex;
  bool cache_read, have_cache;
  uint16_t machine;		/* The program's.  */
  unsigned elf_class;
  bool big_endian;
  size_t entries;		/* DT_NEEDED entries read so far.  */
  char *err;
};

static int
oom (struct search *s)
{
  say (s->err, "%s", strerror (ENOMEM));
  return -1;
}

/* O's $ORIGIN, found by PATH: the program's is where its file really
   is (ld.so reads /proc/self/exe); a library's, the directory of the
   path it was found by, symbolic links not followed.  Returns 0, or -1
   out of memory.  */
static int
set_origin (struct object *o, const char *path, bool program)
{
  const char *slash;

  o->origin = program ? realpath (path, NULL) : NULL;
  if (o->origin == NULL)
    o->origin = strdup (path);
  if (o->origin == NULL)
    return -1;
  slash = strrchr (o->origin, '/');
  if (slash == NULL)
    strcpy (o->origin, ".");
  else if (slash == o->origin)
    o->origin[1] = '\0';
  else
    o->origin[slash - o->origin] = '\0';
  return 0;
}

/* Open PATH as object I of the closure if it is an ELF file of the
   program's class and machine (of type ET_DYN, unless it is the
   program).  Returns 1 when it is, 0 when the search should go on (no
   such file, or another machine's), -1 on a corrupt file.  */
static int
try_object (struct search *s, size_t i, const char *path, bool program)
{
  struct object *o = &s->objs[i];
  char err[HT_ERRLEN];
  struct stat st;

  if (ht_file_open (&o->file, path, err) != 0)
    {
      ht_file_close (&o->file);
      if (program)
	{
	  say (s->err, "%s: %s%s", path,
		    o->file.error == 0 ? "not an ELF file: " : "", err);
	  return -1;
	}
      return 0;
    }
  /* Only headers, the dynamic section and its strings are read: keep
     readahead from filling the text with small folios around them, and
     what they add to the page cache to no more than while needed.  */
  ht_file_quiet (&o->file);
  if (o->file.data == NULL
      || ht_elf_parse (&o->elf, o->file.data, o->file.size, err) != 0)
    {
      ht_file_close (&o->file);
      if (program)
	{
	  say (s->err, "%s: not an ELF file", path);
	  return -1;
	}
      return 0;		/* ld.so, too, goes on past a file it cannot use.  */
    }
  if (!program && (o->elf.machine != s->machine
		   || o->elf.elf_class != s->elf_class
		   || o->elf.big_endian != s->big_endian
		   || o->elf.type != ET_DYN))
    {
      ht_elf_free (&o->elf);
      ht_file_close (&o->file);
      return 0;
    }
  if (ht_dynamic_read (&o->elf, &o->dyn, err) != 0)
    {
      say (s->err, "%s: %s", path, err);
      ht_elf_free (&o->elf);
      ht_file_close (&o->file);
      return -1;
    }
  if (fstat (o->file.fd, &st) == 0)
    {
      o->dev = st.st_dev;
      o->ino = st.st_ino;
    }
  if (set_origin (o, path, program) != 0)
    {
      ht_dynamic_free (&o->dyn);
      ht_elf_free (&o->elf);
      ht_file_close (&o->file);
      return oom (s);
    }
  if (o->dyn.soname != NULL)
    o->soname_hash = hash (o->dyn.soname, strlen (o->dyn.soname));
  o->open = true;
  s->out->obj[i].path = strdup (path);
  return s->out->obj[i].path ? 1 : oom (s);
}

static bool
is_ident (char c)
{
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	 || (c >= '0' && c <= '9');
}

/* Expand the dynamic string tokens of one search-path entry ENTRY of
   LEN bytes, with ORIGIN for $ORIGIN, into BUF of SIZE bytes.  Returns false for an
   entry ld.so would not use here ($LIB and $PLATFORM, which this does not
   model, and anything too long).  */
static bool
expand_entry (const char *entry, size_t len, const char *origin, char *buf,
	      size_t size)
{
  size_t n = 0;

  for (size_t i = 0; i < len;)
    {
      const char *add = entry + i;
      size_t alen = 1, skip = 1;

      if (entry[i] == '$')
	{
	  if (len - i >= 7 && memcmp (entry + i, "$ORIGIN", 7) == 0
	      && (len - i == 7 || !is_ident (entry[i + 7])))
	    skip = 7;
	  else if (len - i >= 9 && memcmp (entry + i, "${ORIGIN}", 9) == 0)
	    skip = 9;
	  else
	    return false;
	  add = origin;
	  alen = strlen (origin);
	}
      if (alen >= size - n)
	return false;
      memcpy (buf + n, add, alen);
      n += alen;
      i += skip;
    }
  if (n == 0)
    buf[n++] = '.';		/* An empty entry is the current directory.  */
  buf[n] = '\0';
  return true;
}

/* Search the directories of PATH (separated by any of SEPS, tokens
   expanded for ORIGIN) for NAME as object I.  Returns as try_object.  */
static int
search_path (struct search *s, size_t i, const char *path, const char *seps,
	     const char *origin, const char *name)
{
  char dir[PATH_MAX], file[PATH_MAX];

  while (path != NULL)
    {
      size_t len = strcspn (path, seps);
      const char *end = path[len] ? path + len : NULL;
      int r;

      if (expand_entry (path, len, origin, dir, sizeof dir)
	  && (size_t) snprintf (file, sizeof file, "%s/%s", dir, name)
	     < sizeof file
	  && (r = try_object (s, i, file, false)) != 0)
	return r;
      path = end ? end + 1 : NULL;
    }
  return 0;
}

static int
read_cache (struct search *s)
{
  const char *path = s->opts->cache ? s->opts->cache : HT_LD_SO_CACHE;
  char err[HT_ERRLEN];

  s->cache_read = true;
  if (ht_file_open (&s->cache_file, path, err) != 0)
    {
      ht_file_close (&s->cache_file);
      if (s->cache_file.error == ENOENT)
	return 0;		/* ld.so goes on without a cache.  */
      say (s->err, "%s: %s", path, err);
      return -1;
    }
  ht_file_quiet (&s->cache_file);
  if (ht_ldcache_parse (&s->cache, s->cache_file.data,
			s->cache_file.data ? s->cache_file.size : 0, err) != 0)
    {
      say (s->err, "%s: corrupt ld.so.cache: %s", path, err);
      ht_file_close (&s->cache_file);
      return -1;
    }
  s->have_cache = true;
  s->index = malloc ((s->cache.n ? s->cache.n : 1) * sizeof *s->index);
  if (s->index == NULL)
    return oom (s);
  for (size_t e = 0; e < s->cache.n; e++)
    {
      const char *key, *value;
      uint64_t hwcap;
      size_t len;

      if (ht_ldcache_entry (&s->cache, e, &key, &value, &hwcap) != 0)
	{
	  say (s->err, "%s: corrupt ld.so.cache: entry %zu's strings do not "
	       "end inside the file", path, e);
	  return -1;
	}
      /* A key longer than a file name can be is no library's.  */
      len = strnlen (key, NAME_MAX + 1);
      if (len <= NAME_MAX)
	s->index[s->nindex++] = (struct cache_key) { hash (key, len), e };
    }
  qsort (s->index, s->nindex, sizeof *s->index, cache_key_cmp);
  return 0;
}

/* The cache's entries for NAME, in cache order, baseline first (hwcap
   0: entries for glibc-hwcaps subdirectories are what ld.so prefers on
   processors that have those features, and hold the same code built for
   them).  NAME is at most NAME_MAX bytes.  */
static int
search_cache (struct search *s, size_t i, const char *name)
{
  struct cache_key want = { hash (name, strlen (name)), 0 };
  size_t lo = 0, hi;

  if (!s->cache_read && read_cache (s) != 0)
    return -1;
  /* The first index entry of NAME's hash.  */
  for (hi = s->nindex; lo < hi;)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (s->index[mid].hash < want.hash)
	lo = mid + 1;
      else
	hi = mid;
    }
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = lo; k < s->nindex && s->index[k].hash == want.hash; k++)
      {
	const char *key, *value;
	uint64_t hwcap;
	int r;

	ht_ldcache_entry (&s->cache, s->index[k].entry, &key, &value, &hwcap);
	if ((hwcap == 0) != (pass == 0) || strcmp (key, name) != 0)
	  continue;
	if ((r = try_object (s, i, value, false)) != 0)
	  return r;
      }
  return 0;
}

/* The system directories of the program's machine, as Debian's glibc
   has them: the multiarch directories of its triplet, then /lib and
   /usr/lib.  */
static int
system_dirs (struct search *s, size_t i, const char *name)
{
  const struct ht_machine *m = ht_machine_find (s->machine, s->elf_class, 0);
  char path[2 * PATH_MAX];

  if (m != NULL)
    snprintf (path, sizeof path, "/lib/%s:/usr/lib/%s:/lib:/usr/lib",
	      m->triplet, m->triplet);
  else
    snprintf (path, sizeof path, "/lib:/usr/lib");
  return search_path (s, i, path, ":", "/", name);
}

/* Find object I, named NAME and needed by object PARENT, in ld.so's
   order.  Returns 1 found, 0 not found, -1 error.  */
static int
find (struct search *s, size_t i, size_t parent, const char *name)
{
  const struct object *req = &s->objs[parent];
  const char *origin0 = s->objs[0].origin;
  int r = 0;

  if (strchr (name, '/') != NULL)
    return try_object (s, i, name, false);
  /* DT_RPATH of the requester and of its loaders up to the program,
     unless the requester has DT_RUNPATH; an object's DT_RPATH is
     ignored when it has DT_RUNPATH itself.  */
  if (req->dyn.runpath == NULL)
    for (size_t l = parent;; l = s->out->obj[l].parent)
      {
	const struct object *o = &s->objs[l];

	if (o->dyn.rpath != NULL && o->dyn.runpath == NULL
	    && (r = search_path (s, i, o->dyn.rpath, ":", o->origin,
				name)) != 0)
	  return r;
	if (l == 0)
	  break;
      }
  if (s->opts->library_path != NULL
      && (r = search_path (s, i, s->opts->library_path, ":;",
			    origin0, name)) != 0)
    return r;
  if (req->dyn.runpath != NULL
      && (r = search_path (s, i, req->dyn.runpath, ":", req->origin,
			    name)) != 0)
    return r;
  if (req->dyn.nodeflib || strlen (name) > NAME_MAX)
    return 0;
  if ((r = search_cache (s, i, name)) != 0)
    return r;
  return system_dirs (s, i, name);
}

/* Whether NAME is already in the closure: needed by that name before, or
   the soname of an object found.  */
static bool
known_name (const struct search *s, const char *name, uint64_t h)
{
  for (size_t i = 0; i < s->out->n; i++)
    if ((s->objs[i].name_hash == h
	 && strcmp (s->out->obj[i].name, name) == 0)
	|| (s->objs[i].open && s->objs[i].dyn.soname != NULL
	    && s->objs[i].soname_hash == h
	    && strcmp (s->objs[i].dyn.soname, name) == 0))
      return true;
  return false;
}

/* Whether object I is a file found before under another name.  */
static bool
known_file (const struct search *s, size_t i)
{
  for (size_t j = 0; j < i; j++)
    if (s->objs[j].open && s->objs[j].dev == s->objs[i].dev
	&& s->objs[j].ino == s->objs[i].ino)
      return true;
  return false;
}

static void
close_object (struct object *o)
{
  if (!o->open)
    return;
  ht_dynamic_free (&o->dyn);
  ht_elf_free (&o->elf);
  ht_file_close (&o->file);
  free (o->origin);
  o->open = false;
}

/* Append NAME, needed by PARENT, as a new object.  */
static int
add_object (struct search *s, const char *name, size_t parent, size_t max)
{
  size_t i = s->out->n;

  if (i == max)
    {
      say (s->err, "more than %zu shared objects needed "
		"(the closure is bounded)", max);
      return -1;
    }
  if (i == s->out->cap)
    {
      size_t cap = s->out->cap ? 2 * s->out->cap : 16;
      struct ht_needed_obj *obj = realloc (s->out->obj, cap * sizeof *obj);
      struct object *objs;

      if (obj == NULL)
	return oom (s);
      s->out->obj = obj;
      objs = realloc (s->objs, cap * sizeof *objs);
      if (objs == NULL)
	return oom (s);
      s->objs = objs;
      s->out->cap = cap;
    }
  memset (&s->objs[i], 0, sizeof s->objs[i]);
  s->objs[i].name_hash = hash (name, strlen (name));
  s->out->obj[i].path = NULL;
  s->out->obj[i].parent = parent;
  s->out->obj[i].name = strdup (name);
  if (s->out->obj[i].name == NULL)
    return oom (s);
  s->out->n++;
  return 0;
}

/* Find NAME, a DT_NEEDED entry of object I, and add it to the closure
   (of at most MAX objects) unless it is there already.  Returns 0, or -1
   after saying why.  */
static int
resolve_entry (struct search *s, size_t i, const char *name, size_t max)
{
  struct ht_needed *out = s->out;
  char expanded[PATH_MAX];
  size_t j = out->n;
  int r;

  if (++s->entries > HT_NEEDED_MAX_ENTRIES
      || strnlen (name, PATH_MAX) == PATH_MAX)
    {
      say (s->err, "%s: %s", out->obj[i].path,
	   s->entries > HT_NEEDED_MAX_ENTRIES
	   ? "more DT_NEEDED entries than the closure allows"
	   : "a DT_NEEDED name longer than PATH_MAX");
      return -1;
    }
  /* ld.so expands $ORIGIN in DT_NEEDED, for the object that needs it; a
     name it cannot expand is not found.  */
  if (strchr (name, '$') != NULL)
    {
      if (!expand_entry (name, strlen (name), s->objs[i].origin, expanded,
			 sizeof expanded))
	{
	  if (known_name (s, name, hash (name, strlen (name))))
	    return 0;
	  if (add_object (s, name, i, max) != 0)
	    return -1;
	  out->missing++;
	  return 0;
	}
      name = expanded;
    }
  if (known_name (s, name, hash (name, strlen (name))))
    return 0;
  if (add_object (s, name, i, max) != 0 || (r = find (s, j, i, name)) < 0)
    return -1;
  if (r == 0)
    out->missing++;
  else if (known_file (s, j))
    {
      /* The same file by another name: ld.so maps it once.  */
      close_object (&s->objs[j]);
      free (out->obj[j].path);
      free (out->obj[j].name);
      out->n--;
    }
  return 0;
}

int
ht_needed_resolve (struct ht_needed *out, const char *program,
		   const struct ht_needed_opts *opts, char err[HT_ERRLEN])
{
  static const struct ht_needed_opts defaults = { NULL, NULL, 0 };
  struct search s = { 0 };
  size_t max;
  int status = 0;

  memset (out, 0, sizeof *out);
  s.opts = opts ? opts : &defaults;
  s.out = out;
  s.err = err;
  max = s.opts->max_objects ? s.opts->max_objects : HT_NEEDED_MAX_OBJECTS;
  if (add_object (&s, program, 0, max) != 0
      || try_object (&s, 0, program, true) != 1)
    status = -1;
  else
    {
      s.machine = s.objs[0].elf.machine;
      s.elf_class = s.objs[0].elf.elf_class;
      s.big_endian = s.objs[0].elf.big_endian;
    }
  /* Breadth first: each object's DT_NEEDED in order, as ld.so builds
     its search list.  */
  for (size_t i = 0; status == 0 && i < out->n; i++)
    for (size_t k = 0; status == 0 && s.objs[i].open
		       && k < s.objs[i].dyn.nneeded; k++)
      status = resolve_entry (&s, i, s.objs[i].dyn.needed[k], max);
  for (size_t i = 0; i < out->n; i++)
    close_object (&s.objs[i]);
  free (s.objs);
  free (s.index);
  if (s.have_cache)
    ht_file_close (&s.cache_file);
  return status;
}

void
ht_needed_free (struct ht_needed *n)
{
  for (size_t i = 0; i < n->n; i++)
    {
      free (n->obj[i].path);
      free (n->obj[i].name);
    }
  free (n->obj);
  memset (n, 0, sizeof *n);
}
