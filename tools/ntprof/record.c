// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof record: run a session of the kernel's recorder, take its records
 * out of the kernel's buffers as they finish, and write them to a .ntp
 * file (Documentation/ntp-format.rst); every -i seconds a line per group
 * of commands, and at the end a summary.
 *
 * The kernel's per-CPU buffers are finite and drop what does not fit, so
 * the loop drains them often (every DRAIN_MS) and does little else: the
 * numbers it prints come from the analysis library, fed as records come.
 * Whatever ends the recording (-d, a signal, an error), the session is
 * stopped: a session left running keeps its hooks attached and blocks the
 * next recording of its role.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "conn.h"
#include "ntp.h"
#include "session.h"
#include "spdk.h"
#include "subcommands.h"
#include "table.h"

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_MSEC	1000000ULL

/*
 * How often the buffers are drained. At a million records a second this
 * takes 100k records (23 MB) a time, well within what the kernel's
 * buffers hold, and costs an idle system ten dumps a second.
 */
#define DRAIN_MS	100
/* Buffered records reach the file at least this often, for kill -9. */
#define FLUSH_MS	1000
/* After the stop: dumps until one comes back empty, at most this many. */
#define FINAL_DRAINS	64
/* Device names looked up for the summary; later ones show as numbers. */
#define DEVS_MAX	64
/* -d: a limit that keeps the arithmetic in nanoseconds far from overflow. */
#define DURATION_MAX_S	(100.0 * 365 * 86400)
#define INTERVAL_MAX_S	86400

struct record_opts {
	struct session_config cfg;
	const char *out;
	unsigned int interval_s;	/* 0: no live lines */
	uint64_t duration_ns;		/* 0: until a signal */
	char dev_label[64];		/* --dev as given, for messages */
	const char *spdk;	/* --spdk-target or --spdk-host BIN|PID, or NULL */
	uint32_t spdk_role;	/* which of the two */
};

/*
 * The names of the devices: the table of the file's header, gathered at
 * the start, and for the analyses the devices of the records as they
 * first come (a device that appeared later is looked up then).
 */
struct devmap {
	struct ntp_dev *tab;
	size_t ntab;
	struct ntprof_devname v[DEVS_MAX];
	char names[DEVS_MAX][NTP_DEV_NAME_MAX + 1];
	size_t n;
};

struct recorder {
	const struct record_opts *o;
	struct nl_sock *sock;
	struct ntp_writer *w;
	uint64_t start_mono;
	uint64_t start_real;
	uint64_t written;	/* records appended to the file */
	uint64_t unflushed;	/* of those, not yet written out */
	uint64_t other_role;	/* records of the other role: a bug */
	uint64_t unsampled;	/* failed commands outside the sample */
	int write_err;
	/*
	 * NULL once out of memory: the recording goes on without it. The
	 * summary's (all) is made at the end from the file read back when
	 * deferred; live, while recording, when the output cannot be read.
	 */
	struct ntprof_analysis *all;
	struct ntprof_analysis *iv;
	bool all_lost;
	bool all_deferred;
	dev_t out_dev;		/* the file written, to read back that one */
	ino_t out_ino;
	bool live_header;
	uint64_t iv_start;
	struct devmap devs;
	/* The controller table of the header; the last dev looked up. */
	struct ntp_ctrl *ctrls;
	size_t nr_ctrls;
	uint32_t last_dev;
	uint16_t last_cntlid;
};

/* Set by the handler, read by the loop: nothing else is safe there. */
static volatile sig_atomic_t record_signal;

static void record_on_signal(int sig)
{
	record_signal = sig;
}

static void record_usage(FILE *f)
{
	fputs("usage: ntprof record -r host|target -t tcp|rdma -o FILE.ntp [-s N]\n"
	      "                     [-i SECONDS] [-d SECONDS] [--dev DEV]\n"
	      "                     [--op OPS] [--min-size SIZE] [--max-size SIZE]\n"
	      "                     [--spdk-target BIN|PID | --spdk-host BIN|PID]\n"
	      "\n"
	      "Record the latency of NVMe-oF commands on this machine, as host or as\n"
	      "target, into FILE.ntp, until Ctrl-C (SIGINT), SIGTERM or -d. Prints a\n"
	      "summary at the end: latency per group of commands (op, size, device)\n"
	      "and the share of each stage. Record the host and the target at once,\n"
	      "with the same -s, and 'ntprof report' joins the two files.\n"
	      "\n"
	      "options:\n"
	      "  -r, --role ROLE            host (initiator) or target\n"
	      "  -t, --transport TRANSPORT  tcp or rdma\n"
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
	      "                             out): uprobe sites in every process that\n"
	      "                             runs it (ntprof probe --spdk-target lists\n"
	      "                             them)\n"
	      "      --spdk-host BIN|PID    the same for a program on SPDK's NVMe driver\n"
	      "                             (spdk_nvme_perf), as host\n"
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
	      "      Only writes of 128 KiB and more to nvme1n1.\n",
	      f);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* Option parsing */

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

/* A positive number of seconds; @whole: no fraction. */
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

/* 4096, 4K, 4k, 4KiB, 4KB, 1M, 1G: a byte count, in binary units. */
static int parse_size(const char *s, uint32_t *out)
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
	if (*end || v > UINT32_MAX / mult)
		return -EINVAL;
	*out = v * mult;
	return 0;
}

/* read, write, other, comma-separated; an empty item is a typo. */
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

/* The kernel's new_encode_dev(), as ntprof_record.dev carries it. */
static uint32_t dev_encode(unsigned int maj, unsigned int min)
{
	return (min & 0xff) | (maj << 8) | ((min & ~0xffU) << 12);
}

/*
 * The device number of a block device by its name, from /proc/diskstats:
 * the one place that has those of the hidden path disks of native NVMe
 * multipath (nvme0c0n1), which sysfs lists without a dev attribute.
 */
