/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The register-saving stub that a trampoline calls when its site is on,
 * after pushing the site's id. At a function's entry the argument
 * registers, rax (the vector count of a variadic call), r10 (a static
 * chain) and r11 are live or may be; the flags are not (no ABI carries
 * them into a call). The handler is C built with -mgeneral-regs-only,
 * so the vector registers, which may hold arguments too, stay as they
 * are. The saved registers are the handler's struct agent_regs.
 *
 * CET: a trampoline calls a stub indirectly (call qword ptr [rip +
 * stub_slot]), so each stub starts with endbr64, which indirect branch
 * tracking (IBT) wants where an indirect call lands: one instruction
 * more on a site's on path, none on its off path. Calls and returns pair
 * up, as a shadow stack wants: the trampoline calls the stub, the stub
 * calls agent_hit and returns to the trampoline with ret;
 * agent_stub_follow jumps (no call) into agent_stub, past its endbr64,
 * or returns. The note at the end marks the object IBT and SHSTK, so
 * that the linked library keeps a CET-marked program's shadow stack and
 * IBT on (every other object of the library is built with
 * -fcf-protection).
 */
	.text
	.globl	agent_stub
	.hidden	agent_stub
	.type	agent_stub, @function
agent_stub:
	endbr64
agent_stub_body:
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
	endbr64
	pushq	%r11
	movq	agent_inflight@gottpoff(%rip), %r11
	cmpl	$0, %fs:(%r11)
	popq	%r11
	jne	agent_stub_body
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

/*
 * The GNU property note gcc's -fcf-protection writes: NT_GNU_PROPERTY_TYPE_0
 * (5), owner "GNU", one property, GNU_PROPERTY_X86_FEATURE_1_AND
 * (0xc0000002) of 4 bytes, IBT (1) | SHSTK (2), padded to 8.
 */
	.section .note.gnu.property, "a"
	.p2align 3
	.long	4			/* the owner's size, "GNU" and its NUL */
	.long	16			/* the property's: type, size, value, pad */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000002		/* GNU_PROPERTY_X86_FEATURE_1_AND */
	.long	4
	.long	3			/* IBT | SHSTK */
	.p2align 3
