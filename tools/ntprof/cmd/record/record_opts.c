// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof record's command line: its usage, the parsers of its values
 * (-s, seconds, sizes, --op, --dev with native NVMe multipath's disks),
 * and the checks across options.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/record/record.h"
#include "out/out_file.h"
#include "sites/chain_md.h"

/* -d: a limit that keeps the arithmetic in nanoseconds far from overflow. */
#define DURATION_MAX_S	(100.0 * 365 * 86400)
#define INTERVAL_MAX_S	86400

static void record_usage(FILE *f)
{
	fputs("usage: ntprof record -r host|target|host,target [-t tcp|rdma] -o FILE.ntp\n"
	      "                     [-s N] [-i SECONDS] [-d SECONDS] [--dev DEV]\n"
	      "                     [--op OPS] [--min-size SIZE] [--max-size SIZE]\n"
	      "                     [--spdk-target BIN|PID | --spdk-host BIN|PID]\n"
	      "                     [--prom FILE] [--rotate SIZE [--keep N]]\n"
	      "                     [--stages-only] [--chain[=OFFSET|md]]\n"
	      "\n"
	      "Record the latency of NVMe-oF commands on this machine, as host or as\n"
	      "target, into FILE.ntp, until Ctrl-C (SIGINT), SIGTERM or -d. Prints a\n"
	      "summary at the end: latency per group of commands (op, size, device)\n"
	      "and the share of each stage. Record the host and the target at once,\n"
	      "with the same -s, and 'ntprof report' joins the two files.\n"
	      "\n"
	      "options:\n"
	      "  -r, --role ROLE            host (initiator) or target; host,target:\n"
	      "                             a chain's middle, both roles in one\n"
	      "                             process (with --chain; not with --spdk-*,\n"
	      "                             --dev, --rotate): -o FILE.ntp writes\n"
	      "                             FILE-target.ntp and FILE-host.ntp, and\n"
	      "                             --prom FILE.prom the chain's middle and\n"
	      "                             legs in FILE.prom, each role's series in\n"
	      "                             FILE-target.prom and FILE-host.prom\n"
	      "  -t, --transport TRANSPORT  tcp, rdma, or both (tcp,rdma): the default,\n"
	      "                             every command of either, in one file\n"
	      "  -o, --output FILE          the recording to write (replaced if it exists)\n"
	      "  -s, --sample N             record one command in N, 1 to 1000000\n"
	      "                             (default 1: every command)\n"
	      "  -i, --interval SECONDS     every SECONDS (a whole number), print a line\n"
	      "                             per group: commands, rate, latency, stages\n"
	      "  -d, --duration SECONDS     stop after SECONDS (decimals allowed)\n"
	      "      --dev DEV              host only: only commands of this namespace,\n"
	      "                             a name (nvme1n1, /dev/nvme1n1) or MAJ:MIN\n"
	      "      --op OPS               only these commands: read, write, other, or\n"
	      "                             a list of them (read,write)\n"
	      "      --min-size SIZE        only commands of at least SIZE bytes\n"
	      "      --max-size SIZE        only commands of at most SIZE bytes; SIZE\n"
	      "                             takes K, M or G (times 1024): 4K, 128KiB\n"
	      "      --spdk-target BIN|PID  SPDK's nvmf_tgt (a path, or a running one's\n"
	      "                             PID) as well, as target (-r may be left\n"
	      "                             out): through the agent in each process\n"
	      "                             started with 'ntprof run', which needs no\n"
	      "                             module, and uprobe sites in the others\n"
	      "                             (ntprof probe --spdk-target lists them)\n"
	      "      --spdk-host BIN|PID    the same for a program on SPDK's NVMe driver\n"
	      "                             (spdk_nvme_perf), as host\n"
	      "      --prom FILE            rewrite FILE atomically every -i SECONDS\n"
	      "                             (default 10) for Prometheus' node_exporter\n"
	      "                             textfile collector: latency histograms in\n"
	      "                             seconds per stage and group (labels op,\n"
	      "                             size_bytes, device, transport, subnqn,\n"
	      "                             traddr, trsvcid, hostnqn; 64 groups, then\n"
	      "                             op=\"overflow\"), command counts, drops\n"
	      "                             (Documentation/prometheus.rst)\n"
	      "      --stages-only          attach only the kernel hooks the five stages\n"
	      "                             need, for a recording left on: fewer hits a\n"
	      "                             command; 'report --detail' then has no\n"
	      "                             components within the stages\n"
	      "      --rotate SIZE          write the recording in parts of about SIZE\n"
	      "                             (at least 1M; K, M, G): -o FILE.ntp gives\n"
	      "                             FILE.0001.ntp, FILE.0002.ntp, ..., each a\n"
	      "                             whole recording once closed; 'ntprof report'\n"
	      "                             takes the parts, or their directory\n"
	      "      --keep N               with --rotate: keep the N newest parts (at\n"
	      "                             least 2), removing the oldest\n"
	      "      --chain[=OFFSET]       sample reads, writes and write-zeroes by\n"
	      "                             the chain rule: opcode, length and LBA less\n"
	      "                             OFFSET (the device's LBAs, default 0), so\n"
	      "                             that every machine of a chain of NVMe-oF\n"
	      "                             hops picks the same commands; record each\n"
	      "                             with --chain and the same -s\n"
	      "      --chain=md             host only: OFFSET is md raid1's data offset\n"
	      "                             of its NVMe members (a middle machine)\n"
	      "  -h, --help                 show this help and exit\n"
	      "\n"
	      "Commands are sampled by a hash of what both sides see of them, so a\n"
	      "host and a target recording with the same N hold the same commands.\n"
	      "Records the kernel could not buffer are counted, and reported loudly.\n"
	      "\n"
	      "examples:\n"
	      "  ntprof record -r host -t tcp -s 100 -d 20 -i 10 -o host.ntp\n"
	      "      Record 1 in 100 commands of an NVMe/TCP host for 20 s, with a\n"
	      "      line per group every 10 s.\n"
	      "  ntprof record -r target -t rdma -s 100 -o target.ntp\n"
	      "      Record the target's side of the same commands until Ctrl-C;\n"
	      "      then 'ntprof report host.ntp target.ntp'.\n"
	      "  ntprof record -r host -t tcp --dev nvme1n1 --op write --min-size 128K -o w.ntp\n"
	      "      Only writes of 128 KiB and more to nvme1n1.\n"
	      "  ntprof record -r host -s 100 --rotate 1G --keep 24 -o /var/lib/ntprof/host.ntp\n"
	      "      Always on: parts of 1 GiB, the 24 newest kept.\n"
	      "  ntprof record -r host -s 100 --chain=md -o middle-host.ntp\n"
	      "      On a middle machine exporting md raid1, its legs' side of a chain;\n"
	      "      beside it 'ntprof record -r target -s 100 --chain -o middle-target.ntp'.\n"
	      "  ntprof record -r host,target -s 100 --chain=md -o middle.ntp --prom m.prom\n"
	      "      Both at once (middle-target.ntp, middle-host.ntp), with the middle\n"
	      "      stage and each leg's stages in m.prom.\n",
	      f);
}

static int parse_sample(const char *s, uint32_t *n)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < 1 ||
	    v > NTPROF_SAMPLE_MAX)
		return -EINVAL;
	*n = v;
	return 0;
}

