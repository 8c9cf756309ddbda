// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's netlink operations for 'probe' and 'record': requests
 * built and replies parsed here, so that the subcommands deal in structs
 * and errnos only. Replies are checked as status.c checks its own: a
 * malformed attribute is -EPROTO, an unknown one (a newer module) is
 * ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genl/session.h"
#include "ntp/crec.h"

/* status-get */

static const enum mnl_attr_data_type status_policy[NTPROF_A_STATUS_MAX + 1] = {
	[NTPROF_A_STATUS_VERSION] = MNL_TYPE_NUL_STRING,
	[NTPROF_A_STATUS_STATE] = MNL_TYPE_U32,
	[NTPROF_A_STATUS_KERNEL_RELEASE] = MNL_TYPE_NUL_STRING,
	[NTPROF_A_STATUS_MODULE] = MNL_TYPE_NESTED,
	[NTPROF_A_STATUS_ROLE] = MNL_TYPE_U32,
	[NTPROF_A_STATUS_TRANSPORT] = MNL_TYPE_U32,
	[NTPROF_A_STATUS_SAMPLE] = MNL_TYPE_U32,
	[NTPROF_A_STATUS_START_MONO] = MNL_TYPE_U64,
	[NTPROF_A_STATUS_START_REAL] = MNL_TYPE_U64,
	[NTPROF_A_STATUS_LAYOUT_BUILTIN] = MNL_TYPE_U64,
	[NTPROF_A_STATUS_OWNER_PID] = MNL_TYPE_U32,
	[NTPROF_A_STATUS_CHAIN] = MNL_TYPE_U32,
	[NTPROF_A_STATUS_CHAIN_OFFSET] = MNL_TYPE_U64,
};

static const enum mnl_attr_data_type module_policy[NTPROF_A_MODULE_MAX + 1] = {
	[NTPROF_A_MODULE_NAME] = MNL_TYPE_NUL_STRING,
	[NTPROF_A_MODULE_ROLE] = MNL_TYPE_U32,
	[NTPROF_A_MODULE_TRANSPORT] = MNL_TYPE_U32,
	[NTPROF_A_MODULE_PRESENT] = MNL_TYPE_U32,
};

static uint32_t attr_u32(const struct nlattr *attr, uint32_t def)
{
	return attr ? mnl_attr_get_u32(attr) : def;
}

static int status_module(struct session_status *st, const struct nlattr *nest)
{
	const struct nlattr *tb[NTPROF_A_MODULE_MAX + 1];
	struct session_module *mod;
	int err;

	err = nl_parse_nested(nest, module_policy, tb, NTPROF_A_MODULE_MAX);
	if (err)
		return err;
	if (!tb[NTPROF_A_MODULE_NAME])
		return -EPROTO;
	/* More than we know of: a newer module; the rest are not ours. */
	if (st->nr_modules == SESSION_MODULES_MAX)
		return 0;
	mod = &st->modules[st->nr_modules++];
	snprintf(mod->name, sizeof(mod->name), "%s",
		 mnl_attr_get_str(tb[NTPROF_A_MODULE_NAME]));
	mod->role = attr_u32(tb[NTPROF_A_MODULE_ROLE], NTPROF_ROLE_NONE);
	mod->transport = attr_u32(tb[NTPROF_A_MODULE_TRANSPORT],
				  NTPROF_TRANSPORT_NONE);
	mod->present = attr_u32(tb[NTPROF_A_MODULE_PRESENT], 0);
	return 0;
}

