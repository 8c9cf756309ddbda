// SPDX-License-Identifier: GPL-2.0
/*
 * Layouts of the private NVMe structs the hooks read: the built-in
 * table, and the offsets a start request gives from the kernel's BTF.
 *
 * The built-in table holds what pahole showed on the BTF of Debian's
 * builds of the releases checked (5.10 from its DWARF; see
 * Documentation/stages.rst). On another release it has nothing, and only
 * BTF gives the hooks their fields. A start request's offsets are
 * checked against what the hooks read (the member's size, aligned to
 * it, within the struct's size as BTF gives it, and that size not far
 * beyond the struct's on the releases of the table) and applied before
 * its hooks attach; they stay for later sessions, being the running
 * kernel's. A kernel locked down for confidentiality takes none: with
 * them, a start would read kernel memory of the sender's choosing into
 * records.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/security.h>
#include <net/genetlink.h>
#include <rdma/rw.h>

#include "compat.h"
#include "layout.h"

u16 ntprof_layout_off[NTPROF_LF_COUNT];

/* Off, the module knows no offset of its own: for tests of BTF's. */
static bool builtin_layout = true;
module_param(builtin_layout, bool, 0444);
MODULE_PARM_DESC(builtin_layout,
		 "use the built-in struct layouts of the releases checked (default 1)");

/* The bytes the hooks read of each field; 0: an embedded struct. */
static const u8 ntprof_layout_size[NTPROF_LF_COUNT] = {
	[NTPROF_LF_NVME_REQUEST_CMD] = 8,
	[NTPROF_LF_NVME_REQUEST_STATUS] = 2,
	[NTPROF_LF_NVME_RDMA_QE_DATA] = 8,
	[NTPROF_LF_NVMET_REQ_CMD] = 8,
	[NTPROF_LF_NVMET_REQ_CQE] = 8,
	[NTPROF_LF_NVMET_REQ_SQ] = 8,
	[NTPROF_LF_NVMET_SQ_CTRL] = 8,
	[NTPROF_LF_NVMET_SQ_QID] = 2,
	[NTPROF_LF_NVMET_SQ_SQHD_DISABLED] = 1,
	[NTPROF_LF_NVMET_CTRL_CNTLID] = 2,
	[NTPROF_LF_NVMET_OPS_TYPE] = 4,
	[NTPROF_LF_NVMET_TCP_CMD_REQ] = 0,
	[NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE] = 8,
	[NTPROF_LF_NVMET_RDMA_RSP_READ_CQE] = 8,
	[NTPROF_LF_NVMET_RDMA_RSP_REQ] = 0,
	[NTPROF_LF_NVMET_REQ_OPS] = 8,
};

/* Offsets past the first page are no member of these structs. */
#define NTPROF_LF_MAX_OFFSET	4095

/* The structs whose members the fields are. */
enum ntprof_layout_struct {
	NTPROF_LS_NVME_REQUEST,
	NTPROF_LS_NVME_RDMA_QE,
	NTPROF_LS_NVMET_REQ,
	NTPROF_LS_NVMET_SQ,
	NTPROF_LS_NVMET_CTRL,
	NTPROF_LS_NVMET_FABRICS_OPS,
	NTPROF_LS_NVMET_TCP_CMD,
	NTPROF_LS_NVMET_RDMA_RSP,
	NTPROF_LS_COUNT
};

static_assert(NTPROF_LS_COUNT <= NTPROF_LS_MAX);

