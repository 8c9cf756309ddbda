// SPDX-License-Identifier: GPL-2.0
/*
 * ntpgen's command line: its usage, and the options into struct opts.
 * The options come in the groups usage() shows them in, one parser for
 * each group; the values themselves are ntpgen_parse.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "common/names.h"
#include "common/util.h"
#include "ntpgen.h"

static void usage(FILE *f)
{
	fputs(
"usage: ntpgen [options] HOST.ntp TARGET.ntp\n"
"       ntpgen --chain [options] DIR\n"
"\n"
"Writes a host's and a target's .ntp recordings of one synthetic NVMe-oF\n"
"workload, with known stage means, for testing and benchmarking 'ntprof\n"
"report'. Q queues of D tags each issue commands in a closed loop; each\n"
"command's points follow the stage model (Documentation/stages.rst) with\n"
"the target's window nested in the host's send -> receive window, and the\n"
"target's points on its own clock: target = host + theta + drift * (t - t0).\n"
"Both sides sample with the module's 1-in-N decision (kmod/sample.h).\n"
"\n"
"workload:\n"
"  -n, --commands N        commands the workload issues (default 10000); each\n"
"                          side records those its 1-in-N picks\n"
"  -t, --transport T       tcp or rdma (default tcp)\n"
"  -s, --sample N          1-in-N sampling, written in both headers (default 1)\n"
"      --target-sample N   the target's N, if different (to test a refusal)\n"
"  -q, --queues Q          I/O queues, qid 1..Q (default 4)\n"
"  -d, --qdepth D          tags per queue, at most 4096 (default 32)\n"
"      --no-genctr         cid = tag, without Linux's 4-bit generation counter\n"
"                          in bits 15:12 (more reuse of command identities)\n"
"      --read-pct P        reads, in % of commands (default 70)\n"
"      --large-pct P       128 KiB commands, in % (default 20; else 4 KiB)\n"
"      --span BYTES        the LBA range, with k/M/G suffixes (default 1G):\n"
"                          smaller repeats identities (slba) more often\n"
"      --lba-size B        bytes per LBA, 512 or 4096 (default 512)\n"
"      --gap-us US         mean time between a completion and its slot's next\n"
"                          command (default 2)\n"
"      --passthru-pct P    commands userspace built (NVMe passthrough: an ioctl\n"
"                          or io_uring command), in % (default 0): their host\n"
"                          records are flagged so, and have no HOST_BLK_START,\n"
"                          as 6.12 stamps none for them\n"
"      --seed S            random seed (default 1)\n"
"\n"
"stage means, in microseconds (each drawn uniform in mean * (1 +- jitter)):\n"
"      --host-blk-us US    host block layer (default 4)\n"
"      --host-drv-us US    host driver (default 6)\n"
"      --network-us US     network: both hops and the host's receive path\n"
"                          (default 20)\n"
"      --target-drv-us US  target driver (default 10)\n"
"      --storage-us US     storage: target block layer and drive (default 80)\n"
"      --target-blk-us US  of storage, the target's block layer (the rest is\n"
"                          the drive's; default a fifth of storage)\n"
"      --data-us US        network: the transfer of a 128 KiB write's data,\n"
"                          beyond the in-capsule size: R2T and H2C data, or\n"
"                          the RDMA READ (default 30)\n"
"      --jitter F          relative spread, 0 to 0.9 (default 0.25)\n"
"      --slow-queue Q:US   the drive takes US more for the commands of queue Q\n"
"      --slow-from S:US    the drive takes US more for the commands that start\n"
"                          S seconds or more after the first\n"
"\n"
"clocks:\n"
"      --theta DUR         target clock minus host clock, e.g. 3s, -3s, 250ms,\n"
"                          15us, 1000 (ns; default 1.5s)\n"
"      --drift PPM         the target's clock runs PPM parts per million fast\n"
"                          (negative: slow) (default 0)\n"
"      --real-skew DUR     error of the target's CLOCK_REALTIME against the\n"
"                          host's, which spoils the headers' theta hint\n"
"                          (default 0)\n"
"\n"
"losses:\n"
"      --no-target-pct P   of the commands both sample, % without a target\n"
"                          record (default 0)\n"
"      --no-host-pct P     of the commands both sample, % without a host\n"
"                          record (default 0)\n"
"      --failed-pct P      of the commands the host does not sample, % that\n"
"                          fail (status 0x100) and are recorded anyway, as the\n"
"                          host's recorder keeps every failed command\n"
"      --stale-recv-pct P  of the commands both record, % whose target\n"
"                          receive stamp is an earlier read's, before the\n"
"                          host even sent (default 0): report must drop it\n"
"      --aborted-pct P     of the commands the host samples, % whose first\n"
"                          attempt the host aborted (status 0x371) and\n"
"                          requeued: one more host record, apart (default 0)\n"
"\n"
"paths:\n"
"      --host-dev NAME     the host's name of the namespace (default nvme1n1):\n"
"                          a run over another controller has another\n"
"      --paths N           native multipath: the host reaches the namespace\n"
"                          through N controllers (at most 8), queue Q's\n"
"                          commands through the ((Q - 1) % N)-th, whose\n"
"                          path disk the device table names after the\n"
"                          namespace (default 1)\n"
"\n"
"files:\n"
"      --cpus N            nr_cpus in the headers, and CPUs of the records\n"
"                          (default 8)\n"
"      --hostname NAME     the host's name in its header (default\n"
"                          ntpgen-host): several runs with their own names\n"
"                          and seeds (boot ids) are several hosts\n"
"      --no-hooks          write no hook list in the headers\n"
"      --hostile-strings   put terminal escapes (ESC, BEL, CR) and bytes that\n"
"                          are not UTF-8 in the host name, kernel release,\n"
"                          tool version, device and controller names and the\n"
"                          name of a component's hook, which is left\n"
"                          unattached for report to name it, as a crafted\n"
"                          file would\n"
"      --no-trailer        end both files without a trailer (cut short)\n"
"      --linger DUR        the host's recording ends DUR after the last\n"
"                          command, the target's 2 x DUR (stopped last, as\n"
"                          recommended): recordings longer than the\n"
"                          workload (default 0)\n"
"      --format V          the .ntp format version: 2.0 (default, compact\n"
"                          records), or 1.0 to 1.4 (records of 232 bytes) for\n"
"                          the tests that keep files of every version\n"
"  -e, --expect FILE       write what 'ntprof report' should find: record\n"
"                          counts, the nominal means and, per group (op and\n"
"                          size) and for all, the means of the commands both\n"
"                          sides recorded, from the written points (us)\n"
"      --quiet             no summary on stderr\n"
"  -h, --help              this help\n"
"\n"
"chain (--chain DIR: a kernel chain's recordings, see ntpgen_chain.c):\n"
"      --chain             write into DIR the recordings of a chain: host.ntp\n"
"                          (the origin host), middle-target.ntp and\n"
"                          middle-host.ntp (the middle: nvmet exporting md\n"
"                          raid1, one machine and clock), legN-target.ntp\n"
"                          (leg N's replica), each machine on its own clock,\n"
"                          every file sampling by the chain rule (uapi\n"
"                          ntprof_chain_hash()), and truth.csv: every hop's\n"
"                          host and target record, every link from a middle's\n"
"                          target record to its downstream host records (the\n"
"                          one that completed last: critical), and every\n"
"                          downstream command without upstream\n"
"      --hops N            2, or 3: leg 0's replica is itself a middle of\n"
"                          --legs legs (leg0-host.ntp, leg0.N-target.ntp)\n"
"      --legs N            legs (replicas) of a middle, 1 to 4 (default 2)\n"
"      --leg-offset LBAS   md's data_offset: a leg's LBA is the middle's plus\n"
"                          this (default 4096)\n"
"      --slow-leg L:US[:SECS]\n"
"                          leg L's replicas' drives take US more, for the\n"
"                          commands that reach them SECS seconds or more\n"
"                          after the first (default 0: all of them)\n"
"      --split-pct P       of the 128 KiB commands a middle serves, % it\n"
"                          splits into 2 or 4 contiguous parts (default 0)\n"
"      --unlinked-pct P    after P % of its commands, a middle sends one of\n"
"                          its own, in turn a resync (64 KiB read from a leg,\n"
"                          then written to the others) and a superblock write\n"
"                          to every leg (default 0)\n"
"      --one-replica       every leg's replica on one machine, as the lab has\n"
"                          them: one recording (replicas-target.ntp) of a\n"
"                          subsystem and a drive (nullbN) per leg\n"
"      --read-policy P     a read's leg: least-busy (md on SSDs: fewest in\n"
"                          flight, default) or alternate\n"
"      --middle-us US      md's own time, before and after the legs (default 6)\n"
"      --theta-step DUR    machine k's clock (1: the middle, then the legs)\n"
"                          is host + theta + (k - 1) * DUR, running k * --drift\n"
"                          ppm fast (default -1.1s)\n"
"      --no-chain-rule     sample by the usual rule, each hop on its own\n"
"                          identity, and say so in the headers\n"
"\n"
"examples:\n"
"  ntpgen -n 100000 -t rdma --theta -3s --drift 50 host.ntp target.ntp\n"
"  ntpgen -n 10000000 --storage-us 120 --seed 7 /tmp/h.ntp /tmp/t.ntp\n", f);
}

enum {
	OPT_TARGET_SAMPLE = 256,
	OPT_NO_GENCTR,
	OPT_READ_PCT,
	OPT_LARGE_PCT,
	OPT_SPAN,
	OPT_LBA_SIZE,
	OPT_GAP,
	OPT_PASSTHRU,
	OPT_SEED,
	OPT_HOST_BLK,
	OPT_HOST_DRV,
	OPT_NETWORK,
	OPT_TGT_DRV,
	OPT_STORAGE,
	OPT_DATA,
	OPT_TARGET_BLK,
	OPT_JITTER,
	OPT_SLOW_QUEUE,
	OPT_FAILED_PCT,
	OPT_SLOW_FROM,
	OPT_THETA,
	OPT_DRIFT,
	OPT_REAL_SKEW,
	OPT_LINGER,
	OPT_NO_TARGET,
	OPT_STALE_RECV,
	OPT_ABORTED_PCT,
	OPT_PATHS,
	OPT_HOST_DEV,
	OPT_NO_HOST,
	OPT_CPUS,
	OPT_NO_HOOKS,
	OPT_HOSTILE,
	OPT_NO_TRAILER,
	OPT_FORMAT,
	OPT_QUIET,
	OPT_HOSTNAME,
	OPT_CHAIN,
	OPT_HOPS,
	OPT_LEGS,
	OPT_LEG_OFFSET,
	OPT_SLOW_LEG,
	OPT_SPLIT_PCT,
	OPT_UNLINKED_PCT,
	OPT_READ_POLICY,
	OPT_MIDDLE_US,
	OPT_THETA_STEP,
	OPT_NO_CHAIN_RULE,
	OPT_ONE_REPLICA,
};

static const struct option long_opts[] = {
	{ "commands", required_argument, NULL, 'n' },
	{ "transport", required_argument, NULL, 't' },
	{ "sample", required_argument, NULL, 's' },
	{ "target-sample", required_argument, NULL, OPT_TARGET_SAMPLE },
	{ "queues", required_argument, NULL, 'q' },
	{ "qdepth", required_argument, NULL, 'd' },
	{ "no-genctr", no_argument, NULL, OPT_NO_GENCTR },
	{ "read-pct", required_argument, NULL, OPT_READ_PCT },
	{ "large-pct", required_argument, NULL, OPT_LARGE_PCT },
	{ "span", required_argument, NULL, OPT_SPAN },
	{ "lba-size", required_argument, NULL, OPT_LBA_SIZE },
	{ "gap-us", required_argument, NULL, OPT_GAP },
	{ "passthru-pct", required_argument, NULL, OPT_PASSTHRU },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "host-blk-us", required_argument, NULL, OPT_HOST_BLK },
	{ "host-drv-us", required_argument, NULL, OPT_HOST_DRV },
	{ "network-us", required_argument, NULL, OPT_NETWORK },
	{ "target-drv-us", required_argument, NULL, OPT_TGT_DRV },
	{ "storage-us", required_argument, NULL, OPT_STORAGE },
	{ "data-us", required_argument, NULL, OPT_DATA },
	{ "target-blk-us", required_argument, NULL, OPT_TARGET_BLK },
	{ "jitter", required_argument, NULL, OPT_JITTER },
	{ "slow-queue", required_argument, NULL, OPT_SLOW_QUEUE },
	{ "failed-pct", required_argument, NULL, OPT_FAILED_PCT },
	{ "slow-from", required_argument, NULL, OPT_SLOW_FROM },
	{ "theta", required_argument, NULL, OPT_THETA },
	{ "drift", required_argument, NULL, OPT_DRIFT },
	{ "real-skew", required_argument, NULL, OPT_REAL_SKEW },
	{ "linger", required_argument, NULL, OPT_LINGER },
	{ "no-target-pct", required_argument, NULL, OPT_NO_TARGET },
	{ "no-host-pct", required_argument, NULL, OPT_NO_HOST },
	{ "stale-recv-pct", required_argument, NULL, OPT_STALE_RECV },
	{ "aborted-pct", required_argument, NULL, OPT_ABORTED_PCT },
	{ "paths", required_argument, NULL, OPT_PATHS },
	{ "host-dev", required_argument, NULL, OPT_HOST_DEV },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "no-hooks", no_argument, NULL, OPT_NO_HOOKS },
	{ "hostile-strings", no_argument, NULL, OPT_HOSTILE },
	{ "no-trailer", no_argument, NULL, OPT_NO_TRAILER },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "expect", required_argument, NULL, 'e' },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "hostname", required_argument, NULL, OPT_HOSTNAME },
	{ "chain", no_argument, NULL, OPT_CHAIN },
	{ "hops", required_argument, NULL, OPT_HOPS },
	{ "legs", required_argument, NULL, OPT_LEGS },
	{ "leg-offset", required_argument, NULL, OPT_LEG_OFFSET },
	{ "slow-leg", required_argument, NULL, OPT_SLOW_LEG },
	{ "split-pct", required_argument, NULL, OPT_SPLIT_PCT },
	{ "unlinked-pct", required_argument, NULL, OPT_UNLINKED_PCT },
	{ "read-policy", required_argument, NULL, OPT_READ_POLICY },
	{ "middle-us", required_argument, NULL, OPT_MIDDLE_US },
	{ "theta-step", required_argument, NULL, OPT_THETA_STEP },
	{ "no-chain-rule", no_argument, NULL, OPT_NO_CHAIN_RULE },
	{ "one-replica", no_argument, NULL, OPT_ONE_REPLICA },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* In the order of OPT_HOST_BLK to OPT_STORAGE and of stage_us[]. */
