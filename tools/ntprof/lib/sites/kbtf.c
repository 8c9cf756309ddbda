// SPDX-License-Identifier: GPL-2.0
/*
 * Member offsets of the transports' private structs from kernel BTF,
 * through libbpf's BTF API: nothing here decodes BTF by hand.
 *
 * A read parses vmlinux's BTF and then each module's that a field of the
 * role needs, once, as split BTF on top of vmlinux's (a module's type ids
 * and strings continue the base's), and frees them all before it returns.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "sites/kbtf.h"

/* As include/uapi/linux/ntprof.h describes each field. */
static const struct kbtf_field_def kbtf_fields[] = {
	[NTPROF_LF_NVME_REQUEST_CMD] = { "nvme_core", "nvme_request", "cmd", 8 },
	[NTPROF_LF_NVME_REQUEST_STATUS] = { "nvme_core", "nvme_request", "status", 2 },
	[NTPROF_LF_NVME_RDMA_QE_DATA] = { "nvme_rdma", "nvme_rdma_qe", "data", 8 },
	[NTPROF_LF_NVMET_REQ_CMD] = { "nvmet", "nvmet_req", "cmd", 8 },
	[NTPROF_LF_NVMET_REQ_CQE] = { "nvmet", "nvmet_req", "cqe", 8 },
	[NTPROF_LF_NVMET_REQ_SQ] = { "nvmet", "nvmet_req", "sq", 8 },
	[NTPROF_LF_NVMET_SQ_CTRL] = { "nvmet", "nvmet_sq", "ctrl", 8 },
	[NTPROF_LF_NVMET_SQ_QID] = { "nvmet", "nvmet_sq", "qid", 2 },
	[NTPROF_LF_NVMET_SQ_SQHD_DISABLED] = { "nvmet", "nvmet_sq", "sqhd_disabled", 1 },
	[NTPROF_LF_NVMET_CTRL_CNTLID] = { "nvmet", "nvmet_ctrl", "cntlid", 2 },
	[NTPROF_LF_NVMET_OPS_TYPE] = { "nvmet", "nvmet_fabrics_ops", "type", 4 },
	[NTPROF_LF_NVMET_TCP_CMD_REQ] = { "nvmet_tcp", "nvmet_tcp_cmd", "req", 0 },
	[NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE] = { "nvmet_rdma", "nvmet_rdma_rsp", "send_cqe", 8 },
	[NTPROF_LF_NVMET_RDMA_RSP_READ_CQE] = { "nvmet_rdma", "nvmet_rdma_rsp", "read_cqe", 8 },
	[NTPROF_LF_NVMET_RDMA_RSP_REQ] = { "nvmet_rdma", "nvmet_rdma_rsp", "req", 0 },
	[NTPROF_LF_NVMET_REQ_OPS] = { "nvmet", "nvmet_req", "ops", 8 },
};

/* The array's length is its last initializer's: a field added last fails here. */
_Static_assert(sizeof(kbtf_fields) / sizeof(kbtf_fields[0]) == NTPROF_LF_COUNT,
	       "kbtf_fields[] must define every enum ntprof_layout_field");

/* Anonymous structs and unions nested deeper are not looked into. */
#define KBTF_NEST_MAX	8

/* A module's BTF, parsed on first use. */
struct kbtf_mod {
	const char *name;
	struct btf *btf;	/* NULL: no file (built in or not loaded), or err */
	int err;		/* the errno of a file there that did not parse */
};

struct kbtf_ctx {
	const char *dir;
	struct btf *vmlinux;
	int vmlinux_err;	/* vmlinux's BTF did not parse: its errno */
	struct kbtf_mod mods[NTPROF_LF_COUNT];
	unsigned int nmods;
};

/* A member found: the struct or union that holds it, at @bits in the outer one. */
struct kbtf_hit {
	const struct btf_type *owner;
	unsigned int idx;
	uint32_t bits;
};