static const u8 ntprof_layout_struct_of[NTPROF_LF_COUNT] = {
	[NTPROF_LF_NVME_REQUEST_CMD] = NTPROF_LS_NVME_REQUEST,
	[NTPROF_LF_NVME_REQUEST_STATUS] = NTPROF_LS_NVME_REQUEST,
	[NTPROF_LF_NVME_RDMA_QE_DATA] = NTPROF_LS_NVME_RDMA_QE,
	[NTPROF_LF_NVMET_REQ_CMD] = NTPROF_LS_NVMET_REQ,
	[NTPROF_LF_NVMET_REQ_CQE] = NTPROF_LS_NVMET_REQ,
	[NTPROF_LF_NVMET_REQ_SQ] = NTPROF_LS_NVMET_REQ,
	[NTPROF_LF_NVMET_SQ_CTRL] = NTPROF_LS_NVMET_SQ,
	[NTPROF_LF_NVMET_SQ_QID] = NTPROF_LS_NVMET_SQ,
	[NTPROF_LF_NVMET_SQ_SQHD_DISABLED] = NTPROF_LS_NVMET_SQ,
	[NTPROF_LF_NVMET_CTRL_CNTLID] = NTPROF_LS_NVMET_CTRL,
	[NTPROF_LF_NVMET_OPS_TYPE] = NTPROF_LS_NVMET_FABRICS_OPS,
	[NTPROF_LF_NVMET_TCP_CMD_REQ] = NTPROF_LS_NVMET_TCP_CMD,
	[NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE] = NTPROF_LS_NVMET_RDMA_RSP,
	[NTPROF_LF_NVMET_RDMA_RSP_READ_CQE] = NTPROF_LS_NVMET_RDMA_RSP,
	[NTPROF_LF_NVMET_RDMA_RSP_REQ] = NTPROF_LS_NVMET_RDMA_RSP,
	[NTPROF_LF_NVMET_REQ_OPS] = NTPROF_LS_NVMET_REQ,
};

/*
 * Each struct's size, the larger of Debian's builds of 6.1 and 6.12, as
 * pahole shows it on the BTF of their modules. On the releases of the
 * built-in table, a struct more than NTPROF_LS_SLACK times as large is
 * not these structs' (a wrong BTF, or a request made up): its offsets
 * are refused. The slack leaves room for the other releases and for
 * debug configs, whose locks grow the structs that hold them.
 */
static const u16 ntprof_layout_struct_max[NTPROF_LS_COUNT] = {
	[NTPROF_LS_NVME_REQUEST] = 40,
	[NTPROF_LS_NVME_RDMA_QE] = 24,
	[NTPROF_LS_NVMET_REQ] = 440,
	[NTPROF_LS_NVMET_SQ] = 240,
	[NTPROF_LS_NVMET_CTRL] = 9184,
	[NTPROF_LS_NVMET_FABRICS_OPS] = 104,
	[NTPROF_LS_NVMET_TCP_CMD] = 696,
	[NTPROF_LS_NVMET_RDMA_RSP] = 656,
};

#define NTPROF_LS_SLACK		4

/*
 * The built-in table: struct nvme_request {cmd @0, ..., status @20};
 * struct nvme_rdma_qe {cqe @0, data @8}; struct nvmet_req {cmd @0, cqe
 * @8, sq @16}; struct nvmet_sq {ctrl @0, ref @8, [cq @24,] qid, size,
 * sqhd, sqhd_disabled}; struct nvmet_ctrl {subsys @0, sqs @8, [cqs,
 * drvdata,] reset_tbkas, lock (a mutex, of the config's size), cap, cc,
 * csts, hostid, cntlid}; struct nvmet_fabrics_ops {owner @0, type @8};
 * struct nvmet_tcp_cmd {queue @0, req @8}; struct nvmet_rdma_rsp
 * {send_sge @0, send_cqe @16, send_wr @24, cmd @64, queue @72, read_cqe
 * @80, write_cqe @88, rw @96, req after rw}. The bracketed members came
 * in 6.16 (NTPROF_NVMET_CQS).
 */
static void ntprof_layout_builtin_set(void)
{
	u16 *o = ntprof_layout_off;
	u16 lock = NTPROF_NVMET_CQS ? 40 : 24;

	o[NTPROF_LF_NVME_REQUEST_CMD] = 0;
	o[NTPROF_LF_NVME_REQUEST_STATUS] = 20;
	o[NTPROF_LF_NVME_RDMA_QE_DATA] = 8;
	o[NTPROF_LF_NVMET_REQ_CMD] = 0;
	o[NTPROF_LF_NVMET_REQ_CQE] = 8;
	o[NTPROF_LF_NVMET_REQ_SQ] = 16;
	o[NTPROF_LF_NVMET_SQ_CTRL] = 0;
	o[NTPROF_LF_NVMET_SQ_QID] = NTPROF_NVMET_CQS ? 32 : 24;
	o[NTPROF_LF_NVMET_SQ_SQHD_DISABLED] = NTPROF_NVMET_CQS ? 40 : 32;
	/* lock, cap (8), cc and csts (4 each), hostid (16), cntlid. */
	o[NTPROF_LF_NVMET_CTRL_CNTLID] = lock + sizeof(struct mutex) + 32;
	o[NTPROF_LF_NVMET_OPS_TYPE] = 8;
	o[NTPROF_LF_NVMET_TCP_CMD_REQ] = 8;
	o[NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE] = 16;
	o[NTPROF_LF_NVMET_RDMA_RSP_READ_CQE] = 80;
	o[NTPROF_LF_NVMET_RDMA_RSP_REQ] = 96 + sizeof(struct rdma_rw_ctx);
}

