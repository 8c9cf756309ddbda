// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's SIGSEGV and SIGBUS handler (fault.h). A fault whose
 * instruction is one of ntprof_agent_extable's loads (load.h), raised by
 * the kernel (not sent by kill()), resumes at the load's fixup, where
 * the handler counts it and drops the command's record. Any other is the
 * program's own: it goes to the handler the program had when the agent
 * started, as the kernel would have delivered it: its SA_SIGINFO
 * handler with the same arguments, its plain handler, or, for SIG_DFL
 * and SIG_IGN, the default action, restored so that the faulting
 * instruction, run again, ends the process as it would have without the
 * agent (with its core). A handler the program installs after start-up
 * replaces the agent's: its faults are then the program's to handle,
 * the handler's loads among them.
 */
#define _GNU_SOURCE	/* REG_RIP */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "fault.h"
#include "load.h"

/* The table's bounds, the linker's for a section named as a C symbol. */
extern const struct agent_extable __start_ntprof_agent_extable[]
	__attribute__((visibility("hidden"), weak));
extern const struct agent_extable __stop_ntprof_agent_extable[]
	__attribute__((visibility("hidden"), weak));

static struct sigaction prev_segv, prev_bus;

/* The fixup of the load at @ip, or 0 if @ip is no load of the table's. */
static uintptr_t fixup_of(uintptr_t ip)
{
	const struct agent_extable *e;

	for (e = __start_ntprof_agent_extable; e < __stop_ntprof_agent_extable; e++)
		if ((uintptr_t)&e->insn + e->insn == ip)
			return (uintptr_t)&e->fixup + e->fixup;
	return 0;
}

static void on_fault(int sig, siginfo_t *si, void *uctx)
{
	struct sigaction *prev = sig == SIGSEGV ? &prev_segv : &prev_bus;
	ucontext_t *uc = uctx;
	uintptr_t fixup;

	/* si_code > 0: the kernel's, for the instruction at RIP. */
	if (si->si_code > 0) {
		fixup = fixup_of(uc->uc_mcontext.gregs[REG_RIP]);
		if (fixup) {
			uc->uc_mcontext.gregs[REG_RIP] = fixup;
			return;
		}
	}
	if (prev->sa_flags & SA_SIGINFO) {
		if (prev->sa_flags & SA_RESETHAND)
			sigaction(sig, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
		prev->sa_sigaction(sig, si, uctx);
		return;
	}
	if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		if (prev->sa_flags & SA_RESETHAND)
			sigaction(sig, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
		prev->sa_handler(sig);
		return;
	}
	/* A signal sent with kill() that the program ignores stays ignored. */
	if (prev->sa_handler == SIG_IGN && si->si_code <= 0)
		return;
	/*
	 * The default action: the kernel's own for a fault (it does not let
	 * a fault be ignored either), by the instruction faulting again
	 * once this returns; a sent signal is sent again, now unhandled.
	 */
	sigaction(sig, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
	if (si->si_code <= 0)
		raise(sig);
}

/*
 * Ours for @sig, run as the program's would have been: on its alternate
 * stack if it asked for one, with its mask, deferred or not as it was,
 * so that a chained handler runs as the kernel would have run it.
 */
static int install(int sig, struct sigaction *prev)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, prev))
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_mask = prev->sa_mask;
	sa.sa_flags = SA_SIGINFO |
		      (prev->sa_flags & (SA_ONSTACK | SA_NODEFER | SA_RESTART));
	return sigaction(sig, &sa, NULL) ? -errno : 0;
}

int agent_fault_install(void)
{
	int err;

	err = install(SIGSEGV, &prev_segv);
	if (err)
		return err;
	err = install(SIGBUS, &prev_bus);
	if (err)
		sigaction(SIGSEGV, &prev_segv, NULL);
	return err;
}