const struct kbtf_field_def *kbtf_field(unsigned int id)
{
	if (id >= NTPROF_LF_COUNT || !kbtf_fields[id].module)
		return NULL;
	return &kbtf_fields[id];
}

/*
 * err_text() - return the text of error @err. libbpf says EPROTO for a file
 * without BTF's magic number, which this calls "not BTF".
 */
static const char *err_text(int err)
{
	return err == EPROTO ? "not BTF" : strerror(err);
}

static bool in_role(uint32_t role, unsigned int id)
{
	switch (role) {
	case NTPROF_ROLE_NONE:
		return true;
	case NTPROF_ROLE_HOST:
		return id < NTPROF_LF_FIRST_TARGET;
	case NTPROF_ROLE_TARGET:
		return id >= NTPROF_LF_FIRST_TARGET;
	}
	return false;
}

/*
 * parse() - parse @dir/@name, as split BTF on @base if there is one. It
 * returns NULL with errno set on failure.
 */
static struct btf *parse(const char *dir, const char *name, struct btf *base)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return base ? btf__parse_raw_split(path, base) : btf__parse_raw(path);
}

/*
 * vmlinux_btf() - return vmlinux's BTF, parsed on first use, or NULL if
 * there is none.
 */
static struct btf *vmlinux_btf(struct kbtf_ctx *c)
{
	if (!c->vmlinux && !c->vmlinux_err) {
		c->vmlinux = parse(c->dir, "vmlinux", NULL);
		if (!c->vmlinux)
			c->vmlinux_err = errno ? errno : EINVAL;
	}
	return c->vmlinux;
}

/*
 * module_btf() - return the BTF of module @name, parsed on first use; each
 * field asks for its own module's.
 */
static struct kbtf_mod *module_btf(struct kbtf_ctx *c, const char *name)
{
	struct kbtf_mod *m;
	unsigned int i;

	for (i = 0; i < c->nmods; i++)
		if (!strcmp(c->mods[i].name, name))
			return &c->mods[i];
	m = &c->mods[c->nmods++];
	m->name = name;
	m->btf = parse(c->dir, name, c->vmlinux);
	/* No file: the module is built in or not loaded, as vmlinux's BTF tells. */
	if (!m->btf && errno != ENOENT)
		m->err = errno ? errno : EINVAL;
	return m;
}

/*
 * find_member() - find member @name of struct or union @t, which lies at
 * @bits in the outer struct. It looks among the members and inside the
 * anonymous struct and union members, where kernel structs often nest
 * members, adding their offsets. C keeps the names unique across such
 * nesting.
 */
static bool find_member(const struct btf *btf, const struct btf_type *t,
			const char *name, uint32_t bits, int depth,
			struct kbtf_hit *hit)
{
	const struct btf_member *m = btf_members(t);
	const struct btf_type *inner;
	unsigned int i, n = btf_vlen(t);
	const char *s;
	int id;

	for (i = 0; i < n; i++, m++) {
		if (m->name_off) {
			s = btf__name_by_offset(btf, m->name_off);
			if (!s || strcmp(s, name))
				continue;
			*hit = (struct kbtf_hit){ t, i, bits };
			return true;
		}
		id = btf__resolve_type(btf, m->type);
		inner = id < 0 ? NULL : btf__type_by_id(btf, id);
		if (inner && btf_is_composite(inner) && depth < KBTF_NEST_MAX &&
		    find_member(btf, inner, name,
				bits + btf_member_bit_offset(t, i), depth + 1, hit))
			return true;
	}
	return false;
}

/*
 * find_struct() - return the struct of @d, in *@btf, or NULL with the reason
 * in @why.
 */
