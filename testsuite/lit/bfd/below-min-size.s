# REQUIRES: ld.bfd-hugetext
## Rule `noop`: below the min size, GNU ld's output with -z hugetext is byte
## for byte its output without it.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.bfd -pie %t.o -o %t.plain
# RUN: %ld.bfd -pie -z hugetext %t.o -o %t.huge
# RUN: cmp %t.plain %t.huge
# RUN: %ld.bfd -z hugetext -z hugetext-min-size=0x300000 %t.o -o %t.huge2
# RUN: %ld.bfd %t.o -o %t.plain2
# RUN: cmp %t.plain2 %t.huge2

  .text
  .globl _start
_start:
  .skip 0x1ff000