static int diskstats_find(const char *name, unsigned int *maj,
			  unsigned int *min)
{
	FILE *f = fopen("/proc/diskstats", "r");
	unsigned int a, b;
	char *line = NULL;
	size_t size = 0;
	int n, ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && getline(&line, &size, f) > 0) {
		n = 0;
		if (sscanf(line, "%u %u %n", &a, &b, &n) != 2 || !n)
			continue;
		if (!strncmp(line + n, name, strlen(name)) &&
		    line[n + strlen(name)] == ' ') {
			*maj = a;
			*min = b;
			ret = 0;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/* A block device's name by its number: "" when sysfs has none. */
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
 * The paths of a native NVMe multipath head nvmeXnZ: the hidden disks
 * nvmeXcYnZ, one per controller Y, whose device numbers host records
 * carry (newer kernels also link them in /sys/block/HEAD/multipath/,
 * not 6.1 or 6.12; the names are the same in all). Returns their count,
 * -1 when @name is no NVMe disk, and the first in @path; @list gets them
 * all, for messages. A disk without paths is a namespace without
 * multipath.
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
 * --dev: MAJ:MIN, or a block device's name or path. Host records carry
 * the namespace's whole disk, so a partition could never match: refuse it
 * here rather than record nothing. With native NVMe multipath that disk
 * is the namespace's hidden path disk (nvme0c0n1 under nvme0n1): a head
 * resolves to its one path; one with several is refused, since the
 * kernel's filter takes one device. @why gets the reason of an error.
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

static int record_parse(int argc, char *argv[], struct record_opts *o)
{
	enum { OPT_DEV = 256, OPT_OP, OPT_MIN_SIZE, OPT_MAX_SIZE, OPT_SPDK_TARGET,
	       OPT_SPDK_HOST };
	static const struct option options[] = {
		{ "role", required_argument, NULL, 'r' },
		{ "transport", required_argument, NULL, 't' },
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct session_config *cfg = &o->cfg;
	const char *cmd = argv[0];
	char why[512];
	double secs;
	int c, ret;

	memset(o, 0, sizeof(*o));
	cfg->sample = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:t:o:s:i:d:h", options,
				NULL)) != -1) {
		switch (c) {
		case 'r':
			ret = role_option(cmd, optarg, &cfg->role);
			if (ret >= 0)
				return ret;
			break;
		case 't':
			ret = transport_option(cmd, optarg, &cfg->transport);
			if (ret >= 0)
				return ret;
			break;
		case 'o':
			if (!*optarg)
				return usage_error(cmd, "-o needs a file name");
			o->out = optarg;
			break;
		case 's':
			if (parse_sample(optarg, &cfg->sample))
				return usage_error(cmd,
						   "-s takes a whole number from 1 to %u, not '%s'",
						   NTPROF_SAMPLE_MAX, optarg);
			break;
		case 'i':
			if (parse_seconds(optarg, true, INTERVAL_MAX_S, &secs))
				return usage_error(cmd,
						   "-i takes a whole number of seconds from 1 to %u, not '%s'",
						   INTERVAL_MAX_S, optarg);
			o->interval_s = secs;
			break;
		case 'd':
			if (parse_seconds(optarg, false, DURATION_MAX_S,
					  &secs) || secs * NSEC_PER_SEC < 1)
				return usage_error(cmd,
						   "-d takes a positive number of seconds, not '%s'",
						   optarg);
			o->duration_ns = secs * NSEC_PER_SEC;
			break;
		case OPT_SPDK_TARGET:
		case OPT_SPDK_HOST:
			if (o->spdk)
				return usage_error(cmd,
						   "one SPDK program a recording: --spdk-target or --spdk-host, once");
			o->spdk = optarg;
			o->spdk_role = c == OPT_SPDK_HOST ? NTPROF_ROLE_HOST :
							    NTPROF_ROLE_TARGET;
			break;
		case OPT_DEV:
			if (parse_dev(optarg, &cfg->dev, why, sizeof(why)))
				return usage_error(cmd, "--dev: %s", why);
			cfg->has_dev = true;
			snprintf(o->dev_label, sizeof(o->dev_label), "%s",
				 strncmp(optarg, "/dev/", 5) ? optarg :
							       optarg + 5);
			break;
		case OPT_OP:
			if (parse_ops(optarg, &cfg->ops))
				return usage_error(cmd,
						   "--op takes read, write, other or a list of them (read,write), not '%s'",
						   optarg);
			cfg->has_ops = true;
			break;
		case OPT_MIN_SIZE:
		case OPT_MAX_SIZE:
			if (parse_size(optarg, c == OPT_MIN_SIZE ?
					       &cfg->min_len : &cfg->max_len))
				return usage_error(cmd,
						   "%s takes a size in bytes (4096, 4K, 1M), below 4 GiB, not '%s'",
						   c == OPT_MIN_SIZE ? "--min-size" :
								       "--max-size",
						   optarg);
			if (c == OPT_MIN_SIZE)
				cfg->has_min_len = true;
			else
				cfg->has_max_len = true;
			break;
		case 'h':
			record_usage(stdout);
			return 0;
		default:
			return option_error(cmd, c, argv);
		}
	}
	if (optind < argc)
		return usage_error(cmd, "unexpected argument '%s'",
				   argv[optind]);
	if (o->spdk) {
		ret = spdk_role_given(cmd, o->spdk_role, &cfg->role);
		if (ret >= 0)
			return ret;
	}
	ret = role_transport_given(cmd, cfg->role, cfg->transport);
	if (ret >= 0)
		return ret;
	if (!o->out)
		return usage_error(cmd, "where to? -o FILE.ntp");
	if (cfg->has_dev && cfg->role != NTPROF_ROLE_HOST)
		return usage_error(cmd,
				   "--dev is for host recordings: a target sees the host's namespaces as its own backing devices");
	if (cfg->has_min_len && cfg->has_max_len &&
	    cfg->min_len > cfg->max_len)
		return usage_error(cmd,
				   "--min-size (%u bytes) is above --max-size (%u bytes)",
				   cfg->min_len, cfg->max_len);
	return -1;
}

/* Device names */

/*
 * The head of a hidden path disk of native NVMe multipath: nvmeXcYnZ is
 * the path through controller nvmeY to namespace nvmeXnZ (the kernel
 * names both so). Returns 0 and the head's name if the head is there.
 */
static int mpath_head(const char *name, char *head, size_t size)
{
	unsigned int x, y, z;
	char path[192];
	int n = 0;

	if (strncmp(name, "nvme", 4) || name[4] < '0' || name[4] > '9' ||
	    sscanf(name, "nvme%uc%un%u%n", &x, &y, &z, &n) != 3 || name[n])
		return -ENOENT;
	snprintf(head, size, "nvme%un%u", x, z);
	snprintf(path, sizeof(path), "/sys/block/%s", head);
	return access(path, F_OK) ? -ENOENT : 0;
}

/*
 * The device table of a recording of @role, from /proc/diskstats (the one
 * list with the numbers of the hidden path disks): on a host the NVMe
 * namespaces, each path disk named after its head, since that is the
 * name users know (lsblk, nvme list); on a target every whole disk, since
 * a backing device can be anything. Partitions never carry records.
 * Returns the count; *tab is for free(), NULL if none or out of memory.
 */
