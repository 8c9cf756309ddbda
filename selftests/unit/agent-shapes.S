/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prologues that compilers make rarely or never, for test_agent_patch,
 * each one a case of the patcher's rules.
 */
	.text

/* A rip-relative load first: relocated with its new displacement. */
	.globl	asm_rip_first
	.type	asm_rip_first, @function
asm_rip_first:
	movq	asm_data(%rip), %rax
	addq	%rdi, %rax
	ret
	.size	asm_rip_first, . - asm_rip_first

/* The same after endbr64, which stays in place. */
	.globl	asm_endbr_rip
	.type	asm_endbr_rip, @function
asm_endbr_rip:
	endbr64
	movq	asm_data+8(%rip), %rax
	xorq	%rdi, %rax
	ret
	.size	asm_endbr_rip, . - asm_endbr_rip

/* A short conditional branch in the displaced bytes: it grows to rel32. */
	.globl	asm_jcc_first
	.type	asm_jcc_first, @function
asm_jcc_first:
	testq	%rdi, %rdi
	je	1f
	leaq	1(%rdi), %rax
	ret
1:	movl	$7, %eax
	ret
	.size	asm_jcc_first, . - asm_jcc_first

/* A call first: it returns into the trampoline, which goes on. */
	.globl	asm_call_first
	.type	asm_call_first, @function
asm_call_first:
	call	asm_helper
	addq	$1, %rax
	ret
	.size	asm_call_first, . - asm_call_first

	.globl	asm_helper
	.type	asm_helper, @function
asm_helper:
	leaq	5(%rdi), %rax
	ret
	.size	asm_helper, . - asm_helper

/*
 * A loop back to the entry itself: allowed, the jump is there; the
 * handler runs once an iteration. rdi 0 to 15: rsi plus rdi + ... + 0.
 */
	.globl	asm_loop_entry
	.type	asm_loop_entry, @function
asm_loop_entry:
	leaq	(%rsi,%rdi), %rsi
	testq	%rdi, %rdi
	leaq	-1(%rdi), %rdi
	jne	asm_loop_entry
	movq	%rsi, %rax
	ret
	.size	asm_loop_entry, . - asm_loop_entry

/* A loop back into the displaced bytes: refused. */
	.globl	asm_branch_inside
	.type	asm_branch_inside, @function
asm_branch_inside:
	xorl	%eax, %eax
1:	andl	$15, %edi
	addq	%rdi, %rax
	subq	$1, %rdi
	ja	1b
	ret
	.size	asm_branch_inside, . - asm_branch_inside

/* Three bytes: shorter than the jump, refused. */
	.globl	asm_short
	.type	asm_short, @function
asm_short:
	movl	%edi, %eax
	ret
	.size	asm_short, . - asm_short

/*
 * An int3 in the first bytes, as a uprobe leaves one: refused before
 * anything else. The jump over it keeps the function callable.
 */
	.globl	asm_breakpoint
	.type	asm_breakpoint, @function
asm_breakpoint:
	jmp	1f
	int3
1:	leaq	2(%rdi), %rax
	ret
	.size	asm_breakpoint, . - asm_breakpoint

/* jrcxz has no rel32 form: out of reach from a trampoline, refused. */
	.globl	asm_jrcxz_first
	.type	asm_jrcxz_first, @function
asm_jrcxz_first:
	jrcxz	1f
	movq	%rdi, %rax
	ret
1:	xorl	%eax, %eax
	ret
	.size	asm_jrcxz_first, . - asm_jrcxz_first

/*
 * A call into another function's first bytes, past a 3-byte nop: once
 * asm_calls_into is patched, the call lives on in its trampoline, and
 * asm_called_inside must still be refused.
 */
	.globl	asm_calls_into
	.type	asm_calls_into, @function
asm_calls_into:
	call	asm_called_inside + 3
	addq	$1, %rax
	ret
	.size	asm_calls_into, . - asm_calls_into

	.globl	asm_called_inside
	.type	asm_called_inside, @function
asm_called_inside:
	nopl	(%rax)
	leaq	1(%rdi), %rax
	ret
	.size	asm_called_inside, . - asm_called_inside

/*
 * A piece beside a function, in its section, that jumps into its first
 * bytes with a rel8 (as hand-written code may; a compiler's pieces are
 * in another section, and jump with a rel32): only decoding the piece
 * finds the branch, so asm_near_target is refused when the piece is
 * named near it. Both return rdi + 2.
 */
	.globl	asm_near_piece
	.type	asm_near_piece, @function
asm_near_piece:
	movq	%rdi, %rax
	jmp	.Lnear_head
	.size	asm_near_piece, . - asm_near_piece

	.globl	asm_near_target
	.type	asm_near_target, @function
asm_near_target:
	movq	%rdi, %rax
.Lnear_head:
	addq	$1, %rax
	addq	$1, %rax
	ret
	.size	asm_near_target, . - asm_near_target

	.data
	.align	8
asm_data:
	.quad	0x1234567890abcdef, 0x0fedcba987654321

	.section .note.GNU-stack, "", @progbits