/*
 * parse_seconds() - parse a positive number of seconds, at most @max; with
 * @whole, without a fraction.
 */
static int parse_seconds(const char *s, bool whole, double max, double *out)
{
	char *end;
	double v;

	if ((*s < '0' || *s > '9') && *s != '.')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || !(v > 0) || v > max || (whole && v != floor(v)))
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * parse_bytes() - parse a byte count in binary units, at most @max: 4096,
 * 4K, 4k, 4KiB, 4KB, 1M, 1G.
 */
static int parse_bytes(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v, mult = 1;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K':
		mult = 1ULL << 10;
		end++;
		break;
	case 'm': case 'M':
		mult = 1ULL << 20;
		end++;
		break;
	case 'g': case 'G':
		mult = 1ULL << 30;
		end++;
		break;
	}
	if (mult > 1 && (!strcmp(end, "iB") || !strcmp(end, "B")))
		end += strlen(end);
	else if (mult == 1 && !strcmp(end, "B"))
		end++;
	if (*end || v > max / mult)
		return -EINVAL;
	*out = v * mult;
	return 0;
}

static int parse_size(const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_bytes(s, UINT32_MAX, &v))
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * parse_ops() - parse a comma-separated list of read, write and other; an
 * empty item is taken for a typo, and refused.
 */
