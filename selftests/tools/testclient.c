// SPDX-License-Identifier: GPL-2.0
/*
 * A test client of the recorder, for the lab tests until "ntprof record"
 * exists: start and stop sessions, drain records into a raw file, print
 * them as tab-separated lines, and show the per-CPU counters.
 *
 *   testclient start ROLE TRANSPORT N
 *   testclient stop
 *   testclient drain FILE [ROLE]  (appends struct ntprof_record[])
 *   testclient print FILE         (one line per record)
 *   testclient stats [ROLE]       (sums over CPUs: seen sampled records drops evicted fill)
 *
 * Each role's session has its own buffers and counters: drain and stats
 * read ROLE's (host or target), or without it the host's then the
 * target's, into one file or one sum. ROLE "any" sends the request
 * without a role, for the module to choose (or refuse).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uapi/linux/ntprof.h>

#include "conn.h"
#include "nl.h"

struct start_args {
	uint32_t role;
	uint32_t transport;
	uint32_t sample;
};

static int put_start(struct nlmsghdr *nlh, void *data)
{
	struct start_args *a = data;

	mnl_attr_put_u32(nlh, NTPROF_A_START_ROLE, a->role);
	mnl_attr_put_u32(nlh, NTPROF_A_START_TRANSPORT, a->transport);
	mnl_attr_put_u32(nlh, NTPROF_A_START_SAMPLE, a->sample);
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

static int drain_cb(const struct nlmsghdr *nlh, void *data)
{
	FILE *f = ((struct dump_args *)data)->out;
	const struct nlattr *attr;

	nl_attr_for_each(attr, nlh) {
		if (mnl_attr_get_type(attr) != NTPROF_A_RECORDS_DATA)
			continue;
		if (mnl_attr_get_payload_len(attr) % sizeof(struct ntprof_record)) {
			errno = EPROTO;
			return MNL_CB_ERROR;
		}
		if (fwrite(mnl_attr_get_payload(attr), 1,
			   mnl_attr_get_payload_len(attr), f) !=
		    mnl_attr_get_payload_len(attr))
			return MNL_CB_ERROR;
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
		putchar('\n');
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct nl_sock *sock;
	int err = 0;

	if (argc < 2) {
		fputs("usage: testclient start|stop|drain|print|stats ...\n", stderr);
		return 2;
	}
	if (!strcmp(argv[1], "print") && argc == 3)
		return print_records(argv[2]);
	if (ntprof_connect(argv[1], &sock))
		return 1;

	if (!strcmp(argv[1], "start") && argc == 5) {
		struct start_args a = {
			.role = parse_enum(argv[2], "host", "target"),
			.transport = parse_enum(argv[3], "tcp", "rdma"),
			.sample = strtoul(argv[4], NULL, 10),
		};

		err = nl_request(sock, NTPROF_CMD_START, 0, put_start, NULL, &a);
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
	} else {
		fprintf(stderr, "testclient: bad arguments\n");
		err = -EINVAL;
	}
	if (err)
		nl_perror(sock, argv[1], err);
	nl_close(sock);
	return err ? 1 : 0;
}
