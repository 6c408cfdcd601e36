# REQUIRES: ld.lld-hugetext
## Rule `noop`: below the min size, ld.lld's output with -z hugetext is byte
## for byte its output without it, for every kind of output and with
## --no-rosegment.

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t/a.o
# RUN: sh -c 'for k in "" "-pie" "-static" "-pie -static --no-dynamic-linker" "-shared" \
# RUN:     "--no-rosegment" "-pie --no-rosegment"; do \
# RUN:   %ld.lld $k %t/a.o -o %t/plain && \
# RUN:   %ld.lld $k -z hugetext %t/a.o -o %t/huge && \
# RUN:   cmp %t/plain %t/huge && echo "identical: $k" || exit 1; \
# RUN: done' | FileCheck %s
# CHECK-COUNT-7: identical:

## The min size can be raised: 2 MiB of code stays unchanged below 3 MiB.
# RUN: llvm-mc -filetype=obj -triple=x86_64 --defsym BIG=1 %s -o %t/b.o
# RUN: %ld.lld -z hugetext -z hugetext-min-size=0x300000 %t/b.o -o %t/huge2
# RUN: %ld.lld %t/b.o -o %t/plain2
# RUN: cmp %t/plain2 %t/huge2
## and it is what decides: the same link at the default min size changes.
# RUN: %ld.lld -z hugetext %t/b.o -o %t/huge3
# RUN: not cmp -s %t/plain2 %t/huge3

  .text
  .globl _start
_start:
.ifdef BIG
  .skip 0x200000
.else
  .skip 0x1ff000
.endif
  .data
  .quad _start
