// SPDX-License-Identifier: GPL-2.0
/*
 * A test client of the recorder, for the lab tests until "ntprof record"
 * exists: start and stop sessions, drain records into a raw file, print
 * them as tab-separated lines, and show the per-CPU counters.
 *
 *   testclient start ROLE TRANSPORT N [DRAIN_PORTID]
 *                                 (DRAIN_PORTID: the second socket that may
 *                                 drain the session)
 *   testclient lstart ROLE TRANSPORT N FIELD OFFSET SIZE STRUCT_SIZE
 *                                 (a start giving one layout field, from a
 *                                 socket of its own, stopped if it started;
 *                                 prints "errno N", the extack on stderr)
 *   testclient drainer ROLE       (prints the port id of a socket of its
 *                                 own, waits for a line on stdin, then
 *                                 drains ROLE through it: "errno N")
 *   testclient selfdrain ROLE TRANSPORT N (one process, two sockets: the
 *                                 first starts naming the second, which
 *                                 drains: "errno N"; then the first stops)
 *   testclient ustart ROLE TRANSPORT N SPECFILE [PID]  (with uprobe sites;
 *                                 with PID, that process's hits only)
 *   testclient cstart ROLE TRANSPORT N CHAIN OFFSET [SPECFILE]
 *                                 (a start with NTPROF_A_START_CHAIN CHAIN and,
 *                                 unless OFFSET is "-", _CHAIN_OFFSET; with
 *                                 SPECFILE's uprobe sites too)
 *   testclient pick N             (identities on stdin: those 1 in N samples)
 *   testclient cpick N OFFSET     ("opcode slba nlb" on stdin: those the
 *                                 chain rule picks)
 *   testclient stop
 *   testclient release            (kill the holder: its sessions stop)
 *   testclient drain FILE [ROLE]  (appends struct ntprof_record[]: the
 *                                 module's compact records, decoded)
 *   testclient print FILE         (one line per record)
 *   testclient stats [ROLE]       (sums over CPUs: seen sampled records drops evicted fill)
 *   testclient raw CMD [dump]     (command CMD without attributes, a dump with
 *                                  "dump"; prints "errno N", 0 when it worked,
 *                                  and the kernel's extack on stderr)
 *
 * start, ustart, stop, drain and stats go through the holder's socket
 * (holder.c), which the first start forks: a session belongs to the
 * socket that started it. raw always opens a socket of its own.
 *
 * Each role's session has its own buffers and counters: drain and stats
 * read ROLE's (host or target), or without it the host's then the
 * target's, into one file or one sum. ROLE "any" sends the request
 * without a role, for the module to choose (or refuse).
 *
 * A SPECFILE has a uprobe site per line ('#' starts a comment):
 *
 *   PATH OFFSET POINT first|mid|last|first,last key=FETCH [FIELD=FETCH]...
 *       [as=NAME] [fd=N]
 *
 * PATH is opened and its descriptor sent, the file the module probes;
 * the path attribute says NAME if given, else PATH. fd=N sends N instead
 * (a descriptor that is not open, to test the module's check).
 * POINT is a number or a name of the netlink spec (target-init); FIELD
 * one of qid cid opcode nsid slba nlb; a FETCH is REG[>DEREF]...[+OFF][:W]:
 * argument register REG, a pointer load at each >DEREF, then OFF added
 * (+ or -) and W bytes read, or the address itself without :W. Nothing
 * is checked here: the module is what the tests test.
 *
 * pick reads "qid cid opcode nsid slba nlb" lines and prints those that
 * ntprof_sample_hash() % N picks.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uapi/linux/ntprof.h>

#include <fcntl.h>
#include <unistd.h>

#include "genl/conn.h"
#include "holder.h"
#include "genl/nl.h"
#include "ntp/crec.h"

struct start_args {
	uint32_t role;
	uint32_t transport;
	uint32_t sample;
	uint32_t drain_portid;		/* 0: none */
	uint32_t layout[4];		/* field, offset, size, struct size */
	bool has_layout;
	bool has_chain;
	uint32_t chain;
	bool has_chain_offset;
	uint64_t chain_offset;
};

