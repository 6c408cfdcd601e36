## More than H of code, linked plain: eligible, and not laid out.
  .text
  .globl _start
_start:
  ret
  .skip 0x300000 - 1, 0xcc