static size_t devs_gather(uint32_t role, struct ntp_dev **tab)
{
	FILE *f = fopen("/proc/diskstats", "r");
	struct ntp_dev *v = NULL, *nv;
	size_t n = 0, cap = 0, size = 0;
	char *line = NULL, path[192];
	unsigned int maj, min;
	char name[128];

	*tab = NULL;
	if (!f)
		return 0;
	while (n < NTP_DEVS_MAX && getline(&line, &size, f) > 0) {
		if (sscanf(line, "%u %u %127s", &maj, &min, name) != 3 ||
		    strlen(name) > NTP_DEV_NAME_MAX)
			continue;
		if (role == NTPROF_ROLE_HOST && strncmp(name, "nvme", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/class/block/%s/partition",
			 name);
		if (!access(path, F_OK))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].dev = dev_encode(maj, min);
		if (mpath_head(name, v[n].name, sizeof(v[n].name)))
			memcpy(v[n].name, name, strlen(name) + 1);
		n++;
	}
	free(line);
	fclose(f);
	*tab = v;
	return v ? n : 0;
}

static const char *devs_find(const struct ntp_dev *tab, size_t n,
			     uint32_t dev)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tab[i].dev == dev)
			return tab[i].name;
	return NULL;
}

/* @dev's name, looked up again: a device that came after the start. */
static void dev_lookup(uint32_t role, uint32_t dev, char *buf, size_t size)
{
	struct ntp_dev *tab;
	const char *name;
	size_t n;

	*buf = '\0';
	n = devs_gather(role, &tab);
	name = devs_find(tab, n, dev);
	if (name && strlen(name) < size)
		memcpy(buf, name, strlen(name) + 1);
	free(tab);
}

/* Controllers */

/* A sysfs or configfs attribute's first line, cut to @size; 0 or -1. */
static int read_attr(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	*buf = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, size, f))
		*buf = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static uint8_t transport_of(const char *s)
{
	if (!strcmp(s, "tcp"))
		return NTPROF_TRANSPORT_TCP;
	if (!strcmp(s, "rdma"))
		return NTPROF_TRANSPORT_RDMA;
	return NTPROF_TRANSPORT_NONE;
}

/* A new zeroed entry at the end of *@v, or NULL (full, or no memory). */
static struct ntp_ctrl *ctrl_push(struct ntp_ctrl **v, size_t *n, size_t *cap)
{
	struct ntp_ctrl *nv;

	if (*n == NTP_CTRLS_MAX)
		return NULL;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		nv = realloc(*v, *cap * sizeof(**v));
		if (!nv)
			return NULL;
		*v = nv;
	}
	memset(&(*v)[*n], 0, sizeof(**v));
	return &(*v)[(*n)++];
}

/*
 * The host's controllers, from /sys/class/nvme/nvmeN/: an entry per
 * namespace disk under the controller (nvmeXcNnZ with native multipath,
 * else nvmeNnZ), with its device number from /proc/diskstats; one without
 * a disk when it has none.
 */
static size_t ctrls_gather_host(struct ntp_ctrl **tab)
{
	struct ntp_ctrl *v = NULL, *c, proto;
	size_t n = 0, cap = 0, disks;
	char path[PATH_MAX], buf[64];
	struct dirent *de, *dd;
	unsigned int maj, min, y;
	DIR *d, *sub;
	int end;

	d = opendir("/sys/class/nvme");
	while (d && (de = readdir(d))) {
		end = 0;
		if (sscanf(de->d_name, "nvme%u%n", &y, &end) != 1 ||
		    de->d_name[end] || strlen(de->d_name) > NTP_CTRL_NAME_MAX)
			continue;
		memset(&proto, 0, sizeof(proto));
		memcpy(proto.name, de->d_name, strlen(de->d_name) + 1);
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/cntlid",
			 de->d_name);
		if (!read_attr(path, buf, sizeof(buf)))
			proto.cntlid = strtoul(buf, NULL, 10);
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/transport",
			 de->d_name);
		read_attr(path, buf, sizeof(buf));
		proto.transport = transport_of(buf);
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/subsysnqn",
			 de->d_name);
		read_attr(path, proto.subsysnqn, sizeof(proto.subsysnqn));
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/address",
			 de->d_name);
		read_attr(path, proto.address, sizeof(proto.address));

		disks = 0;
		snprintf(path, sizeof(path), "/sys/class/nvme/%s", de->d_name);
		sub = opendir(path);
		while (sub && (dd = readdir(sub))) {
			if (strncmp(dd->d_name, "nvme", 4) ||
			    !strchr(dd->d_name + 4, 'n') ||
			    diskstats_find(dd->d_name, &maj, &min))
				continue;
			c = ctrl_push(&v, &n, &cap);
			if (!c)
				break;
			*c = proto;
			c->dev = dev_encode(maj, min);
			snprintf(path, sizeof(path), "/sys/class/nvme/%s/%s/nsid",
				 de->d_name, dd->d_name);
			if (!read_attr(path, buf, sizeof(buf)))
				c->nsid = strtoul(buf, NULL, 10);
			disks++;
		}
		if (sub)
			closedir(sub);
		if (!disks) {
			c = ctrl_push(&v, &n, &cap);
			if (c)
				*c = proto;
		}
	}
	if (d)
		closedir(d);
	*tab = v;
	return v ? n : 0;
}

#define NVMET_CONFIGFS	"/sys/kernel/config/nvmet"

/*
 * The target's exports, from nvmet's configfs: an entry per port,
 * subsystem on it and namespace of that subsystem, with the backing
 * device's number (0 for a file); one without a namespace when the
 * subsystem has none. Which host a controller serves is not there: the
 * records' cntlid names the controller.
 */
