// SPDX-License-Identifier: GPL-2.0
/*
 * Entry patching with Zydis. A function's first instructions, at least
 * 5 bytes of them (after an endbr64, which stays where indirect calls
 * land), move to a trampoline; a jmp rel32 to the trampoline takes their
 * place. The trampoline:
 *
 *	cmp	byte ptr [rip + on], 0		; the site off: 2 instructions
 *	je	displaced
 *	push	site				; on: the stub saves the
 *	call	qword ptr [rip + stub_slot]	; registers, calls agent_hit()
 *						; (tramp.h: which stub)
 *	lea	rsp, [rsp + 8]			; (no flags: cmp's are dead)
 *   displaced:
 *	<the displaced instructions, relocated>
 *	jmp	function + displaced bytes
 *
 * The flags are free at a function's entry: no ABI passes them in.
 *
 * A function is refused, and left as it was, when it is shorter than
 * the patch, when any branch of its body (decoded whole, from the
 * symbol's size) lands inside the displaced bytes, where it would find
 * the middle of the jump, or when a displaced instruction cannot be
 * re-encoded at the trampoline (a jrcxz or loop out of reach of rel8).
 * Branches from outside the body, a split function's f.cold above all,
 * are xref.c's to find. Indirect branches cannot be checked; compilers
 * do not aim them into a function's first bytes.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <Zydis/Zydis.h>

#include "patch.h"
#include "tramp.h"
#include "xref.h"

#define JMP_LEN		5
/* cmp 7, je 6, push 5, call 6, lea 5, displaced (each may grow), jmp 5 */
#define TRAMP_MAX	(34 + 2 * AGENT_DISPLACED_MAX + 5)

struct insn {
	ZydisDecodedInstruction i;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
};

static ZydisDecoder decoder;

static int decode(uintptr_t at, size_t max, struct insn *in)
{
	return ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, (const void *)at,
						   max, &in->i, in->ops)) ?
	       0 : -1;
}

/*
 * Whether any relative branch of the body [@entry, @end) lands in
 * (@at, @at + @len): -1 if the body does not decode whole.
 */
static int branch_into(uintptr_t entry, uintptr_t end, uintptr_t at,
		       size_t len)
{
	ZyanU64 target;
	struct insn in;
	uintptr_t pc;
	int k;

	for (pc = entry; pc < end; pc += in.i.length) {
		if (decode(pc, end - pc, &in))
			return -1;
		for (k = 0; k < in.i.operand_count_visible; k++) {
			if (in.ops[k].type != ZYDIS_OPERAND_TYPE_IMMEDIATE ||
			    !in.ops[k].imm.is_relative ||
			    !ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&in.i, &in.ops[k],
								  pc, &target)))
				continue;
			if (target > at && target < at + len)
				return 1;
		}
	}
	return 0;
}

/* Encodes @req at @out, which will run at @runtime: its length, or 0. */
static size_t encode(ZydisEncoderRequest *req, uint8_t *out, size_t room,
		     uintptr_t runtime)
{
	ZyanUSize len = room;

	if (!ZYAN_SUCCESS(ZydisEncoderEncodeInstructionAbsolute(req, out, &len,
								 runtime)))
		return 0;
	return len;
}

static void request(ZydisEncoderRequest *req, ZydisMnemonic mnemonic,
		    unsigned int nr_ops)
{
	memset(req, 0, sizeof(*req));
	req->machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
	req->mnemonic = mnemonic;
	req->operand_count = nr_ops;
}

static void op_rip(ZydisEncoderOperand *op, uintptr_t addr, unsigned int size)
{
	op->type = ZYDIS_OPERAND_TYPE_MEMORY;
	op->mem.base = ZYDIS_REGISTER_RIP;
	op->mem.displacement = (ZyanI64)addr;
	op->mem.size = size;
}

static void op_imm(ZydisEncoderOperand *op, uint64_t v)
{
	op->type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
	op->imm.u = v;
}

/* A jmp or jcc to @target, rel32 if @wide (a length known in advance). */
static size_t encode_branch(ZydisMnemonic m, uintptr_t target, bool wide,
			    uint8_t *out, size_t room, uintptr_t runtime)
{
	ZydisEncoderRequest req;

	request(&req, m, 1);
	op_imm(&req.operands[0], target);
	if (wide) {
		req.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
		req.branch_width = ZYDIS_BRANCH_WIDTH_32;
	}
	return encode(&req, out, room, runtime);
}