static int status_fill(struct session_status_ctx *ctx,
		       const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[NTPROF_A_STATUS_MAX + 1];
	struct session_status *st = ctx->st;
	const struct nlattr *attr;
	int err;

	/* A "do" has one reply: a second one would be a kernel bug. */
	if (ctx->replies++)
		return -EPROTO;
	err = nl_parse(nlh, status_policy, tb, NTPROF_A_STATUS_MAX);
	if (err)
		return err;
	if (tb[NTPROF_A_STATUS_VERSION])
		snprintf(st->version, sizeof(st->version), "%s",
			 mnl_attr_get_str(tb[NTPROF_A_STATUS_VERSION]));
	if (tb[NTPROF_A_STATUS_KERNEL_RELEASE])
		snprintf(st->release, sizeof(st->release), "%s",
			 mnl_attr_get_str(tb[NTPROF_A_STATUS_KERNEL_RELEASE]));
	st->state = attr_u32(tb[NTPROF_A_STATUS_STATE], NTPROF_STATE_IDLE);
	if (tb[NTPROF_A_STATUS_LAYOUT_BUILTIN])
		st->layout_builtin =
			mnl_attr_get_u64(tb[NTPROF_A_STATUS_LAYOUT_BUILTIN]);

	/* The session's attributes come together or not at all. */
	if (tb[NTPROF_A_STATUS_ROLE] && tb[NTPROF_A_STATUS_START_MONO] &&
	    tb[NTPROF_A_STATUS_START_REAL]) {
		st->have_session = true;
		st->role = mnl_attr_get_u32(tb[NTPROF_A_STATUS_ROLE]);
		st->transport = attr_u32(tb[NTPROF_A_STATUS_TRANSPORT],
					 NTPROF_TRANSPORT_NONE);
		st->sample = attr_u32(tb[NTPROF_A_STATUS_SAMPLE], 1);
		st->start_mono =
			mnl_attr_get_u64(tb[NTPROF_A_STATUS_START_MONO]);
		st->start_real =
			mnl_attr_get_u64(tb[NTPROF_A_STATUS_START_REAL]);
		st->owner_pid = attr_u32(tb[NTPROF_A_STATUS_OWNER_PID], 0);
		st->chain = attr_u32(tb[NTPROF_A_STATUS_CHAIN], 0) == 1;
		if (st->chain && tb[NTPROF_A_STATUS_CHAIN_OFFSET])
			st->chain_offset = mnl_attr_get_u64(
				tb[NTPROF_A_STATUS_CHAIN_OFFSET]);
	}

	/* nl_parse() kept only the last module: walk them all. */
	nl_attr_for_each(attr, nlh) {
		if (mnl_attr_get_type(attr) != NTPROF_A_STATUS_MODULE)
			continue;
		err = status_module(st, attr);
		if (err)
			return err;
	}
	return 0;
}