static size_t ctrls_gather_target(struct ntp_ctrl **tab)
{
	char path[PATH_MAX], traddr[128], trsvcid[64], trtype[32];
	struct ntp_ctrl *v = NULL, *c, proto;
	size_t n = 0, cap = 0, nss;
	struct dirent *pe, *se, *ne;
	DIR *ports, *subs, *nsd;
	struct stat st;
	int end;

	ports = opendir(NVMET_CONFIGFS "/ports");
	while (ports && (pe = readdir(ports))) {
		if (pe->d_name[0] == '.')
			continue;
		memset(&proto, 0, sizeof(proto));
		snprintf(proto.name, sizeof(proto.name), "port %.50s",
			 pe->d_name);
		snprintf(path, sizeof(path), NVMET_CONFIGFS "/ports/%s/addr_trtype",
			 pe->d_name);
		read_attr(path, trtype, sizeof(trtype));
		proto.transport = transport_of(trtype);
		snprintf(path, sizeof(path), NVMET_CONFIGFS "/ports/%s/addr_traddr",
			 pe->d_name);
		read_attr(path, traddr, sizeof(traddr));
		snprintf(path, sizeof(path),
			 NVMET_CONFIGFS "/ports/%s/addr_trsvcid", pe->d_name);
		read_attr(path, trsvcid, sizeof(trsvcid));
		snprintf(proto.address, sizeof(proto.address),
			 "traddr=%s,trsvcid=%s", traddr, trsvcid);

		snprintf(path, sizeof(path), NVMET_CONFIGFS "/ports/%s/subsystems",
			 pe->d_name);
		subs = opendir(path);
		while (subs && (se = readdir(subs))) {
			if (se->d_name[0] == '.' ||
			    strlen(se->d_name) > NTP_NQN_MAX)
				continue;
			memcpy(proto.subsysnqn, se->d_name,
			       strlen(se->d_name) + 1);
			nss = 0;
			snprintf(path, sizeof(path),
				 NVMET_CONFIGFS "/subsystems/%s/namespaces",
				 se->d_name);
			nsd = opendir(path);
			while (nsd && (ne = readdir(nsd))) {
				end = 0;
				if (ne->d_name[0] == '.')
					continue;
				c = ctrl_push(&v, &n, &cap);
				if (!c)
					break;
				*c = proto;
				sscanf(ne->d_name, "%u%n", &c->nsid, &end);
				snprintf(path, sizeof(path),
					 NVMET_CONFIGFS "/subsystems/%s/namespaces/%s/device_path",
					 se->d_name, ne->d_name);
				read_attr(path, traddr, sizeof(traddr));
				if (!stat(traddr, &st) && S_ISBLK(st.st_mode))
					c->dev = dev_encode(major(st.st_rdev),
							    minor(st.st_rdev));
				nss++;
			}
			if (nsd)
				closedir(nsd);
			if (!nss) {
				c = ctrl_push(&v, &n, &cap);
				if (c)
					*c = proto;
			}
		}
		if (subs)
			closedir(subs);
	}
	if (ports)
		closedir(ports);
	*tab = v;
	return v ? n : 0;
}

static size_t ctrls_gather(uint32_t role, struct ntp_ctrl **tab)
{
	if (role == NTPROF_ROLE_HOST)
		return ctrls_gather_host(tab);
	return ctrls_gather_target(tab);
}

/*
 * The cntlid of a host record: the host's kernel does not know it at the
 * hooks (it lies deep in a private struct), the path disk of the record
 * does (it belongs to one controller).
 */
static uint16_t ctrl_cntlid(struct recorder *rec, uint32_t dev)
{
	size_t i;

	if (dev == rec->last_dev)
		return rec->last_cntlid;
	rec->last_dev = dev;
	rec->last_cntlid = 0;
	for (i = 0; dev && i < rec->nr_ctrls; i++)
		if (rec->ctrls[i].dev == dev) {
			rec->last_cntlid = rec->ctrls[i].cntlid;
			break;
		}
	return rec->last_cntlid;
}

