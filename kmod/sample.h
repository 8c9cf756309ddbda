/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which commands a session records: the 1-in-N sampling decision.
 *
 * Host and target must pick the same commands without telling each other,
 * so the decision depends only on what both see on the wire: the queue id
 * and the 64-byte command. The length is the command's own NLB field
 * (CDW12 bits 15:0), not a byte count, because the target does not know
 * the host's block size when it decides. The hash is the uapi header's
 * ntprof_sample_hash(), so that tools can redo the decision:
 *
 *	sampled = (ntprof_sample_hash(qid, cid, opcode, nsid, slba, nlb)
 *		   % N == 0)
 *
 * cid is the command identifier as sent (with Linux's generation bits).
 *
 * A session of the chain rule (record --chain) decides read, write and
 * write-zeroes commands by what stays the same along a chain of hops
 * instead: the opcode, the NLB and the LBA less the session's offset
 * (md's data_offset on a replica), so that a middle machine's downstream
 * commands are picked with the upstream command that caused them:
 *
 *	sampled = (ntprof_chain_hash(opcode, slba - offset, nlb) % N == 0)
 */
#ifndef _NTPROF_SAMPLE_H
#define _NTPROF_SAMPLE_H

#include <linux/math64.h>
#include <linux/nvme.h>
#include <linux/types.h>
#include <uapi/linux/ntprof.h>

/**
 * struct ntprof_ident - what identifies a command on both sides
 * @qid: the submission queue id
 * @cid: the command identifier, as sent
 * @opcode: the NVMe opcode
 * @nsid: the namespace id
 * @slba: CDW11:CDW10, the first LBA of I/O commands
 * @nlb: CDW12 bits 15:0, the 0-based number of LBAs of I/O commands
 */
struct ntprof_ident {
	u16 qid;
	u16 cid;
	u8 opcode;
	u32 nsid;
	u64 slba;
	u16 nlb;
};

static inline void ntprof_ident_from_cmd(struct ntprof_ident *id, u16 qid,
					 const struct nvme_command *cmd)
{
	id->qid = qid;
	id->cid = READ_ONCE(cmd->common.command_id);
	id->opcode = READ_ONCE(cmd->common.opcode);
	id->nsid = le32_to_cpu(READ_ONCE(cmd->common.nsid));
	id->slba = le32_to_cpu(READ_ONCE(cmd->common.cdw10)) |
		   (u64)le32_to_cpu(READ_ONCE(cmd->common.cdw11)) << 32;
	id->nlb = le32_to_cpu(READ_ONCE(cmd->common.cdw12)) & 0xffff;
}

/* Whether one command in @n picks this one; see the top of this file. */
static inline bool ntprof_sample_pick(const struct ntprof_ident *id, u32 n)
{
	u64 h;

	if (n <= 1)
		return true;

	h = ntprof_sample_hash(id->qid, id->cid, id->opcode, id->nsid,
			       id->slba, id->nlb);
	return do_div(h, n) == 0;
}

/**
 * ntprof_sample_pick_cmd() - whether a session records a command
 * @qid: the queue @cmd was sent on
 * @cmd: the command as sent
 * @n: the session's 1 in @n
 * @chain: the session samples by the chain rule
 * @chain_offset: the LBAs the chain rule takes from the command's SLBA
 *
 * ntprof_sample_pick() of the command, or the chain rule's decision for a
 * read, write or write-zeroes command of a chain session, read straight
 * into registers: the hooks that decide for every command keep no struct
 * ntprof_ident on their stack, which kernels built with
 * INIT_STACK_ALL_ZERO would clear at every hit. A session of the hop rule
 * pays one branch on @chain for the chain rule.
 *
 * Context: Any, in a hook.
 * Return: true if the command is to be recorded.
 */
static __always_inline bool ntprof_sample_pick_cmd(u16 qid,
						   const struct nvme_command *cmd,
						   u32 n, bool chain,
						   u64 chain_offset)
{
	u8 opcode;
	u64 slba, h;
	u16 nlb;

	if (n <= 1)
		return true;

	opcode = READ_ONCE(cmd->common.opcode);
	slba = le32_to_cpu(READ_ONCE(cmd->common.cdw10)) |
	       (u64)le32_to_cpu(READ_ONCE(cmd->common.cdw11)) << 32;
	nlb = le32_to_cpu(READ_ONCE(cmd->common.cdw12)) & 0xffff;
	if (chain && ntprof_chain_opcode(opcode))
		h = ntprof_chain_hash(opcode, slba - chain_offset, nlb);
	else
		h = ntprof_sample_hash(qid, READ_ONCE(cmd->common.command_id),
				       opcode,
				       le32_to_cpu(READ_ONCE(cmd->common.nsid)),
				       slba, nlb);
	return do_div(h, n) == 0;
}

#endif /* _NTPROF_SAMPLE_H */