static int parse_ops(const char *s, uint32_t *ops)
{
	static const char * const names[] = { "read", "write", "other" };
	static const uint32_t bits[] = {
		NTPROF_OP_READ, NTPROF_OP_WRITE, NTPROF_OP_OTHER,
	};
	size_t len, i;

	*ops = 0;
	for (;;) {
		len = strcspn(s, ",");
		for (i = 0; i < 3; i++)
			if (len == strlen(names[i]) &&
			    !strncmp(s, names[i], len))
				break;
		if (i == 3)
			return -EINVAL;
		*ops |= bits[i];
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

/*
 * dev_name_of() - find a block device's name by its number; "" when sysfs
 * has none.
 */
static void dev_name_of(unsigned int maj, unsigned int min, char *buf,
			size_t size)
{
	char path[64], target[512];
	const char *base;
	ssize_t len;

	*buf = '\0';
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, min);
	len = readlink(path, target, sizeof(target) - 1);
	if (len <= 0)
		return;
	target[len] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	len = strlen(base);
	if ((size_t)len < size)
		memcpy(buf, base, len + 1);
}

/*
 * mpath_paths() - find the paths of a native NVMe multipath head nvmeXnZ:
 * the hidden disks nvmeXcYnZ, one per controller Y, whose device numbers
 * host records carry. (Newer kernels also link them in
 * /sys/block/HEAD/multipath/, but 6.1 and 6.12 do not; the names are the
 * same in all.) It returns their count, or -1 when @name is not an NVMe
 * disk, and puts the first one in @path; @list gets them all, for messages.
 * A disk without paths is a namespace without multipath.
 */
static int mpath_paths(const char *name, char *path, size_t size, char *list,
		       size_t lsize)
{
	unsigned int x, z, px, py, pz;
	struct dirent *de;
	size_t len = 0;
	int n = 0, end = 0;
	DIR *d;

	if (sscanf(name, "nvme%un%u%n", &x, &z, &end) != 2 || name[end])
		return -1;
	d = opendir("/sys/block");
	if (!d)
		return -1;
	*list = '\0';
	while ((de = readdir(d))) {
		end = 0;
		if (sscanf(de->d_name, "nvme%uc%un%u%n", &px, &py, &pz,
			   &end) != 3 || de->d_name[end] || px != x || pz != z)
			continue;
		/* Disk names are at most 31 bytes: one longer is not a path. */
		if (strlen(de->d_name) >= size)
			continue;
		if (!n)
			memcpy(path, de->d_name, strlen(de->d_name) + 1);
		len += snprintf(list + len, len < lsize ? lsize - len : 0,
				"%s%s", n ? ", " : "", de->d_name);
		n++;
	}
	closedir(d);
	return n;
}

/*
 * ng_disk() - tell whether @name is a namespace's NVMe char device (ngXnY,
 * of nvme's "nvme-generic" class), and put its disk's name, nvmeXnY, into
 * @disk.
 */
static bool ng_disk(const char *name, char *disk, size_t size)
{
	unsigned int x, y;
	char path[320];
	int end = 0;

	if (sscanf(name, "ng%un%u%n", &x, &y, &end) != 2 || name[end] ||
	    name[2] < '0' || name[2] > '9')
		return false;
	snprintf(path, sizeof(path), "/sys/class/nvme-generic/%s", name);
	if (access(path, F_OK))
		return false;
	snprintf(disk, size, "nvme%un%u", x, y);
	return true;
}

/*
 * parse_dev() - parse --dev: MAJ:MIN, or a block device's name or path. Host
 * records carry the namespace's whole disk, so a partition could never
 * match; it is refused here rather than recording nothing. With native NVMe
 * multipath, that disk is the namespace's hidden path disk (nvme0c0n1 under
 * nvme0n1): a head resolves to its one path, and a head with several paths
 * is refused, since the kernel's filter takes one device. @why gets the
 * reason of an error.
 */
static int parse_dev(const char *s, uint32_t *dev, char *why, size_t size)
{
	unsigned int maj, min;
	const char *name;
	char path[320], buf[32], dname[NTP_DEV_NAME_MAX + 1];
	char mpath[NTP_DEV_NAME_MAX + 1], list[256];
	struct stat stb;
	int paths;
	FILE *f;
	char c;

	if (sscanf(s, "%u:%u%c", &maj, &min, &c) == 2) {
		if (maj >= 1U << 12 || min >= 1U << 20 || (!maj && !min)) {
			snprintf(why, size, "'%s' is not a device number", s);
			return -EINVAL;
		}
		/* A head's number resolves to its path; others stay. */
		dev_name_of(maj, min, dname, sizeof(dname));
		name = dname;
		goto check;
	}

	name = strncmp(s, "/dev/", 5) ? s : s + 5;
	if (!*name || strlen(name) > NTP_DEV_NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, "..")) {
		snprintf(why, size, "'%s' is not a block device", s);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f) ||
		    sscanf(buf, "%u:%u", &maj, &min) != 2) {
			fclose(f);
			snprintf(why, size, "cannot read %s", path);
			return -EINVAL;
		}
		fclose(f);
	} else if (!diskstats_find(name, &maj, &min)) {
		/* A hidden path disk: nvme0c0n1. */
	} else if (!stat(s, &stb) && S_ISBLK(stb.st_mode)) {
		maj = major(stb.st_rdev);
		min = minor(stb.st_rdev);
		dev_name_of(maj, min, dname, sizeof(dname));
		name = dname;
	} else if (ng_disk(name, dname, sizeof(dname))) {
		snprintf(why, size,
			 "%s is the char device of %s, whose records have its passthrough commands too: give %s",
			 s, dname, dname);
		return -EINVAL;
	} else {
		snprintf(why, size, "no block device '%s'", s);
		return -ENOENT;
	}

