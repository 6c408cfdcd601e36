# 3 MiB of code that nothing calls.
	.text
	.globl	padding_text
padding_text:
	ret
	.skip	0x300000, 0xcc
	.section .note.GNU-stack,"",@progbits
