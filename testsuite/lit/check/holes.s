# REQUIRES: ld.lld, sparse-files
## The checker measures, with SEEK_HOLE, how much of the padding before
## and after the code is a hole on disk.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.lld -pie %t.o -o %t.ld
## Make every zero block a hole, then make none a hole.
# RUN: cp --sparse=always %t.ld %t.sparse
# RUN: cp --sparse=never %t.ld %t.dense
# RUN: %hugetext check --json %t.sparse | FileCheck %s --check-prefix=SPARSE
# RUN: %hugetext check --json %t.dense | FileCheck %s --check-prefix=DENSE

## 0x200000 - 0x1000 bytes of the front gap and 0x1f0000 of zero tail are
## whole 4 KiB blocks of zeros.
# SPARSE: "flags":"R-X",{{.*}}"front_gap":{{[0-9]+}},"tail_padding":2031616,"tail_fill":"zero","padding":{{[0-9]+}},"padding_holes":{{[1-9][0-9][0-9][0-9][0-9][0-9][0-9]+}},"ok":true
# DENSE:  "flags":"R-X",{{.*}}"tail_padding":2031616,"tail_fill":"zero","padding":{{[0-9]+}},"padding_holes":0,"ok":true

  .text
  .p2align 21
  .globl _start
_start:
  .skip 0x210000, 0xcc
## Padding in a section of its own, as a producer may add it.
  .section .hugetext_padding,"ax",@progbits
  .skip 0x1f0000