check:
	if (!*name) {
		*dev = dev_encode(maj, min);
		return 0;
	}
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	if (!access(path, F_OK)) {
		snprintf(why, size,
			 "%s is a partition: the host records whole namespaces, give the namespace (nvme1n1)",
			 s);
		return -EINVAL;
	}
	paths = mpath_paths(name, mpath, sizeof(mpath), list, sizeof(list));
	if (paths > 1) {
		snprintf(why, size,
			 "%s has %d paths (%s) and the records carry the path: give one of them",
			 s, paths, list);
		return -EINVAL;
	}
	if (paths > 0 && diskstats_find(mpath, &maj, &min)) {
		snprintf(why, size,
			 "cannot find the device number of %s, the path of %s, in /proc/diskstats",
			 mpath, s);
		return -ENOENT;
	}
	*dev = dev_encode(maj, min);
	return 0;
}

enum {
	OPT_DEV = 256, OPT_OP, OPT_MIN_SIZE, OPT_MAX_SIZE, OPT_SPDK_TARGET,
	OPT_SPDK_HOST, OPT_PROM, OPT_STAGES_ONLY, OPT_ROTATE, OPT_KEEP,
	OPT_CHAIN,
};

static const struct option record_options[] = {
	CLI_OPT_ROLE,
	CLI_OPT_TRANSPORT,
	{ "output", required_argument, NULL, 'o' },
	{ "sample", required_argument, NULL, 's' },
	{ "interval", required_argument, NULL, 'i' },
	{ "duration", required_argument, NULL, 'd' },
	{ "dev", required_argument, NULL, OPT_DEV },
	{ "op", required_argument, NULL, OPT_OP },
	{ "min-size", required_argument, NULL, OPT_MIN_SIZE },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "spdk-target", required_argument, NULL, OPT_SPDK_TARGET },
	{ "spdk-host", required_argument, NULL, OPT_SPDK_HOST },
	{ "prom", required_argument, NULL, OPT_PROM },
	{ "stages-only", no_argument, NULL, OPT_STAGES_ONLY },
	{ "rotate", required_argument, NULL, OPT_ROTATE },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "chain", optional_argument, NULL, OPT_CHAIN },
	CLI_OPT_HELP,
	CLI_OPT_END
};

/*
 * filter_option() - handle --dev, --op, --min-size and --max-size. It
 * returns -1, or a usage error's status.
 */
static int filter_option(const char *cmd, int c, const char *arg,
			 struct record_opts *o)
{
	struct session_config *cfg = &o->cfg;
	char why[512];

	switch (c) {
	case OPT_DEV:
		if (parse_dev(arg, &cfg->dev, why, sizeof(why)))
			return usage_error(cmd, "--dev: %s", why);
		cfg->has_dev = true;
		snprintf(o->dev_label, sizeof(o->dev_label), "%s",
			 strncmp(arg, "/dev/", 5) ? arg : arg + 5);
		return -1;
	case OPT_OP:
		if (parse_ops(arg, &cfg->ops))
			return usage_error(cmd,
					   "--op takes read, write, other or a list of them (read,write), not '%s'",
					   arg);
		cfg->has_ops = true;
		return -1;
	default:
		if (parse_size(arg, c == OPT_MIN_SIZE ?
				    &cfg->min_len : &cfg->max_len))
			return usage_error(cmd,
					   "%s takes a size in bytes (4096, 4K, 1M), below 4 GiB, not '%s'",
					   c == OPT_MIN_SIZE ? "--min-size" :
							       "--max-size",
					   arg);
		if (c == OPT_MIN_SIZE)
			cfg->has_min_len = true;
		else
			cfg->has_max_len = true;
		return -1;
	}
}