int session_status_reply(const struct nlmsghdr *nlh, void *data)
{
	int err = status_fill(data, nlh);

	if (err) {
		errno = -err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

int session_status_get(struct nl_sock *sock, struct session_status *st)
{
	struct session_status_ctx ctx = { .st = st };
	int err;

	memset(st, 0, sizeof(*st));
	err = nl_request(sock, NTPROF_CMD_STATUS_GET, 0, NULL,
			 session_status_reply,
			 &ctx);
	/* An ACK alone would leave us nothing to go by. */
	if (!err && !ctx.replies)
		err = -EPROTO;
	return err;
}

const struct session_module *
session_module_find(const struct session_status *st, uint32_t role,
		    uint32_t transport)
{
	size_t i;

	for (i = 0; i < st->nr_modules; i++)
		if (st->modules[i].role == role &&
		    st->modules[i].transport == transport)
			return &st->modules[i];
	return NULL;
}

/* probe-get */

static const enum mnl_attr_data_type hook_policy[NTPROF_A_HOOK_MAX + 1] = {
	[NTPROF_A_HOOK_NAME] = MNL_TYPE_NUL_STRING,
	[NTPROF_A_HOOK_KIND] = MNL_TYPE_U32,
	[NTPROF_A_HOOK_ROLE] = MNL_TYPE_U32,
	[NTPROF_A_HOOK_TRANSPORT] = MNL_TYPE_U32,
	[NTPROF_A_HOOK_POINT] = MNL_TYPE_U32,
	[NTPROF_A_HOOK_REQUIRED] = MNL_TYPE_U32,
	[NTPROF_A_HOOK_STATE] = MNL_TYPE_U32,
	[NTPROF_A_HOOK_HITS] = MNL_TYPE_U64,
	[NTPROF_A_HOOK_FIELDS] = MNL_TYPE_U64,
	[NTPROF_A_HOOK_FIELDS_MISSING] = MNL_TYPE_U64,
	[NTPROF_A_HOOK_DETAIL] = MNL_TYPE_U32,
};

struct hooks_ctx {
	struct session_hooks *hooks;
	uint32_t role;
	uint32_t transport;
	bool all;		/* every hook, whatever its role */
	bool busy;		/* one of them is attached */
};

/*
 * u8_of() - return the attribute's value (@def when it is absent) for a u8
 * field of struct ntp_hook; a value that does not fit in a u8 becomes 0xff.
 */
static uint8_t u8_of(const struct nlattr *attr, uint8_t def)
{
	uint32_t v = attr_u32(attr, def);

	return v > 0xff ? 0xff : v;
}

static int hooks_fill(struct hooks_ctx *ctx, const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[NTPROF_A_HOOK_MAX + 1];
	struct session_hooks *hooks = ctx->hooks;
	struct session_hook *v, *hk;
	uint32_t role, transport;
	int err;

	err = nl_parse(nlh, hook_policy, tb, NTPROF_A_HOOK_MAX);
	if (err)
		return err;
	if (!tb[NTPROF_A_HOOK_NAME] || !tb[NTPROF_A_HOOK_ROLE])
		return -EPROTO;
	role = mnl_attr_get_u32(tb[NTPROF_A_HOOK_ROLE]);
	transport = attr_u32(tb[NTPROF_A_HOOK_TRANSPORT],
			     NTPROF_TRANSPORT_NONE);
	if (ctx->all) {
		if (role == ctx->role && attr_u32(tb[NTPROF_A_HOOK_STATE], 0) ==
					 NTPROF_HOOK_ATTACHED)
			ctx->busy = true;
		return 0;
	}
	/* The hooks a session of this role and transport would attach. */
	if (role != ctx->role ||
	    (transport != NTPROF_TRANSPORT_NONE &&
	     ctx->transport != NTPROF_TRANSPORT_NONE &&
	     transport != ctx->transport))
		return 0;

	v = realloc(hooks->v, (hooks->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	hooks->v = v;
	hk = &v[hooks->n++];
	memset(hk, 0, sizeof(*hk));
	snprintf(hk->h.name, sizeof(hk->h.name), "%s",
		 mnl_attr_get_str(tb[NTPROF_A_HOOK_NAME]));
	hk->h.kind = u8_of(tb[NTPROF_A_HOOK_KIND], 0xff);
	hk->h.role = u8_of(tb[NTPROF_A_HOOK_ROLE], 0);
	hk->h.transport = u8_of(tb[NTPROF_A_HOOK_TRANSPORT], 0);
	hk->h.point = u8_of(tb[NTPROF_A_HOOK_POINT], SESSION_POINT_NONE);
	hk->h.required = !!attr_u32(tb[NTPROF_A_HOOK_REQUIRED], 0);
	hk->h.state = u8_of(tb[NTPROF_A_HOOK_STATE], 0xff);
	if (tb[NTPROF_A_HOOK_HITS])
		hk->hits = mnl_attr_get_u64(tb[NTPROF_A_HOOK_HITS]);
	if (tb[NTPROF_A_HOOK_FIELDS])
		hk->fields = mnl_attr_get_u64(tb[NTPROF_A_HOOK_FIELDS]);
	if (tb[NTPROF_A_HOOK_FIELDS_MISSING])
		hk->fields_missing =
			mnl_attr_get_u64(tb[NTPROF_A_HOOK_FIELDS_MISSING]);
	hk->detail = !!attr_u32(tb[NTPROF_A_HOOK_DETAIL], 0);
	return 0;
}

static int hooks_reply(const struct nlmsghdr *nlh, void *data)
{
	int err = hooks_fill(data, nlh);

	if (err) {
		errno = -err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

/* A dump that changed under us (-EINTR) is simply asked for again. */
#define SESSION_DUMP_TRIES	3

int session_hooks_get(struct nl_sock *sock, uint32_t role, uint32_t transport,
		      struct session_hooks *hooks)
{
	struct hooks_ctx ctx = {
		.hooks = hooks, .role = role, .transport = transport,
	};
	int err, i;

	memset(hooks, 0, sizeof(*hooks));
	for (i = 0; i < SESSION_DUMP_TRIES; i++) {
		hooks->n = 0;
		err = nl_request(sock, NTPROF_CMD_PROBE_GET, NLM_F_DUMP, NULL,
				 hooks_reply, &ctx);
		if (err != -EINTR)
			break;
	}
	return err;
}

void session_hooks_free(struct session_hooks *hooks)
{
	free(hooks->v);
	hooks->v = NULL;
	hooks->n = 0;
}

bool session_hooks_busy(struct nl_sock *sock, uint32_t role)
{
	struct hooks_ctx ctx = { .role = role, .all = true };

	if (nl_request(sock, NTPROF_CMD_PROBE_GET, NLM_F_DUMP, NULL,
		       hooks_reply, &ctx))
		return false;
	return ctx.busy;
}

/* start, stop */

static int put_u32(struct nlmsghdr *nlh, uint16_t type, uint32_t v)
{
	return mnl_attr_put_u32_check(nlh, NL_MSG_SIZE, type, v) ?
	       0 : -EMSGSIZE;
}

/*
 * nest_start() - start a nest with NLA_F_NESTED set, because strict
 * validation wants it and not every libmnl sets it.
 */
static struct nlattr *nest_start(struct nlmsghdr *nlh, uint16_t type)
{
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, NL_MSG_SIZE, type);

	if (nest)
		nest->nla_type |= NLA_F_NESTED;
	return nest;
}

static int fetch_put(struct nlmsghdr *nlh, uint16_t type,
		     const struct session_fetch *f)
{
	struct nlattr *nest = nest_start(nlh, type);
	unsigned int i;
	int err;

	if (!nest)
		return -EMSGSIZE;
	err = put_u32(nlh, NTPROF_A_FETCH_REG, f->reg);
	for (i = 0; !err && i < f->nr_derefs; i++)
		err = put_u32(nlh, NTPROF_A_FETCH_DEREF, (uint32_t)f->derefs[i]);
	if (!err && f->offset)
		err = put_u32(nlh, NTPROF_A_FETCH_OFFSET, (uint32_t)f->offset);
	if (!err && f->width)
		err = put_u32(nlh, NTPROF_A_FETCH_WIDTH, f->width);
	if (err)
		return err;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

static int usite_put(struct nlmsghdr *nlh, const struct session_usite *u)
{
	struct nlattr *nest = nest_start(nlh, NTPROF_A_START_USITE);
	int err = 0, i;

	if (!nest ||
	    !mnl_attr_put_strz_check(nlh, NL_MSG_SIZE, NTPROF_A_USITE_PATH, u->path) ||
	    !mnl_attr_put_u64_check(nlh, NL_MSG_SIZE, NTPROF_A_USITE_OFFSET, u->offset))
		return -EMSGSIZE;
	err = put_u32(nlh, NTPROF_A_USITE_POINT, u->point);
	if (!err)
		err = put_u32(nlh, NTPROF_A_USITE_FD, (uint32_t)u->fd);
	if (!err)
		err = put_u32(nlh, NTPROF_A_USITE_FLAGS, u->flags);
	for (i = 0; !err && i < SESSION_F_COUNT; i++)
		if (u->f[i].set)
			err = fetch_put(nlh, NTPROF_A_USITE_KEY + i, &u->f[i]);
	if (!err && u->transport)
		err = put_u32(nlh, NTPROF_A_USITE_TRANSPORT, u->transport);
	if (!err && u->trtype.set)
		err = fetch_put(nlh, NTPROF_A_USITE_TRTYPE, &u->trtype);
	if (err)
		return err;
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

/*
 * layout_put() - put the offsets that BTF gave for the session's role, which
 * the module takes instead of its own.
 */
static int layout_put(struct nlmsghdr *nlh,
		      const struct session_layout_field *l, size_t n)
{
	struct nlattr *nest;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < n; i++) {
		nest = nest_start(nlh, NTPROF_A_START_LAYOUT);
		if (!nest)
			return -EMSGSIZE;
		err = put_u32(nlh, NTPROF_A_LAYOUT_FIELD, l[i].field);
		if (!err)
			err = put_u32(nlh, NTPROF_A_LAYOUT_OFFSET, l[i].offset);
		if (!err)
			err = put_u32(nlh, NTPROF_A_LAYOUT_SIZE, l[i].size);
		if (!err)
			err = put_u32(nlh, NTPROF_A_LAYOUT_STRUCT_SIZE,
				      l[i].st_size);
		if (!err)
			mnl_attr_nest_end(nlh, nest);
	}
	return err;
}

static int start_put(struct nlmsghdr *nlh, void *data)
{
	const struct session_config *cfg = data;
	size_t i;
	int err;

	err = put_u32(nlh, NTPROF_A_START_ROLE, cfg->role);
	if (!err)
		err = put_u32(nlh, NTPROF_A_START_TRANSPORT, cfg->transport);
	if (!err)
		err = put_u32(nlh, NTPROF_A_START_SAMPLE, cfg->sample);
	if (!err && cfg->has_dev)
		err = put_u32(nlh, NTPROF_A_START_DEV, cfg->dev);
	if (!err && cfg->has_ops)
		err = put_u32(nlh, NTPROF_A_START_OPS, cfg->ops);
	if (!err && cfg->has_min_len)
		err = put_u32(nlh, NTPROF_A_START_MIN_LEN, cfg->min_len);
	if (!err && cfg->has_max_len)
		err = put_u32(nlh, NTPROF_A_START_MAX_LEN, cfg->max_len);
	if (!err && cfg->pid)
		err = put_u32(nlh, NTPROF_A_START_PID, cfg->pid);
	if (!err && cfg->drain_portid)
		err = put_u32(nlh, NTPROF_A_START_DRAIN_PORTID,
			      cfg->drain_portid);
	if (!err && cfg->stages_only)
		err = put_u32(nlh, NTPROF_A_START_HOOK_SET,
			      NTPROF_HOOK_SET_STAGES);
	if (!err && cfg->chain)
		err = put_u32(nlh, NTPROF_A_START_CHAIN, 1);
	if (!err && cfg->chain && cfg->chain_offset &&
	    !mnl_attr_put_u64_check(nlh, NL_MSG_SIZE,
				    NTPROF_A_START_CHAIN_OFFSET,
				    cfg->chain_offset))
		err = -EMSGSIZE;
	if (!err)
		err = layout_put(nlh, cfg->layout, cfg->nr_layout);
	for (i = 0; !err && i < cfg->nr_usites; i++)
		err = usite_put(nlh, &cfg->usites[i]);
	return err;
}

int session_start(struct nl_sock *sock, const struct session_config *cfg)
{
	/* nl_put_cb takes a plain pointer; start_put() only reads it. */
	return nl_request(sock, NTPROF_CMD_START, 0, start_put, NULL,
			  (void *)cfg);
}

static int stop_put(struct nlmsghdr *nlh, void *data)
{
	return put_u32(nlh, NTPROF_A_START_ROLE, *(uint32_t *)data);
}

int session_stop(struct nl_sock *sock, uint32_t role)
{
	/* Always with the role: another role's session is not ours. */
	return nl_request(sock, NTPROF_CMD_STOP, 0, stop_put, NULL, &role);
}

/* stats-get */

/*
 * attr_u64() - return the attribute's u64, or 0 for a counter that the
 * kernel did not send.
 */
static uint64_t attr_u64(const struct nlattr *attr)
{
	return attr ? mnl_attr_get_u64(attr) : 0;
}

/* One pointer for the request's role and the replies' sums. */
struct stats_ctx {
	uint32_t role;
	struct session_stats *st;
};

static int stats_reply(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type policy[NTPROF_A_STATS_MAX + 1] = {
		[NTPROF_A_STATS_CPU] = MNL_TYPE_U32,
		[NTPROF_A_STATS_RECORDS] = MNL_TYPE_U64,
		[NTPROF_A_STATS_DROPS] = MNL_TYPE_U64,
		[NTPROF_A_STATS_FILL] = MNL_TYPE_U64,
		[NTPROF_A_STATS_SAMPLED] = MNL_TYPE_U64,
		[NTPROF_A_STATS_SEEN] = MNL_TYPE_U64,
		[NTPROF_A_STATS_EVICTED] = MNL_TYPE_U64,
		[NTPROF_A_STATS_ROLE] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[NTPROF_A_STATS_MAX + 1];
	struct session_stats *st = ((struct stats_ctx *)data)->st;

	if (nl_parse(nlh, policy, tb, NTPROF_A_STATS_MAX)) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	st->records += attr_u64(tb[NTPROF_A_STATS_RECORDS]);
	st->drops += attr_u64(tb[NTPROF_A_STATS_DROPS]);
	st->fill += attr_u64(tb[NTPROF_A_STATS_FILL]);
	st->sampled += attr_u64(tb[NTPROF_A_STATS_SAMPLED]);
	st->seen += attr_u64(tb[NTPROF_A_STATS_SEEN]);
	st->evicted += attr_u64(tb[NTPROF_A_STATS_EVICTED]);
	st->cpus++;
	return MNL_CB_OK;
}

static int stats_put(struct nlmsghdr *nlh, void *data)
{
	return put_u32(nlh, NTPROF_A_STATS_ROLE,
		       ((struct stats_ctx *)data)->role);
}

int session_stats_get(struct nl_sock *sock, uint32_t role,
		      struct session_stats *st)
{
	struct stats_ctx ctx = { .role = role, .st = st };
	int err, i;

	for (i = 0; i < SESSION_DUMP_TRIES; i++) {
		memset(st, 0, sizeof(*st));
		/* Always with the role: the other role's are not ours. */
		err = nl_request(sock, NTPROF_CMD_STATS_GET, NLM_F_DUMP,
				 stats_put, stats_reply, &ctx);
		if (err != -EINTR)
			break;
	}
	return err;
}

/* records-get */

/*
 * records_pass() - hand @n records to the caller's function. It returns -1
 * with errno set on failure.
 */
static int records_pass(struct session_records_ctx *ctx,
			const struct ntprof_record *recs, size_t n)
{
	int err;

	ctx->count += n;
	err = ctx->fn(recs, ctx->crecs, n, ctx->data);
	if (err) {
		errno = -err;
		return -1;
	}
	return 0;
}

/*
 * records_malformed() - refuse the reply because of a malformed record,
 * whose reason @ctx keeps.
 */
static int records_malformed(struct session_records_ctx *ctx, uint64_t i,
			     const char *why)
{
	snprintf(ctx->why, sizeof(ctx->why),
		 "malformed record %llu from the module: %s",
		 (unsigned long long)i, why);
	errno = EPROTO;
	return MNL_CB_ERROR;
}

int session_records_reply(const struct nlmsghdr *nlh, void *data)
{
	struct session_records_ctx *ctx = data;
	const struct nlattr *attr;
	const uint8_t *p;
	char why[128];
	size_t len, n;
	int size;

	nl_attr_for_each(attr, nlh) {
		if (mnl_attr_get_type(attr) != NTPROF_A_RECORDS_DATA)
			continue;
		p = mnl_attr_get_payload(attr);
		len = mnl_attr_get_payload_len(attr);
		for (n = 0; len; n++) {
			if (n == SESSION_RECORDS_BATCH) {
				if (records_pass(ctx, ctx->batch, n))
					return MNL_CB_ERROR;
				n = 0;
			}
			size = crec_decode(&ctx->batch[n], p, len, CREC_HOST,
					   why, sizeof(why));
			if (size < 0)
				return records_malformed(ctx, ctx->count + n,
							 why);
			ctx->crecs[n] = p;
			p += size;
			len -= size;
		}
		if (n && records_pass(ctx, ctx->batch, n))
			return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static int records_put(struct nlmsghdr *nlh, void *data)
{
	return put_u32(nlh, NTPROF_A_RECORDS_ROLE,
		       ((struct session_records_ctx *)data)->role);
}

int session_records_get(struct nl_sock *sock, uint32_t role,
			session_records_fn fn, void *data, uint64_t *count)
{
	struct session_records_ctx *ctx;
	int err;

	/*
	 * 15 KiB of batch: on the heap, the caller may be deep already, and
	 * not cleared: every drain would pay for it, records or not.
	 */
	ctx = malloc(sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->role = role;
	ctx->fn = fn;
	ctx->data = data;
	ctx->count = 0;
	ctx->why[0] = '\0';
	/* Always with the role: the other role's records are not ours. */
	err = nl_request(sock, NTPROF_CMD_RECORDS_GET, NLM_F_DUMP, records_put,
			 session_records_reply, ctx);
	if (err == -EPROTO && ctx->why[0])
		nl_note(sock, ctx->why);
	if (count)
		*count = ctx->count;
	free(ctx);
	return err;
}

int session_transports(uint32_t transport, uint32_t t[SESSION_TRANSPORTS])
{
	t[0] = NTPROF_TRANSPORT_NONE;
	if (transport != NTPROF_TRANSPORT_NONE) {
		t[1] = transport;
		return 2;
	}
	t[1] = NTPROF_TRANSPORT_TCP;
	t[2] = NTPROF_TRANSPORT_RDMA;
	return 3;
}
