# REQUIRES: ld.bfd-hugetext, sparse-files
## Rule `cost`: the apparent file size grows by less than 2*H for the one
## eligible segment, and the gap before the text is a hole, so the size on
## disk grows by a few blocks at most: the padding after it is a hole too.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.bfd -pie %t.o -o %t.plain
# RUN: %ld.bfd -pie -z hugetext %t.o -o %t.huge
# RUN: python3 %S/../Inputs/cost.py %t.plain %t.huge | FileCheck %s

# CHECK: apparent growth < 2*H: yes
# CHECK: disk growth a few blocks: yes

  .text
  .globl _start
_start:
  .skip 0x280000, 0xcc