/* Appends @n records of our role, a host's with their cntlid filled in. */
static int record_append(struct recorder *rec,
			 const struct ntprof_record *recs, size_t n)
{
	struct ntprof_record buf[64];
	size_t i, k;
	int err;

	if (rec->o->cfg.role != NTPROF_ROLE_HOST || !rec->nr_ctrls)
		return ntp_writer_append(rec->w, recs, n);
	for (i = 0; i < n; i += k) {
		for (k = 0; k < 64 && i + k < n; k++) {
			buf[k] = recs[i + k];
			if (!buf[k].cntlid)
				buf[k].cntlid = ctrl_cntlid(rec, buf[k].dev);
		}
		err = ntp_writer_append(rec->w, buf, k);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Names the devices of the records for the analysis as they first come.
 * A device without a name is kept too (name NULL), so it is looked up
 * once; the analysis then labels it "dev MAJ:MIN".
 */
static void devmap_add(struct recorder *rec, uint32_t dev)
{
	struct devmap *dm = &rec->devs;
	struct ntprof_analysis *an[2] = { rec->all, rec->iv };
	const char *name;
	size_t i;

	for (i = 0; i < dm->n; i++)
		if (dm->v[i].dev == dev)
			return;
	if (dm->n == DEVS_MAX)
		return;
	name = devs_find(dm->tab, dm->ntab, dev);
	if (name)
		memcpy(dm->names[dm->n], name, strlen(name) + 1);
	else
		dev_lookup(rec->o->cfg.role, dev, dm->names[dm->n],
			   sizeof(dm->names[dm->n]));
	dm->v[dm->n].dev = dev;
	dm->v[dm->n].name = dm->names[dm->n][0] ? dm->names[dm->n] : NULL;
	dm->n++;
	/* The analyses copied the count when they were made. */
	for (i = 0; i < 2; i++) {
		if (!an[i])
			continue;
		an[i]->opts.host_devs = dm->v;
		an[i]->opts.nr_host_devs = dm->n;
		an[i]->opts.target_devs = dm->v;
		an[i]->opts.nr_target_devs = dm->n;
	}
}

/* Analyses */

static struct ntprof_analysis *analysis_new(struct recorder *rec)
{
	struct ntprof_analysis_opts opts = {
		.sample = rec->o->cfg.sample,
		.host_devs = rec->devs.v,
		.nr_host_devs = rec->devs.n,
		.target_devs = rec->devs.v,
		.nr_target_devs = rec->devs.n,
	};

	return ntprof_analysis_new(&opts);
}

static int analysis_add(struct ntprof_analysis *an, uint32_t role,
			const struct ntprof_record *r)
{
	if (role == NTPROF_ROLE_HOST)
		return ntprof_analysis_add(an, r, NULL);
	return ntprof_analysis_add(an, NULL, r);
}

/* Feeds the analyses; one out of memory goes, the recording stays. */
static void record_analyse(struct recorder *rec, const struct ntprof_record *r)
{
	uint32_t role = rec->o->cfg.role;

	devmap_add(rec, r->dev);
	if (rec->all && analysis_add(rec->all, role, r)) {
		ntprof_analysis_free(rec->all);
		rec->all = NULL;
		rec->all_lost = true;
	}
	if (rec->iv && analysis_add(rec->iv, role, r)) {
		ntprof_analysis_free(rec->iv);
		rec->iv = NULL;
	}
}

/* Draining */

static int record_take(const struct ntprof_record *recs, size_t n, void *data)
{
	struct recorder *rec = data;
	uint32_t role = rec->o->cfg.role;
	size_t i, run;
	int err;

	/*
	 * The kernel drains one role's buffers per request: a record of the
	 * other role would be the kernel's mistake, counted, never written.
	 */
	for (i = 0; i < n; i += run) {
		if (recs[i].role != role) {
			rec->other_role++;
			run = 1;
			continue;
		}
		for (run = 1; i + run < n && recs[i + run].role == role; run++)
			;
		err = record_append(rec, &recs[i], run);
		if (err) {
			rec->write_err = err;
			return err;
		}
		rec->written += run;
		rec->unflushed += run;
	}
	for (i = 0; i < n; i++) {
		if (recs[i].role != role)
			continue;
		/*
		 * A failed command is recorded even when sampling passed it
		 * over: in the file, but not in numbers that stand for 1 in N.
		 */
		if (!(recs[i].flags & NTPROF_REC_F_SAMPLED)) {
			rec->unsampled++;
			continue;
		}
		record_analyse(rec, &recs[i]);
	}
	return 0;
}

/*
 * Whether the summary can be made at the end from the file just opened
 * for writing: a regular file that can be read (not a FIFO, /dev/null or
 * a file without read permission). Else it is made live, as records come.
 */
static bool readback_possible(struct recorder *rec)
{
	struct stat st;

	if (stat(rec->o->out, &st) || !S_ISREG(st.st_mode) ||
	    access(rec->o->out, R_OK))
		return false;
	rec->out_dev = st.st_dev;
	rec->out_ino = st.st_ino;
	return true;
}

/*
 * The summary's analysis, made after the file was closed: its records
 * read back block by block, the sampled ones fed in the order they were
 * written, as record_take() would have. The devices were named while
 * recording (devmap_add()), so the analysis sees the same names. Returns
 * 0, or -1 after a one-line note when the file does not read back as it
 * was written: then there is no summary, only the count.
 */
static int record_readback(struct recorder *rec, const char *cmd)
{
	const struct record_opts *o = rec->o;
	const struct ntprof_record *recs;
	struct ntp_file *f = NULL;
	char why[512] = "";
	uint64_t got = 0;
	struct stat st;
	size_t i, n;
	int ret;

	rec->all = analysis_new(rec);
	if (!rec->all) {
		rec->all_lost = true;
		return 0;
	}
	if (stat(o->out, &st) || st.st_dev != rec->out_dev ||
	    st.st_ino != rec->out_ino) {
		snprintf(why, sizeof(why), "%s: not the file written any more",
			 o->out);
		goto fail;
	}
	ret = ntp_open(o->out, &f, why, sizeof(why));
	if (ret)
		goto fail;
	while ((ret = ntp_next_block(f, &recs, &n)) > 0) {
		got += n;
		for (i = 0; rec->all && i < n; i++) {
			if (recs[i].role != o->cfg.role ||
			    !(recs[i].flags & NTPROF_REC_F_SAMPLED))
				continue;
			if (analysis_add(rec->all, o->cfg.role, &recs[i])) {
				ntprof_analysis_free(rec->all);
				rec->all = NULL;
				rec->all_lost = true;
			}
		}
	}
	if (ret < 0) {
		snprintf(why, sizeof(why), "%s", ntp_error(f));
		goto fail;
	}
	if (got != rec->written) {
		snprintf(why, sizeof(why),
			 "%s: %" PRIu64 " records read back, %" PRIu64 " written",
			 o->out, got, rec->written);
		goto fail;
	}
	ntp_close(f);
	return 0;

fail:
	fprintf(stderr,
		"ntprof: %s: no summary: cannot read the recording back (%s); it stays as written: see 'ntprof report %s'\n",
		cmd, why, o->out);
	ntp_close(f);
	ntprof_analysis_free(rec->all);
	rec->all = NULL;
	return -1;
}

static int record_drain(struct recorder *rec, uint64_t *count)
{
	return session_records_get(rec->sock, rec->o->cfg.role, record_take,
				   rec, count);
}

/* Live lines */

static void record_live(struct recorder *rec, uint64_t now, uint64_t tick)
{
	struct ntprof_analysis *an = rec->iv;
	bool rows = false;
	size_t i;

	rec->iv = analysis_new(rec);
	if (!an)
		goto out;
	an->opts.duration_ns = now - rec->iv_start;
	ntprof_analysis_finish(an);
	for (i = 0; i < an->nr_groups; i++)
		if (an->groups[i].n_table)
			rows = true;
	if (rows && !rec->live_header) {
		ntprof_print_live_header(stdout, rec->o->interval_s);
		rec->live_header = true;
	}
	ntprof_print_live(stdout, an, (double)(tick - rec->start_mono) / 1e9);
	fflush(stdout);
	ntprof_analysis_free(an);
out:
	rec->iv_start = now;
}

/* The header */

static void read_boot_id(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	size_t len;

	*buf = '\0';
	if (!f)
		return;
	if (fgets(buf, size, f)) {
		len = strcspn(buf, "\n");
		buf[len] = '\0';
		/* A boot id is a UUID: anything else is not one to compare. */
		if (len != NTP_BOOT_ID_MAX)
			*buf = '\0';
	}
	fclose(f);
}

/*
 * The header. The hooks are the session's as it attached them; without
 * them (a failed dump, no memory) the file is still a recording, so that
 * costs the list, not the recording; the same goes for the devices,
 * gathered by the caller. Returns the hooks, for free().
 */
static struct ntp_hook *record_header(struct recorder *rec,
				      struct ntp_header *hdr)
{
	const struct record_opts *o = rec->o;
	struct session_hooks hooks;
	struct ntp_hook *h = NULL;
	struct utsname uts;
	long cpus;
	size_t i;

	memset(hdr, 0, sizeof(*hdr));
	hdr->role = o->cfg.role;
	hdr->transport = o->cfg.transport;
	hdr->sample = o->cfg.sample;
	cpus = sysconf(_SC_NPROCESSORS_CONF);
	hdr->nr_cpus = cpus > 0 ? cpus : 0;
	hdr->start_mono_ns = rec->start_mono;
	hdr->start_real_ns = rec->start_real;
	if (gethostname(hdr->hostname, sizeof(hdr->hostname)))
		hdr->hostname[0] = '\0';
	hdr->hostname[sizeof(hdr->hostname) - 1] = '\0';
	if (!uname(&uts))
		snprintf(hdr->kernel_release, sizeof(hdr->kernel_release),
			 "%s", uts.release);
	read_boot_id(hdr->boot_id, sizeof(hdr->boot_id));
	snprintf(hdr->tool_version, sizeof(hdr->tool_version), "%s",
		 ntprof_version);

	if (!session_hooks_get(rec->sock, o->cfg.role, o->cfg.transport,
			       &hooks) && hooks.n) {
		if (hooks.n > NTP_HOOKS_MAX)
			hooks.n = NTP_HOOKS_MAX;
		h = calloc(hooks.n, sizeof(*h));
		for (i = 0; h && i < hooks.n; i++)
			h[i] = hooks.v[i].h;
		hdr->nr_hooks = h ? hooks.n : 0;
	}
	session_hooks_free(&hooks);
	hdr->hooks = h;
	hdr->nr_devs = rec->devs.ntab;
	hdr->devs = rec->devs.tab;
	hdr->nr_ctrls = rec->nr_ctrls;
	hdr->ctrls = rec->ctrls;
	return h;
}

/*
 * Before the session starts: can the file be written at all? A missing
 * folder or a read-only file system then costs no session. Creates the
 * file if it did not exist (*created: remove it if we give up).
 */
static int out_check(const char *path, bool *created)
{
	int fd;

	*created = false;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0) {
		*created = true;
		close(fd);
		return 0;
	}
	if (errno != EEXIST)
		return -errno;
	/* Not truncated yet: a start that fails leaves it as it was. */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int signals_set(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = record_on_signal;
	sigemptyset(&sa.sa_mask);
	/*
	 * Restart the netlink receives: one cut short mid-dump would lose
	 * the records of that dump. The sleeps come back early anyway.
	 */
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGHUP, &sa, NULL))
		return -errno;
	/* A closed stdout must not kill us with the session running. */
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return -errno;
	return 0;
}

