# REQUIRES: ld.lld-hugetext
## Every output kind ld.lld makes with -z hugetext meets the contract, as the
## project's checker judges it, in each of LLD's segment layouts.  (After
## strip and objcopy: strip.s.)

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t/a.o
# RUN: %ld.lld -z hugetext %t/a.o -o %t/exec
# RUN: %ld.lld -z hugetext --no-rosegment %t/a.o -o %t/exec-norosegment
# RUN: %ld.lld -z hugetext -z separate-code %t/a.o -o %t/exec-separate
# RUN: %ld.lld -z hugetext -z separate-loadable-segments %t/a.o -o %t/exec-separate-all
# RUN: %ld.lld -z hugetext -pie -z relro -z now --pack-dyn-relocs=relr %t/a.o -o %t/pie
# RUN: %ld.lld -z hugetext -pie --no-rosegment %t/a.o -o %t/pie-norosegment
# RUN: %ld.lld -z hugetext -pie -static --no-dynamic-linker %t/a.o -o %t/static-pie
# RUN: %ld.lld -z hugetext -static --gc-sections %t/a.o -o %t/static
# RUN: %ld.lld -z hugetext -shared %t/a.o -o %t/shared.so
# RUN: %ld.lld -z hugetext -z max-page-size=0x200000 %t/a.o -o %t/maxpage
# RUN: %expect-exit 0 %hugetext check %t/exec %t/exec-norosegment %t/exec-separate \
# RUN:   %t/exec-separate-all %t/pie %t/pie-norosegment %t/static-pie %t/static \
# RUN:   %t/shared.so %t/maxpage | FileCheck %s

# CHECK-COUNT-10: : ok: 1 eligible code segment meets the contract

## Without the option, the same link fails the contract.
# RUN: %ld.lld %t/a.o -o %t/plain
# RUN: %expect-exit 1 %hugetext check %t/plain

  .text
  .globl _start
_start:
  .skip 0x300000
  .section .data.rel.ro,"aw",@progbits
  .quad _start
  .data
  .quad _start