static int put_start(struct nlmsghdr *nlh, void *data)
{
	struct start_args *a = data;
	struct nlattr *nest;

	mnl_attr_put_u32(nlh, NTPROF_A_START_ROLE, a->role);
	mnl_attr_put_u32(nlh, NTPROF_A_START_TRANSPORT, a->transport);
	mnl_attr_put_u32(nlh, NTPROF_A_START_SAMPLE, a->sample);
	if (a->drain_portid)
		mnl_attr_put_u32(nlh, NTPROF_A_START_DRAIN_PORTID,
				 a->drain_portid);
	if (a->has_layout) {
		nest = mnl_attr_nest_start(nlh, NTPROF_A_START_LAYOUT);
		mnl_attr_put_u32(nlh, NTPROF_A_LAYOUT_FIELD, a->layout[0]);
		mnl_attr_put_u32(nlh, NTPROF_A_LAYOUT_OFFSET, a->layout[1]);
		mnl_attr_put_u32(nlh, NTPROF_A_LAYOUT_SIZE, a->layout[2]);
		mnl_attr_put_u32(nlh, NTPROF_A_LAYOUT_STRUCT_SIZE, a->layout[3]);
		mnl_attr_nest_end(nlh, nest);
	}
	if (a->has_chain)
		mnl_attr_put_u32(nlh, NTPROF_A_START_CHAIN, a->chain);
	if (a->has_chain_offset)
		mnl_attr_put_u64(nlh, NTPROF_A_START_CHAIN_OFFSET,
				 a->chain_offset);
	return 0;
}

#define SPEC_FIELDS	7	/* key, then the identity in uapi order */

struct fetch {
	int set;
	uint32_t reg;
	int nr_derefs;
	int32_t derefs[8];	/* more than the module takes: to test it */
	int has_off;
	int32_t off;
	uint32_t width;
};

struct site {
	char path[256];
	char as[256];
	int fd;
	uint64_t offset;
	uint32_t point;
	uint32_t flags;
	struct fetch f[SPEC_FIELDS];
};

struct ustart_args {
	struct start_args start;
	uint32_t pid;
	struct site sites[20];	/* more than the module takes: to test it */
	int nr;
};

static const char *const point_names[] = {
	"host-blk-start", "host-queue-rq", "host-setup", "host-blk-issue",
	"host-send", "host-send-done", "host-r2t", "host-recv",
	"host-driver-done", "host-nvme-complete", "host-blk-complete",
	"target-recv", "target-init", "target-r2t", "target-data",
	"target-exec", "target-blk-issue", "target-blk-complete",
	"target-complete", "target-queue-resp", "target-send",
	"target-send-done",
};

static const char *const field_names[SPEC_FIELDS] = {
	"key", "qid", "cid", "opcode", "nsid", "slba", "nlb",
};

static int parse_fetch(const char *s, struct fetch *f)
{
	char *end;

	memset(f, 0, sizeof(*f));
	f->set = 1;
	f->reg = strtoul(s, &end, 0);
	while (*end) {
		if (*end == '>' && f->nr_derefs < 8) {
			f->derefs[f->nr_derefs++] = strtol(end + 1, &end, 0);
		} else if (*end == '+' || *end == '-') {
			f->has_off = 1;
			f->off = strtol(end, &end, 0);
		} else if (*end == ':') {
			f->width = strtoul(end + 1, &end, 0);
		} else {
			return -1;
		}
	}
	return 0;
}

static int parse_site(char *line, struct site *st)
{
	char *tok, *save, *eq;
	unsigned int i;
	int n = 0;

	memset(st, 0, sizeof(*st));
	st->fd = -1;
	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save), n++) {
		if (n == 0) {
			snprintf(st->path, sizeof(st->path), "%s", tok);
		} else if (n == 1) {
			st->offset = strtoull(tok, NULL, 0);
		} else if (n == 2) {
			st->point = strtoul(tok, NULL, 0);
			for (i = 0; i < sizeof(point_names) / sizeof(*point_names); i++)
				if (!strcmp(tok, point_names[i]))
					st->point = i;
		} else if (n == 3) {
			st->flags = (strstr(tok, "first") ? NTPROF_USITE_F_FIRST : 0) |
				    (strstr(tok, "last") ? NTPROF_USITE_F_LAST : 0);
		} else if (!strncmp(tok, "as=", 3)) {
			snprintf(st->as, sizeof(st->as), "%s", tok + 3);
		} else if (!strncmp(tok, "fd=", 3)) {
			st->fd = atoi(tok + 3);
		} else {
			eq = strchr(tok, '=');
			if (!eq)
				return -1;
			*eq = 0;
			for (i = 0; i < SPEC_FIELDS; i++)
				if (!strcmp(tok, field_names[i]))
					break;
			if (i == SPEC_FIELDS || parse_fetch(eq + 1, &st->f[i]))
				return -1;
		}
	}
	if (n < 4)
		return -1;
	/* Open here, where the request is sent from: the sender's file. */
	if (st->fd < 0) {
		st->fd = open(st->path, O_RDONLY | O_CLOEXEC);
		if (st->fd < 0) {
			perror(st->path);
			return -1;
		}
	}
	if (!st->as[0])
		memcpy(st->as, st->path, sizeof(st->as));
	return 0;
}