/**
 * ntprof_layout_init() - the built-in offsets, or none
 *
 * Context: Module init, before any hook attaches.
 */
void ntprof_layout_init(void)
{
	unsigned int i;

	for (i = 0; i < NTPROF_LF_COUNT; i++)
		ntprof_layout_off[i] = NTPROF_LF_NONE;
	if (ntprof_layout_builtin())
		ntprof_layout_builtin_set();
}

/**
 * ntprof_layout_builtin() - the fields whose offsets the built-in table has
 *
 * The table has every field except nvmet_req.ops, which follows a union
 * whose size depends on the kernel's configuration. Only BTF gives that
 * one; without it, a function hook on nvmet_req_init() tells the
 * transport (hooks_target.c).
 *
 * Context: Any.
 * Return: a mask of NTPROF_LF() bits; 0 for a kernel whose layouts were
 * not checked, or when the builtin_layout parameter is off.
 */
u64 ntprof_layout_builtin(void)
{
	return NTPROF_LAYOUT_CHECKED && builtin_layout ?
	       (NTPROF_LF(NTPROF_LF_COUNT) - 1) &
	       ~NTPROF_LF(NTPROF_LF_NVMET_REQ_OPS) : 0;
}

/**
 * ntprof_layout_missing() - the fields that have no offset now
 * @fields: a mask of NTPROF_LF() bits
 *
 * Context: Any.
 * Return: the bits of @fields whose offset neither BTF nor the built-in
 * table has given.
 */
u64 ntprof_layout_missing(u64 fields)
{
	unsigned int i;
	u64 missing = 0;

	for (i = 0; i < NTPROF_LF_COUNT; i++)
		if ((fields & NTPROF_LF(i)) &&
		    READ_ONCE(ntprof_layout_off[i]) == NTPROF_LF_NONE)
			missing |= NTPROF_LF(i);
	return missing;
}

static bool ntprof_layout_of_role(u32 field, enum ntprof_role role)
{
	if (role == NTPROF_ROLE_HOST)
		return field < NTPROF_LF_FIRST_TARGET;
	return field >= NTPROF_LF_FIRST_TARGET && field < NTPROF_LF_COUNT;
}

static const struct nla_policy ntprof_layout_nl_policy[NTPROF_A_LAYOUT_MAX + 1] = {
	[NTPROF_A_LAYOUT_FIELD] = NLA_POLICY_MAX(NLA_U32, NTPROF_LF_COUNT - 1),
	[NTPROF_A_LAYOUT_OFFSET] = NLA_POLICY_MAX(NLA_U32, NTPROF_LF_MAX_OFFSET),
	[NTPROF_A_LAYOUT_SIZE] = NLA_POLICY_MAX(NLA_U32, NTPROF_LF_MAX_OFFSET),
	/* Checked by ntprof_layout_parse_one(): past an s16 policy's bound. */
	[NTPROF_A_LAYOUT_STRUCT_SIZE] = { .type = NLA_U32 },
};

/*
 * The size of the struct that holds @field, as a start request gives it
 * from BTF: every member the field's hooks read lies within it, and on
 * the releases of the built-in table it is not far beyond the struct's
 * own; all the fields of one struct give the same.
 */
static int ntprof_layout_check_struct(u32 field, u32 offset, u32 size,
				      const struct nlattr *attr,
				      struct ntprof_layout *layout,
				      struct netlink_ext_ack *extack)
{
	unsigned int st = ntprof_layout_struct_of[field];
	u32 st_size = nla_get_u32(attr);

	if (!size || offset + size > st_size) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "a layout field lies past the end of its struct");
		return -EINVAL;
	}
	if (NTPROF_LAYOUT_CHECKED &&
	    st_size > NTPROF_LS_SLACK * ntprof_layout_struct_max[st]) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "a layout's struct is far larger than in this release: not its BTF");
		return -EINVAL;
	}
	if (layout->st_size[st] && layout->st_size[st] != st_size) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "a layout gives two sizes of one struct");
		return -EINVAL;
	}
	layout->st_size[st] = st_size;
	return 0;
}

