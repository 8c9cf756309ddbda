// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the .ntp recording format (tools/ntprof/lib/ntp/ntp_write.c,
 * ntp_read.c) in what every version has. This file holds the program's
 * table of cases and its round trips, the trailer's devices and hooks
 * found late, recordings cut short at every byte, and the errors of the
 * writer and of the reader's open; ntp_v1.c the files of format 1.x (the
 * byte layout of 1.4 against Documentation/ntp-format.rst, files of 1.0,
 * 1.3 and a newer minor); ntp_damaged.c the damaged files, each of which
 * must give one exact message. test_ntp2.c tests what 2.0 changed, its
 * compact records in blocks; ntp_test.c has what both programs share, and
 * how files the writer would never produce are built.
 * Prints TAP; exits 1 if any test failed.
 *
 * usage: test_ntp [-l] [-t NAME]... [--seeds DIR]
 *        (DIR: also keep the files for fuzzing)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ntp/ntp.h"
#include "ntp_cases.h"
#include "ntp_test.h"
#include "tap.h"

static void test_round_trip(void)
{
	/* 2500 records in uneven appends, a flush, then 10 more. */
	static const size_t appends[] = { 1, 7, 1000, 1492 };
	static const size_t want_blocks[] = { 1024, 1024, 452, 10 };
	const char *path = tpath("rt.ntp");
	struct ntprof_record *recs = recs_make(2510);
	struct ntp_header h;
	struct ntp_writer *w;
	struct result r;
	size_t i, n = 0;
	int ret, all;

	hdr_make(&h);
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == 0 && !strcmp(ntp_writer_path(w), path),
	   "the writer opens a new file (%d)", ret);
	if (ret)
		return;
	for (i = 0; i < 4 && !ret; i++) {
		ret = ntp_writer_append(w, recs + n, appends[i]);
		n += appends[i];
	}
	if (!ret)
		ret = ntp_writer_flush(w);
	if (!ret)
		ret = ntp_writer_append(w, recs + n, 10);
	ret = ntp_writer_close(w, &trailer_in) ?: ret;
	ok(ret == 0, "2510 records append, flush and close (%d)", ret);

	for (all = 0; all < 2; all++) {
		const char *how = all ? "ntp_read_all" : "ntp_next_block";

		read_file(path, all, &r);
		ok(r.ret == 0 && r.msg[0] == 0,
		   "%s reads it to the end (%d %s)", how, r.ret, r.msg);
		ok(r.n == 2510 && same_records(r.recs, recs, 2510),
		   "%s: all 2510 records come back as written (%zu)", how, r.n);
		ok(r.has_trailer && r.trailer.records == 2510 &&
		   r.trailer.drops == 3 && r.trailer.evictions == 2 &&
		   r.trailer.end_mono_ns == trailer_in.end_mono_ns &&
		   r.trailer.end_real_ns == trailer_in.end_real_ns &&
		   r.discarded == 0,
		   "%s: the trailer, with the writer's count of records", how);
		free(r.recs);
	}
	ok(r.nblocks == 0, "ntp_read_all leaves the block list alone");
	read_file(path, false, &r);
	free(r.recs);
	ok(r.nblocks == 4 &&
	   !memcmp(r.blocks, want_blocks, sizeof(want_blocks)),
	   "full blocks of %d records, a flushed one, the last at close (%zu %zu %zu %zu)",
	   NTP_BLOCK_RECORDS, r.blocks[0], r.blocks[1], r.blocks[2],
	   r.blocks[3]);

	ok(r.hdr.version_major == 2 && r.hdr.version_minor == 3 &&
	   r.hdr.record_size == 0,
	   "the header has the version %u.%u and record size %u (compact)",
	   r.hdr.version_major, r.hdr.version_minor, r.hdr.record_size);
	ok(r.hdr.role == h.role && r.hdr.transport == h.transport &&
	   r.hdr.sample == h.sample && r.hdr.nr_cpus == h.nr_cpus &&
	   r.hdr.start_mono_ns == h.start_mono_ns &&
	   r.hdr.start_real_ns == h.start_real_ns &&
	   r.hdr.part == h.part &&
	   r.hdr.part_start_mono_ns == h.part_start_mono_ns,
	   "role, transport, sample, CPUs, start times and part come back");
	ok(r.hdr.chain == 1 && r.hdr.chain_offset == 264192,
	   "the chain rule and its offset come back (%u %llu)", r.hdr.chain,
	   (unsigned long long)r.hdr.chain_offset);
	ok(!strcmp(r.hdr.hostname, h.hostname) &&
	   !strcmp(r.hdr.kernel_release, h.kernel_release) &&
	   !strcmp(r.hdr.boot_id, h.boot_id) &&
	   !strcmp(r.hdr.tool_version, h.tool_version),
	   "the strings come back, a host name of the longest length too");

	{
		struct ntp_file *f;
		char err[256];
		const struct ntp_header *fh;
		bool same = false;

		if (!ntp_open(path, &f, err, sizeof(err))) {
			fh = ntp_header(f);
			same = fh->nr_hooks == 3;
			for (i = 0; same && i < 3; i++)
				same = !memcmp(&fh->hooks[i], &hooks[i],
					       sizeof(hooks[i]));
			ntp_close(f);
		}
		ok(same, "the three hooks come back, names of 255 bytes too");

		same = false;
		if (!ntp_open(path, &f, err, sizeof(err))) {
			fh = ntp_header(f);
			same = fh->nr_devs == 3;
			for (i = 0; same && i < 3; i++)
				same = !memcmp(&fh->devs[i], &devs[i],
					       sizeof(devs[i]));
			ntp_close(f);
		}
		ok(same, "the three devices come back, a name of %d bytes too",
		   NTP_DEV_NAME_MAX);

		same = false;
		if (!ntp_open(path, &f, err, sizeof(err))) {
			fh = ntp_header(f);
			same = fh->nr_ctrls == 2;
			for (i = 0; same && i < 2; i++)
				same = !memcmp(&fh->ctrls[i], &ctrls[i],
					       sizeof(ctrls[i]));
			ntp_close(f);
		}
		ok(same, "the two controllers come back, the longest strings too");
	}
	free(recs);
}

