// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the kernel BTF layout reader (tools/ntprof/lib/sites/kbtf.c).
 *
 * Without arguments: on a made-up kernel whose BTF the test writes with
 * libbpf's BTF writer, a vmlinux and split BTF for some modules, each
 * struct built to hit one case: a module built in (its struct in
 * vmlinux), members nested in anonymous unions and structs, typedefs,
 * bit-fields, wrong sizes, missing members, structs and modules, a file
 * that is not BTF; then the roles, and a directory without BTF.
 *
 * With DIR RELEASE: on the BTF of a Debian kernel laid out in DIR as
 * /sys/kernel/btf is (test_kbtf.sh extracts it from the lab's cache),
 * the offsets pahole gives for that release.
 * Prints TAP; exits 1 if any test failed.
 *
 * usage: test_kbtf [DIR RELEASE]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "sites/kbtf.h"
#include "tap.h"

static char dir[256];

#define tpath(name) tap_path(dir, name)

static void bail(const char *what)
{
	printf("Bail out! %s\n", what);
	exit(1);
}

static void cleanup(void)
{
	static const char *const files[] = {
		"vmlinux", "nvme_rdma", "nvmet", "nvmet_tcp",
	};

	tap_rmdir(dir, files, sizeof(files) / sizeof(*files));
}

/* ---- The made-up kernel */

/* Writes @len bytes of @data to file @name of the test's directory. */
static void write_file(const char *name, const void *data, size_t len)
{
	FILE *f = fopen(tpath(name), "w");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		bail("cannot write the test's BTF");
}

static void write_btf(const char *name, const struct btf *btf)
{
	const void *data;
	__u32 len;

	data = btf__raw_data(btf, &len);
	if (!data)
		bail("btf__raw_data");
	write_file(name, data, len);
}

/* Fails the test run on a libbpf error: the BTF must be as planned. */
static int must(int id)
{
	if (id < 0)
		bail("cannot build the test's BTF");
	return id;
}

/* The base types, ids in vmlinux's BTF. */
struct base_ids {
	int u16, u32, u64, boolean, ptr, u16_t;
};

/*
 * vmlinux, with nvme_core built in: struct nvme_request {void *cmd @0;
 * __u16 status @20;} (__u16 a typedef).
 */
static struct btf *make_vmlinux(struct base_ids *b)
{
	struct btf *btf = btf__new_empty();

	if (!btf)
		bail("btf__new_empty");
	b->u16 = must(btf__add_int(btf, "unsigned short", 2, 0));
	b->u32 = must(btf__add_int(btf, "unsigned int", 4, 0));
	b->u64 = must(btf__add_int(btf, "long unsigned int", 8, 0));
	b->boolean = must(btf__add_int(btf, "_Bool", 1, BTF_INT_BOOL));
	b->ptr = must(btf__add_ptr(btf, 0));
	b->u16_t = must(btf__add_typedef(btf, "__u16", b->u16));
	must(btf__add_struct(btf, "nvme_request", 32));
	must(btf__add_field(btf, "cmd", b->ptr, 0, 0));
	must(btf__add_field(btf, "status", b->u16_t, 160, 0));
	write_btf("vmlinux", btf);
	return btf;
}

/*
 * nvme_rdma: struct nvme_rdma_qe {u64 cqe @0; union {struct {u32 pad @0;
 * void *data @8;}; u64 other;} @8;}, data at 16 in all.
 */
static void make_nvme_rdma(struct btf *base, const struct base_ids *b)
{
	struct btf *btf = btf__new_empty_split(base);
	int in, un;

	if (!btf)
		bail("btf__new_empty_split");
	in = must(btf__add_struct(btf, NULL, 16));
	must(btf__add_field(btf, "pad", b->u32, 0, 0));
	must(btf__add_field(btf, "data", b->ptr, 64, 0));
	un = must(btf__add_union(btf, NULL, 16));
	must(btf__add_field(btf, NULL, in, 0, 0));
	must(btf__add_field(btf, "other", b->u64, 0, 0));
	must(btf__add_struct(btf, "nvme_rdma_qe", 24));
	must(btf__add_field(btf, "cqe", b->u64, 0, 0));
	must(btf__add_field(btf, NULL, un, 64, 0));
	write_btf("nvme_rdma", btf);
	btf__free(btf);
}

/*
 * nvmet: struct nvmet_req {void *cmd @0; u32 cqe @8; void *ops @16;} (cqe
 * too small, no sq); struct nvmet_sq {void *ctrl; u16 qid:16 @24; bool sqhd_disabled:1
 * @32 bit 3;}; struct nvmet_fabrics_ops {void *owner; u32 type @8;}; no
 * struct nvmet_ctrl.
 */
static void make_nvmet(struct btf *base, const struct base_ids *b)
{
	struct btf *btf = btf__new_empty_split(base);

	if (!btf)
		bail("btf__new_empty_split");
	must(btf__add_struct(btf, "nvmet_req", 24));
	must(btf__add_field(btf, "cmd", b->ptr, 0, 0));
	must(btf__add_field(btf, "cqe", b->u32, 64, 0));
	must(btf__add_field(btf, "ops", b->ptr, 128, 0));
	must(btf__add_struct(btf, "nvmet_sq", 40));
	must(btf__add_field(btf, "ctrl", b->ptr, 0, 0));
	must(btf__add_field(btf, "qid", b->u16, 192, 16));
	must(btf__add_field(btf, "sqhd_disabled", b->boolean, 259, 1));
	must(btf__add_struct(btf, "nvmet_fabrics_ops", 16));
	must(btf__add_field(btf, "owner", b->ptr, 0, 0));
	must(btf__add_field(btf, "type", b->u32, 64, 0));
	write_btf("nvmet", btf);
	btf__free(btf);
}

/* What the made-up kernel gives for each field: an offset, or a why. */
static const struct {
	int offset;		/* -1: not found */
	const char *why;
} fake_expect[NTPROF_LF_COUNT] = {
	[NTPROF_LF_NVME_REQUEST_CMD] = { 0, NULL },
	[NTPROF_LF_NVME_REQUEST_STATUS] = { 20, NULL },
	[NTPROF_LF_NVME_RDMA_QE_DATA] = { 16, NULL },
	[NTPROF_LF_NVMET_REQ_CMD] = { 0, NULL },
	[NTPROF_LF_NVMET_REQ_CQE] = { -1, "nvmet_req.cqe is 4 bytes, not 8" },
	[NTPROF_LF_NVMET_REQ_SQ] = { -1, "struct nvmet_req has no member sq" },
	[NTPROF_LF_NVMET_SQ_CTRL] = { 0, NULL },
	[NTPROF_LF_NVMET_SQ_QID] = { -1, "nvmet_sq.qid is a bit-field" },
	[NTPROF_LF_NVMET_SQ_SQHD_DISABLED] = { -1, "nvmet_sq.sqhd_disabled is a bit-field" },
	[NTPROF_LF_NVMET_CTRL_CNTLID] = { -1, "module nvmet's BTF has no struct nvmet_ctrl" },
	[NTPROF_LF_NVMET_OPS_TYPE] = { 8, NULL },
	[NTPROF_LF_NVMET_TCP_CMD_REQ] = { -1, "cannot read BTF of module nvmet_tcp: not BTF" },
	[NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE] = { -1, "no BTF for module nvmet_rdma (not loaded?)" },
	[NTPROF_LF_NVMET_RDMA_RSP_READ_CQE] = { -1, "no BTF for module nvmet_rdma (not loaded?)" },
	[NTPROF_LF_NVMET_RDMA_RSP_REQ] = { -1, "no BTF for module nvmet_rdma (not loaded?)" },
	[NTPROF_LF_NVMET_REQ_OPS] = { 16, NULL },
};

static void test_fields(void)
{
	const struct kbtf_field_def *d;
	unsigned int id;
	bool all = true;

	for (id = 0; id < NTPROF_LF_COUNT; id++) {
		d = kbtf_field(id);
		all &= d && d->module && d->st && d->member;
	}
	ok(all, "kbtf_field() defines every field");
	ok(!kbtf_field(NTPROF_LF_COUNT), "kbtf_field(NTPROF_LF_COUNT) is NULL");
	d = kbtf_field(NTPROF_LF_NVMET_SQ_QID);
	ok(d && !strcmp(d->module, "nvmet") && !strcmp(d->st, "nvmet_sq") &&
	   !strcmp(d->member, "qid") && d->size == 2, "nvmet_sq.qid: nvmet, 2 bytes");
	d = kbtf_field(NTPROF_LF_NVMET_RDMA_RSP_REQ);
	ok(d && !strcmp(d->module, "nvmet_rdma") && !d->size,
	   "nvmet_rdma_rsp.req: nvmet_rdma, any size");
}

/* Field @id of @l is as the made-up kernel has it. */
static void check_fake(const struct kbtf_layout *l, unsigned int id, const char *what)
{
	const struct kbtf_field_def *d = kbtf_field(id);
	int want = fake_expect[id].offset;
	const char *why = fake_expect[id].why;

	if (want >= 0)
		ok(l->found[id] && l->offset[id] == (uint32_t)want &&
		   l->size[id] == d->size,
		   "%s: %s.%s @%d (%s)", what, d->st, d->member, want,
		   l->found[id] ? "found" : l->why[id]);
	else
		ok(!l->found[id] && !strncmp(l->why[id], why, strlen(why)),
		   "%s: %s.%s not found: \"%s\"", what, d->st, d->member, l->why[id]);
}

static void test_fake(void)
{
	static const char not_btf[] = "this is not BTF\n";
	struct kbtf_layout l;
	struct base_ids b;
	struct btf *base;
	unsigned int id;
	int n, host = 0, target = 0;
	bool others;

	base = make_vmlinux(&b);
	make_nvme_rdma(base, &b);
	make_nvmet(base, &b);
	btf__free(base);
	write_file("nvmet_tcp", not_btf, sizeof(not_btf) - 1);

	n = kbtf_layout_read(dir, NTPROF_ROLE_NONE, &l);
	for (id = 0; id < NTPROF_LF_COUNT; id++) {
		check_fake(&l, id, "all");
		if (fake_expect[id].offset < 0)
			continue;
		if (id < NTPROF_LF_FIRST_TARGET)
			host++;
		else
			target++;
	}
	ok(n == host + target, "all: %d found, %d expected", n, host + target);

	n = kbtf_layout_read(dir, NTPROF_ROLE_HOST, &l);
	others = false;
	for (id = 0; id < NTPROF_LF_COUNT; id++) {
		if (id < NTPROF_LF_FIRST_TARGET)
			check_fake(&l, id, "host");
		else
			others |= l.found[id] || l.why[id][0];
	}
	ok(n == host, "host: %d found, %d expected", n, host);
	ok(!others, "host: the target's fields are not read");

	n = kbtf_layout_read(dir, NTPROF_ROLE_TARGET, &l);
	others = false;
	for (id = 0; id < NTPROF_LF_COUNT; id++)
		if (id < NTPROF_LF_FIRST_TARGET)
			others |= l.found[id] || l.why[id][0];
	ok(n == target, "target: %d found, %d expected", n, target);
	ok(!others, "target: the host's fields are not read");

	n = kbtf_layout_read(dir, 7, &l);
	ok(n == 0, "an unknown role reads nothing");
}

/* Every field of role NONE is missing from @path for @why. */
static void test_no_btf(const char *path, const char *why, const char *what)
{
	struct kbtf_layout l;
	unsigned int id;
	bool all = true;
	int n;

	n = kbtf_layout_read(path, NTPROF_ROLE_NONE, &l);
	for (id = 0; id < NTPROF_LF_COUNT; id++)
		all &= !l.found[id] && !strncmp(l.why[id], why, strlen(why));
	ok(n == 0 && all, "%s: none found, \"%s\"", what, l.why[0]);
}

static void test_synthetic(void)
{
	static const char not_btf[] = "\x9f\xeb junk";
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_kbtf.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp");
	if (!mkdtemp(dir))
		bail("mkdtemp");
	test_fields();
	test_fake();
	unlink(tpath("nvmet_tcp"));
	write_file("vmlinux", not_btf, sizeof(not_btf) - 1);
	test_no_btf(dir, "cannot read vmlinux BTF: ", "a vmlinux that is not BTF");
	unlink(tpath("vmlinux"));
	test_no_btf(dir, "no BTF in this kernel", "no vmlinux");
	test_no_btf("/nonexistent/btf", "no BTF in this kernel", "a missing directory");
	cleanup();
}

/* ---- A Debian kernel's BTF */

/* The offsets pahole gives (kmod/layout.c) before 6.16. */
static const uint32_t off_6[NTPROF_LF_COUNT] = {
	[NTPROF_LF_NVME_REQUEST_CMD] = 0,
	[NTPROF_LF_NVME_REQUEST_STATUS] = 20,
	[NTPROF_LF_NVME_RDMA_QE_DATA] = 8,
	[NTPROF_LF_NVMET_REQ_CMD] = 0,
	[NTPROF_LF_NVMET_REQ_CQE] = 8,
	[NTPROF_LF_NVMET_REQ_SQ] = 16,
	[NTPROF_LF_NVMET_SQ_CTRL] = 0,
	[NTPROF_LF_NVMET_SQ_QID] = 24,
	[NTPROF_LF_NVMET_SQ_SQHD_DISABLED] = 32,
	[NTPROF_LF_NVMET_CTRL_CNTLID] = 88,
	[NTPROF_LF_NVMET_OPS_TYPE] = 8,
	[NTPROF_LF_NVMET_TCP_CMD_REQ] = 8,
	[NTPROF_LF_NVMET_RDMA_RSP_SEND_CQE] = 16,
	[NTPROF_LF_NVMET_RDMA_RSP_READ_CQE] = 80,
	[NTPROF_LF_NVMET_RDMA_RSP_REQ] = 176,
	[NTPROF_LF_NVMET_REQ_OPS] = 400,
};

/*
 * The offsets expected for release @rel, @maj.@min, or NULL if none are
 * known: 7.x's are 6.x's but where nvmet_sq gained a cq pointer before
 * qid, nvmet_ctrl two pointers (and a smaller mutex) before cntlid, and
 * struct rdma_rw_ctx, before nvmet_rdma_rsp.req, 24 bytes; and 7.3's
 * nvmet_req 8 bytes more before ops. The lab's debug kernel
 * (6.12.N-debug-HASH, selftests/lab/debug-kernel.sh) has 6.12's but for
 * lockdep's mutex before cntlid, 144 bytes, not 32, and nvmet_req's
 * union before ops, 8 bytes longer: lockdep's work_structs (72 bytes,
 * not 32) outgrow the zoned member its configuration lacks.
 */
static const uint32_t *expected(const char *rel, unsigned int maj,
				unsigned int min)
{
	static uint32_t off_7[NTPROF_LF_COUNT];
	static uint32_t off_debug[NTPROF_LF_COUNT];

	if (maj == 6 && min == 12 && strstr(rel, "-debug-")) {
		memcpy(off_debug, off_6, sizeof(off_debug));
		off_debug[NTPROF_LF_NVMET_CTRL_CNTLID] = 200;
		off_debug[NTPROF_LF_NVMET_REQ_OPS] = 408;
		return off_debug;
	}
	if (maj == 6 && (min == 1 || min == 12))
		return off_6;
	if (maj != 7 || (min != 2 && min != 3))
		return NULL;
	memcpy(off_7, off_6, sizeof(off_7));
	off_7[NTPROF_LF_NVMET_SQ_QID] = 32;
	off_7[NTPROF_LF_NVMET_SQ_SQHD_DISABLED] = 40;
	off_7[NTPROF_LF_NVMET_CTRL_CNTLID] = 96;
	off_7[NTPROF_LF_NVMET_RDMA_RSP_REQ] = 200;
	off_7[NTPROF_LF_NVMET_REQ_OPS] = min == 3 ? 408 : 400;
	return off_7;
}

/* Before 5.11, modules have no BTF: every field's why names its module. */
static void test_release_old(const char *btfdir, const char *rel)
{
	const struct kbtf_field_def *d;
	struct kbtf_layout l;
	unsigned int id;
	int n;

	n = kbtf_layout_read(btfdir, NTPROF_ROLE_NONE, &l);
	ok(n == 0, "%s: no field found (modules have no BTF before 5.11)", rel);
	for (id = 0; id < NTPROF_LF_COUNT; id++) {
		d = kbtf_field(id);
		ok(!l.found[id] && strstr(l.why[id], d->module),
		   "%s: %s.%s: \"%s\"", rel, d->st, d->member, l.why[id]);
	}
}

/*
 * Each struct's size in Debian's 6.1 and 6.12 builds, as pahole shows it
 * on the BTF of their modules: what the module bounds the offsets by.
 */
static const struct { const char *st; uint32_t size[2]; } st_sizes[] = {
	{ "nvme_request", { 32, 40 } }, { "nvme_rdma_qe", { 24, 24 } },
	{ "nvmet_req", { 440, 440 } }, { "nvmet_sq", { 104, 240 } },
	{ "nvmet_ctrl", { 9128, 9184 } }, { "nvmet_fabrics_ops", { 96, 104 } },
	{ "nvmet_tcp_cmd", { 680, 696 } }, { "nvmet_rdma_rsp", { 656, 656 } },
};

/* @st's size in release 6.1 (@r 0) or 6.12 (@r 1). */
static uint32_t st_size_of(const char *st, int r)
{
	size_t i;

	for (i = 0; i < sizeof(st_sizes) / sizeof(st_sizes[0]); i++)
		if (!strcmp(st_sizes[i].st, st))
			return st_sizes[i].size[r];
	return 0;
}

static void test_release(const char *btfdir, const char *rel)
{
	const struct kbtf_field_def *d;
	const uint32_t *off;
	struct kbtf_layout l;
	unsigned int maj = 0, min = 0, id;
	int n;

	if (sscanf(rel, "%u.%u", &maj, &min) != 2)
		bail("RELEASE is not MAJOR.MINOR...");
	if (access(tpath("vmlinux"), R_OK)) {
		ok(true, "%s # SKIP its vmlinux has no .BTF", rel);
		return;
	}
	if (maj < 5 || (maj == 5 && min < 11)) {
		test_release_old(btfdir, rel);
		return;
	}
	off = expected(rel, maj, min);
	n = kbtf_layout_read(btfdir, NTPROF_ROLE_NONE, &l);
	ok(n == NTPROF_LF_COUNT, "%s: %d of %d fields found", rel, n, NTPROF_LF_COUNT);
	for (id = 0; id < NTPROF_LF_COUNT; id++) {
		d = kbtf_field(id);
		if (!l.found[id])
			ok(false, "%s: %s.%s: %s", rel, d->st, d->member, l.why[id]);
		else if (!off)
			diag("%s: %s.%s @%u, %u bytes", rel, d->st, d->member,
			     l.offset[id], l.size[id]);
		else
			ok(l.offset[id] == off[id], "%s: %s.%s @%u (%u bytes), pahole: @%u",
			   rel, d->st, d->member, l.offset[id], l.size[id], off[id]);
	}
	if (!off)
		ok(true, "%s: offsets # SKIP none known for this release", rel);
	for (id = 0; maj == 6 && (min == 1 || min == 12) && id < NTPROF_LF_COUNT;
	     id++) {
		d = kbtf_field(id);
		ok(l.st_size[id] == st_size_of(d->st, min == 12) &&
		   l.offset[id] + l.size[id] <= l.st_size[id],
		   "%s: struct %s is %u bytes, pahole: %u", rel, d->st,
		   l.st_size[id], st_size_of(d->st, min == 12));
	}
	n = kbtf_layout_read(btfdir, NTPROF_ROLE_HOST, &l);
	ok(n == NTPROF_LF_FIRST_TARGET && !l.found[NTPROF_LF_FIRST_TARGET],
	   "%s: host: %d found, the target's fields not read", rel, n);
	n = kbtf_layout_read(btfdir, NTPROF_ROLE_TARGET, &l);
	ok(n == NTPROF_LF_COUNT - NTPROF_LF_FIRST_TARGET && !l.found[0],
	   "%s: target: %d found, the host's fields not read", rel, n);
}

/* Without arguments; with a release's BTF, test_release() runs instead. */
static const struct tap_case cases[] = {
	{ "synthetic", test_synthetic },
};

int main(int argc, char **argv)
{
	int a = tap_args(argc, argv, cases, TAP_NR_CASES(cases));

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (a == argc) {
		tap_run(cases, TAP_NR_CASES(cases));
	} else if (argc - a == 2 && !tap_nr_only &&
		   snprintf(dir, sizeof(dir), "%s", argv[a]) < (int)sizeof(dir)) {
		test_release(dir, argv[a + 1]);
	} else {
		bail("usage: test_kbtf [-l] [-t NAME] | test_kbtf DIR RELEASE");
	}
	return tap_done("test_kbtf");
}
