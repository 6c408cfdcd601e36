# REQUIRES: ld.bfd-hugetext
## Every output kind GNU ld makes with -z hugetext meets the contract, as
## the project's checker judges it (not only as ld's own tests see it).

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t/a.o
# RUN: %ld.bfd -z hugetext -z separate-code %t/a.o -o %t/exec
# RUN: %ld.bfd -z hugetext -z noseparate-code %t/a.o -o %t/exec-nosep
# RUN: %ld.bfd -z hugetext -pie -z relro -z now %t/a.o -o %t/pie
# RUN: %ld.bfd -z hugetext -pie --no-dynamic-linker %t/a.o -o %t/static-pie
# RUN: %ld.bfd -z hugetext -static %t/a.o -o %t/static
# RUN: %ld.bfd -z hugetext -shared %t/a.o -o %t/shared.so
# RUN: %ld.bfd -z hugetext -z max-page-size=0x200000 %t/a.o -o %t/maxpage
# RUN: %expect-exit 0 %hugetext check %t/exec %t/exec-nosep %t/pie %t/static-pie %t/static %t/shared.so %t/maxpage | FileCheck %s

# CHECK-COUNT-7: : ok: 1 eligible code segment meets the contract

## Without the option, the same link fails the contract.
# RUN: %ld.bfd -z separate-code %t/a.o -o %t/plain
# RUN: %expect-exit 1 %hugetext check %t/plain

  .text
  .globl _start
_start:
  .skip 0x300000
  .data
  .quad 1
