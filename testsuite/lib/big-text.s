# 3 MiB of code behind a function that returns at once: the large code
# segment of the test programs that need one (the plugin's DejaGnu tests,
# the tools' lit tests, the kernel matrix's programs and libbig.so).
	.text
	.globl	bigfn
	.type	bigfn, @function
bigfn:
	xorl	%eax, %eax
	ret
	.skip	0x300000, 0xcc
	.size	bigfn, .-bigfn
	.section .note.GNU-stack,"",@progbits