static const char * const stage_opt[] = {
	"--host-blk-us", "--host-drv-us", "--network-us", "--target-drv-us",
	"--storage-us",
};

/* What a group's parser returns for an option of another group. */
#define OPT_OTHER_GROUP	1

/* A percentage, 0 to 100, of option @what. */
static int parse_pct(const char *arg, const char *what, double *out)
{
	return parse_double(arg, what, 0, 100, out);
}

/* The workload's loop: its size, transport, sampling and identities. */
static int parse_loop_opt(int c, char *arg, struct opts *o)
{
	uint32_t transport;

	switch (c) {
	case 'n':
		return parse_u64(arg, "--commands", 1, UINT32_MAX - 1,
				 &o->commands);
	case 't':
		/* One transport: tcp,rdma is not a generator's. */
		if (ntprof_transport_parse(arg, &transport) ||
		    !ntprof_transport_id(transport)) {
			fprintf(stderr, "ntpgen: --transport: '%s' is not tcp or rdma\n",
				arg);
			return -1;
		}
		o->transport = transport;
		return 0;
	case 's':
		return parse_u32(arg, "--sample", 1, NTPROF_SAMPLE_MAX,
				 &o->sample);
	case OPT_TARGET_SAMPLE:
		/* At least 1: parse_args() tells a 0 left here as unset. */
		return parse_u32(arg, "--target-sample", 1, NTPROF_SAMPLE_MAX,
				 &o->target_sample);
	case 'q':
		return parse_u32(arg, "--queues", 1, 1024, &o->queues);
	case 'd':
		return parse_u32(arg, "--qdepth", 1, 4096, &o->qdepth);
	case OPT_NO_GENCTR:
		o->genctr = false;
		return 0;
	}
	return OPT_OTHER_GROUP;
}

