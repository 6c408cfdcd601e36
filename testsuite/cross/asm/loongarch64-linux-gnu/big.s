# run-cross.py's BIG_C for LoongArch, in assembly (main.s says why).
	.text
	.globl	bigfn
	.type	bigfn, @function
bigfn:
	la.global	$t0, g
	ld.w	$a0, $t0, 0
	addi.w	$a0, $a0, -1
	ret
	.size	bigfn, .-bigfn

	# An alignment that gas leaves to ld (R_LARCH_ALIGN), whose nops
	# relaxation deletes.
	.p2align 4
	.globl	bigfn2
	.type	bigfn2, @function
bigfn2:
	la.global	$t0, g
	ld.w	$a0, $t0, 0
	addi.w	$a0, $a0, -1
	ret
	.size	bigfn2, .-bigfn2

	.data
	.p2align 2
	.globl	g
	.type	g, @object
g:
	.word	1
	.size	g, 4