/* Since 1.2: the devices named after the start, in the trailer. */
static void test_late_devs(void)
{
	const char *path = tpath("late.ntp");
	struct ntprof_record *recs = recs_make(2);
	struct ntp_dev late[2] = { { .dev = 259 << 8 | 7 } };
	struct ntp_trailer t = trailer_in;
	const struct ntp_trailer *got;
	struct ntp_header h;
	struct ntp_writer *w;
	struct ntprof_record *back;
	struct ntp_file *f;
	char err[256];
	size_t n;
	int ret;

	strcpy(late[0].name, "nvme3n1");
	late[1].dev = 8 << 8 | 16;
	memset(late[1].name, 'x', NTP_DEV_NAME_MAX);
	t.late_devs = late;
	t.nr_late_devs = 2;
	hdr_make(&h);
	ret = ntp_writer_open(path, &h, &w);
	if (!ret) {
		ret = ntp_writer_append(w, recs, 2);
		ret = ntp_writer_close(w, &t) ?: ret;
	}
	ok(ret == 0, "a trailer with two devices named late is written (%d)", ret);
	ret = ntp_open(path, &f, err, sizeof(err));
	if (!ok(!ret, "it opens (%s)", ret ? err : ""))
		return;
	ret = ntp_read_all(f, &back, &n);
	got = ntp_trailer(f);
	ok(!ret && n == 2 && got && got->nr_late_devs == 2 &&
	   !memcmp(&got->late_devs[0], &late[0], sizeof(late[0])) &&
	   !memcmp(&got->late_devs[1], &late[1], sizeof(late[1])),
	   "they come back, a name of %d bytes too", NTP_DEV_NAME_MAX);
	free(back);
	ntp_close(f);
	free(recs);
}

/*
 * Since 1.3: the hooks of processes found after the start, in the
 * trailer after its device table; with no late device, a table of 0.
 */
