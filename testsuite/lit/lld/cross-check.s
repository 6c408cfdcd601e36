# REQUIRES: ld.bfd-hugetext, ld.lld-hugetext
## GNU ld and ld.lld, given the same objects and options, give outputs that
## `hugetext check` judges alike: the same verdict and code segments of the
## same size. Each pair is linked with -z hugetext, and once more without
## it, where both must fail the same way; below the min size both outputs
## are the links without the option, byte for byte.

# RUN: rm -rf %t && split-file %s %t && cd %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 large.s -o large.o
# RUN: llvm-mc -filetype=obj -triple=x86_64 small.s -o small.o
# RUN: llvm-mc -filetype=obj -triple=x86_64 lib.s -o lib.o
# RUN: %ld.bfd -shared -soname=lib.so lib.o -o lib.so

# RUN: %ld.bfd -z hugetext large.o lib.so -o bfd-exec
# RUN: %ld.lld -z hugetext large.o lib.so -o lld-exec
# RUN: %compare-verdicts bfd-exec lld-exec | FileCheck %s --check-prefix=OK
# RUN: %ld.bfd -z hugetext -pie large.o lib.so -o bfd-pie
# RUN: %ld.lld -z hugetext -pie large.o lib.so -o lld-pie
# RUN: %compare-verdicts bfd-pie lld-pie | FileCheck %s --check-prefix=OK
# RUN: %ld.bfd -z hugetext -shared large.o lib.so -o bfd-shared
# RUN: %ld.lld -z hugetext -shared large.o lib.so -o lld-shared
# RUN: %compare-verdicts bfd-shared lld-shared | FileCheck %s --check-prefix=OK
# RUN: %ld.bfd -z hugetext -static large.o lib.o -o bfd-static
# RUN: %ld.lld -z hugetext -static large.o lib.o -o lld-static
# RUN: %compare-verdicts bfd-static lld-static | FileCheck %s --check-prefix=OK
# RUN: %ld.bfd -z hugetext -pie --no-dynamic-linker large.o lib.o -o bfd-static-pie
# RUN: %ld.lld -z hugetext -pie -static --no-dynamic-linker large.o lib.o -o lld-static-pie
# RUN: %compare-verdicts bfd-static-pie lld-static-pie | FileCheck %s --check-prefix=OK
## Text at the start of the file: GNU ld's -z noseparate-code, LLD's
## --no-rosegment.
# RUN: %ld.bfd -z hugetext -z noseparate-code -pie large.o lib.so -o bfd-noseparate
# RUN: %ld.lld -z hugetext --no-rosegment -pie large.o lib.so -o lld-norosegment
# RUN: %compare-verdicts bfd-noseparate lld-norosegment | FileCheck %s --check-prefix=OK
## Another huge page size and min size.
# RUN: %ld.bfd -z hugetext -z hugetext-page-size=0x400000 -z hugetext-min-size=0x100000 -pie large.o lib.so -o bfd-4m
# RUN: %ld.lld -z hugetext -z hugetext-page-size=0x400000 -z hugetext-min-size=0x100000 -pie large.o lib.so -o lld-4m
# RUN: %compare-verdicts bfd-4m lld-4m --page-size=0x400000 --min-size=0x100000 | \
# RUN:   FileCheck %s --check-prefix=OK4M

# OK:      bfd-{{.*}}: ok, code segments 0x400000
# OK-NEXT: lld-{{.*}}: ok, code segments 0x400000
# OK4M:      bfd-4m: ok, code segments 0x400000
# OK4M-NEXT: lld-4m: ok, code segments 0x400000

## Without the option both fail.
# RUN: %ld.bfd -pie large.o lib.so -o bfd-plain
# RUN: %ld.lld -pie large.o lib.so -o lld-plain
# RUN: %expect-exit 1 %hugetext check bfd-plain
# RUN: %expect-exit 1 %hugetext check lld-plain
## Below the min size both leave the output alone: each is byte for byte
## its link without the option, and both pass the checker alike.
# RUN: %ld.bfd -z hugetext -pie small.o lib.so -o bfd-small
# RUN: %ld.lld -z hugetext -pie small.o lib.so -o lld-small
# RUN: %ld.bfd -pie small.o lib.so -o bfd-small-plain
# RUN: %ld.lld -pie small.o lib.so -o lld-small-plain
# RUN: cmp bfd-small-plain bfd-small
# RUN: cmp lld-small-plain lld-small
# RUN: %compare-verdicts bfd-small lld-small | FileCheck %s --check-prefix=SMALL
# SMALL:      bfd-small: ok, code segments none
# SMALL-NEXT: lld-small: ok, code segments none

#--- large.s
  .text
  .globl _start
_start:
  call f
  .skip 0x300000
  .section .rodata,"a",@progbits
  .quad 1
  .data
  .quad _start

#--- small.s
  .text
  .globl _start
_start:
  call f
  ret
  .data
  .quad _start

#--- lib.s
  .text
  .globl f
  .type f,@function
f:
  ret