/* The commands' mix: reads, sizes, addresses, pace and seed. */
static int parse_mix_opt(int c, char *arg, struct opts *o)
{
	switch (c) {
	case OPT_READ_PCT:
		return parse_pct(arg, "--read-pct", &o->read_pct);
	case OPT_LARGE_PCT:
		return parse_pct(arg, "--large-pct", &o->large_pct);
	case OPT_SPAN:
		return parse_size(arg, "--span", &o->span);
	case OPT_LBA_SIZE:
		if (parse_u32(arg, "--lba-size", 512, 4096, &o->lba_size))
			return -1;
		if (o->lba_size != 512 && o->lba_size != 4096) {
			fprintf(stderr, "ntpgen: --lba-size: 512 or 4096\n");
			return -1;
		}
		return 0;
	case OPT_GAP:
		return parse_double(arg, "--gap-us", 0, 1e9, &o->gap_us);
	case OPT_PASSTHRU:
		return parse_pct(arg, "--passthru-pct", &o->passthru_pct);
	case OPT_SEED:
		return parse_u64(arg, "--seed", 0, UINT64_MAX, &o->seed);
	}
	return OPT_OTHER_GROUP;
}

/*
 * Cuts @arg, @opt's "A:B" (@form), at its colon: returns B, with @arg
 * left as A, or NULL when there is no colon.
 */
