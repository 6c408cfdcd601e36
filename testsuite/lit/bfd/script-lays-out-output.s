# REQUIRES: ld.bfd-hugetext
## Rule `scope`: a script that lays out the output decides the addresses
## itself: a -T script with SECTIONS, one with SECTIONS and PHDRS, and a
## --default-script.  GNU ld warns once that -z hugetext is ignored, and
## the output is byte for byte the output without the option.  (ld's own
## test of the -T script with SECTIONS is in hugetext.exp.)

# RUN: rm -rf %t && split-file %s %t && cd %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 a.s -o a.o
# RUN: sh -c 'for s in "-T sections.t" "-T phdrs.t" "--default-script=sections.t"; do \
# RUN:   echo "script: $s"; \
# RUN:   %ld.bfd $s a.o -o plain && \
# RUN:   %ld.bfd -z hugetext $s a.o -o huge 2>&1 && \
# RUN:   cmp plain huge && echo "identical: $s" || exit 1; \
# RUN: done' | FileCheck %s --implicit-check-not=warning:
# CHECK:      script: -T sections.t
# CHECK-NEXT: warning: -z hugetext ignored: a linker script lays out the output
# CHECK-NEXT: identical: -T sections.t
# CHECK-NEXT: script: -T phdrs.t
# CHECK-NEXT: warning: -z hugetext ignored: a linker script lays out the output
# CHECK-NEXT: identical: -T phdrs.t
# CHECK-NEXT: script: --default-script=sections.t
# CHECK-NEXT: warning: -z hugetext ignored: a linker script lays out the output
# CHECK-NEXT: identical: --default-script=sections.t

## Each has code enough to be laid out: without the script, it is.
# RUN: %ld.bfd -z hugetext a.o -o default
# RUN: %expect-exit 0 %hugetext check default | FileCheck %s --check-prefix=LAID-OUT
# LAID-OUT: : ok: 1 eligible code segment meets the contract

#--- a.s
  .text
  .globl _start
_start:
  .skip 0x300000
  .data
  .quad 1

#--- sections.t
SECTIONS
{
  . = 0x400000;
  .text : { *(.text) }
  . = . + 0x1000;
  .data : { *(.data) }
}

#--- phdrs.t
PHDRS
{
  text PT_LOAD FILEHDR PHDRS;
  data PT_LOAD;
}
SECTIONS
{
  . = 0x400000 + SIZEOF_HEADERS;
  .text : { *(.text) } :text
  . = . + 0x1000;
  .data : { *(.data) } :data
}