/* "reads and writes": the kinds of commands a --op mask lets through. */
static const char *ops_str(uint32_t ops, char *buf, size_t size)
{
	static const char * const names[] = {
		"reads", "writes", "other commands",
	};
	const char *sep = "";
	size_t len = 0;
	int i;

	*buf = '\0';
	for (i = 0; i < 3; i++) {
		if (!(ops & (1U << i)))
			continue;
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				sep, names[i]);
		sep = " and ";
	}
	return buf;
}

static void profiling_line(const struct record_opts *o)
{
	const struct session_config *cfg = &o->cfg;
	char a[16], b[16], ops[48];

	printf("ntprof: profiling as %s, ", session_role_name(cfg->role));
	if (cfg->sample > 1)
		printf("sampling 1 of %u commands", cfg->sample);
	else
		fputs("sampling every command", stdout);
	if (cfg->has_ops || cfg->has_dev || cfg->has_min_len ||
	    cfg->has_max_len) {
		/* ", only reads of 4KiB to 128KiB on nvme1n1" */
		printf(", only %s", cfg->has_ops ?
		       ops_str(cfg->ops, ops, sizeof(ops)) : "commands");
		if (cfg->has_min_len && cfg->has_max_len)
			printf(" of %s to %s",
			       ntprof_size_str(cfg->min_len, a, sizeof(a)),
			       ntprof_size_str(cfg->max_len, b, sizeof(b)));
		else if (cfg->has_min_len)
			printf(" of %s or more",
			       ntprof_size_str(cfg->min_len, a, sizeof(a)));
		else if (cfg->has_max_len)
			printf(" of up to %s",
			       ntprof_size_str(cfg->max_len, a, sizeof(a)));
		if (cfg->has_dev)
			printf(" on %s", o->dev_label);
	}
	puts(", saving records; Ctrl-C to stop");
	fflush(stdout);
}

/* Says what a failed start means, in the user's terms. */
static void start_error(struct nl_sock *sock, const char *cmd,
			const struct session_config *cfg, int err)
{
	if (err == -EBUSY) {
		fprintf(stderr,
			"ntprof: %s: a %s session is already running: another 'ntprof record -r %s' records on this machine (if it was killed, its session runs on until 'rmmod ntprof')\n",
			cmd, session_role_name(cfg->role),
			session_role_name(cfg->role));
		return;
	}
	nl_perror(sock, cmd, err);
	if (err == -ENOENT)
		fprintf(stderr, "ntprof: 'ntprof probe -r %s -t %s' shows the hooks this kernel has\n",
			session_role_name(cfg->role),
			session_transport_name(cfg->transport));
}

/* The end */

/* What to do with the file: join it with the other side's. */
static void report_hint(const struct record_opts *o)
{
	if (o->cfg.role == NTPROF_ROLE_HOST)
		printf("report: ntprof report %s TARGET.ntp (the target's recording, same -s)\n",
		       o->out);
	else
		printf("report: ntprof report HOST.ntp %s (the host's recording, same -s)\n",
		       o->out);
}

static void print_summary(struct recorder *rec)
{
	struct ntprof_analysis *an = rec->all;
	const struct record_opts *o = rec->o;

	printf("ntprof: %" PRIu64 " records written to %s\n", rec->written,
	       o->out);
	if (an && (an->nr_host || an->nr_target)) {
		putchar('\n');
		ntprof_print_run(stdout, an);
		ntprof_print_throughput(stdout, an);
		ntprof_print_groups(stdout, an, false);
		putchar('\n');
		ntprof_print_records(stdout, an->nr_host, an->nr_target, 0);
		report_hint(o);
	} else if (!rec->written) {
		printf("\nno %s command was recorded: was there I/O over %s%s?\n",
		       session_role_name(o->cfg.role),
		       session_transport_name(o->cfg.transport),
		       o->cfg.has_ops || o->cfg.has_dev ||
		       o->cfg.has_min_len || o->cfg.has_max_len ?
		       ", of the kind the filters let through" : "");
	}
	fflush(stdout);
}

