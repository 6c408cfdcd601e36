# REQUIRES: ld.lld-hugetext, strip, objcopy
## Rule `strip`: the padding is a section, so every strip keeps the layout
## of ld.lld's output: the trunk strip and objcopy built with the bfd
## series, Debian 12's stock (unpatched) strip and objcopy 2.40, eu-strip
## and llvm-strip, and objcopy --only-keep-debug and --add-gnu-debuglink of
## both binutils, for every kind of output and with --no-rosegment.

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t/a.o
# RUN: %ld.lld -z hugetext %t/a.o -o %t/exec
# RUN: %ld.lld -z hugetext -pie %t/a.o -o %t/pie
# RUN: %ld.lld -z hugetext -static %t/a.o -o %t/static
# RUN: %ld.lld -z hugetext -pie -static --no-dynamic-linker %t/a.o -o %t/static-pie
# RUN: %ld.lld -z hugetext -shared %t/a.o -o %t/shared.so
# RUN: %ld.lld -z hugetext --no-rosegment -pie %t/a.o -o %t/norosegment

# RUN: sh -c 'for f in exec pie static static-pie shared.so norosegment; do \
# RUN:   %strip %t/$f -o %t/$f.strip && \
# RUN:   /usr/bin/strip %t/$f -o %t/$f.debian-strip && \
# RUN:   eu-strip %t/$f -o %t/$f.eu-strip && \
# RUN:   llvm-strip %t/$f -o %t/$f.llvm-strip && \
# RUN:   %objcopy --only-keep-debug %t/$f %t/$f.debug && \
# RUN:   /usr/bin/objcopy --only-keep-debug %t/$f %t/$f.debian-debug && \
# RUN:   /usr/bin/objcopy --add-gnu-debuglink=%t/$f.debug %t/$f.debian-strip %t/$f.debian-linked && \
# RUN:   %objcopy --add-gnu-debuglink=%t/$f.debug %t/$f.strip %t/$f.linked && \
# RUN:   llvm-readelf -SW %t/$f.linked | grep -q " \.gnu_debuglink " && \
# RUN:   llvm-readelf -SW %t/$f.debian-linked | grep -q " \.gnu_debuglink " || exit 1; \
# RUN: done'
# RUN: %expect-exit 0 %hugetext check %t/exec* %t/pie* %t/static* %t/shared.so* %t/norosegment* | FileCheck %s

## 6 kinds, each as linked and after 8 tools.
# CHECK-COUNT-54: : ok: 1 eligible code segment meets the contract
# CHECK-NOT: problem

## Each tool keeps the padding section.
# RUN: sh -c 'for f in %t/*; do case $f in *.o) continue;; esac; \
# RUN:   llvm-readelf -SW $f | grep -c " \.hugetext_padding .* AX " || echo "no padding: $f"; \
# RUN: done' | FileCheck %s --check-prefix=PAD
# PAD-NOT: no padding
# PAD-COUNT-54: 1

## Without the option, the same links fail the contract after the tools
## too: the check above can fail.
# RUN: %ld.lld -pie %t/a.o -o %t/plain
# RUN: %objcopy --only-keep-debug %t/plain %t/plain.debug
# RUN: %strip %t/plain -o %t/plain.strip
# RUN: %objcopy --add-gnu-debuglink=%t/plain.debug %t/plain.strip %t/plain.linked
# RUN: %expect-exit 1 %hugetext check %t/plain.linked

  .text
  .globl _start
_start:
  .skip 0x300000
  .section .debug_info,"",@progbits
  .quad 0