/*
 * The displaced instruction @in, from @from, re-encoded at @runtime: its
 * rip-relative operands and branch targets made absolute, for the
 * encoder to make relative again, in whatever width reaches.
 */
static size_t relocate(const struct insn *in, uintptr_t from, uint8_t *out,
		       size_t room, uintptr_t runtime)
{
	ZydisEncoderRequest req;
	ZyanU64 abs;
	int k;

	if (!(in->i.attributes & ZYDIS_ATTRIB_IS_RELATIVE)) {
		if (in->i.length > room)
			return 0;
		memcpy(out, (const void *)from, in->i.length);
		return in->i.length;
	}
	if (!ZYAN_SUCCESS(ZydisEncoderDecodedInstructionToEncoderRequest(
			&in->i, in->ops, in->i.operand_count_visible, &req)))
		return 0;
	for (k = 0; k < in->i.operand_count_visible; k++) {
		const ZydisDecodedOperand *op = &in->ops[k];
		bool rip = op->type == ZYDIS_OPERAND_TYPE_MEMORY &&
			   op->mem.base == ZYDIS_REGISTER_RIP;
		bool rel = op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
			   op->imm.is_relative;

		if (!rip && !rel)
			continue;
		if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&in->i, op, from, &abs)))
			return 0;
		if (rip)
			req.operands[k].mem.displacement = (ZyanI64)abs;
		else
			req.operands[k].imm.u = abs;
	}
	/* A short branch may need rel32 from here: the encoder picks. */
	req.branch_type = ZYDIS_BRANCH_TYPE_NONE;
	req.branch_width = ZYDIS_BRANCH_WIDTH_NONE;
	return encode(&req, out, room, runtime);
}

/* The trampoline of @p at @t, into @buf; its length, or 0. */
static size_t tramp_build(const struct agent_patch *p,
			  const struct agent_tramp *t, uint8_t *buf)
{
	uintptr_t base = (uintptr_t)t->code, je_at, from;
	ZydisEncoderRequest req;
	size_t n, len, k;
	struct insn in;

	request(&req, ZYDIS_MNEMONIC_CMP, 2);
	op_rip(&req.operands[0], (uintptr_t)t->on, 1);
	op_imm(&req.operands[1], 0);
	len = encode(&req, buf, TRAMP_MAX, base);
	if (!len)
		return 0;
	je_at = len;
	len += 6;		/* je rel32, encoded once its target is known */

	request(&req, ZYDIS_MNEMONIC_PUSH, 1);
	op_imm(&req.operands[0], p->site);
	req.operand_size_hint = ZYDIS_OPERAND_SIZE_HINT_64;
	n = encode(&req, buf + len, TRAMP_MAX - len, base + len);
	len += n;
	request(&req, ZYDIS_MNEMONIC_CALL, 1);
	op_rip(&req.operands[0], (uintptr_t)t->stub_slot, 8);
	n = n ? encode(&req, buf + len, TRAMP_MAX - len, base + len) : 0;
	len += n;
	request(&req, ZYDIS_MNEMONIC_LEA, 2);
	req.operands[0].type = ZYDIS_OPERAND_TYPE_REGISTER;
	req.operands[0].reg.value = ZYDIS_REGISTER_RSP;
	req.operands[1].type = ZYDIS_OPERAND_TYPE_MEMORY;
	req.operands[1].mem.base = ZYDIS_REGISTER_RSP;
	req.operands[1].mem.displacement = 8;
	req.operands[1].mem.size = 8;
	n = n ? encode(&req, buf + len, TRAMP_MAX - len, base + len) : 0;
	len += n;
	if (!n || encode_branch(ZYDIS_MNEMONIC_JZ, base + len, true,
				buf + je_at, 6, base + je_at) != 6)
		return 0;

	for (k = 0; k < p->len; k += in.i.length) {
		from = p->at + k;
		if (decode(from, p->len - k, &in))
			return 0;
		n = relocate(&in, from, buf + len, TRAMP_MAX - len, base + len);
		if (!n)
			return 0;
		len += n;
	}
	n = encode_branch(ZYDIS_MNEMONIC_JMP, p->at + p->len, false,
			  buf + len, TRAMP_MAX - len, base + len);
	return n ? len + n : 0;
}

