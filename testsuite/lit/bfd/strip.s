# REQUIRES: ld.bfd-hugetext, strip, objcopy
## Rule `strip`: GNU strip and objcopy (patched) keep a padded code segment.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.bfd -z hugetext %t.o -o %t
# RUN: %strip %t -o %t.stripped
# RUN: %objcopy --only-keep-debug %t %t.debug
# RUN: %objcopy --add-gnu-debuglink=%t.debug %t.stripped %t.linked
# RUN: %expect-exit 0 %hugetext check %t %t.stripped %t.debug %t.linked | FileCheck %s

# CHECK-COUNT-4: : ok: 1 eligible code segment meets the contract

  .text
  .globl _start
_start:
  .skip 0x300000
  .section .debug_info,"",@progbits
  .quad 0
