// SPDX-License-Identifier: GPL-2.0
/*
 * Why the agent refused a site, in words: for the agent and for the
 * tool, which says it in probe without linking the patcher.
 */
#include "patch.h"

const char *agent_refusal_str(enum agent_refusal r)
{
	switch (r) {
	case AGENT_PATCHED:
		return "patched";
	case AGENT_TOO_SHORT:
		return "the function is shorter than the 5-byte jump";
	case AGENT_UNDECODABLE:
		return "its body has bytes that decode as no instruction";
	case AGENT_BRANCH_INTO_PATCH:
		return "a branch of its body lands inside the patched bytes";
	case AGENT_UNRELOCATABLE:
		return "a displaced instruction cannot be relocated";
	case AGENT_NO_TRAMPOLINE:
		return "no memory for a trampoline within 2 GiB of it";
	case AGENT_NO_WRITE:
		return "its code cannot be written (through /proc/self/mem)";
	case AGENT_NOT_LOADED:
		return "its executable or library is not loaded in the process";
	case AGENT_BREAKPOINT:
		return "a breakpoint is in its first bytes (a uprobe or a debugger's)";
	case AGENT_OTHER_BUILD:
		return "the site list was made from another build of its program or library";
	case AGENT_BRANCH_FROM_OBJECT:
		return "a branch from elsewhere in the object lands in the patched bytes";
	case AGENT_NOT_IN_TEXT:
		return "its address and size in the site list are not in its object's executable code";
	}
	return "unknown";
}
