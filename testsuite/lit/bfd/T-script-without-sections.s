# REQUIRES: ld.bfd-hugetext
## Rule `scope`: a -T script that does not INSERT replaces GNU ld's
## default script, so it lays out the output even without SECTIONS (here
## ENTRY, VERSION and an assignment: every section is an orphan).  ld
## warns once that -z hugetext is ignored, and the output is byte for
## byte the output without the option.  Given as an input file, the same
## script keeps the option (script-without-sections.s).

# RUN: rm -rf %t && split-file %s %t && cd %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 a.s -o a.o
# RUN: %ld.bfd -T entry.t a.o -o plain
# RUN: %ld.bfd -z hugetext -T entry.t a.o -o huge 2>&1 | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
# WARN: warning: -z hugetext ignored: a linker script lays out the output
# RUN: cmp plain huge

## The code is enough to be laid out: as an input file, the script
## leaves the option on.
# RUN: %ld.bfd -z hugetext a.o entry.t -o implicit
# RUN: %expect-exit 0 %hugetext check implicit | FileCheck %s
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
