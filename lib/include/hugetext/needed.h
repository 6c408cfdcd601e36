/* The shared objects a program needs, found as the dynamic loader finds
   them, without running the program.

   One job: from a program's path, its DT_NEEDED closure, each object
   searched for as glibc's ld.so searches (DT_RPATH of the loader chain
   unless DT_RUNPATH, LD_LIBRARY_PATH only when the caller passes it,
   DT_RUNPATH, /etc/ld.so.cache, the system directories of the program's
   machine, with $ORIGIN expanded), taking only files of the program's
   ELF class and machine.  Every byte read (the objects, the cache) is
   untrusted: offsets are checked against the file's size, strings must
   end inside their table, and the closure is bounded, so a crafted file
   gets an error and never a crash or a hang.  A cycle of DT_NEEDED is
   valid ELF, and ld.so loads each object once: so does this.  */

#ifndef HUGETEXT_NEEDED_H
#define HUGETEXT_NEEDED_H

#include "hugetext/elf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* glibc's cache of the system's shared objects (ldconfig(8)).  */
#define HT_LD_SO_CACHE "/etc/ld.so.cache"

/* The most objects one closure may hold; a crafted chain of distinct
   names beyond it is an error, not a long walk.  */
#define HT_NEEDED_MAX_OBJECTS 4096

/* The most DT_NEEDED entries read in one closure, and the most entries of
   a cache (ldconfig writes one per library of a system: thousands).
   Together they bound the work a crafted file can ask for.  */
#define HT_NEEDED_MAX_ENTRIES 65536
#define HT_LDCACHE_MAX_ENTRIES 262144

/* The dynamic section of one object: pointers into the ELF's data, each
   string checked to end inside the string table.  */
struct ht_dynamic
{
  const char **needed;		/* DT_NEEDED, in order.  */
  size_t nneeded;
  const char *soname;		/* DT_SONAME, or NULL.  */
  const char *rpath;		/* DT_RPATH, or NULL.  */
  const char *runpath;		/* DT_RUNPATH, or NULL.  */
  bool nodeflib;		/* DF_1_NODEFLIB: no cache, no system dirs.  */
};

/* Read ELF's PT_DYNAMIC.  An object without one (a static program) has
   nothing in D.  Returns 0, or -1 with the reason in ERR.  */
int ht_dynamic_read (const struct ht_elf *elf, struct ht_dynamic *d,
		     char err[HT_ERRLEN]);
void ht_dynamic_free (struct ht_dynamic *d);

/* A parsed ld.so.cache (the "glibc-ld.so.cache1.1" format, alone or
   after the old "ld.so-1.7.0" table), in the host's byte order.  */
struct ht_ldcache
{
  const unsigned char *base;	/* The new format's header: string offsets
				   count from here.  */
  size_t size;			/* Bytes from BASE to the end of the data.  */
  size_t n;			/* Entries.  */
  size_t strings_end;		/* One past the last NUL after BASE: a
				   string that starts before it ends.  */
};

/* Parse SIZE bytes at DATA, which must stay valid while C is used.
   Returns 0, or -1 with the reason in ERR.  */
int ht_ldcache_parse (struct ht_ldcache *c, const void *data, size_t size,
		      char err[HT_ERRLEN]);

/* Entry I's name (the soname ld.so looks up), path and hwcap bits.
   Returns 0, or -1 when the entry's strings do not end inside the data.  */
int ht_ldcache_entry (const struct ht_ldcache *c, size_t i, const char **key,
		      const char **value, uint64_t *hwcap);

/* One object of a closure.  */
struct ht_needed_obj
{
  char *path;			/* Where it was found; NULL: not found.  */
  char *name;			/* The DT_NEEDED string (the program: its
				   path as given).  */
  size_t parent;		/* Index of the object that first needed it
				   (the program: its own index, 0).  */
};

struct ht_needed
{
  struct ht_needed_obj *obj;	/* obj[0] is the program; breadth first,
				   as ld.so orders its search list.  */
  size_t n, cap;
  size_t missing;		/* Objects not found.  */
};

struct ht_needed_opts
{
  const char *library_path;	/* LD_LIBRARY_PATH's value, or NULL: not
				   searched.  */
  const char *cache;		/* NULL: HT_LD_SO_CACHE.  A missing cache is
				   no error (ld.so goes on without one), a
				   corrupt one is.  */
  size_t max_objects;		/* 0: HT_NEEDED_MAX_OBJECTS.  */
};

/* The closure of PROGRAM into OUT (ht_needed_free it either way).
   Objects that cannot be found are in OUT with a NULL path, counted in
   OUT->missing.  Returns 0, or -1 with the reason in ERR: PROGRAM
   unreadable or not ELF, a needed object or the cache corrupt, the
   closure too large, out of memory.  */
int ht_needed_resolve (struct ht_needed *out, const char *program,
		       const struct ht_needed_opts *opts,
		       char err[HT_ERRLEN]);
void ht_needed_free (struct ht_needed *n);

#endif