static char *split_pair(char *arg, const char *opt, const char *form)
{
	char *colon = strchr(arg, ':');

	if (!colon) {
		fprintf(stderr, "ntpgen: %s takes %s, not '%s'\n", opt, form,
			arg);
		return NULL;
	}
	*colon = '\0';
	return colon + 1;
}

/* The stages' means, their spread, and the drive's slow spells. */
static int parse_stage_opt(int c, char *arg, struct opts *o)
{
	char *us;

	switch (c) {
	case OPT_HOST_BLK:
	case OPT_HOST_DRV:
	case OPT_NETWORK:
	case OPT_TGT_DRV:
	case OPT_STORAGE:
		return parse_double(arg, stage_opt[c - OPT_HOST_BLK], 0.01, 1e7,
				    &o->stage_us[c - OPT_HOST_BLK]);
	case OPT_DATA:
		return parse_double(arg, "--data-us", 0.01, 1e7, &o->data_us);
	case OPT_TARGET_BLK:
		return parse_double(arg, "--target-blk-us", 0.01, 1e7,
				    &o->target_blk_us);
	case OPT_JITTER:
		return parse_double(arg, "--jitter", 0, 0.9, &o->jitter);
	case OPT_SLOW_QUEUE:
		us = split_pair(arg, "--slow-queue", "Q:US");
		if (!us)
			return -EINVAL;
		if (parse_u64(arg, "--slow-queue", 1, 65535, &o->slow_qid))
			return -1;
		return parse_double(us, "--slow-queue", 0, 1e7, &o->slow_us);
	case OPT_SLOW_FROM:
		us = split_pair(arg, "--slow-from", "SECS:US");
		if (!us)
			return -EINVAL;
		if (parse_double(arg, "--slow-from", 0, 1e6, &o->slow_from_s))
			return -1;
		return parse_double(us, "--slow-from", 0, 1e7,
				    &o->slow_from_us);
	}
	return OPT_OTHER_GROUP;
}

