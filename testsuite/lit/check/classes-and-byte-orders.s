# REQUIRES: ld.lld
## The checker reads ELF32 and ELF64 in both byte orders: the same aligned
## and plain layouts, linked for four targets, get the same verdicts.

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=i386 %s -o %t/i386.o
# RUN: llvm-mc -filetype=obj -triple=powerpc %s -o %t/ppc.o
# RUN: llvm-mc -filetype=obj -triple=powerpc64 %s -o %t/ppc64.o
# RUN: llvm-mc -filetype=obj -triple=aarch64 %s -o %t/aarch64.o

## Aligned by hand (see hand-aligned.s): every one meets the contract.
# RUN: %ld.lld %t/i386.o -o %t/i386
# RUN: %ld.lld %t/ppc.o -o %t/ppc
# RUN: %ld.lld %t/ppc64.o -o %t/ppc64
# RUN: %ld.lld -z max-page-size=4096 %t/aarch64.o -o %t/aarch64
# RUN: %expect-exit 0 %hugetext check %t/i386 %t/ppc %t/ppc64 %t/aarch64 | FileCheck %s

# CHECK:      i386: ELF32 little-endian i386 ET_EXEC; H 2 MiB
# CHECK:      LOAD R-X {{.*}} align 0x200000: ok
# CHECK:      i386: ok: 1 eligible code segment meets the contract
# CHECK:      ppc: ELF32 big-endian ppc ET_EXEC; H 2 MiB
# CHECK:      LOAD R-X {{.*}} align 0x200000: ok
# CHECK:      ppc: ok: 1 eligible code segment meets the contract
# CHECK:      ppc64: ELF64 big-endian ppc64 ET_EXEC; H 2 MiB
# CHECK:      LOAD R-X {{.*}} align 0x200000: ok
# CHECK:      ppc64: ok: 1 eligible code segment meets the contract
# CHECK:      aarch64: ELF64 little-endian aarch64 ET_EXEC; H 2 MiB
# CHECK:      LOAD R-X {{.*}} align 0x200000: ok
# CHECK:      aarch64: ok: 1 eligible code segment meets the contract

## Without the alignment every one fails, for the same reason.
# RUN: llvm-mc -filetype=obj -triple=i386 --defsym=PLAIN=1 %s -o %t/i386.o
# RUN: llvm-mc -filetype=obj -triple=powerpc --defsym=PLAIN=1 %s -o %t/ppc.o
# RUN: llvm-mc -filetype=obj -triple=powerpc64 --defsym=PLAIN=1 %s -o %t/ppc64.o
# RUN: llvm-mc -filetype=obj -triple=aarch64 --defsym=PLAIN=1 %s -o %t/aarch64.o
# RUN: %ld.lld %t/i386.o -o %t/i386
# RUN: %ld.lld %t/ppc.o -o %t/ppc
# RUN: %ld.lld %t/ppc64.o -o %t/ppc64
# RUN: %ld.lld -z max-page-size=4096 %t/aarch64.o -o %t/aarch64
# RUN: %expect-exit 1 %hugetext check %t/i386 %t/ppc %t/ppc64 %t/aarch64 | FileCheck %s --check-prefix=PLAIN

# PLAIN-COUNT-4: problem [start.offset]: p_offset 0x{{[0-9a-f]+}} is not a multiple of H (0x200000)
# PLAIN-NOT:     : ok:

  .text
.ifndef PLAIN
  .p2align 21
.endif
  .globl _start
_start:
  .skip 0x400000
