# REQUIRES: ld.lld
## Rule `noop`: a program whose code is below the min size is left alone, and
## the checker accepts its plain layout.  Lowering the min size makes the
## same file eligible, and then it fails.

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
