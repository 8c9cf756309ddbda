/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ntprof probe's verdict (probe_verdict.c): whether 'ntprof record' can
 * run with the hooks the module reports, or with an SPDK program's sites
 * and processes, and why not.
 */
#ifndef NTPROF_PROBE_VERDICT_H
#define NTPROF_PROBE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "genl/session.h"
#include "sites/kbtf.h"
#include "sites/kcaps.h"
#include "sites/spdk.h"
#include "sites/spdk_agent.h"

/**
 * struct probe_verdict - whether a recording can run
 * @ok: 'ntprof record' can run with the options probed
 * @optional_lost: an optional hook is missing for good and no other hook
 *	stamps its point, so two components of the report merge
 * @why: when not @ok, the reason; when @ok, what the recording will
 *	wait for or how it records, or "" for nothing to add
 */
struct probe_verdict {
	bool ok;
	bool optional_lost;
	char why[512];
};

/* probe_hook_kind() - "tracepoint" or "function" for a hook's kind. */
const char *probe_hook_kind(uint8_t kind);

/*
 * probe_hook_module() - the module a hook lives in, or NULL for the
 * kernel's own hooks. probe-get does not say: the hooks of a transport
 * live in its module, the others in the role's core (nvme_*, nvmet_*) or
 * in the kernel (block_*, blk_*).
 */
const struct session_module *
probe_hook_module(const struct session_status *st,
		  const struct session_hook *hk);

/*
 * probe_hooks_layout() - mark missing each hook that reads a field which
 * neither BTF (@l) nor the module gives, with the fields in its @lacking.
 */
void probe_hooks_layout(struct session_hooks *hooks,
			const struct kbtf_layout *l);

/*
 * probe_layout_lack_str() - the first field of @mask, as "struct.member",
 * with the reason BTF lacks it.
 */
void probe_layout_lack_str(uint64_t mask, const struct kbtf_layout *l,
			   char *buf, size_t size);

/*
 * probe_hooks_judge() - judge the kernel hooks of a session of @role over
 * @transport, after probe_hooks_layout(). @busy: a session of the role
 * runs already.
 */
void probe_hooks_judge(const struct session_status *st,
		       const struct session_hooks *hooks,
		       const struct kbtf_layout *l,
		       const struct kernel_caps *caps, uint32_t role,
		       uint32_t transport, bool busy, struct probe_verdict *v);

/*
 * probe_spdk_judge() - judge an SPDK program's sites and processes.
 * @find_err: why its processes could not be listed, or NULL; @module:
 * the ntprof module is loaded (uprobes need it); @busy: a session of
 * @role runs already.
 */
void probe_spdk_judge(const struct spdk_prog *t, const struct spdk_procs *ps,
		      const char *find_err, bool module, bool busy,
		      uint32_t role, struct probe_verdict *v);

#endif /* NTPROF_PROBE_VERDICT_H */