/*
 * number_option() - handle -s, -i and -d. It returns -1, or a usage error's
 * status.
 */
static int number_option(const char *cmd, int c, const char *arg,
			 struct record_opts *o)
{
	double secs;

	switch (c) {
	case 's':
		if (parse_sample(arg, &o->cfg.sample))
			return usage_error(cmd,
					   "-s takes a whole number from 1 to %u, not '%s'",
					   NTPROF_SAMPLE_MAX, arg);
		return -1;
	case 'i':
		if (parse_seconds(arg, true, INTERVAL_MAX_S, &secs))
			return usage_error(cmd,
					   "-i takes a whole number of seconds from 1 to %u, not '%s'",
					   INTERVAL_MAX_S, arg);
		o->interval_s = secs;
		return -1;
	default:
		if (parse_seconds(arg, false, DURATION_MAX_S, &secs) ||
		    secs * NSEC_PER_SEC < 1)
			return usage_error(cmd,
					   "-d takes a positive number of seconds, not '%s'",
					   arg);
		o->duration_ns = secs * NSEC_PER_SEC;
		return -1;
	}
}

/*
 * rotate_option() - handle --rotate SIZE and --keep N. It returns -1, or a
 * usage error's status.
 */
static int rotate_option(const char *cmd, int c, const char *arg,
			 struct record_opts *o)
{
	unsigned long v;
	char *end;

	if (c == OPT_ROTATE) {
		if (parse_bytes(arg, UINT64_MAX / 2, &o->rotate_size))
			return usage_error(cmd,
					   "--rotate takes a size in bytes (64M, 1G), not '%s'",
					   arg);
		if (o->rotate_size < ROTATE_MIN)
			return usage_error(cmd,
					   "--rotate %s is too small: a part holds at least 1M (several blocks of records)",
					   arg);
		return -1;
	}
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || v < KEEP_MIN ||
	    v > KEEP_MAX)
		return usage_error(cmd,
				   "--keep takes a number of parts from %d (the part written and one closed) to %d, not '%s'",
				   KEEP_MIN, KEEP_MAX, arg);
	o->keep = v;
	return -1;
}

/*
 * record_option() - handle one option, getopt_long()'s @c. It returns -1, or
 * the exit status.
 */
static int record_option(const char *cmd, int c, int argc, char *argv[],
			 struct record_opts *o)
{
	switch (c) {
	case 'r':
		/* A chain's middle: both roles, host for the checks below. */
		if (!strcmp(optarg, "host,target") ||
		    !strcmp(optarg, "target,host")) {
			o->middle = true;
			o->cfg.role = NTPROF_ROLE_HOST;
			return -1;
		}
		o->middle = false;
		return role_option(cmd, optarg, &o->cfg.role);
	case 't':
		return transport_option(cmd, optarg, &o->cfg.transport);
	case 'o':
		if (!*optarg)
			return usage_error(cmd, "-o needs a file name");
		o->out = optarg;
		return -1;
	case 's':
	case 'i':
	case 'd':
		return number_option(cmd, c, optarg, o);
	case OPT_PROM:
		o->prom = optarg;
		return -1;
	case OPT_STAGES_ONLY:
		o->cfg.stages_only = true;
		return -1;
	case OPT_CHAIN:
		/*
		 * getopt reads "--chain 4096" as --chain and a word record
		 * takes none of: say how to write the value.
		 */
		if (!optarg && optind < argc && argv[optind][0] != '-' &&
		    !chain_arg_parse(argv[optind], &o->chain_md,
				     &o->cfg.chain_offset))
			return usage_error(cmd,
					   "--chain takes its value after '=': write --chain=%s",
					   argv[optind]);
		if (chain_arg_parse(optarg, &o->chain_md,
				    &o->cfg.chain_offset))
			return usage_error(cmd,
					   "--chain takes a whole number of LBAs or md (--chain=4096, --chain=md), not '%s'",
					   optarg);
		o->cfg.chain = true;
		return -1;
	case OPT_ROTATE:
	case OPT_KEEP:
		return rotate_option(cmd, c, optarg, o);
	case OPT_SPDK_TARGET:
	case OPT_SPDK_HOST:
		return spdk_option(cmd, optarg, c == OPT_SPDK_HOST ?
				   NTPROF_ROLE_HOST : NTPROF_ROLE_TARGET,
				   &o->spdk, &o->spdk_role);
	case OPT_DEV:
	case OPT_OP:
	case OPT_MIN_SIZE:
	case OPT_MAX_SIZE:
		return filter_option(cmd, c, optarg, o);
	case 'h':
		record_usage(stdout);
		return 0;
	default:
		return option_error(cmd, c, argv);
	}
}

