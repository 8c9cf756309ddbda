// SPDX-License-Identifier: GPL-2.0
/*
 * Not a test: a middle's two recordings replayed through record -r
 * host,target --prom's chain (tools/ntprof/lib/out/chain_prom.h) as the
 * recorder would feed it, for test_chain_prom_ntpgen.sh. The records of
 * both files are added in the order they ended, and at every WINDOW_NS
 * of their clock the chain is settled with that instant as its safe
 * point (every record that ended by then was added), then at the end.
 * A leg is named by its device number as the records carry it
 * ("dev 66304"), the upstream device "md".
 *
 * usage: chain_prom_replay OUT.prom WINDOW_NS TARGET.ntp HOST.ntp
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording.h"
#include "ntp/ntp.h"
#include "out/chain_prom.h"

struct ev {
	uint64_t last;
	const struct ntprof_record *r;
};

static int ev_cmp(const void *pa, const void *pb)
{
	const struct ev *a = pa, *b = pb;

	return a->last < b->last ? -1 : a->last > b->last;
}

static int load(const char *path, struct ntprof_record **recs, size_t *n,
		uint64_t *offset)
{
	char err[512];
	struct ntp_file *f;
	int ret;

	if (ntp_open(path, &f, err, sizeof(err))) {
		fprintf(stderr, "chain_prom_replay: %s\n", err);
		return 1;
	}
	*offset = ntp_header(f)->chain_offset;
	ret = ntp_read_all(f, recs, n);
	if (ret < 0)
		fprintf(stderr, "chain_prom_replay: %s\n", ntp_error(f));
	ntp_close(f);
	return ret < 0;
}

int main(int argc, char *argv[])
{
	struct ntprof_record *up = NULL, *down = NULL;
	size_t nu = 0, nd = 0, i, k = 0;
	uint64_t uoff, doff, window, next;
	struct chain_prom *cp;
	struct ev *ev;
	char dev[32];
	int err = 0;

	if (argc != 5) {
		fputs("usage: chain_prom_replay OUT.prom WINDOW_NS TARGET.ntp HOST.ntp\n",
		      stderr);
		return 2;
	}
	window = strtoull(argv[2], NULL, 10);
	if (!window || load(argv[3], &up, &nu, &uoff) ||
	    load(argv[4], &down, &nd, &doff))
		return 1;
	cp = chain_prom_new(argv[1], uoff, doff);
	ev = malloc((nu + nd + 1) * sizeof(*ev));
	if (!cp || !ev)
		return 1;
	for (i = 0; i < nu; i++)
		ev[k++] = (struct ev){ recording_last_point(&up[i], 1), &up[i] };
	for (i = 0; i < nd; i++)
		ev[k++] = (struct ev){ recording_last_point(&down[i], 1), &down[i] };
	qsort(ev, k, sizeof(*ev), ev_cmp);
	next = k ? ev[0].last + window : 0;
	for (i = 0; i < k && !err; i++) {
		while (ev[i].last > next) {
			err |= chain_prom_settle(cp, next);
			next += window;
		}
		snprintf(dev, sizeof(dev), "dev %u", ev[i].r->dev);
		err |= chain_prom_add(cp, ev[i].r,
				      ev[i].r->role == NTPROF_ROLE_HOST ? dev : "md",
				      "nqn.volume");
	}
	err |= chain_prom_settle(cp, UINT64_MAX);
	err |= chain_prom_write(cp);
	chain_prom_free(cp);
	free(ev);
	free(up);
	free(down);
	if (err)
		fputs("chain_prom_replay: out of memory\n", stderr);
	return err != 0;
}