static int read_spec(const char *path, struct ustart_args *a)
{
	char line[1024], *p;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		p = line;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		if (a->nr == (int)(sizeof(a->sites) / sizeof(*a->sites)) ||
		    parse_site(p, &a->sites[a->nr])) {
			fprintf(stderr, "testclient: bad site: %s", line);
			fclose(f);
			return -1;
		}
		a->nr++;
	}
	fclose(f);
	return 0;
}

static void put_fetch(struct nlmsghdr *nlh, uint16_t type, const struct fetch *f)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);
	int i;

	/* Strict validation wants the flag; not every libmnl sets it. */
	nest->nla_type |= NLA_F_NESTED;
	mnl_attr_put_u32(nlh, NTPROF_A_FETCH_REG, f->reg);
	for (i = 0; i < f->nr_derefs; i++)
		mnl_attr_put_u32(nlh, NTPROF_A_FETCH_DEREF, (uint32_t)f->derefs[i]);
	if (f->has_off)
		mnl_attr_put_u32(nlh, NTPROF_A_FETCH_OFFSET, (uint32_t)f->off);
	if (f->width)
		mnl_attr_put_u32(nlh, NTPROF_A_FETCH_WIDTH, f->width);
	mnl_attr_nest_end(nlh, nest);
}

static int put_ustart(struct nlmsghdr *nlh, void *data)
{
	struct ustart_args *a = data;
	struct nlattr *nest;
	int i, j;

	put_start(nlh, &a->start);
	if (a->pid)
		mnl_attr_put_u32(nlh, NTPROF_A_START_PID, a->pid);
	for (i = 0; i < a->nr; i++) {
		const struct site *st = &a->sites[i];

		nest = mnl_attr_nest_start(nlh, NTPROF_A_START_USITE);
		nest->nla_type |= NLA_F_NESTED;
		mnl_attr_put_strz(nlh, NTPROF_A_USITE_PATH, st->as);
		mnl_attr_put_u32(nlh, NTPROF_A_USITE_FD, (uint32_t)st->fd);
		mnl_attr_put_u64(nlh, NTPROF_A_USITE_OFFSET, st->offset);
		mnl_attr_put_u32(nlh, NTPROF_A_USITE_POINT, st->point);
		mnl_attr_put_u32(nlh, NTPROF_A_USITE_FLAGS, st->flags);
		for (j = 0; j < SPEC_FIELDS; j++)
			if (st->f[j].set)
				put_fetch(nlh, NTPROF_A_USITE_KEY + j, &st->f[j]);
		mnl_attr_nest_end(nlh, nest);
	}
	return 0;
}

static int pick(uint32_t n)
{
	unsigned int qid, cid, opcode, nsid, nlb;
	uint64_t slba;

	while (scanf("%u %u %u %u %" SCNu64 " %u", &qid, &cid, &opcode, &nsid,
		     &slba, &nlb) == 6)
		if (n <= 1 || ntprof_sample_hash(qid, cid, opcode, nsid, slba,
						 nlb) % n == 0)
			printf("%u %u %u %u %" PRIu64 " %u\n", qid, cid, opcode,
			       nsid, slba, nlb);
	return 0;
}

/* The chain rule's picks among "opcode slba nlb" lines. */
static int chain_pick(uint32_t n, uint64_t offset)
{
	unsigned int opcode, nlb;
	uint64_t slba;

	while (scanf("%u %" SCNu64 " %u", &opcode, &slba, &nlb) == 3)
		if (ntprof_chain_opcode(opcode) &&
		    (n <= 1 || ntprof_chain_hash(opcode, slba - offset, nlb) %
			       n == 0))
			printf("%u %" PRIu64 " %u\n", opcode, slba, nlb);
	return 0;
}

/* A dump's request role, and where its replies go. */
struct dump_args {
	uint32_t role;
	void *out;
};

