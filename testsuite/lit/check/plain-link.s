# REQUIRES: ld.lld
## A plain link of a program with more than H of code breaks the contract,
## and the checker names each broken rule: start, p_align and tail.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.lld -pie %t.o -o %t
# RUN: %expect-exit 1 %hugetext check %t | FileCheck %s

# CHECK:      {{.*}}: ELF64 little-endian x86-64 ET_DYN; H 2 MiB, min size 2 MiB
# CHECK:      LOAD R-X offset 0x{{[0-9a-f]+}} vaddr 0x{{[0-9a-f]+}} filesz 0x300000 memsz 0x300000 align 0x1000: FAIL
# CHECK-NEXT:   code 3 MiB, eligible; vaddr and offset not aligned to H
# CHECK-NEXT:   padding: front gap {{.*}}, tail 0 B (none)
# CHECK-NEXT:   problem [start.vaddr]: p_vaddr 0x{{[0-9a-f]+}} is not a multiple of H (0x200000)
# CHECK-NEXT:   problem [start.offset]: p_offset 0x{{[0-9a-f]+}} is not a multiple of H (0x200000)
# CHECK-NEXT:   problem [start.align]: p_align is 0x1000, not H (0x200000)
# CHECK-NEXT:   problem [end.size]: p_filesz 0x300000 is not a multiple of H: the tail is not padded to the next H boundary (0x100000 bytes short)
# CHECK:      {{.*}}: FAIL: 1 of {{[0-9]+}} PT_LOAD segments break the contract

## --json gives each problem's rule id (docs/contract.md) next to its
## sentence, for programs to match on.
# RUN: %expect-exit 1 %hugetext check --json %t | FileCheck %s --check-prefix=JSON
# JSON: "problems":[{"rule":"start.vaddr","message":"p_vaddr 0x{{[0-9a-f]+}} is not a multiple of H (0x200000)"},{"rule":"start.offset","message":"{{[^"]+}}"},{"rule":"start.align","message":"p_align is 0x1000, not H (0x200000)"},{"rule":"end.size","message":"{{[^"]+}}"}]

  .text
  .globl _start
_start:
  ret
  .skip 0x300000 - 1, 0xcc
