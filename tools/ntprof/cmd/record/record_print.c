// SPDX-License-Identifier: GPL-2.0
/*
 * What ntprof record prints besides its live table: the line that says
 * what it records, why a session would not start, the summary at the end
 * with the hint to join, and the warnings of a recording that lost
 * records.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd/record/record.h"
#include "common/names.h"
#include "genl/conn.h"
#include "genl/nl.h"
#include "out/table.h"

/*
 * ops_str() - describe the kinds of commands that a --op mask lets through,
 * such as "reads and writes".
 */
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

void profiling_line(const struct record_opts *o)
{
	const struct session_config *cfg = &o->cfg;
	char a[16], b[16], ops[48];

	/*
	 * The line in one piece: with -r host,target the other role's
	 * thread prints its own at the same time, and the lab's scripts
	 * read each line whole.
	 */
	flockfile(stdout);
	printf("ntprof: profiling as %s, ", ntprof_role_name(cfg->role));
	if (cfg->sample > 1)
		printf("sampling 1 of %u commands", cfg->sample);
	else
		fputs("sampling every command", stdout);
	/* The offset is what the other machines of the chain need to know. */
	if (cfg->chain)
		printf(" by the chain rule, LBA offset %" PRIu64,
		       cfg->chain_offset);
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
	funlockfile(stdout);
}

/* start_error() - say what a failed start means, in the user's terms. */
void start_error(struct nl_sock *sock, const char *cmd,
		 const struct session_config *cfg, int err)
{
	if (err == -EBUSY) {
		fprintf(stderr,
			"ntprof: %s: a %s session is already running: another 'ntprof record -r %s' records on this machine (if it was killed, its session runs on until 'rmmod ntprof')\n",
			cmd, ntprof_role_name(cfg->role),
			ntprof_role_name(cfg->role));
		return;
	}
	nl_perror(sock, cmd, err);
	if (err == -ENOENT)
		fprintf(stderr, "ntprof: 'ntprof probe -r %s -t %s' shows the hooks this kernel has\n",
			ntprof_role_name(cfg->role),
			ntprof_transport_name(cfg->transport));
}

/* The end */

/*
 * recording_name() - return the recording's name as 'report' takes it: the
 * file, or the parts' pattern.
 */
static const char *recording_name(const struct recorder *rec, char *buf,
				  size_t size)
{
	const char *base = rec->rot.base;
	size_t len;

	if (!rec->rot.size)
		return rec->o->out;
	len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".ntp"))
		len -= 4;
	snprintf(buf, size, "%.*s.*.ntp", (int)len, base);
	return buf;
}

/*
 * report_hint() - say what to do with the file: join it with the other
 * side's.
 */
static void report_hint(const struct recorder *rec)
{
	char buf[4200];
	const char *name = recording_name(rec, buf, sizeof(buf));

	if (rec->o->cfg.role == NTPROF_ROLE_HOST)
		printf("report: ntprof report %s TARGET.ntp (the target's recording, same -s)\n",
		       name);
	else
		printf("report: ntprof report HOST.ntp %s (the host's recording, same -s)\n",
		       name);
}

/*
 * written_line() - print how many records were written and, with --rotate,
 * where they went.
 */
static void written_line(const struct recorder *rec)
{
	const struct record_rotation *rot = &rec->rot;
	char buf[4200];

	if (!rot->size) {
		printf("ntprof: %" PRIu64 " records written to %s\n",
		       rec->written, rec->o->out);
		return;
	}
	printf("ntprof: %" PRIu64 " records written in %" PRIu32 " parts, %s\n",
	       rec->written, rot->part, recording_name(rec, buf, sizeof(buf)));
	if (rot->first > 1)
		printf("ntprof: --keep %" PRIu32 " removed the %" PRIu32 " oldest; the summary is of parts %" PRIu32 " to %" PRIu32 "\n",
		       rot->keep, rot->first - 1, rot->first, rot->part);
}

void print_summary(struct recorder *rec)
{
	struct ntprof_analysis *an = rec->all;
	const struct record_opts *o = rec->o;

	written_line(rec);
	if (an && (an->nr_host || an->nr_target)) {
		putchar('\n');
		ntprof_print_run(stdout, an);
		ntprof_print_throughput(stdout, an);
		ntprof_print_groups(stdout, an, false);
		putchar('\n');
		ntprof_print_records(stdout, an->nr_host, an->nr_target, 0);
		report_hint(rec);
	} else if (!rec->written) {
		printf("\nno %s command was recorded: was there I/O over %s%s?\n",
		       ntprof_role_name(o->cfg.role),
		       ntprof_transport_name(o->cfg.transport),
		       o->cfg.has_ops || o->cfg.has_dev ||
		       o->cfg.has_min_len || o->cfg.has_max_len ?
		       ", of the kind the filters let through" : "");
	}
	fflush(stdout);
}

void print_warnings(const struct recorder *rec,
		    const struct session_stats *st, bool have_stats)
{
	const char *role = ntprof_role_name(rec->o->cfg.role);
	const char *other = rec->o->cfg.role == NTPROF_ROLE_HOST ? "target" :
								    "host";
	char buf[4200];

	if (have_stats && st->drops)
		fprintf(stderr,
			"ntprof: WARNING: %" PRIu64 " records dropped (kernel buffers full): the recording and its numbers miss them; sample fewer commands (a larger -s)\n",
			st->drops);
	if (have_stats && st->evicted)
		fprintf(stderr,
			"ntprof: WARNING: %" PRIu64 " sampled commands not recorded (in-flight table full): sample fewer commands (a larger -s), or load ntprof with a larger inflight_slots\n",
			st->evicted);
	if (rec->event_drops)
		fprintf(stderr,
			"ntprof: WARNING: %" PRIu64 " control-path events lost (the module's buffer of them was full): the report's events miss them\n",
			rec->event_drops);
	if (rec->other_role)
		fprintf(stderr,
			"ntprof: WARNING: the kernel returned %" PRIu64 " records of a %s session, left out (a module bug: please report it)\n",
			rec->other_role, other);
	if (rec->garbled)
		fprintf(stderr,
			"ntprof: WARNING: %" PRIu64 " records with points more than 292 years apart, left out (garbled in a process's memory: please report it)\n",
			rec->garbled);
	if (rec->unsampled)
		fprintf(stderr,
			"ntprof: %" PRIu64 " failed %s commands outside the sample, or aborted, are in the file, not in the numbers\n",
			rec->unsampled, role);
	if (rec->all_lost)
		fprintf(stderr,
			"ntprof: out of memory for the summary; the recording is whole: run 'ntprof report %s'\n",
			recording_name(rec, buf, sizeof(buf)));
}
