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
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
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
};

struct devmap {
	struct ntprof_devname v[DEVS_MAX];
	char names[DEVS_MAX][32];
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
	uint64_t other_role;	/* records of the other role's session */
	uint64_t unsampled;	/* failed commands outside the sample */
	int write_err;
	/* NULL once out of memory: the recording goes on without it. */
	struct ntprof_analysis *all;
	struct ntprof_analysis *iv;
	bool all_lost;
	bool live_header;
	uint64_t iv_start;
	struct devmap devs;
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

static void dev_decode(uint32_t dev, unsigned int *maj, unsigned int *min)
{
	*maj = (dev & 0xfff00) >> 8;
	*min = (dev & 0xff) | ((dev >> 12) & 0xfff00);
}

/*
 * --dev: MAJ:MIN, or a block device's name or path. Host records carry
 * the namespace's whole disk, so a partition could never match: refuse it
 * here rather than record nothing. @why gets the reason of an error.
 */
static int parse_dev(const char *s, uint32_t *dev, char *why, size_t size)
{
	unsigned int maj, min;
	const char *name;
	char path[320], buf[32];
	struct stat stb;
	FILE *f;
	char c;

	if (sscanf(s, "%u:%u%c", &maj, &min, &c) == 2) {
		if (maj >= 1U << 12 || min >= 1U << 20 || (!maj && !min)) {
			snprintf(why, size, "'%s' is not a device number", s);
			return -EINVAL;
		}
		*dev = dev_encode(maj, min);
		return 0;
	}

	name = strncmp(s, "/dev/", 5) ? s : s + 5;
	if (!*name || strlen(name) > 64 || strchr(name, '/') ||
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
	} else if (!stat(s, &stb) && S_ISBLK(stb.st_mode)) {
		maj = major(stb.st_rdev);
		min = minor(stb.st_rdev);
	} else {
		snprintf(why, size, "no block device '%s'", s);
		return -ENOENT;
	}

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", maj,
		 min);
	if (!access(path, F_OK)) {
		snprintf(why, size,
			 "%s is a partition: the host records whole namespaces, give the namespace (nvme1n1)",
			 s);
		return -EINVAL;
	}
	*dev = dev_encode(maj, min);
	return 0;
}

static int record_parse(int argc, char *argv[], struct record_opts *o)
{
	enum { OPT_DEV = 256, OPT_OP, OPT_MIN_SIZE, OPT_MAX_SIZE };
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct session_config *cfg = &o->cfg;
	const char *cmd = argv[0];
	char why[512];
	double secs;
	int c;

	memset(o, 0, sizeof(*o));
	cfg->sample = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:t:o:s:i:d:h", options,
				NULL)) != -1) {
		switch (c) {
		case 'r':
			if (session_role_parse(optarg, &cfg->role))
				return usage_error(cmd,
						   "-r takes host or target, not '%s'",
						   optarg);
			break;
		case 't':
			if (session_transport_parse(optarg, &cfg->transport))
				return usage_error(cmd,
						   "-t takes tcp or rdma, not '%s'",
						   optarg);
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
	if (!cfg->role)
		return usage_error(cmd, "which role? -r host or -r target");
	if (!cfg->transport)
		return usage_error(cmd, "which transport? -t tcp or -t rdma");
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

/* DEVNAME of a block device, from sysfs: "" when it cannot be read. */
static void dev_lookup(uint32_t dev, char *buf, size_t size)
{
	unsigned int maj, min;
	char path[64], line[128];
	size_t len;
	FILE *f;

	*buf = '\0';
	dev_decode(dev, &maj, &min);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", maj, min);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		len = strcspn(line + 8, "\n");
		if (len && len < size) {
			memcpy(buf, line + 8, len);
			buf[len] = '\0';
		}
		break;
	}
	fclose(f);
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
	size_t i;

	for (i = 0; i < dm->n; i++)
		if (dm->v[i].dev == dev)
			return;
	if (dm->n == DEVS_MAX)
		return;
	dev_lookup(dev, dm->names[dm->n], sizeof(dm->names[dm->n]));
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
	 * The kernel's buffers are shared by the host's and the target's
	 * session of one machine: records of the other role are not ours.
	 */
	for (i = 0; i < n; i += run) {
		if (recs[i].role != role) {
			rec->other_role++;
			run = 1;
			continue;
		}
		for (run = 1; i + run < n && recs[i + run].role == role; run++)
			;
		err = ntp_writer_append(rec->w, &recs[i], run);
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

static int record_drain(struct recorder *rec, uint64_t *count)
{
	return session_records_get(rec->sock, record_take, rec, count);
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
 * costs the list, not the recording. Returns the list, for free().
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
			"ntprof: WARNING: %" PRIu64 " records of a %s session on this machine were taken from the kernel and left out: its own recorder misses them\n",
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

/*
 * A request to a family that is no longer registered fails with ENOENT
 * and no explanation: the module was unloaded, taking the session along.
 */
static bool module_gone(struct nl_sock *sock, int err)
{
	return err == -ENOENT && !*nl_extack(sock);
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
	if (!err && !session_stats_get(rec->sock, &st)) {
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

int cmd_record(int argc, char *argv[])
{
	const char *cmd = argv[0];
	struct recorder rec = { 0 };
	struct ntp_hook *hooks = NULL;
	struct record_opts o;
	struct ntp_header hdr;
	bool created;
	int err;

	err = record_parse(argc, argv, &o);
	if (err >= 0)
		return err;
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
	rec.all = analysis_new(&rec);
	rec.iv = o.interval_s ? analysis_new(&rec) : NULL;
	if (!rec.all || (o.interval_s && !rec.iv)) {
		fprintf(stderr, "ntprof: %s: %s\n", cmd, strerror(ENOMEM));
		goto fail_unlink;
	}

	err = session_start(rec.sock, &o.cfg);
	if (err) {
		start_error(rec.sock, cmd, &o.cfg, err);
		goto fail_unlink;
	}
	record_start_times(&rec);

	hooks = record_header(&rec, &hdr);
	err = ntp_writer_open(o.out, &hdr, &rec.w);
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
	nl_close(rec.sock);
	return err;

fail_unlink:
	if (created)
		unlink(o.out);
	ntprof_analysis_free(rec.all);
	ntprof_analysis_free(rec.iv);
	nl_close(rec.sock);
	return 1;
}