static void print_warnings(const struct recorder *rec,
			   const struct session_stats *st, bool have_stats)
{
	const char *role = session_role_name(rec->o->cfg.role);
	const char *other = rec->o->cfg.role == NTPROF_ROLE_HOST ? "target" :
								    "host";

	if (have_stats && st->drops)
		fprintf(stderr,
			"ntprof: WARNING: %" PRIu64 " records dropped (kernel buffers full): the recording and its numbers miss them; sample fewer commands (a larger -s)\n",
			st->drops);
	if (have_stats && st->evicted)
		fprintf(stderr,
			"ntprof: WARNING: %" PRIu64 " sampled commands not recorded (in-flight table full): sample fewer commands (a larger -s)\n",
			st->evicted);
	if (rec->other_role)
		fprintf(stderr,
			"ntprof: WARNING: the kernel returned %" PRIu64 " records of a %s session, left out (a module bug: please report it)\n",
			rec->other_role, other);
	if (rec->unsampled)
		fprintf(stderr,
			"ntprof: %" PRIu64 " failed %s commands outside the sample are in the file, not in the numbers\n",
			rec->unsampled, role);
	if (rec->all_lost)
		fprintf(stderr,
			"ntprof: out of memory for the summary; the recording is whole: run 'ntprof report %s'\n",
			rec->o->out);
}

/* The module is unloading or unloaded: /sys/module says so. */
static bool module_unloading(void)
{
	char state[16] = "";
	FILE *f = fopen("/sys/module/ntprof/initstate", "r");

	if (!f)
		return true;
	if (!fgets(state, sizeof(state), f))
		state[0] = '\0';
	fclose(f);
	return !strncmp(state, "going", 5);
}

/*
 * A request to a family that is no longer registered fails with ENOENT
 * and no explanation: the module was unloaded, taking the session along.
 * A request that meets the family on its way out can fail otherwise
 * (EPROTONOSUPPORT was seen on 6.12): then /sys/module tells.
 */
static bool module_gone(struct nl_sock *sock, int err)
{
	if (!err)
		return false;
	return (err == -ENOENT && !*nl_extack(sock)) || module_unloading();
}

/*
 * The recording loop: drain, print, flush, sleep, until -d or a signal.
 * Returns 0, or -errno of what cut it short (already reported).
 */
static int record_loop(struct recorder *rec, const char *cmd)
{
	const struct record_opts *o = rec->o;
	uint64_t interval_ns = (uint64_t)o->interval_s * NSEC_PER_SEC;
	uint64_t now, wake, next_tick = UINT64_MAX, end = UINT64_MAX;
	uint64_t next_flush;
	struct timespec ts;
	int err;

	now = clock_ns(CLOCK_MONOTONIC);
	rec->iv_start = now;
	next_flush = now + FLUSH_MS * NSEC_PER_MSEC;
	if (interval_ns)
		next_tick = rec->start_mono + interval_ns;
	if (o->duration_ns)
		end = rec->start_mono + o->duration_ns;

	while (!record_signal) {
		err = record_drain(rec, NULL);
		if (err)
			goto fail;
		now = clock_ns(CLOCK_MONOTONIC);
		/* The end's own interval is in the summary, not a line. */
		if (now >= end)
			break;
		if (now >= next_tick) {
			record_live(rec, now, next_tick);
			while (next_tick <= now)
				next_tick += interval_ns;
		}
		if (now >= next_flush && rec->unflushed) {
			err = ntp_writer_flush(rec->w);
			if (err) {
				rec->write_err = err;
				goto fail;
			}
			rec->unflushed = 0;
			next_flush = now + FLUSH_MS * NSEC_PER_MSEC;
		}
		wake = now + DRAIN_MS * NSEC_PER_MSEC;
		if (wake > next_tick)
			wake = next_tick;
		if (wake > end)
			wake = end;
		ts.tv_sec = wake / NSEC_PER_SEC;
		ts.tv_nsec = wake % NSEC_PER_SEC;
		/* A signal ends the sleep early: EINTR, then the flag. */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return 0;

fail:
	if (rec->write_err)
		fprintf(stderr, "ntprof: %s: cannot write %s: %s; stopping\n",
			cmd, o->out, strerror(-rec->write_err));
	else if (module_gone(rec->sock, err))
		fprintf(stderr,
			"ntprof: %s: the ntprof module went away (rmmod?): the recording ends here\n",
			cmd);
	else
		nl_perror(rec->sock, cmd, err);
	return err;
}

/* After the loop: stop, take the rest, close the file, summarize. */
static int record_finish(struct recorder *rec, const char *cmd, int err)
{
	const struct record_opts *o = rec->o;
	struct ntp_trailer tr = { 0 };
	struct session_stats st = { 0 };
	bool have_stats = false;
	uint64_t n = 0;
	int stop_err, i, ret;

	tr.end_mono_ns = clock_ns(CLOCK_MONOTONIC);
	tr.end_real_ns = clock_ns(CLOCK_REALTIME);
	/* Without the module there is no session left to stop. */
	stop_err = module_gone(rec->sock, err) ? 0 :
		   session_stop(rec->sock, o->cfg.role);
	if (module_gone(rec->sock, stop_err)) {
		fprintf(stderr,
			"ntprof: %s: the ntprof module went away (rmmod?) with the last records\n",
			cmd);
		/* What it still had is lost: the file ends early. */
		err = stop_err;
	} else if (stop_err == -ENOENT) {
		fprintf(stderr,
			"ntprof: %s: the %s session was stopped by someone else (was the module reloaded?)\n",
			cmd, session_role_name(o->cfg.role));
	} else if (stop_err) {
		nl_perror(rec->sock, cmd, stop_err);
	}

	/* Records finished before the stop are still in the buffers. */
	for (i = 0; !err && i < FINAL_DRAINS; i++) {
		err = record_drain(rec, &n);
		if (err) {
			if (rec->write_err)
				fprintf(stderr,
					"ntprof: %s: cannot write %s: %s\n",
					cmd, o->out, strerror(-rec->write_err));
			else
				nl_perror(rec->sock, cmd, err);
		}
		if (!n)
			break;
	}
	if (!err && !session_stats_get(rec->sock, o->cfg.role, &st)) {
		have_stats = true;
		tr.drops = st.drops;
		tr.evictions = st.evicted;
	}

	/*
	 * Without a trailer the file says "ended early", which is what an
	 * error made of it; its whole blocks still read back.
	 */
	ret = ntp_writer_close(rec->w, err ? NULL : &tr);
	rec->w = NULL;
	if (ret && !err) {
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd,
			o->out, strerror(-ret));
		err = ret;
	}
	if (err) {
		/* The block that failed is not in it: no count to give. */
		fprintf(stderr,
			"ntprof: %s: the session is stopped; %s keeps the records written before the error, and no end\n",
			cmd, o->out);
		print_warnings(rec, &st, have_stats);
		return 1;
	}

	if (rec->all_deferred)
		record_readback(rec, cmd);
	if (rec->all) {
		rec->all->opts.duration_ns = tr.end_mono_ns - rec->start_mono;
		ntprof_analysis_finish(rec->all);
	}
	print_summary(rec);
	print_warnings(rec, &st, have_stats);
	return stop_err ? 1 : 0;
}