static void test_late_hooks(void)
{
	const char *path = tpath("late-hooks.ntp");
	struct ntprof_record *recs = recs_make(1);
	struct ntp_hook late[2] = {
		{ .kind = NTPROF_HOOK_AGENT, .role = NTPROF_ROLE_TARGET,
		  .transport = NTPROF_TRANSPORT_TCP,
		  .point = NTPROF_PT_TARGET_INIT, .required = 1,
		  .state = NTPROF_HOOK_ATTACHED,
		  .name = "pid 4242: spdk_nvmf_request_exec" },
		{ .kind = NTPROF_HOOK_AGENT, .role = NTPROF_ROLE_TARGET,
		  .point = NTPROF_PT_TARGET_COMPLETE,
		  .state = NTPROF_HOOK_MISSING },
	};
	struct ntp_trailer t = trailer_in;
	const struct ntp_trailer *got;
	struct ntprof_record *back;
	struct ntp_header h;
	struct ntp_writer *w;
	struct ntp_file *f;
	char err[256];
	size_t n;
	int ret;

	memset(late[1].name, 'y', NTP_HOOK_NAME_MAX);
	t.late_hooks = late;
	t.nr_late_hooks = 2;
	hdr_make(&h);
	ret = ntp_writer_open(path, &h, &w);
	if (!ret) {
		ret = ntp_writer_append(w, recs, 1);
		ret = ntp_writer_close(w, &t) ?: ret;
	}
	ok(ret == 0, "a trailer with two hooks found late is written (%d)", ret);
	ret = ntp_open(path, &f, err, sizeof(err));
	if (!ok(!ret, "it opens (%s)", ret ? err : ""))
		return;
	ret = ntp_read_all(f, &back, &n);
	got = ntp_trailer(f);
	ok(!ret && n == 1 && got && got->nr_late_devs == 0 &&
	   got->nr_late_hooks == 2 &&
	   !memcmp(&got->late_hooks[0], &late[0], sizeof(late[0])) &&
	   !memcmp(&got->late_hooks[1], &late[1], sizeof(late[1])),
	   "they come back after an empty device table, a name of %d bytes too",
	   NTP_HOOK_NAME_MAX);
	free(back);
	ntp_close(f);
	free(recs);
}

/* A file of format 1.7, with everything a newer minor may add. */
static void test_cut_short(void)
{
	static const size_t blocks[] = { 3, 2, 4 };
	const char *path = tpath("cut.ntp");
	struct ntprof_record *recs;
	uint64_t end, want_end;
	size_t len, n, want;
	bool good = true;
	struct layout l;
	struct result r;
	uint8_t *buf;
	int all;

	recs = write_blocks(path, blocks, 3, false, &n);
	seed(path);
	buf = slurp(path, &len);
	layout(buf, len, &l);
	/* From the end down, so each cut is a truncate() of the last. */
	for (end = len - 1; good && end >= l.unit[2]; end--) {
		if (truncate(path, end))
			die("truncate");
		want = end < l.unit[3] ? 5 : 9;
		want_end = end < l.unit[3] ? l.unit[2] : l.unit[3];
		if (end == l.unit[3] - 100 || end == l.unit[3] + 30)
			seed(path);
		for (all = 0; good && all < 2; all++) {
			read_file(path, all, &r);
			good = r.ret == 0 && r.n == want && !r.has_trailer &&
			       same_records(r.recs, recs, want) &&
			       r.discarded == end - want_end;
			if (!good) {
				diag("cut at %llu of %zu, %s: %d \"%s\"",
				     (unsigned long long)end, len,
				     all ? "ntp_read_all" : "ntp_next_block",
				     r.ret, r.msg);
				diag("%zu records, trailer %d, %llu discarded",
				     r.n, r.has_trailer,
				     (unsigned long long)r.discarded);
			}
			free(r.recs);
		}
	}
	ok(good, "cut at each of the %zu bytes of the last block and trailer: %s",
	   len - l.unit[2], "the whole blocks, no trailer");

	good = true;
	for (end = l.hdr_len - 1; good && end > 0; end--) {
		if (truncate(path, end))
			die("truncate");
		good = fails_with(path, -EBADMSG, "header truncated");
		if (!good)
			diag("cut at %llu", (unsigned long long)end);
	}
	ok(good, "cut at each of the %zu bytes of the header: \"header truncated\"",
	   l.hdr_len - 1);
	if (truncate(path, 0))
		die("truncate");
	ok(fails_with(path, -EBADMSG, "empty file, not an ntprof recording"),
	   "an empty file: \"empty file, not an ntprof recording\"");

	/* What the writer leaves when it is gone before ntp_writer_close(). */
	free(recs);
	recs = write_blocks(path, blocks, 3, true, &n);
	seed(path);
	read_file(path, true, &r);
	ok(r.ret == 0 && r.n == 9 && !r.has_trailer && r.discarded == 0,
	   "closed without a trailer: all records, no trailer (%d %s)",
	   r.ret, r.msg);
	free(r.recs);
	free(buf);
	free(recs);
}

