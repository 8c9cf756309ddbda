// SPDX-License-Identifier: GPL-2.0
/*
 * ntpgen: writes a host's and a target's .ntp recordings of the same
 * synthetic NVMe-oF workload, with known stage means, for the tests and
 * benchmarks of 'ntprof report'. A developer's tool, installed nowhere.
 *
 * The workload is a closed loop: Q queues of D slots (tags) each, every
 * slot issuing its next command a short gap after the previous one
 * completed, as fio's iodepth does. Each command's path is drawn on one
 * true time line (the host's clock): every point of the stage model
 * (Documentation/stages.rst) in path order, with the target's window
 * nested inside the host's send -> receive window. Target points are then
 * moved to the target's clock, target = host + theta + drift * (t - t0).
 * Both sides pick the commands they record with the module's own 1-in-N
 * decision (kmod/sample.h), so that they record the same commands.
 *
 * The files go through ntp_writer_*() of tools/ntprof/lib/ntp/ntp_write.c:
 * exactly the bytes 'ntprof record' writes.
 *
 * This file is the run: options -> generate -> write. ntpgen.h lists the
 * rooms that do each part.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "ntpgen.h"

/*
 * The clocks' origins, drawn first from the seed: a day of uptime, so
 * that a negative theta leaves the target's clock > 0, on 2025-11-30.
 */
static void start_clocks(struct gen *g, const struct opts *o)
{
	memset(g, 0, sizeof(*g));
	g->o = o;
	rng_seed(&g->rng, o->seed);
	g->t0 = 86400 * NSEC_PER_SEC + (rng_next(&g->rng) % NSEC_PER_SEC);
	g->real0 = 1764460800ULL * NSEC_PER_SEC +
		   (rng_next(&g->rng) % (86400 * NSEC_PER_SEC));
}

/* Both files, the host's first: 0, or -1 once said why not. */
static int open_recordings(struct gen *g)
{
	const struct opts *o = g->o;
	/* The target started recording half a second before the host. */
	uint64_t tstart = g->t0 - NSEC_PER_SEC / 2;

	if (open_recording(g, NTPROF_ROLE_HOST, g->t0, g->real0, &g->hw))
		return -1;
	if (open_recording(g, NTPROF_ROLE_TARGET, to_target(g, tstart),
			   g->real0 - NSEC_PER_SEC / 2 + o->real_skew_ns,
			   &g->tw)) {
		ntp_writer_close(g->hw, NULL);
		return -1;
	}
	return 0;
}

/*
 * Closes @w with trailer @tr, none if an error @ret came before: @ret,
 * or the close's error, said.
 */
static int close_recording(struct ntp_writer *w, const struct ntp_trailer *tr,
			   const char *path, int ret)
{
	int err = ntp_writer_close(w, ret ? NULL : tr);

	if (err && !ret) {
		fprintf(stderr, "ntpgen: %s: %s\n", path, strerror(-err));
		return err;
	}
	return ret;
}

/*
 * Both files end a millisecond (and --linger) after the last point, with trailers
 * unless --no-trailer cuts them short: @ret, or the first close's error.
 */
static int close_recordings(struct gen *g, int ret)
{
	const struct opts *o = g->o;
	struct ntp_trailer tr;

	memset(&tr, 0, sizeof(tr));
	tr.end_mono_ns = g->last_true + NSEC_PER_SEC / 1000 + o->linger_ns;
	tr.end_real_ns = g->real0 + (tr.end_mono_ns - g->t0);
	ret = close_recording(g->hw, o->no_trailer ? NULL : &tr, o->host_path,
			      ret);
	/* The target's recording stops last, --linger after the host's. */
	tr.end_mono_ns += o->linger_ns;
	tr.end_real_ns += o->real_skew_ns + o->linger_ns;
	tr.end_mono_ns = to_target(g, tr.end_mono_ns);
	return close_recording(g->tw, o->no_trailer ? NULL : &tr,
			       o->target_path, ret);
}

/* --chain: the chain's files instead of a host's and a target's. */
static int run_chain(struct gen *g, const struct opts *o)
{
	uint64_t nslots = (uint64_t)o->queues * o->qdepth;
	struct slot *heap = calloc(nslots, sizeof(*heap));
	int ret;

	if (!heap) {
		fputs("ntpgen: out of memory\n", stderr);
		return 1;
	}
	ret = chain_open(g);
	if (!ret)
		ret = run_workload(g, heap, nslots);
	ret = chain_close(g, ret);
	if (!ret && !o->quiet)
		fprintf(stderr, "ntpgen: %" PRIu64 " commands over %.3f s\n",
			o->commands, (double)(g->last_true - g->t0) / 1e9);
	free(heap);
	return ret ? 1 : 0;
}

int main(int argc, char *argv[])
{
	struct slot *heap;
	struct opts o;
	struct gen g;
	uint64_t nslots;
	int ret;

	if (parse_args(argc, argv, &o))
		return 2;

	start_clocks(&g, &o);
	if (o.theta_ns < -86000LL * (int64_t)NSEC_PER_SEC) {
		fputs("ntpgen: --theta: at least -86000s, so that the target's clock stays positive\n",
		      stderr);
		return 2;
	}

	if (o.chain_dir)
		return run_chain(&g, &o);

	g.hbuf = malloc(BUF_RECORDS * sizeof(*g.hbuf));
	g.tbuf = malloc(BUF_RECORDS * sizeof(*g.tbuf));
	nslots = (uint64_t)o.queues * o.qdepth;
	heap = calloc(nslots, sizeof(*heap));
	if (!g.hbuf || !g.tbuf || !heap) {
		fputs("ntpgen: out of memory\n", stderr);
		return 1;
	}

	if (open_recordings(&g))
		return 1;
	ret = run_workload(&g, heap, nslots);
	if (close_recordings(&g, ret))
		return 1;
	if (o.expect && write_expect(&g))
		return 1;

	if (!o.quiet)
		fprintf(stderr, "ntpgen: %" PRIu64 " commands over %.3f s: %"
			PRIu64 " host records (%s), %" PRIu64
			" target records (%s), %" PRIu64 " on both sides\n",
			o.commands, (double)(g.last_true - g.t0) / 1e9,
			g.host_records, o.host_path, g.target_records,
			o.target_path, g.all.n);
	free(heap);
	free(g.hbuf);
	free(g.tbuf);
	return 0;
}