/* The target's clock against the host's. */
static int parse_clock_opt(int c, char *arg, struct opts *o)
{
	switch (c) {
	case OPT_THETA:
		return parse_dur(arg, "--theta", &o->theta_ns);
	case OPT_DRIFT:
		return parse_double(arg, "--drift", -1000, 1000,
				    &o->drift_ppm);
	case OPT_REAL_SKEW:
		return parse_dur(arg, "--real-skew", &o->real_skew_ns);
	case OPT_LINGER:
		if (parse_dur(arg, "--linger", &o->linger_ns))
			return -1;
		if (o->linger_ns >= 0)
			return 0;
		fputs("ntpgen: --linger: a duration of 0 or more\n", stderr);
		return -1;
	}
	return OPT_OTHER_GROUP;
}

/* Records lost on one side, failed commands, stale stamps. */
static int parse_loss_opt(int c, char *arg, struct opts *o)
{
	switch (c) {
	case OPT_NO_TARGET:
		return parse_pct(arg, "--no-target-pct", &o->no_target_pct);
	case OPT_NO_HOST:
		return parse_pct(arg, "--no-host-pct", &o->no_host_pct);
	case OPT_FAILED_PCT:
		return parse_pct(arg, "--failed-pct", &o->failed_pct);
	case OPT_STALE_RECV:
		return parse_pct(arg, "--stale-recv-pct", &o->stale_recv_pct);
	case OPT_ABORTED_PCT:
		return parse_pct(arg, "--aborted-pct", &o->aborted_pct);
	}
	return OPT_OTHER_GROUP;
}

