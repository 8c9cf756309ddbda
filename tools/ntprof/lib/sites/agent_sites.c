// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's site list, written from an SPDK program's resolved sites.
 * The fetches keep the kernel's uprobe model, so the same session_usite
 * serves both ways of recording: uprobes in the start request, patches
 * in the agent.
 */
#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <ntprof/agent_abi.h>

#include "sites/agent_sites.h"
#include "sites/elfsite.h"

/*
 * The code a rel8 branch into a site's patch can come from: a branch
 * at q reaches q + 2 - 128 to q + 2 + 127, and the patch's bytes are at
 * most the entry's endbr64 (4) and 19 displaced bytes past the entry.
 */
#define NEAR_BEFORE	128
#define NEAR_AFTER	(4 + AGENT_DISPLACED_MAX + 126)

/*
 * near_write() - write a near line for each function beside @u's that lies
 * within a rel8's reach of its patch. If there are more than the agent
 * holds, it writes one more than that (and the agent refuses such a site);
 * without the program's symbols, it writes none.
 */
static void near_write(FILE *f, const struct spdk_prog *p,
		       const struct session_usite *u)
{
	struct elfsite_code near[AGENT_NEAR_MAX + 1];
	uint64_t lo = u->vaddr > NEAR_BEFORE ? u->vaddr - NEAR_BEFORE : 0;
	size_t i, n;

	if (!p->es)
		return;
	n = elfsite_code_near(p->es, lo, u->vaddr + NEAR_AFTER, u->vaddr,
			      near, AGENT_NEAR_MAX + 1);
	for (i = 0; i < n && i <= AGENT_NEAR_MAX; i++)
		fprintf(f, "near %#" PRIx64 " %" PRIu64 "\n", near[i].vaddr,
			near[i].size);
}

/* The agent's names of the fetches, in session_usite_field order. */
static const char *const field_names[SESSION_F_COUNT] = {
	"key", "qid", "cid", "opcode", "nsid", "slba", "nlb", "length",
};

static void fetch_write(FILE *f, const char *name,
			const struct session_fetch *x)
{
	unsigned int i;

	fprintf(f, " %s=%" PRIu32, name, x->reg);
	for (i = 0; i < x->nr_derefs; i++)
		fprintf(f, ">%" PRId32, x->derefs[i]);
	if (x->offset)
		fprintf(f, "%+" PRId32, x->offset);
	if (x->width)
		fprintf(f, ":%" PRIu32, x->width);
}

int agent_sites_write(FILE *f, const struct spdk_prog *p, const char *object)
{
	const struct session_usite *u;
	unsigned int k;
	struct stat st;
	size_t i;

	fprintf(f, "# ntprof agent sites: %s %s\n",
		p->role == NTPROF_ROLE_HOST ? "host" : "target", object);
	/* The build whose addresses these are: the agent checks it. */
	if (p->build_id) {
		fprintf(f, "object %s build-id %s\n", object, p->build_id);
	} else {
		if (fstat(p->fd, &st))
			return -errno;
		fprintf(f, "object %s file %" PRIu64 " %lld.%09ld\n", object,
			(uint64_t)st.st_size, (long long)st.st_mtim.tv_sec,
			st.st_mtim.tv_nsec);
	}
	for (i = 0; i < p->nr_usites; i++) {
		u = &p->usites[i];
		if (!u->size)
			return -EINVAL;
		fprintf(f, "site %s %#" PRIx64 " %" PRIu64 " %" PRIu32 " %s %" PRIu32
			" %" PRIu32, object, u->vaddr, u->size, u->point,
			(u->flags & NTPROF_USITE_F_FIRST) ?
			((u->flags & NTPROF_USITE_F_LAST) ? "first,last" : "first") :
			((u->flags & NTPROF_USITE_F_LAST) ? "last" : "mid"),
			p->role, u->transport);
		for (k = 0; k < SESSION_F_COUNT; k++)
			if (u->f[k].set)
				fetch_write(f, field_names[k], &u->f[k]);
		if (u->trtype.set)
			fetch_write(f, "trtype", &u->trtype);
		fputc('\n', f);
		near_write(f, p, u);
	}
	return ferror(f) ? -EIO : 0;
}