/* Role 0 ("any"): no role attribute. */
static int put_records_role(struct nlmsghdr *nlh, void *data)
{
	uint32_t role = ((struct dump_args *)data)->role;

	if (role)
		mnl_attr_put_u32(nlh, NTPROF_A_RECORDS_ROLE, role);
	return 0;
}

static int put_stats_role(struct nlmsghdr *nlh, void *data)
{
	uint32_t role = ((struct dump_args *)data)->role;

	if (role)
		mnl_attr_put_u32(nlh, NTPROF_A_STATS_ROLE, role);
	return 0;
}

/* The reply's compact records, each written out whole. */
static int drain_cb(const struct nlmsghdr *nlh, void *data)
{
	FILE *f = ((struct dump_args *)data)->out;
	const struct nlattr *attr;
	struct ntprof_record r;
	const uint8_t *p;
	char why[128];
	size_t len;
	int n;

	nl_attr_for_each(attr, nlh) {
		if (mnl_attr_get_type(attr) != NTPROF_A_RECORDS_DATA)
			continue;
		p = mnl_attr_get_payload(attr);
		len = mnl_attr_get_payload_len(attr);
		for (; len; p += n, len -= n) {
			n = crec_decode(&r, p, len, CREC_HOST, why, sizeof(why));
			if (n < 0) {
				fprintf(stderr, "testclient: drain: %s\n", why);
				errno = EPROTO;
				return MNL_CB_ERROR;
			}
			if (fwrite(&r, sizeof(r), 1, f) != 1)
				return MNL_CB_ERROR;
		}
	}
	return MNL_CB_OK;
}

struct stats {
	uint64_t v[NTPROF_A_STATS_MAX + 1];
};

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct stats *st = ((struct dump_args *)data)->out;
	const struct nlattr *attr;

	nl_attr_for_each(attr, nlh) {
		unsigned int type = mnl_attr_get_type(attr);

		if (type > NTPROF_A_STATS_MAX || type == NTPROF_A_STATS_CPU ||
		    type == NTPROF_A_STATS_ROLE)
			continue;
		if (mnl_attr_get_payload_len(attr) == sizeof(uint64_t))
			st->v[type] += mnl_attr_get_u64(attr);
	}
	return MNL_CB_OK;
}

static uint32_t parse_enum(const char *s, const char *a, const char *b)
{
	if (!strcmp(s, a))
		return 1;
	if (!strcmp(s, b))
		return 2;
	fprintf(stderr, "testclient: '%s' is neither %s nor %s\n", s, a, b);
	exit(2);
}

/* The roles a drain or stats reads: ROLE's, or both one after the other. */
static void dump_roles(int argc, char **argv, int at, uint32_t *first,
		       uint32_t *last)
{
	*first = NTPROF_ROLE_HOST;
	*last = NTPROF_ROLE_TARGET;
	if (argc <= at)
		return;
	if (!strcmp(argv[at], "any"))
		*first = *last = NTPROF_ROLE_NONE;
	else
		*first = *last = parse_enum(argv[at], "host", "target");
}

static int print_records(const char *path)
{
	struct ntprof_record r;
	FILE *f = fopen(path, "r");
	int i;

	if (!f) {
		perror(path);
		return 1;
	}
	while (fread(&r, sizeof(r), 1, f) == 1) {
		printf("%u\t%u\t%u\t%u\t%u\t%u\t%" PRIu64 "\t%u\t%u\t%u",
		       r.role, r.transport, r.qid, r.cid, r.opcode, r.nsid,
		       (uint64_t)r.slba, r.length, r.flags, r.status);
		for (i = 0; i < NTPROF_PT_COUNT; i++)
			printf("\t%" PRIu64, (uint64_t)r.ts[i]);
		printf("\t%u\n", r.pid);
	}
	fclose(f);
	return 0;
}

/* Print a request's errno, as raw does, and the kernel's reason on stderr. */
static void print_errno(struct nl_sock *sock, const char *cmd, int err)
{
	printf("errno %d\n", -err);
	fflush(stdout);
	if (*nl_extack(sock))
		fprintf(stderr, "testclient: %s: %s\n", cmd, nl_extack(sock));
}

/* Drain @role through @sock, the records discarded: the request's errno. */
static int drain_discard(struct nl_sock *sock, uint32_t role)
{
	struct dump_args a = { .role = role, .out = fopen("/dev/null", "w") };
	int err;

	if (!a.out)
		return -errno;
	err = nl_request(sock, NTPROF_CMD_RECORDS_GET, NLM_F_DUMP,
			 put_records_role, drain_cb, &a);
	fclose(a.out);
	return err;
}

