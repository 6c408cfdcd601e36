# REQUIRES: ld.lld-hugetext, sparse-files
## Rule `cost`: the apparent file size grows by less than 2*H for the one
## eligible segment, and both the gap before the code and the padding after
## it are holes, so the size on disk grows by a few blocks at most, although
## LLD fills gaps in executable sections with trap instructions.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.lld -pie %t.o -o %t.plain
# RUN: %ld.lld -pie -z hugetext %t.o -o %t.huge
# RUN: python3 %S/../Inputs/cost.py %t.plain %t.huge | FileCheck %s
# RUN: %ld.lld -pie --no-rosegment %t.o -o %t.plain
# RUN: %ld.lld -pie --no-rosegment -z hugetext %t.o -o %t.huge
# RUN: python3 %S/../Inputs/cost.py %t.plain %t.huge | FileCheck %s

# CHECK: apparent growth < 2*H: yes
# CHECK: disk growth a few blocks: yes

  .text
  .globl _start
_start:
  .skip 0x280000, 0xcc
