/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The register-saving stub that a trampoline calls when its site is on,
 * after pushing the site's id. At a function's entry the argument
 * registers, rax (the vector count of a variadic call), r10 (a static
 * chain) and r11 are live or may be; the flags are not (no ABI carries
 * them into a call). The handler is C built with -mgeneral-regs-only,
 * so the vector registers, which may hold arguments too, stay as they
 * are. The saved registers are the handler's struct agent_regs.
 */
	.text
	.globl	agent_stub
	.hidden	agent_stub
	.type	agent_stub, @function
agent_stub:
	/* [rsp]: back into the trampoline; [rsp + 8]: the site id */
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	movq	%rsp, %rsi		/* struct agent_regs * */
	movl	80(%rsp), %edi		/* the site id, past 9 registers and a return */
	pushq	%rbx
	movq	%rsp, %rbx
	andq	$-16, %rsp		/* the ABI's alignment, whatever the caller's */
	call	agent_hit
	movq	%rbx, %rsp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rax
	ret
	.size	agent_stub, . - agent_stub

/*
 * The stub of a site that follows commands and starts none (no first
 * site). A thread with no sampled command in flight, which is almost
 * every thread at almost every hit when few commands are sampled, has
 * nothing for it to stamp: it returns at once, saving no register but
 * r11 (which it only borrows) and calling nothing. Else it is
 * agent_stub, with the stack as agent_stub takes it.
 */
	.globl	agent_stub_follow
	.hidden	agent_stub_follow
	.type	agent_stub_follow, @function
agent_stub_follow:
	pushq	%r11
	movq	agent_inflight@gottpoff(%rip), %r11
	cmpl	$0, %fs:(%r11)
	popq	%r11
	jne	agent_stub
	ret
	.size	agent_stub_follow, . - agent_stub_follow

/*
 * The handler's count of the thread's sampled commands in flight (regs.h),
 * initial-exec: at a fixed offset from %fs in every thread.
 */
	.section .tbss, "awT", @nobits
	.globl	agent_inflight
	.hidden	agent_inflight
	.type	agent_inflight, @object
	.size	agent_inflight, 4
	.balign	4
agent_inflight:
	.zero	4

	.section .note.GNU-stack, "", @progbits
