# REQUIRES: ld.bfd-hugetext
## Rule `scope`: a linker script without SECTIONS (here ENTRY, VERSION and
## an assignment) does not turn -z hugetext off, also when given with -T.
##
## GNU ld does not meet this yet, so the test is expected to fail: a -T
## script replaces ld's default script unless it INSERTs, so with this one
## every section is an orphan, and ld takes it for a script that lays out
## the output: it warns "-z hugetext ignored: a linker script lays out the
## output" and links as without the option (docs/gnu-ld.md, "When it does
## nothing").  The same script given as an input file keeps the option
## (script-without-sections.s).  When ld applies the option here, this test
## passes unexpectedly: remove the XFAIL and update the docs.
# XFAIL: *

# RUN: rm -rf %t && split-file %s %t && cd %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 a.s -o a.o
# RUN: %ld.bfd -z hugetext -T entry.t a.o -o exec
# RUN: %expect-exit 0 %hugetext check exec | FileCheck %s
# CHECK: : ok: 1 eligible code segment meets the contract

#--- a.s
  .text
  .globl _start
_start:
  .skip 0x300000

#--- entry.t
ENTRY(_start)
VERSION { V1 { global: *; }; }
hugetext_assigned = 42;
