# REQUIRES: ld.lld-hugetext, qemu-aarch64
## An aarch64 code segment larger than the 128 MiB range of a branch needs
## range-extension thunks. With -z hugetext the layout converges, meets the
## contract, and the program runs: _start reaches `far` through a thunk and
## exits with its status.

# RUN: rm -rf %t && mkdir -p %t
# RUN: llvm-mc -filetype=obj -triple=aarch64 %s -o %t/a.o
# RUN: %ld.lld -z hugetext -static %t/a.o -o %t/exec
# RUN: %ld.lld -z hugetext -pie -static --no-dynamic-linker %t/a.o -o %t/pie
# RUN: %expect-exit 0 %hugetext check %t/exec %t/pie | FileCheck %s
# CHECK-COUNT-2: : ok: 1 eligible code segment meets the contract
# RUN: llvm-nm %t/exec | FileCheck %s --check-prefix=THUNK
# THUNK: __AArch64AbsLongThunk_far
# RUN: %expect-exit 42 %qemu-aarch64 %t/exec
# RUN: %expect-exit 42 %qemu-aarch64 %t/pie

  .text
  .globl _start
_start:
  bl far
  mov x0, #1
  mov x8, #93
  svc #0
  .space 0x8000000
  .globl far
far:
  mov x0, #42
  mov x8, #93
  svc #0