static void test_open_errors(void)
{
	char err[256], want[512];
	struct ntp_file *f;
	int ret;

	ret = ntp_open(tpath("nosuch.ntp"), &f, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: %s", tpath("nosuch.ntp"),
		 strerror(ENOENT));
	ok(ret == -ENOENT && !strcmp(err, want),
	   "a missing file: -ENOENT and \"<path>: %s\" (%s)", strerror(ENOENT),
	   err);
	ret = ntp_open(scratch, &f, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: not a regular file", scratch);
	ok(ret == -EINVAL && !strcmp(err, want),
	   "a directory: \"not a regular file\" (%s)", err);
}

static void test_writer_errors(void)
{
	struct ntprof_record *recs = recs_make(NTP_BLOCK_RECORDS);
	const char *path = tpath("limit.ntp");
	struct ntp_writer *w;
	struct rlimit old, lim;
	struct ntp_header h;
	struct result r;
	int ret, ret2, ret3;

	hdr_make(&h);
	ret = ntp_writer_open(tpath("nosuch/x.ntp"), &h, &w);
	ok(ret == -ENOENT, "a file in a missing directory: -ENOENT (%d)", ret);

	memset(h.hostname, 'h', sizeof(h.hostname));
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "a host name that does not fit: -EINVAL (%d)", ret);
	hdr_make(&h);
	memset(hooks[1].name, 'n', sizeof(hooks[1].name));
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "a hook name that does not fit: -EINVAL (%d)", ret);
	hdr_make(&h);
	h.nr_hooks = NTP_HOOKS_MAX + 1;
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "more than %d hooks: -EINVAL (%d)", NTP_HOOKS_MAX,
	   ret);
	hdr_make(&h);
	h.nr_devs = NTP_DEVS_MAX + 1;
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "more than %d devices: -EINVAL (%d)", NTP_DEVS_MAX,
	   ret);
	hdr_make(&h);
	memset(devs[0].name, 'n', sizeof(devs[0].name));
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "a device name that does not fit: -EINVAL (%d)",
	   ret);
	hdr_make(&h);
	h.nr_ctrls = NTP_CTRLS_MAX + 1;
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "more than %d controllers: -EINVAL (%d)",
	   NTP_CTRLS_MAX, ret);
	hdr_make(&h);
	memset(ctrls[1].subsysnqn, 'n', sizeof(ctrls[1].subsysnqn));
	ret = ntp_writer_open(path, &h, &w);
	ok(ret == -EINVAL, "an NQN that does not fit: -EINVAL (%d)", ret);
	hdr_make(&h);
	{
		/* Full tables of the longest entries make more than 1 MiB. */
		struct ntp_ctrl *big = calloc(NTP_CTRLS_MAX, sizeof(*big));
		int k;

		if (!big)
			die("calloc");
		for (k = 0; k < NTP_CTRLS_MAX; k++)
			big[k] = ctrls[1];
		h.nr_ctrls = NTP_CTRLS_MAX;
		h.ctrls = big;
		ret = ntp_writer_open(path, &h, &w);
		ok(ret == -EINVAL,
		   "a header of more than 1 MiB: -EINVAL (%d)", ret);
		free(big);
		hdr_make(&h);
	}

	if (access("/dev/full", W_OK)) {
		ok(true, "a full disk: -ENOSPC # SKIP no writable /dev/full");
	} else {
		ret = ntp_writer_open("/dev/full", &h, &w);
		ok(ret == -ENOSPC, "a full disk: -ENOSPC (%d)", ret);
	}

	/*
	 * A file size limit makes the block's write() short, then fail with
	 * EFBIG: the writer must report it and refuse to go on.
	 */
	if (getrlimit(RLIMIT_FSIZE, &old))
		die("getrlimit");
	signal(SIGXFSZ, SIG_IGN);
	ret = ntp_writer_open(path, &h, &w);
	if (ret) {
		errno = -ret;
		die("ntp_writer_open");
	}
	lim = old;
	lim.rlim_cur = 8192;
	if (setrlimit(RLIMIT_FSIZE, &lim))
		die("setrlimit");
	ret = ntp_writer_append(w, recs, NTP_BLOCK_RECORDS);
	ret2 = ntp_writer_append(w, recs, 1);
	ret3 = ntp_writer_close(w, &trailer_in);
	if (setrlimit(RLIMIT_FSIZE, &old))
		die("setrlimit");
	signal(SIGXFSZ, SIG_DFL);
	seed(path);
	ok(ret == -EFBIG && ret2 == -EFBIG && ret3 == -EFBIG,
	   "a short write is an error, and it sticks (%d %d %d)", ret, ret2,
	   ret3);
	read_file(path, true, &r);
	ok(r.ret == 0 && r.n == 0 && !r.has_trailer && r.discarded > 0,
	   "the file it leaves reads as cut short (%d %s, %llu discarded)",
	   r.ret, r.msg, (unsigned long long)r.discarded);
	free(r.recs);
	free(recs);
}

