# REQUIRES: ld.lld
## The checker's min size: a plain link (no -z hugetext) whose code segment
## is below the min size passes, its segment reported as below the min size
## and left alone; lowering the min size (--min-size) makes the same file
## eligible, and then it fails.  (Rule `noop`, that a producer's output below
## the min size is the output without the option, cannot be judged from one
## file: bfd/below-min-size.s and lld/below-min-size.s compare two links.)

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.lld -pie %t.o -o %t
# RUN: %expect-exit 0 %hugetext check %t | FileCheck %s
# RUN: %expect-exit 1 %hugetext check --min-size=1M %t | FileCheck %s --check-prefix=MIN
# RUN: %expect-exit 1 %hugetext check --min-size=0x100000 %t | FileCheck %s --check-prefix=MIN

# CHECK:      LOAD R-X {{.*}} filesz 0x1ff000 {{.*}}: ok (below min size, left alone)
# CHECK-NEXT:   code 1.99 MiB, below min size; vaddr and offset not aligned to H
# CHECK:      {{.*}}: ok: no code segment reaches the min size (2 MiB); the layout is left alone

# MIN:        min size 1 MiB
# MIN:        LOAD R-X {{.*}}: FAIL
# MIN:        FAIL: 1 of {{[0-9]+}} PT_LOAD segments break the contract

  .text
  .globl _start
_start:
  .skip 0x1ff000, 0xcc
