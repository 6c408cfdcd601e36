# REQUIRES: ld.bfd-hugetext, strip, objcopy
## Rule `strip`: the padding is a section, so every strip keeps the layout:
## the trunk strip and objcopy built with the series, Debian 12's stock
## (unpatched) strip and objcopy 2.40, eu-strip and llvm-strip, for every
## kind of output.

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t/a.o
# RUN: %ld.bfd -z hugetext %t/a.o -o %t/exec
# RUN: %ld.bfd -z hugetext -pie %t/a.o -o %t/pie
# RUN: %ld.bfd -z hugetext -static %t/a.o -o %t/static
# RUN: %ld.bfd -z hugetext -pie --no-dynamic-linker %t/a.o -o %t/static-pie
# RUN: %ld.bfd -z hugetext -shared %t/a.o -o %t/shared.so
# RUN: %ld.bfd -z hugetext -z noseparate-code -pie %t/a.o -o %t/nosep

# RUN: sh -c 'for f in exec pie static static-pie shared.so nosep; do \
# RUN:   %strip %t/$f -o %t/$f.strip && \
# RUN:   /usr/bin/strip %t/$f -o %t/$f.debian-strip && \
# RUN:   eu-strip %t/$f -o %t/$f.eu-strip && \
# RUN:   llvm-strip-19 %t/$f -o %t/$f.llvm-strip && \
# RUN:   %objcopy --only-keep-debug %t/$f %t/$f.debug && \
# RUN:   /usr/bin/objcopy --only-keep-debug %t/$f %t/$f.debian-debug && \
# RUN:   /usr/bin/objcopy --add-gnu-debuglink=%t/$f.debug %t/$f.debian-strip %t/$f.debian-linked && \
# RUN:   %objcopy --add-gnu-debuglink=%t/$f.debug %t/$f.strip %t/$f.linked || exit 1; \
# RUN: done'
# RUN: %expect-exit 0 %hugetext check %t/exec* %t/pie* %t/static* %t/shared.so* %t/nosep* | FileCheck %s

## 6 kinds, each as linked and after 8 tools.
# CHECK-COUNT-54: : ok: 1 eligible code segment meets the contract
# CHECK-NOT: problem

## Each tool keeps the padding section.
# RUN: sh -c 'for f in %t/*; do case $f in *.o) continue;; esac; \
# RUN:   llvm-readelf -SW $f | grep -c " \.hugetext_padding .* AX " || echo "no padding: $f"; \
# RUN: done' | FileCheck %s --check-prefix=PAD
# PAD-NOT: no padding
# PAD-COUNT-54: 1

  .text
  .globl _start
_start:
  .skip 0x300000
  .section .debug_info,"",@progbits
  .quad 0
