# REQUIRES: ld.lld
## Without section headers the checker cannot tell code from padding: it
## takes all of p_filesz as code, and says so.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.lld -pie %t.o -o %t
# RUN: llvm-objcopy --strip-sections %t %t.nosec
# RUN: %expect-exit 0 %hugetext check %t.nosec | FileCheck %s

# CHECK:      LOAD R-X offset 0x200000 vaddr 0x200000 filesz 0x400000 {{.*}}: ok
# CHECK-NEXT:   code 4 MiB (no sections: all of p_filesz), eligible

  .text
  .p2align 21
  .globl _start
_start:
  .skip 0x300000, 0xcc
  .balign 0x200000, 0xcc