/* --format MAJOR.MINOR: one the writer writes (ntp_writer_open_format()). */
static int parse_format(const char *arg, struct opts *o)
{
	unsigned int major, minor;
	char end;

	if (sscanf(arg, "%u.%u%c", &major, &minor, &end) != 2 ||
	    !((major == NTP_VERSION_MAJOR && minor <= NTP_VERSION_MINOR) ||
	      (major == 1 && minor <= 4))) {
		fprintf(stderr, "ntpgen: --format: '%s' is not %u.0 to %u.%u or 1.0 to 1.4\n",
			arg, NTP_VERSION_MAJOR, NTP_VERSION_MAJOR,
			NTP_VERSION_MINOR);
		return -1;
	}
	o->format_major = major;
	o->format_minor = minor;
	return 0;
}

/* What the files hold besides the records, and what ntpgen prints. */
static int parse_file_opt(int c, char *arg, struct opts *o)
{
	switch (c) {
	case OPT_PATHS:
		return parse_u32(arg, "--paths", 1, MAX_PATHS, &o->paths);
	case OPT_HOST_DEV:
		/* A name the device table holds (struct ntp_dev). */
		if (!*arg || strlen(arg) > NTP_DEV_NAME_MAX) {
			fprintf(stderr, "ntpgen: --host-dev: '%s' is not a device name\n",
				arg);
			return -1;
		}
		o->host_dev = arg;
		return 0;
	case OPT_CPUS:
		return parse_u32(arg, "--cpus", 1, 65535, &o->nr_cpus);
	case OPT_HOSTNAME:
		if (!*arg || strlen(arg) > NTP_HOSTNAME_MAX) {
			fprintf(stderr, "ntpgen: --hostname: 1 to %u characters, not '%s'\n",
				NTP_HOSTNAME_MAX, arg);
			return -1;
		}
		o->hostname = arg;
		return 0;
	case OPT_NO_HOOKS:
		o->hooks = false;
		return 0;
	case OPT_HOSTILE:
		o->hostile = true;
		return 0;
	case OPT_NO_TRAILER:
		o->no_trailer = true;
		return 0;
	case OPT_FORMAT:
		return parse_format(arg, o);
	case 'e':
		o->expect = arg;
		return 0;
	case OPT_QUIET:
		o->quiet = true;
		return 0;
	}
	return OPT_OTHER_GROUP;
}