static int ntprof_layout_parse_one(const struct nlattr *nest,
				   enum ntprof_role role,
				   struct ntprof_layout *layout,
				   struct netlink_ext_ack *extack)
{
	struct nlattr *tb[NTPROF_A_LAYOUT_MAX + 1];
	u32 field, offset, size;
	int err;

	err = nla_parse_nested(tb, NTPROF_A_LAYOUT_MAX, nest,
			       ntprof_layout_nl_policy, extack);
	if (err)
		return err;
	if (!tb[NTPROF_A_LAYOUT_FIELD] || !tb[NTPROF_A_LAYOUT_OFFSET] ||
	    !tb[NTPROF_A_LAYOUT_SIZE] || !tb[NTPROF_A_LAYOUT_STRUCT_SIZE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a layout field needs its id, offset, size and struct size");
		return -EINVAL;
	}
	field = nla_get_u32(tb[NTPROF_A_LAYOUT_FIELD]);
	offset = nla_get_u32(tb[NTPROF_A_LAYOUT_OFFSET]);
	size = nla_get_u32(tb[NTPROF_A_LAYOUT_SIZE]);
	if (!ntprof_layout_of_role(field, role)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_LAYOUT_FIELD],
				    "a layout field of the other role");
		return -EINVAL;
	}
	if (layout->set & NTPROF_LF(field)) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a layout field given twice");
		return -EINVAL;
	}
	/* The hooks read this many bytes: another size is another member. */
	if (ntprof_layout_size[field] && size != ntprof_layout_size[field]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_LAYOUT_SIZE],
				    "a layout field of another size than the hooks read");
		return -EINVAL;
	}
	/*
	 * A member is aligned to its size (an embedded struct, of pointers,
	 * to 8): another offset is no member's, and its loads would tear.
	 */
	if (offset % (ntprof_layout_size[field] ?: 8)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NTPROF_A_LAYOUT_OFFSET],
				    "a layout field's offset is not aligned to its size");
		return -EINVAL;
	}
	err = ntprof_layout_check_struct(field, offset, size,
					 tb[NTPROF_A_LAYOUT_STRUCT_SIZE],
					 layout, extack);
	if (err)
		return err;
	layout->set |= NTPROF_LF(field);
	layout->off[field] = offset;
	return 0;
}

/**
 * ntprof_layout_parse() - the layout fields of a start request
 * @info: the request; every NTPROF_A_START_LAYOUT in it, in order
 * @role: the session's role, whose fields they must be
 * @layout: the fields, to apply once the session will start
 *
 * Return: 0, -EINVAL with the reason in the extack, or -EPERM if the
 * kernel is locked down for confidentiality and the request gives any.
 */
int ntprof_layout_parse(struct genl_info *info, enum ntprof_role role,
			struct ntprof_layout *layout)
{
	struct nlattr *attr;
	int err, rem;

	memset(layout, 0, sizeof(*layout));
	nla_for_each_attr(attr, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(attr) != NTPROF_A_START_LAYOUT)
			continue;
		/*
		 * Offsets of the sender's choosing make the hooks copy kernel
		 * memory into records: what lockdown's confidentiality level
		 * denies, as it does /proc/kcore.
		 */
		if (!layout->set && security_locked_down(LOCKDOWN_KCORE)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "the kernel is locked down: it takes no struct layout from userspace, only its built-in table");
			return -EPERM;
		}
		err = ntprof_layout_parse_one(attr, role, layout,
					      info->extack);
		if (err)
			return err;
	}
	return 0;
}

/**
 * ntprof_layout_swap() - make a start request's offsets the hooks'
 * @layout: what ntprof_layout_parse() found; gets the offsets it
 *	replaced, so that a second call, for a start that failed, puts
 *	them back
 *
 * Context: Under the session lock, while no hook of the fields' role is
 * attached.
 */
void ntprof_layout_swap(struct ntprof_layout *layout)
{
	unsigned int i;
	u16 old;

	for (i = 0; i < NTPROF_LF_COUNT; i++) {
		if (!(layout->set & NTPROF_LF(i)))
			continue;
		old = ntprof_layout_off[i];
		WRITE_ONCE(ntprof_layout_off[i], layout->off[i]);
		layout->off[i] = old;
	}
}
