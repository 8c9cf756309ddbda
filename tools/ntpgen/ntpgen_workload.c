// SPDX-License-Identifier: GPL-2.0
/*
 * ntpgen's workload, a closed loop as fio's iodepth makes one: Q queues
 * of D slots (tags) each, every slot issuing its next command a short gap
 * after its previous one completed. The slots wait in a min-heap by the
 * time each next issues, so that commands are drawn in true time order.
 */
#include "common/util.h"
#include "ntpgen.h"

static void heap_down(struct slot *h, size_t n, size_t i)
{
	struct slot x = h[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && h[c + 1].next < h[c].next)
			c++;
		if (h[c].next >= x.next)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Every slot starts within the first few microseconds. */
static void start_slots(struct gen *g, struct slot *heap, uint64_t nslots)
{
	const struct opts *o = g->o;
	uint64_t i;

	for (i = 0; i < nslots; i++) {
		heap[i].qid = 1 + i / o->qdepth;
		heap[i].tag = i % o->qdepth;
		heap[i].gen = rng_next(&g->rng) & 0xf;
		heap[i].next = g->t0 + NSEC_PER_SEC / 1000 +
			       rng_next(&g->rng) % (10 * NSEC_PER_USEC);
	}
	for (i = nslots / 2; i-- > 0;)
		heap_down(heap, nslots, i);
}

/*
 * Issues --commands commands from @nslots slots at @heap, the earliest
 * slot's each time, and writes out the last records: 0, or not 0 once
 * said why not.
 */
int run_workload(struct gen *g, struct slot *heap, uint64_t nslots)
{
	const struct opts *o = g->o;
	uint64_t i, end, gap;
	int ret = 0;

	start_slots(g, heap, nslots);
	for (i = 0; i < o->commands && !ret; i++) {
		ret = g->chain ? chain_command(g, &heap[0], heap[0].next, &end) :
				 command(g, &heap[0], heap[0].next, &end);
		gap = o->gap_us > 0 ? (uint64_t)(2.0 * o->gap_us * 1e3 *
						 rng_unit(&g->rng)) : 0;
		heap[0].next = end + 1 + gap;
		heap[0].gen++;
		heap_down(heap, nslots, 0);
	}
	/* A chain's recordings are written out as they close. */
	if (!ret && !g->chain)
		ret = flush_records(g);
	return ret;
}