/* --chain and the shape of its chain. */
static int parse_chain_opt(int c, char *arg, struct opts *o)
{
	uint64_t leg;
	char *us, *from;

	switch (c) {
	case OPT_CHAIN:
		o->chain = true;
		return 0;
	case OPT_HOPS:
		return parse_u32(arg, "--hops", 2, 3, &o->hops);
	case OPT_LEGS:
		return parse_u32(arg, "--legs", 1, CHAIN_MAX_LEGS, &o->legs);
	case OPT_LEG_OFFSET:
		return parse_u64(arg, "--leg-offset", 0, 1ULL << 40,
				 &o->leg_offset);
	case OPT_SLOW_LEG:
		us = split_pair(arg, "--slow-leg", "L:US[:SECS]");
		if (!us || parse_u64(arg, "--slow-leg", 0, CHAIN_MAX_LEGS - 1,
				     &leg))
			return -1;
		o->slow_leg = (int32_t)leg;
		/* A slow spell that starts later: a leg going bad mid-run. */
		from = strchr(us, ':');
		if (from) {
			*from++ = '\0';
			if (parse_double(from, "--slow-leg", 0, 1e6,
					 &o->slow_leg_from_s))
				return -1;
		}
		return parse_double(us, "--slow-leg", 0, 1e7, &o->slow_leg_us);
	case OPT_SPLIT_PCT:
		return parse_pct(arg, "--split-pct", &o->split_pct);
	case OPT_UNLINKED_PCT:
		return parse_pct(arg, "--unlinked-pct", &o->unlinked_pct);
	case OPT_READ_POLICY:
		if (strcmp(arg, "least-busy") && strcmp(arg, "alternate")) {
			fprintf(stderr, "ntpgen: --read-policy: '%s' is not least-busy or alternate\n",
				arg);
			return -1;
		}
		o->read_alternate = !strcmp(arg, "alternate");
		return 0;
	case OPT_MIDDLE_US:
		return parse_double(arg, "--middle-us", 0.01, 1e7,
				    &o->middle_us);
	case OPT_THETA_STEP:
		return parse_dur(arg, "--theta-step", &o->theta_step_ns);
	case OPT_NO_CHAIN_RULE:
		o->chain_rule = false;
		return 0;
	case OPT_ONE_REPLICA:
		o->one_replica = true;
		return 0;
	}
	return OPT_OTHER_GROUP;
}

/* Each group's parser, tried in turn on an option. */
static int (*const group_parsers[])(int c, char *arg, struct opts *o) = {
	parse_loop_opt, parse_mix_opt, parse_stage_opt, parse_clock_opt,
	parse_loss_opt, parse_file_opt, parse_chain_opt,
};

/* One option of getopt_long(): 0, or not 0 once its error is said. */
static int parse_option(int c, char *arg, struct opts *o)
{
	size_t i;
	int ret;

	if (c == 'h') {
		usage(stdout);
		exit(0);
	}
	for (i = 0; i < ARRAY_SIZE(group_parsers); i++) {
		ret = group_parsers[i](c, arg, o);
		if (ret != OPT_OTHER_GROUP)
			return ret;
	}
	/* Not an option of ours: getopt_long() has said so. */
	return -1;
}

