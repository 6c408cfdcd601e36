# REQUIRES: ld.bfd-hugetext
## Rule `scope`: a linker script without SECTIONS does not turn -z hugetext
## off.  GNU ld adds such a script to its default one when it is given as
## an input file (an implicit script: ENTRY, VERSION, assignments) or with
## -T when it only INSERTs: the output is then laid out for huge pages, for
## an executable, a PIE and a shared object.  (A -T script without SECTIONS
## that does not INSERT replaces the default script: see
## T-script-without-sections.s.)

# RUN: rm -rf %t && split-file %s %t && cd %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 a.s -o a.o
# RUN: %ld.bfd -z hugetext --fatal-warnings a.o implicit.t -o exec
# RUN: %ld.bfd -z hugetext --fatal-warnings -pie a.o implicit.t -o pie
# RUN: %ld.bfd -z hugetext --fatal-warnings -shared a.o implicit.t -o shared.so
# RUN: %ld.bfd -z hugetext --fatal-warnings -T insert.t a.o -o insert
# RUN: %ld.bfd -z hugetext --fatal-warnings -pie -T insert.t a.o -o insert-pie
# RUN: %expect-exit 0 %hugetext check exec pie shared.so insert insert-pie | FileCheck %s
# CHECK-COUNT-5: : ok: 1 eligible code segment meets the contract

## The scripts were read: the entry point, the version and the symbol they
## give, and the section the INSERT places after .text.
# RUN: llvm-readelf -h exec | FileCheck %s --check-prefix=ENTRY
# ENTRY: Entry point address: 0x{{[0-9a-f]*}}00010
# RUN: llvm-readelf --dyn-syms -V shared.so | FileCheck %s --check-prefix=VERSION
# VERSION: hugetext_assigned@@V1
# RUN: llvm-readelf -SW insert | FileCheck %s --check-prefix=INSERT
# INSERT:      .text
# INSERT-NEXT: .hugetext_test
# INSERT-NEXT: .hugetext_padding

## A script with SECTIONS lays out the output itself: the same link with one
## is not laid out, so the check above can fail.
# RUN: %ld.bfd -z hugetext -T sections.t a.o -o sections 2>&1 | FileCheck %s --check-prefix=WARN
# WARN: warning: -z hugetext ignored: a linker script lays out the output
# RUN: %expect-exit 1 %hugetext check sections

#--- a.s
  .text
  .globl _start, begin
begin:
  .skip 0x10
_start:
  .skip 0x300000
  .section .hugetext_test,"ax",@progbits
  .byte 0xc3

#--- implicit.t
ENTRY(_start)
VERSION { V1 { global: *; }; }
hugetext_assigned = 42;

#--- insert.t
SECTIONS
{
  .hugetext_test : { *(.hugetext_test) }
}
INSERT AFTER .text;

#--- sections.t
SECTIONS
{
  . = 0x400000;
  .text : { *(.text) }
  .data : { *(.data) }
}
