// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof record -r host,target: a chain's middle records both its roles
 * in one process, so that --prom can link its target side's commands to
 * the host side's commands they caused as they come (chain_prom.c) and
 * export the middle stage and its legs' (Documentation/chains.rst,
 * Documentation/prometheus.rst).
 *
 * Each role keeps what a recording of its own has: its session, its
 * sockets, its file (-o FILE.ntp gives FILE-target.ntp and
 * FILE-host.ntp, which report reads as ever) and with --prom its own
 * series (FILE-target.prom and FILE-host.prom beside the chain's FILE).
 * Each runs record_run() in a thread of its own, so that neither role's
 * drains wait for the other's; they share the chain's state, under a
 * lock, and the lines they print.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/record/record.h"
#include "genl/conn.h"

int record_role_path(const char *path, uint32_t role, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(path, '.');
	const char *r = role == NTPROF_ROLE_HOST ? "host" : "target";
	int n;

	/* A dot of the directory, or a leading one, is no extension. */
	if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
		dot = path + strlen(path);
	n = snprintf(buf, size, "%.*s-%s%s", (int)(dot - path), path, r, dot);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

void record_middle_window(struct record_middle *mid, bool end)
{
	uint64_t safe;
	int err;

	pthread_mutex_lock(&mid->lock);
	if (!mid->cp)
		goto out;
	safe = mid->drained[0] < mid->drained[1] ? mid->drained[0] :
						   mid->drained[1];
	err = chain_prom_settle(mid->cp, end ? UINT64_MAX : safe);
	if (err) {
		chain_prom_free(mid->cp);
		mid->cp = NULL;
		fprintf(stderr, "ntprof: record: out of memory for the chain's links: %s is no longer rewritten\n",
			mid->cp_path);
		goto out;
	}
	err = chain_prom_write(mid->cp);
	if (err && !mid->cp_failed)
		fprintf(stderr, "ntprof: record: cannot write %s: %s (the recording goes on)\n",
			mid->cp_path, strerror(-err));
	mid->cp_failed = err != 0;
out:
	pthread_mutex_unlock(&mid->lock);
}

struct middle_role {
	struct record_opts o;
	struct record_middle *mid;
	char out[4096];
	char prom[4096];
	int status;
};

static void *middle_thread(void *arg)
{
	struct middle_role *mr = arg;

	mr->status = record_run(&mr->o, mr->mid);
	/*
	 * The other role's recording ends with this one, whatever ended it
	 * (-d, a signal, an error): its loop sees the signal's flag.
	 */
	raise(SIGTERM);
	return NULL;
}

/*
 * middle_opts() - make role @role's options from the command line's @o. It
 * returns 0, or 1 after a message.
 */
static int middle_opts(const struct record_opts *o, uint32_t role,
		       struct middle_role *mr)
{
	mr->o = *o;
	mr->o.middle = false;
	mr->o.cfg.role = role;
	/* The target side's LBAs are the volume's: --chain=md is the legs'. */
	if (role == NTPROF_ROLE_TARGET) {
		mr->o.cfg.chain_offset = 0;
		mr->o.chain_md = false;
	}
	if (record_role_path(o->out, role, mr->out, sizeof(mr->out)) ||
	    (o->prom &&
	     record_role_path(o->prom, role, mr->prom, sizeof(mr->prom)))) {
		fprintf(stderr, "ntprof: record: %s: %s\n", o->out,
			strerror(ENAMETOOLONG));
		return 1;
	}
	mr->o.out = mr->out;
	mr->o.prom = o->prom ? mr->prom : NULL;
	return 0;
}

int record_middle_run(struct record_opts *o)
{
	static struct middle_role role[2];
	struct record_middle mid = { .cp_path = o->prom };
	struct nl_sock *sock;
	pthread_t th[2];
	int i, err, status = 0;
	bool started[2] = { false, false };

	if (middle_opts(o, NTPROF_ROLE_TARGET, &role[0]) ||
	    middle_opts(o, NTPROF_ROLE_HOST, &role[1]))
		return 1;
	/* No module: said once, not by both recorders. */
	if (ntprof_connect("record", &sock))
		return 1;
	nl_close(sock);
	/* Before the threads: a signal ends both, never the process. */
	err = record_signals_set();
	if (err) {
		fprintf(stderr, "ntprof: record: cannot handle signals: %s\n",
			strerror(-err));
		return 1;
	}
	pthread_mutex_init(&mid.lock, NULL);
	pthread_mutex_init(&mid.print, NULL);
	if (o->prom) {
		mid.cp = chain_prom_new(o->prom, 0, o->cfg.chain_offset);
		if (!mid.cp) {
			fprintf(stderr, "ntprof: record: %s\n", strerror(ENOMEM));
			return 1;
		}
	}
	for (i = 0; i < 2; i++) {
		role[i].mid = &mid;
		err = pthread_create(&th[i], NULL, middle_thread, &role[i]);
		if (err) {
			fprintf(stderr, "ntprof: record: cannot start the %s's recorder: %s\n",
				i ? "host" : "target", strerror(err));
			status = 1;
			/* The one started ends as a signal would end it. */
			raise(SIGTERM);
			break;
		}
		started[i] = true;
	}
	for (i = 0; i < 2; i++) {
		if (!started[i])
			continue;
		pthread_join(th[i], NULL);
		if (role[i].status)
			status = role[i].status;
	}
	/* Both sides' last records are in: every link can be made. */
	record_middle_window(&mid, true);
	chain_prom_free(mid.cp);
	pthread_mutex_destroy(&mid.lock);
	pthread_mutex_destroy(&mid.print);
	return status;
}
