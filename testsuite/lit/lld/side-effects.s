# REQUIRES: ld.lld-hugetext
## Rule `side-effects`: no allocated section of LLD's output changes its
## size, type or flags with -z hugetext, and etext and _etext keep their
## place relative to the code, for every kind of output and in each of LLD's
## segment layouts (LLD defines no __etext).  The padding is a section of its
## own.

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t/a.o
# RUN: sh -c 'for k in "" "-pie" "-static" "-pie -static --no-dynamic-linker" "-shared" \
# RUN:     "--no-rosegment" "-z separate-code" "-z separate-loadable-segments"; do \
# RUN:   %ld.lld $k %t/a.o -o %t/plain && \
# RUN:   %ld.lld $k -z hugetext %t/a.o -o %t/huge && \
# RUN:   python3 %S/../Inputs/sections.py %t/plain > %t/plain.txt && \
# RUN:   python3 %S/../Inputs/sections.py %t/huge > %t/huge.txt && \
# RUN:   llvm-readelf -SW %t/huge | grep -q " \.hugetext_padding " && \
# RUN:   grep -q "^symbol etext" %t/plain.txt && \
# RUN:   diff %t/plain.txt %t/huge.txt && echo "unchanged: $k" || exit 1; \
# RUN: done' | FileCheck %s
# CHECK-COUNT-8: unchanged:

  .text
  .globl _start
_start:
  .skip 0x300000
  .data
  .quad etext, _etext