/*
 * chain_check() - check --chain against the other options, and find md's
 * offset. It returns -1, or the exit status.
 */
static int chain_check(const char *cmd, struct record_opts *o)
{
	char why[512];

	if (!o->cfg.chain)
		return -1;
	if (o->spdk)
		return usage_error(cmd,
				   "--chain is for the kernel's hooks: SPDK's sites sample by the hop rule");
	if (!o->chain_md)
		return -1;
	if (o->cfg.role != NTPROF_ROLE_HOST)
		return usage_error(cmd,
				   "--chain=md is for the host side of the machine that runs md: give a target its offset as --chain=OFFSET");
	if (chain_md_offset(RECORD_SYSFS, &o->cfg.chain_offset, why,
			    sizeof(why)))
		return usage_error(cmd, "--chain=md: %s", why);
	return -1;
}

/*
 * middle_check() - check -r host,target against the other options. It
 * returns -1, or a usage error's status.
 */
static int middle_check(const char *cmd, const struct record_opts *o)
{
	if (!o->middle)
		return -1;
	if (o->spdk)
		return usage_error(cmd,
				   "-r host,target records the kernel's two sides: not with --spdk-target or --spdk-host");
	if (!o->cfg.chain)
		return usage_error(cmd,
				   "-r host,target records a chain's middle: give --chain (--chain=md on an md raid1)");
	if (o->rotate_size)
		return usage_error(cmd,
				   "-r host,target writes one file per role: not with --rotate");
	if (o->cfg.has_dev)
		return usage_error(cmd,
				   "-r host,target records every device of both sides: not with --dev");
	return -1;
}

/*
 * record_opts_check() - check the options together. It returns -1, or a
 * usage error's status.
 */
static int record_opts_check(const char *cmd, struct record_opts *o)
{
	struct session_config *cfg = &o->cfg;
	int ret;

	ret = middle_check(cmd, o);
	if (ret >= 0)
		return ret;
	if (o->spdk) {
		ret = spdk_role_given(cmd, o->spdk_role, &cfg->role);
		if (ret >= 0)
			return ret;
	}
	ret = role_given(cmd, cfg->role);
	if (ret >= 0)
		return ret;
	if (!o->out)
		return usage_error(cmd, "where to? -o FILE.ntp");
	/* The Prometheus file is rewritten: never over a recording. */
	if (o->prom) {
		ret = out_file_check(cmd, "--prom", o->prom, (char *const *)&o->out, 1);
		if (ret >= 0)
			return ret;
	}
	if (o->keep && !o->rotate_size)
		return usage_error(cmd,
				   "--keep N counts the parts of --rotate SIZE: give both");
	if (cfg->has_dev && cfg->role != NTPROF_ROLE_HOST)
		return usage_error(cmd,
				   "--dev is for host recordings: a target sees the host's namespaces as its own backing devices");
	if (cfg->stages_only && o->spdk)
		return usage_error(cmd,
				   "--stages-only is for the kernel's hooks: SPDK's sites are not narrowed");
	if (cfg->has_min_len && cfg->has_max_len &&
	    cfg->min_len > cfg->max_len)
		return usage_error(cmd,
				   "--min-size (%u bytes) is above --max-size (%u bytes)",
				   cfg->min_len, cfg->max_len);
	return chain_check(cmd, o);
}

int record_parse(int argc, char *argv[], struct record_opts *o)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->cfg.sample = NTPROF_SAMPLE_DEFAULT;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:t:o:s:i:d:h", record_options,
				NULL)) != -1) {
		ret = record_option(argv[0], c, argc, argv, o);
		if (ret >= 0)
			return ret;
	}
	if (optind < argc)
		return usage_error(argv[0], "unexpected argument '%s'",
				   argv[optind]);
	return record_opts_check(argv[0], o);
}