/*
 * Where the jump goes in the function at @entry, @size bytes long: @p's
 * entry, at and len, or why it cannot go anywhere.
 */
static enum agent_refusal plan(uintptr_t entry, size_t size,
			       struct agent_patch *p)
{
	uintptr_t end = entry + size;
	struct insn in;

	ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	memset(p, 0, sizeof(*p));
	p->entry = entry;
	p->at = entry;
	if (size && !decode(entry, size, &in) &&
	    in.i.mnemonic == ZYDIS_MNEMONIC_ENDBR64)
		p->at += in.i.length;
	/* Whole instructions, at least the jump's 5 bytes, in the body. */
	while (p->len < JMP_LEN) {
		if (p->at + p->len >= end)
			return AGENT_TOO_SHORT;
		if (decode(p->at + p->len, end - p->at - p->len, &in))
			return AGENT_UNDECODABLE;
		/*
		 * A uprobe's int3 (a session of uprobes placed it when the
		 * program was mapped): moved, it would trap where no uprobe
		 * is, and the trap would kill the process.
		 */
		if (in.i.mnemonic == ZYDIS_MNEMONIC_INT3)
			return AGENT_BREAKPOINT;
		p->len += in.i.length;
	}
	return AGENT_PATCHED;
}

enum agent_refusal agent_patch_near(uintptr_t entry, size_t size,
				    const struct agent_code *near, size_t n)
{
	struct agent_patch p;
	size_t i;

	/* A function that cannot be patched is agent_patch()'s to say. */
	if (plan(entry, size, &p) != AGENT_PATCHED)
		return AGENT_PATCHED;
	/* Code that does not decode whole cannot be cleared either. */
	for (i = 0; i < n; i++)
		if (branch_into(near[i].start, near[i].start + near[i].size,
				p.at, p.len))
			return AGENT_BRANCH_FROM_OBJECT;
	return AGENT_PATCHED;
}

enum agent_refusal agent_patch(uintptr_t entry, size_t size, uint32_t site,
			       enum agent_stub_kind stub, struct agent_patch *p)
{
	uint8_t tramp[TRAMP_MAX], jump[AGENT_DISPLACED_MAX];
	uintptr_t end = entry + size;
	enum agent_refusal r;
	struct agent_tramp t;
	size_t len;
	int ret;

	r = plan(entry, size, p);
	p->site = site;
	if (r != AGENT_PATCHED)
		return r;
	ret = branch_into(entry, end, p->at, p->len);
	if (ret)
		return ret < 0 ? AGENT_UNDECODABLE : AGENT_BRANCH_INTO_PATCH;
	r = agent_xref_check(p->at, p->len);
	if (r != AGENT_PATCHED)
		return r;

	if (agent_tramp_get(entry, TRAMP_MAX, site, stub, &t))
		return AGENT_NO_TRAMPOLINE;
	p->tramp = t.code;
	p->on = t.on;
	len = tramp_build(p, &t, tramp);
	if (!len)
		return AGENT_UNRELOCATABLE;
	if (agent_code_write(t.code, tramp, len))
		return AGENT_NO_WRITE;

	/* The jump, then nops over what is left of the displaced bytes. */
	if (encode_branch(ZYDIS_MNEMONIC_JMP, (uintptr_t)t.code, true, jump,
			  sizeof(jump), p->at) != JMP_LEN ||
	    (p->len > JMP_LEN &&
	     !ZYAN_SUCCESS(ZydisEncoderNopFill(jump + JMP_LEN,
					       p->len - JMP_LEN))))
		return AGENT_UNRELOCATABLE;
	memcpy(p->saved, (const void *)p->at, p->len);
	if (agent_code_write((void *)p->at, jump, p->len))
		return AGENT_NO_WRITE;
	return AGENT_PATCHED;
}

int agent_unpatch(const struct agent_patch *p)
{
	return agent_code_write((void *)p->at, p->saved, p->len);
}
