# REQUIRES: ld.lld
## A layout that meets the contract, made by hand: the code starts on an
## H boundary (LLD aligns the segment to its first section) and ends on
## one.  The checker accepts it, in text and in JSON.

# RUN: llvm-mc -filetype=obj -triple=x86_64 %s -o %t.o
# RUN: %ld.lld -pie %t.o -o %t
# RUN: %expect-exit 0 %hugetext check %t | FileCheck %s
# RUN: %expect-exit 0 %hugetext check --json %t | FileCheck %s --check-prefix=JSON

# CHECK:      LOAD R-X offset 0x200000 vaddr 0x200000 filesz 0x400000 memsz 0x400000 align 0x200000: ok
# CHECK-NEXT:   code 4 MiB, eligible; vaddr and offset aligned to H
# CHECK-NOT:  problem
# CHECK:      {{.*}}: ok: 1 eligible code segment meets the contract

# JSON:      {"files":[{"file":"{{.*}}","verdict":"ok","class":64,"byte_order":"little","machine":"x86-64","e_machine":62,"type":"ET_DYN","applicable":true,"page_size":2097152,"page_size_assumed":false,"min_size":2097152,"eligible_segments":1,"failing_segments":0,"segments":[
# JSON-SAME: {"phdr_index":{{[0-9]+}},"flags":"R-X","offset":2097152,"vaddr":2097152,"filesz":4194304,"memsz":4194304,"align":2097152,"code":true,"code_size":4194304,"code_size_from":"sections","eligible":true,"vaddr_aligned":true,"offset_aligned":true,"front_gap":{{[0-9]+}},"tail_padding":0,"tail_fill":"none","padding":{{[0-9]+}},"padding_holes":{{[0-9]+}},"ok":true,"problems":[]}

  .text
  .p2align 21
  .globl _start
_start:
  ret
  .skip 0x3c0000 - 1, 0xcc
  .balign 0x200000, 0xcc