/* Looks up the session's start; falls back on our own clocks. */
static void record_start_times(struct recorder *rec)
{
	struct session_status st;

	/*
	 * status-get describes the host's session when both run: ours only
	 * if it is the one. Then our clocks, read just after the start,
	 * miss the kernel's by microseconds.
	 */
	rec->start_mono = clock_ns(CLOCK_MONOTONIC);
	rec->start_real = clock_ns(CLOCK_REALTIME);
	if (!session_status_get(rec->sock, &st) && st.have_session &&
	    st.state == NTPROF_STATE_RECORDING &&
	    st.role == rec->o->cfg.role && st.start_mono) {
		rec->start_mono = st.start_mono;
		rec->start_real = st.start_real;
	}
}

/* Warns of the modules a recording of @cfg waits for. */
static void modules_note(struct nl_sock *sock, const struct session_config *cfg)
{
	uint32_t t[2] = { NTPROF_TRANSPORT_NONE, cfg->transport };
	const struct session_module *mod;
	struct session_status st;
	int i;

	if (session_status_get(sock, &st))
		return;
	for (i = 0; i < 2; i++) {
		mod = session_module_find(&st, cfg->role, t[i]);
		if (mod && !mod->present)
			fprintf(stderr,
				"ntprof: %s is not loaded: its hooks attach when it loads\n",
				mod->name);
	}
}

/*
 * --spdk-target: nvmf_tgt's uprobe sites join the session. The kernel
 * target's hooks stay: a machine may serve through nvmet and SPDK at
 * once, and with no nvmet command they record nothing. Returns 0, or 1
 * with the reason printed.
 */
static int spdk_sites(const char *cmd, struct record_opts *o,
		      struct spdk_prog *t)
{
	char err[512];

	if (spdk_prog_open(o->spdk, o->cfg.role, o->cfg.transport, t, err,
			   sizeof(err))) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, err);
		return 1;
	}
	if (!t->ok) {
		fprintf(stderr, "ntprof: %s: %s: %s\n", cmd, t->path, t->why);
		spdk_prog_close(t);
		return 1;
	}
	o->cfg.usites = t->usites;
	o->cfg.nr_usites = t->nr_usites;
	/*
	 * The sites hold all they need; closing the binary now keeps this
	 * process out of the lists of later probes (libelf maps the file).
	 */
	spdk_prog_close(t);
	if (!t->nr_pids)
		fprintf(stderr,
			"ntprof: no process runs %s yet: its sites fire in those that start\n",
			t->path);
	return 0;
}

int cmd_record(int argc, char *argv[])
{
	const char *cmd = argv[0];
	struct recorder rec = { 0 };
	struct ntp_hook *hooks = NULL;
	struct record_opts o;
	static struct spdk_prog spdk;
	struct ntp_header hdr;
	bool created;
	int err;

	err = record_parse(argc, argv, &o);
	if (err >= 0)
		return err;
	if (o.spdk && spdk_sites(cmd, &o, &spdk))
		return 1;
	rec.o = &o;

	if (ntprof_connect(cmd, &rec.sock))
		return 1;
	err = out_check(o.out, &created);
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd, o.out,
			strerror(-err));
		nl_close(rec.sock);
		return 1;
	}
	err = signals_set();
	if (err) {
		fprintf(stderr, "ntprof: %s: cannot handle signals: %s\n", cmd,
			strerror(-err));
		goto fail_unlink;
	}
	/*
	 * The summary costs the analysis of every record: made while the
	 * workload runs, it competes with it for the CPU. From a file it can
	 * read back (out_check() made sure it is there), it is made at the
	 * end instead.
	 */
	rec.all_deferred = readback_possible(&rec);
	rec.all = rec.all_deferred ? NULL : analysis_new(&rec);
	rec.iv = o.interval_s ? analysis_new(&rec) : NULL;
	if ((!rec.all_deferred && !rec.all) || (o.interval_s && !rec.iv)) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, strerror(ENOMEM));
		goto fail_unlink;
	}

	err = session_start(rec.sock, &o.cfg);
	if (err) {
		start_error(rec.sock, cmd, &o.cfg, err);
		goto fail_unlink;
	}
	record_start_times(&rec);

	rec.devs.ntab = devs_gather(o.cfg.role, &rec.devs.tab);
	rec.nr_ctrls = ctrls_gather(o.cfg.role, &rec.ctrls);
	hooks = record_header(&rec, &hdr);
	err = ntp_writer_open(o.out, &hdr, &rec.w);
	if (err == -EINVAL && (hdr.nr_ctrls || hdr.nr_devs)) {
		/* Tables too big for a header: the records matter more. */
		fprintf(stderr,
			"ntprof: %s: %u devices and %u controller entries do not fit in the header; recording without them\n",
			cmd, hdr.nr_devs, hdr.nr_ctrls);
		hdr.nr_ctrls = 0;
		hdr.nr_devs = 0;
		err = ntp_writer_open(o.out, &hdr, &rec.w);
	}
	free(hooks);
	if (err) {
		if (err == -EINVAL)
			fprintf(stderr,
				"ntprof: %s: cannot write %s: a header field is too long\n",
				cmd, o.out);
		else
			fprintf(stderr, "ntprof: %s: cannot write %s: %s\n",
				cmd, o.out, strerror(-err));
		session_stop(rec.sock, o.cfg.role);
		fprintf(stderr, "ntprof: %s: the session is stopped\n", cmd);
		goto fail_unlink;
	}

	profiling_line(&o);
	modules_note(rec.sock, &o.cfg);
	err = record_loop(&rec, cmd);
	err = record_finish(&rec, cmd, err);

	ntprof_analysis_free(rec.all);
	ntprof_analysis_free(rec.iv);
	free(rec.devs.tab);
	spdk_prog_close(&spdk);
	free(rec.ctrls);
	nl_close(rec.sock);
	return err;

fail_unlink:
	if (created)
		unlink(o.out);
	spdk_prog_close(&spdk);
	free(rec.devs.tab);
	free(rec.ctrls);
	ntprof_analysis_free(rec.all);
	ntprof_analysis_free(rec.iv);
	nl_close(rec.sock);
	return 1;
}
