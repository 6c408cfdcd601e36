/* The sanitizers' options for every program built with
   HUGETEXT_SANITIZE_FLAGS (hugetext-san, the unit tests, the fuzzers'
   replays): an error found by ASan, UBSan or LeakSanitizer ends the
   program with HT_SANITIZER_EXIT, a status no tool of ours gives, so
   that a test expecting "exit 1, breaks the contract" cannot take a
   crash for a verdict.  CMake adds this file to each program that links
   hugetext_elf_san; the status is set in the top-level CMakeLists.txt.
   Options given in ASAN_OPTIONS, UBSAN_OPTIONS or LSAN_OPTIONS are read
   after these and may still change them: testsuite/run-tests clears
   those variables, and lit.cfg.py sets them without an exitcode.  */

#ifndef HT_SANITIZER_EXIT
#error "HT_SANITIZER_EXIT: the sanitizers' exit status (CMakeLists.txt)"
#endif

#define HT_STR2(x) #x
#define HT_STR(x) HT_STR2 (x)
#define HT_SANITIZER_OPTIONS "exitcode=" HT_STR (HT_SANITIZER_EXIT)

const char *__asan_default_options (void);
const char *__ubsan_default_options (void);
const char *__lsan_default_options (void);

const char *
__asan_default_options (void)
{
  return HT_SANITIZER_OPTIONS;
}

const char *
__ubsan_default_options (void)
{
  return HT_SANITIZER_OPTIONS;
}

const char *
__lsan_default_options (void)
{
  return HT_SANITIZER_OPTIONS;
}
