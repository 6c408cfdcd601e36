# REQUIRES: ld.lld
## --page-size sets H.  A layout aligned to 2 MiB does not meet a 4 MiB
## contract; H must be a power of two.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.lld -pie %t.o -o %t
# RUN: %expect-exit 0 %hugetext check --page-size=2M %t
# RUN: %expect-exit 1 %hugetext check --page-size=4M %t | FileCheck %s
# RUN: %expect-exit 2 %hugetext check --page-size=3M %t 2>&1 | FileCheck %s --check-prefix=POW2
# RUN: %expect-exit 2 %hugetext check --page-size=2MB %t 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: %expect-exit 2 %hugetext check --min-size=-1 %t 2>&1 | FileCheck %s --check-prefix=BADMIN
# RUN: %expect-exit 2 %hugetext check --min-size=0 %t 2>&1 | FileCheck %s --check-prefix=ZEROMIN

# CHECK:      H 4 MiB, min size 4 MiB
# CHECK:      problem [start.vaddr]: p_vaddr 0x200000 is not a multiple of H (0x400000)
# POW2:       hugetext check: invalid --page-size '3M': not a power of two of at least 4K
# BAD:        hugetext check: invalid --page-size '2MB': expected a size such as 2M or 0x200000
# BADMIN:     hugetext check: invalid --min-size '-1'
# ZEROMIN:    hugetext check: invalid --min-size '0': a size must be above 0

  .text
  .p2align 21
  .globl _start
_start:
  .skip 0x400000, 0xcc
