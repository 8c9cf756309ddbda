/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What 'ntprof probe' prints (probe_out.c): the kernel and the modules,
 * each hook with the point it stamps, an SPDK program's section, and the
 * verdict's "load:" line. Everything goes to standard output.
 */
#ifndef NTPROF_PROBE_OUT_H
#define NTPROF_PROBE_OUT_H

#include <stdint.h>

#include "analysis/probe_verdict.h"
#include "genl/session.h"
#include "sites/kbtf.h"
#include "sites/kcaps.h"
#include "sites/spdk.h"
#include "sites/spdk_agent.h"

/* probe_no_module_print() - the line for an SPDK probe without the module. */
void probe_no_module_print(void);

/*
 * probe_kernel_print() - the kernel and its means, the ntprof module, and
 * the NVMe-oF modules of @role over @transport, a line each.
 */
void probe_kernel_print(const struct session_status *st,
			const struct kernel_caps *caps, uint32_t role,
			uint32_t transport);

/*
 * probe_hooks_print() - the hooks of @role over @transport, a line each,
 * the notes on them, and the verdict @v.
 */
void probe_hooks_print(const struct session_status *st,
		       const struct session_hooks *hooks,
		       const struct kbtf_layout *l,
		       const struct kernel_caps *caps, uint32_t role,
		       uint32_t transport, const struct probe_verdict *v);

/*
 * probe_spdk_print() - an SPDK program's section: its sites, then the
 * processes that run it (@found: they could be listed), and the verdict
 * @v.
 */
void probe_spdk_print(const struct spdk_prog *t, const struct spdk_procs *ps,
		      bool found, const struct probe_verdict *v);

#endif /* NTPROF_PROBE_OUT_H */