static const struct opts default_opts = {
	.commands = 10000,
	.transport = NTPROF_TRANSPORT_TCP,
	.sample = NTPROF_SAMPLE_DEFAULT,
	.theta_ns = 1500000000LL,
	.queues = 4,
	.qdepth = 32,
	.genctr = true,
	.read_pct = 70,
	.large_pct = 20,
	.span = 1ULL << 30,
	.lba_size = 512,
	.seed = 1,
	.stage_us = { 4, 6, 20, 10, 80 },
	.data_us = 30,
	.target_blk_us = -1,
	.jitter = 0.25,
	.gap_us = 2,
	.nr_cpus = 8,
	.hooks = true,
	.format_major = NTP_VERSION_MAJOR,
	.format_minor = NTP_VERSION_MINOR,
	.paths = 1,
	.host_dev = "nvme1n1",
	.chain_rule = true,
	.hops = 2,
	.legs = 2,
	.leg_offset = 4096,
	.slow_leg = -1,
	.middle_us = 6,
	.theta_step_ns = -1100000000LL,
};

/*
 * --chain: one DIR, and none of the options of a single hop's losses,
 * paths or old formats, which the chain model does not draw.
 */
static int check_chain(int argc, char *argv[], struct opts *o,
		       const struct opts *d)
{
	if (argc - optind != 1) {
		fputs("ntpgen: --chain: one directory expected: DIR\n"
		      "ntpgen: see 'ntpgen --help'\n", stderr);
		return -1;
	}
	if (o->target_sample || o->paths != 1 || o->failed_pct > 0 ||
	    o->aborted_pct > 0 || o->no_target_pct > 0 ||
	    o->no_host_pct > 0 || o->stale_recv_pct > 0 ||
	    o->passthru_pct > 0 || o->hostile || o->expect ||
	    o->format_major != d->format_major ||
	    o->format_minor != d->format_minor) {
		fputs("ntpgen: --chain: not with --target-sample, --paths, --*-pct of losses, --passthru-pct,\n"
		      "ntpgen: --hostile-strings, --expect or --format (truth.csv is its expectation)\n",
		      stderr);
		return -1;
	}
	if (o->one_replica && o->hops > 2) {
		fputs("ntpgen: --one-replica: not with --hops 3\n", stderr);
		return -1;
	}
	if (o->slow_leg >= (int32_t)o->legs) {
		fprintf(stderr, "ntpgen: --slow-leg: leg %d of %u\n",
			o->slow_leg, o->legs);
		return -1;
	}
	o->chain_dir = argv[optind];
	return 0;
}

/* The options into @o, then the two files: 0, or -1 once said why not. */
int parse_args(int argc, char *argv[], struct opts *o)
{
	int c, err = 0;

	*o = default_opts;
	while (!err && (c = getopt_long(argc, argv, "n:t:s:q:d:e:h", long_opts,
					NULL)) != -1)
		err = parse_option(c, optarg, o);
	if (err) {
		fputs("ntpgen: see 'ntpgen --help'\n", stderr);
		return -1;
	}
	if (o->chain) {
		if (check_chain(argc, argv, o, &default_opts))
			return -1;
	} else if (argc - optind != 2) {
		fputs("ntpgen: two files expected: HOST.ntp TARGET.ntp\n"
		      "ntpgen: see 'ntpgen --help'\n", stderr);
		return -1;
	}
	if (!o->target_sample)
		o->target_sample = o->sample;
	if (o->target_blk_us >= o->stage_us[ST_STORAGE]) {
		fputs("ntpgen: --target-blk-us: less than --storage-us\n", stderr);
		return -1;
	}
	if (o->span < 128 * 1024) {
		fputs("ntpgen: --span: at least 128k\n", stderr);
		return -1;
	}
	if (o->chain)
		return 0;
	o->host_path = argv[optind];
	o->target_path = argv[optind + 1];
	return 0;
}
