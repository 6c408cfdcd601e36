# run-cross.py's FAR_C for LoongArch, in assembly (main.s says why):
# farfn returns bigfn2 () + g + 1.
	.text
	.p2align 4
	.globl	farfn
	.type	farfn, @function
farfn:
	addi.d	$sp, $sp, -16
	st.d	$ra, $sp, 8
	# bigfn2 is 33 MiB back: call36 becomes bl.
	call36	bigfn2
	la.global	$t0, g
	ld.w	$t1, $t0, 0
	add.w	$a0, $a0, $t1
	addi.w	$a0, $a0, 1
	ld.d	$ra, $sp, 8
	addi.d	$sp, $sp, 16
	ret
	.size	farfn, .-farfn