/*
 * A writer SIGKILLed at work, in blocks of 1 to 8 records: its file reads,
 * up to its last whole block, and says that it ended early.
 */
static void test_killed_writer(void)
{
	const char *path = tpath("killed.ntp");
	struct ntprof_record *recs = recs_make(8);
	size_t i = 0, k, blocks = 0;
	struct ntp_writer *w;
	struct ntp_header h;
	struct result r;
	bool same = true;
	pid_t pid;

	hdr_make(&h);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (ntp_writer_open(path, &h, &w))
			_exit(1);
		for (;; i = (i + 1) % 8)
			if (ntp_writer_append(w, recs, i + 1) ||
			    ntp_writer_flush(w))
				_exit(1);
	}
	/* Kill it at work, once it wrote some blocks, however slow it is. */
	for (i = 0; i < 10000; i++) {
		struct stat st;

		if (!stat(path, &st) && st.st_size > 64 * 1024)
			break;
		usleep(1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	read_file(path, true, &r);
	/* Block k holds records 0 to k % 8. */
	for (i = 0; same && i < r.n; blocks++) {
		for (k = 0; same && k <= blocks % 8; k++, i++)
			same = i < r.n && !memcmp(&r.recs[i], &recs[k],
						  sizeof(*recs));
	}
	ok(r.ret == 0 && !r.has_trailer && blocks > 1 && same,
	   "a writer killed by SIGKILL leaves %zu whole blocks, no trailer (%d %s)",
	   blocks, r.ret, r.msg);
	free(r.recs);
	free(recs);
}

static void test_empty_recording(void)
{
	const char *path = tpath("empty.ntp");
	struct result r;
	size_t n;

	free(write_blocks(path, NULL, 0, false, &n));
	seed(path);
	read_file(path, true, &r);
	ok(r.ret == 0 && r.n == 0 && !r.recs && r.has_trailer &&
	   r.trailer.records == 0,
	   "a recording without records: none, and its trailer (%d %s)",
	   r.ret, r.msg);
}

static const struct tap_case cases[] = {
	{ "round_trip", test_round_trip },
	{ "layout", test_layout },
	{ "late_devs", test_late_devs },
	{ "late_hooks", test_late_hooks },
	{ "newer_minor", test_newer_minor },
	{ "minor_zero", test_minor_zero },
	{ "minor_three", test_minor_three },
	{ "cut_short", test_cut_short },
	{ "damaged", test_damaged },
	{ "damaged_1x", test_damaged_1x },
	{ "open_errors", test_open_errors },
	{ "writer_errors", test_writer_errors },
	{ "killed_writer", test_killed_writer },
	{ "empty_recording", test_empty_recording },
};

int main(int argc, char *argv[])
{
	return ntp_test_main(argc, argv, "test_ntp", cases,
			     TAP_NR_CASES(cases));
}