/*
 * The drains through the second socket a start names: from another
 * process (drainer), or from the starter's own (selfdrain).
 */
static int drain_second(char **argv, bool self)
{
	struct start_args a = { .role = parse_enum(argv[2], "host", "target") };
	struct nl_sock *drain, *owner = NULL;
	char line[16];
	int err;

	if (ntprof_connect("drainer", &drain))
		return 1;
	if (!self) {
		printf("%u\n", nl_portid(drain));
		fflush(stdout);
		if (!fgets(line, sizeof(line), stdin))
			return 1;
	} else {
		if (ntprof_connect("selfdrain", &owner))
			return 1;
		a.transport = parse_enum(argv[3], "tcp", "rdma");
		a.sample = strtoul(argv[4], NULL, 10);
		a.drain_portid = nl_portid(drain);
		err = nl_request(owner, NTPROF_CMD_START, 0, put_start, NULL, &a);
		if (err) {
			nl_perror(owner, "selfdrain: start", err);
			return 1;
		}
	}
	print_errno(drain, argv[1], drain_discard(drain, a.role));
	if (owner) {
		nl_request(owner, NTPROF_CMD_STOP, 0, NULL, NULL, NULL);
		nl_close(owner);
	}
	nl_close(drain);
	return 0;
}

/* A start that gives one layout field, from a socket of its own. */
static int layout_start(char **argv)
{
	struct start_args a = {
		.role = parse_enum(argv[2], "host", "target"),
		.transport = parse_enum(argv[3], "tcp", "rdma"),
		.sample = strtoul(argv[4], NULL, 10),
		.has_layout = true,
	};
	struct nl_sock *sock;
	int i, err;

	for (i = 0; i < 4; i++)
		a.layout[i] = strtoul(argv[5 + i], NULL, 0);
	if (ntprof_connect("lstart", &sock))
		return 1;
	err = nl_request(sock, NTPROF_CMD_START, 0, put_start, NULL, &a);
	print_errno(sock, argv[1], err);
	if (!err)
		nl_request(sock, NTPROF_CMD_STOP, 0, NULL, NULL, NULL);
	nl_close(sock);
	return 0;
}

/*
 * The socket for @cmd: raw's own; the others' the holder's, started by
 * the first start; without a holder (a stop or drain before any start),
 * one of their own.
 */
static int connect_for(const char *cmd, struct nl_sock **sock)
{
	int fd = -1;

	if (strcmp(cmd, "raw")) {
		fd = holder_get(NULL);
		if (fd < 0 && (!strcmp(cmd, "start") || !strcmp(cmd, "ustart") ||
			       !strcmp(cmd, "cstart")) &&
		    !holder_start())
			fd = holder_get(NULL);
	}
	if (fd < 0)
		return ntprof_connect(cmd, sock);
	return ntprof_connect_fd(cmd, fd, sock);
}