static const struct btf_type *find_struct(struct kbtf_ctx *c,
					  const struct kbtf_field_def *d,
					  const struct btf **btf, char *why,
					  size_t wl)
{
	struct kbtf_mod *mod;
	int id;

	if (!vmlinux_btf(c)) {
		if (c->vmlinux_err == ENOENT)
			snprintf(why, wl, "no BTF in this kernel");
		else
			snprintf(why, wl, "cannot read vmlinux BTF: %s",
				 err_text(c->vmlinux_err));
		return NULL;
	}
	mod = module_btf(c, d->module);
	if (mod->err) {
		snprintf(why, wl, "cannot read BTF of module %s: %s", d->module,
			 err_text(mod->err));
		return NULL;
	}
	*btf = mod->btf ? mod->btf : c->vmlinux;
	id = btf__find_by_name_kind(*btf, d->st, BTF_KIND_STRUCT);
	if (id >= 0)
		return btf__type_by_id(*btf, id);
	if (mod->btf)
		snprintf(why, wl, "module %s's BTF has no struct %s", d->module, d->st);
	else
		snprintf(why, wl, "no BTF for module %s (not loaded?)", d->module);
	return NULL;
}

/* read_field() - read field @id into @l: found, or with the reason why not. */
static void read_field(struct kbtf_ctx *c, unsigned int id, struct kbtf_layout *l)
{
	const struct kbtf_field_def *d = kbtf_field(id);
	char *why = l->why[id];
	size_t wl = sizeof(l->why[id]);
	const struct btf_member *m;
	const struct btf_type *t;
	const struct btf *btf = NULL;
	struct kbtf_hit hit;
	uint32_t bits;
	int64_t size;

	if (!d) {
		snprintf(why, wl, "field %u has no definition", id);
		return;
	}
	t = find_struct(c, d, &btf, why, wl);
	if (!t)
		return;
	if (!find_member(btf, t, d->member, 0, 0, &hit)) {
		snprintf(why, wl, "struct %s has no member %s", d->st, d->member);
		return;
	}
	m = btf_members(hit.owner) + hit.idx;
	bits = hit.bits + btf_member_bit_offset(hit.owner, hit.idx);
	if (btf_member_bitfield_size(hit.owner, hit.idx) || bits % 8) {
		snprintf(why, wl, "%s.%s is a bit-field", d->st, d->member);
		return;
	}
	size = btf__resolve_size(btf, m->type);
	if (size < 0) {
		snprintf(why, wl, "cannot size %s.%s: %s", d->st, d->member,
			 strerror((int)-size));
		return;
	}
	if (d->size && size != d->size) {
		snprintf(why, wl, "%s.%s is %lld bytes, not %u", d->st, d->member,
			 (long long)size, d->size);
		return;
	}
	l->found[id] = true;
	l->offset[id] = bits / 8;
	l->size[id] = (uint32_t)size;
	l->st_size[id] = t->size;
}

int kbtf_layout_read(const char *dir, uint32_t role, struct kbtf_layout *l)
{
	struct kbtf_ctx c = { .dir = dir };
	libbpf_print_fn_t old;
	unsigned int id;
	int n = 0;

	memset(l, 0, sizeof(*l));
	/* The whys tell what went wrong: libbpf's messages would only repeat it. */
	old = libbpf_set_print(NULL);
	for (id = 0; id < NTPROF_LF_COUNT; id++) {
		if (!in_role(role, id))
			continue;
		read_field(&c, id, l);
		n += l->found[id];
	}
	/* A module's split BTF refers to vmlinux's: it goes first. */
	while (c.nmods)
		btf__free(c.mods[--c.nmods].btf);
	btf__free(c.vmlinux);
	libbpf_set_print(old);
	return n;
}

uint64_t kbtf_layout_found(const struct kbtf_layout *l)
{
	uint64_t mask = 0;
	unsigned int id;

	for (id = 0; id < NTPROF_LF_COUNT; id++)
		if (l->found[id])
			mask |= 1ULL << id;
	return mask;
}

const char *kbtf_sys_dir(void)
{
	const char *dir = getenv("NTPROF_BTF_DIR");

	return dir && *dir ? dir : "/sys/kernel/btf";
}
