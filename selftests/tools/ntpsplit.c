// SPDX-License-Identifier: GPL-2.0
/*
 * ntpsplit IN.ntp OUT K [DROPS [SHUFFLE]]: IN's records as the parts record --rotate would
 * have written, K records a part: OUT.0001.ntp, OUT.0002.ntp, ..., each
 * with IN's header numbered as a part, and a trailer counting its own
 * records; IN's drops and evictions spread over the parts so that they
 * add up to IN's (or to DROPS drops and evictions each, when given), as
 * the recorder's per-part counters do; with SHUFFLE, the records are
 * shuffled within runs of SHUFFLE, as a recorder's drains of per-CPU
 * buffers leave them out of time order. For the tests
 * of reports of parts against the report of the whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntp/ntp.h"

/* The records shuffled within runs of @w, the same way every time. */
static void shuffle(struct ntprof_record *r, size_t n, size_t w)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	struct ntprof_record tmp;
	size_t i, k, j;

	for (i = 0; w > 1 && i < n; i += w) {
		for (k = (i + w < n ? w : n - i); k > 1; k--) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			j = (x >> 33) % k;
			tmp = r[i + k - 1];
			r[i + k - 1] = r[i + j];
			r[i + j] = tmp;
		}
	}
}

static int die(const char *what, int err)
{
	fprintf(stderr, "ntpsplit: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

/* Part @part of @nr: its share of @total, the remainder in the last. */
static uint64_t share(uint64_t total, uint32_t part, uint32_t nr)
{
	return part < nr ? total / nr : total - (total / nr) * (nr - 1);
}

int main(int argc, char *argv[])
{
	const struct ntp_trailer *t;
	struct ntprof_record *recs;
	struct ntp_trailer tr;
	struct ntp_header hdr;
	struct ntp_writer *w;
	struct ntp_file *f;
	char err[512], path[4096];
	uint64_t drops = 0, evictions = 0;
	uint32_t part, nr;
	size_t n, i, k;
	int ret;

	if (argc < 4 || argc > 6 || !(k = strtoul(argv[3], NULL, 10))) {
		fprintf(stderr, "usage: ntpsplit IN.ntp OUT K [DROPS [SHUFFLE]]\n");
		return 2;
	}
	if (ntp_open(argv[1], &f, err, sizeof(err))) {
		fprintf(stderr, "ntpsplit: %s\n", err);
		return 1;
	}
	ret = ntp_read_all(f, &recs, &n);
	if (ret)
		return die(argv[1], ret);
	t = ntp_trailer(f);
	if (t) {
		drops = argc >= 5 ? strtoull(argv[4], NULL, 10) : t->drops;
		evictions = argc >= 5 ? drops : t->evictions;
	}
	if (argc == 6)
		shuffle(recs, n, strtoul(argv[5], NULL, 10));
	hdr = *ntp_header(f);
	nr = n ? (n + k - 1) / k : 1;
	for (part = 1, i = 0; part <= nr; part++, i += k) {
		snprintf(path, sizeof(path), "%s.%04" PRIu32 ".ntp", argv[2], part);
		hdr.part = part;
		/* The part starts with its first record's command. */
		hdr.part_start_mono_ns = part == 1 ? hdr.start_mono_ns :
						     recs[i].ts[0] ? recs[i].ts[0] :
						     hdr.start_mono_ns;
		ret = ntp_writer_open(path, &hdr, &w);
		if (!ret)
			ret = ntp_writer_append(w, recs + i, i + k < n ? k : n - i);
		memset(&tr, 0, sizeof(tr));
		if (t) {
			tr = *t;
			tr.drops = share(drops, part, nr);
			tr.evictions = share(evictions, part, nr);
		}
		/* A cut-short recording's last part is cut short too. */
		if (!ret)
			ret = ntp_writer_close(w, t || part < nr ? &tr : NULL);
		if (ret)
			return die(path, ret);
	}
	free(recs);
	ntp_close(f);
	return 0;
}
