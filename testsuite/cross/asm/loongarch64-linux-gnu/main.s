# The cross suite's main (run-cross.py's MAIN_C) for LoongArch, in
# assembly with gas's macros, which gas marks for relaxation
# (R_LARCH_RELAX): clang emits none.  Prints "ok" where bigfn returns 0,
# farfn 2 and h + k[3] is 7.
	.text
	.globl	main
	.type	main, @function
main:
	addi.d	$sp, $sp, -16
	st.d	$ra, $sp, 8
	# bigfn through a pointer: bigfn follows main, so relaxation makes
	# the la.local one pcaddi.
	la.local	$t3, bigfn
	jirl	$ra, $t3, 0
	bnez	$a0, .Lfail
	# farfn is 33 MiB away: call36 becomes bl.
	call36	farfn
	addi.w	$t0, $zero, 2
	bne	$a0, $t0, .Lfail
	la.global	$t0, h
	ld.w	$t1, $t0, 0
	la.local	$t0, k
	ld.w	$t2, $t0, 12
	add.w	$t1, $t1, $t2
	addi.w	$t0, $zero, 7
	bne	$t1, $t0, .Lfail
	la.local	$a0, .Lok
	call36	puts
	move	$a0, $zero
	b	.Lret
.Lfail:
	addi.w	$a0, $zero, 1
.Lret:
	ld.d	$ra, $sp, 8
	addi.d	$sp, $sp, 16
	ret
	.size	main, .-main

	.section .rodata
.Lok:
	.asciz	"ok"

	.data
	.p2align 2
	.globl	h
	.type	h, @object
h:
	.word	3
	.size	h, 4
	.type	k, @object
k:
	.word	1, 2, 3, 4
	.size	k, 16
