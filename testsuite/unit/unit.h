/* A small unit-test harness.  Each test is a function; each prints one
   line, "PASS: name" or "FAIL: name", in the format every suite of this
   project's test runner counts.  */

#ifndef HUGETEXT_UNIT_H
#define HUGETEXT_UNIT_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

extern int unit_failures;	/* Failed checks in the current test.  */

#define CHECK(cond)							\
  do									\
    if (!(cond))							\
      {									\
	fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__,		\
		 __LINE__, #cond);					\
	unit_failures++;						\
      }									\
  while (0)

#define CHECK_EQ(a, b)							\
  do									\
    {									\
      uint64_t a_ = (uint64_t) (a), b_ = (uint64_t) (b);		\
      if (a_ != b_)							\
	{								\
	  fprintf (stderr, "%s:%d: check failed: %s == %s (0x%" PRIx64	\
		   " != 0x%" PRIx64 ")\n", __FILE__, __LINE__, #a, #b,	\
		   a_, b_);						\
	  unit_failures++;						\
	}								\
    }									\
  while (0)

/* Mark the current test skipped, for REASON (a static string): it
   reports "UNSUPPORTED: ... (REASON)" unless a check failed.  */
extern const char *unit_skipped;
#define SKIP(reason) (unit_skipped = (reason))

struct unit_test
{
  const char *name;
  void (*fn) (void);
};

#define UNIT_TEST(name) { #name, name }

/* Run TESTS (or only those named in ARGV); returns main's exit status.  */
int unit_main (const char *suite, const struct unit_test *tests, size_t n,
	       int argc, char **argv);

#endif