int main(int argc, char **argv)
{
	struct nl_sock *sock;
	int err = 0;

	if (argc < 2) {
		fputs("usage: testclient start|ustart|cstart|lstart|stop|release|drain|drainer|selfdrain|print|stats|pick|cpick|raw ...\n",
		      stderr);
		return 2;
	}
	if (!strcmp(argv[1], "print") && argc == 3)
		return print_records(argv[2]);
	if (!strcmp(argv[1], "pick") && argc == 3)
		return pick(strtoul(argv[2], NULL, 10));
	if (!strcmp(argv[1], "cpick") && argc == 4)
		return chain_pick(strtoul(argv[2], NULL, 10),
				  strtoull(argv[3], NULL, 10));
	if ((!strcmp(argv[1], "drainer") && argc == 3) ||
	    (!strcmp(argv[1], "selfdrain") && argc == 5))
		return drain_second(argv, argv[1][0] == 's');
	if (!strcmp(argv[1], "lstart") && argc == 9)
		return layout_start(argv);
	if (!strcmp(argv[1], "release") && argc == 2) {
		err = holder_release();
		if (err)
			fprintf(stderr, "testclient: release: %s\n", strerror(-err));
		return err ? 1 : 0;
	}
	if (connect_for(argv[1], &sock))
		return 1;

	if (!strcmp(argv[1], "start") && (argc == 5 || argc == 6)) {
		struct start_args a = {
			.role = parse_enum(argv[2], "host", "target"),
			.transport = parse_enum(argv[3], "tcp", "rdma"),
			.sample = strtoul(argv[4], NULL, 10),
			.drain_portid = argc == 6 ? strtoul(argv[5], NULL, 10) : 0,
		};

		err = nl_request(sock, NTPROF_CMD_START, 0, put_start, NULL, &a);
	} else if (!strcmp(argv[1], "ustart") && (argc == 6 || argc == 7)) {
		static struct ustart_args a;

		a.start.role = parse_enum(argv[2], "host", "target");
		a.start.transport = parse_enum(argv[3], "tcp", "rdma");
		a.start.sample = strtoul(argv[4], NULL, 10);
		if (argc == 7)
			a.pid = strtoul(argv[6], NULL, 10);
		if (read_spec(argv[5], &a)) {
			nl_close(sock);
			return 2;
		}
		err = nl_request(sock, NTPROF_CMD_START, 0, put_ustart, NULL, &a);
	} else if (!strcmp(argv[1], "cstart") && (argc == 7 || argc == 8)) {
		static struct ustart_args a;

		a.start.role = parse_enum(argv[2], "host", "target");
		a.start.transport = parse_enum(argv[3], "tcp", "rdma");
		a.start.sample = strtoul(argv[4], NULL, 10);
		a.start.has_chain = true;
		a.start.chain = strtoul(argv[5], NULL, 10);
		a.start.has_chain_offset = strcmp(argv[6], "-");
		a.start.chain_offset = strtoull(argv[6], NULL, 10);
		if (argc == 8 && read_spec(argv[7], &a)) {
			nl_close(sock);
			return 2;
		}
		err = nl_request(sock, NTPROF_CMD_START, 0, put_ustart, NULL, &a);
	} else if (!strcmp(argv[1], "stop") && argc == 2) {
		err = nl_request(sock, NTPROF_CMD_STOP, 0, NULL, NULL, NULL);
	} else if (!strcmp(argv[1], "drain") && (argc == 3 || argc == 4)) {
		struct dump_args a = { .out = fopen(argv[2], "a") };
		uint32_t last;

		if (!a.out) {
			perror(argv[2]);
			return 1;
		}
		dump_roles(argc, argv, 3, &a.role, &last);
		for (; a.role <= last && !err; a.role++)
			err = nl_request(sock, NTPROF_CMD_RECORDS_GET, NLM_F_DUMP,
					 put_records_role, drain_cb, &a);
		if (fclose(a.out) && !err)
			err = -errno;
	} else if (!strcmp(argv[1], "stats") && (argc == 2 || argc == 3)) {
		struct stats st = { 0 };
		struct dump_args a = { .out = &st };
		uint32_t last;

		dump_roles(argc, argv, 2, &a.role, &last);
		for (; a.role <= last && !err; a.role++)
			err = nl_request(sock, NTPROF_CMD_STATS_GET, NLM_F_DUMP,
					 put_stats_role, stats_cb, &a);
		if (!err)
			printf("seen %" PRIu64 " sampled %" PRIu64 " records %" PRIu64
			       " drops %" PRIu64 " evicted %" PRIu64 " fill %" PRIu64 "\n",
			       st.v[NTPROF_A_STATS_SEEN], st.v[NTPROF_A_STATS_SAMPLED],
			       st.v[NTPROF_A_STATS_RECORDS], st.v[NTPROF_A_STATS_DROPS],
			       st.v[NTPROF_A_STATS_EVICTED], st.v[NTPROF_A_STATS_FILL]);
	} else if (!strcmp(argv[1], "raw") && (argc == 3 || argc == 4)) {
		/* What any sender gets, the tool's checks aside. */
		err = nl_request(sock, (uint8_t)strtoul(argv[2], NULL, 0),
				 argc == 4 && !strcmp(argv[3], "dump") ?
				 NLM_F_DUMP : 0, NULL, NULL, NULL);
		printf("errno %d\n", -err);
		/* The kernel's reason, apart: stdout stays one line. */
		if (*nl_extack(sock))
			fprintf(stderr, "testclient: raw: %s\n", nl_extack(sock));
		nl_close(sock);
		return 0;
	} else {
		fprintf(stderr, "testclient: bad arguments\n");
		err = -EINVAL;
	}
	if (err)
		nl_perror(sock, argv[1], err);
	nl_close(sock);
	return err ? 1 : 0;
}
