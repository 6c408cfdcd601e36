# REQUIRES: ld.bfd-hugetext
## Rule `others`: with -z hugetext every segment but the code segment keeps
## the p_align, sizes and flags it has without the option, the segments
## before the code stay where they are, and those after it move as a
## whole: each segment and allocated section after the code keeps its
## address and file offset relative to the first segment after the code,
## which keeps its offset within its page.  For every kind of output and
## with -z separate-code, -z noseparate-code and -z relro.

## The input has a note, as programs gcc links against glibc have.  (A
## non-PIE executable whose first segment would hold only the ELF headers
## gets them in the page below the code, with or without the option: see
## docs/gnu-ld.md.)

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t/a.o
# RUN: sh -c 'for k in "" "-pie" "-shared" "-static" "-pie --no-dynamic-linker" \
# RUN:     "-z noseparate-code" "-pie -z noseparate-code" "-shared -z noseparate-code" \
# RUN:     "-pie -z relro -z now" "-z separate-code -z relro"; do \
# RUN:   %ld.bfd $k %t/a.o -o %t/plain && \
# RUN:   %ld.bfd $k -z hugetext %t/a.o -o %t/huge && \
# RUN:   %expect-exit 0 %hugetext check %t/huge > /dev/null && \
# RUN:   python3 %S/../Inputs/others.py %t/plain > %t/plain.txt && \
# RUN:   python3 %S/../Inputs/others.py %t/huge > %t/huge.txt && \
# RUN:   grep -q "^segment LOAD RW after" %t/huge.txt && \
# RUN:   diff %t/plain.txt %t/huge.txt && echo "shifted as a whole: $k" || exit 1; \
# RUN: done' | FileCheck %s
# CHECK-COUNT-10: shifted as a whole:

## What the rule rules out: -z max-page-size=0x200000 aligns every segment
## to 2 MiB, and moves the data within the segments after the code.
# RUN: %ld.bfd -z hugetext -z max-page-size=0x200000 %t/a.o -o %t/maxpage
# RUN: %ld.bfd %t/a.o -o %t/plain
# RUN: python3 %S/../Inputs/others.py %t/plain > %t/plain.txt
# RUN: python3 %S/../Inputs/others.py %t/maxpage > %t/maxpage.txt
# RUN: not diff %t/plain.txt %t/maxpage.txt
# RUN: FileCheck %s --check-prefix=PLAIN < %t/plain.txt
# RUN: FileCheck %s --check-prefix=MAXPAGE < %t/maxpage.txt
# PLAIN:   segment LOAD RW after+0x1ff0 offset after+0xff0 align 0x1000
# MAXPAGE: segment LOAD RW after+0x3ffff0 offset after+0x1ffff0 align 0x200000

  .text
  .globl _start
_start:
  .skip 0x300000
  .section .note.hugetext,"a",@note
  .long 4, 4, 1
  .asciz "GNU"
  .long 0
  .section .rodata,"a",@progbits
  .quad 1
  .section .data.rel.ro,"aw",@progbits
  .quad _start
  .section .tdata,"awT",@progbits
  .quad 2
  .section .tbss,"awT",@nobits
  .quad 0
  .data
  .quad 3
  .bss
  .zero 0x3000
