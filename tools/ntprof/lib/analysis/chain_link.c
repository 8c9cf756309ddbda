// SPDX-License-Identifier: GPL-2.0
/*
 * Links on a middle: each downstream (host side) record to the upstream
 * (target side) record that caused it, inferred from what stays the same
 * along a chain and from time containment on the middle's one clock
 * (chain.h, Documentation/report.rst "Chains").
 *
 * The upstream records are sorted once by (op class, LBA in the
 * volume's coordinates, length, start of execution); each downstream
 * record looks its key up by binary search and walks back over the
 * records of its key that started before it. A prefix maximum of the
 * ends over each key's run stops the walk as soon as no earlier record
 * can still contain it, so that a key rewritten many times (a small
 * working set) costs as little as one written once.
 *
 * A command the middle split (larger than a member's limit) reaches a
 * leg as several downstream commands, none of the upstream's length.
 * Those left without an upstream record are tried as parts: each must
 * lie inside exactly one upstream record's range and time, and the
 * parts one leg got of it must tile its range, contiguous from its
 * first LBA to its length, with one block size of 512 bytes or more
 * (found from the parts' own LBAs and lengths: the records carry no
 * block size). A run of parts that does not tile is left unlinked.
 *
 * Limits: both sides' LBAs must be of one size, as the members of an md
 * raid1 and the array it makes are; a split of a single part per leg
 * cannot be told from a shorter command, and is not linked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/chain.h"

/* An upstream record as the lookup wants it. */
struct up_entry {
	uint64_t vlba;		/* slba minus its side's chain_offset */
	uint64_t start;		/* TARGET_EXEC, else TARGET_INIT */
	uint64_t end;		/* TARGET_COMPLETE, else the last point */
	uint64_t maxend;	/* the largest end of its key's run so far */
	uint32_t len;
	uint32_t id;
	uint8_t cls;
};

/*
 * link_class() - return a command's class for linking: 0 for a read, 1 for a
 * write (write zeroes counts as a write), or else -1, which is never linked.
 */
static int link_class(const struct ntprof_record *r)
{
	if (!r->qid)
		return -1;
	switch (r->opcode) {
	case 0x02:
		return 0;
	case 0x01:
	case 0x08:
		return 1;
	}
	return -1;
}

static void first_last(const struct ntprof_record *r, uint64_t *first,
		       uint64_t *last)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	int p;

	for (p = 0; p < NTPROF_RECORD_POINTS; p++) {
		if (!r->ts[p])
			continue;
		if (r->ts[p] < lo)
			lo = r->ts[p];
		if (r->ts[p] > hi)
			hi = r->ts[p];
	}
	*first = hi ? lo : 0;
	*last = hi;
}

/* key_cmp() - compare in key order, then by start. */
static int key_cmp(const struct up_entry *a, uint8_t cls, uint64_t vlba,
		   uint32_t len)
{
	if (a->cls != cls)
		return a->cls < cls ? -1 : 1;
	if (a->vlba != vlba)
		return a->vlba < vlba ? -1 : 1;
	if (a->len != len)
		return a->len < len ? -1 : 1;
	return 0;
}

static int up_cmp(const void *pa, const void *pb)
{
	const struct up_entry *a = pa, *b = pb;
	int c = key_cmp(a, b->cls, b->vlba, b->len);

	if (c)
		return c;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/*
 * up_build() - build the sorted list of the upstream records that can cause
 * a link. It returns 0 or -ENOMEM.
 */
static int up_build(const struct ntprof_chain_side *up, size_t nr_up,
		    struct up_entry **out, size_t *nr)
{
	const struct ntprof_record *r;
	struct up_entry *v, *e;
	uint64_t first, last;
	size_t s, i, n = 0, total = 0;
	uint32_t id = 0;
	int cls;

	for (s = 0; s < nr_up; s++)
		total += up[s].n;
	v = malloc((total + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (s = 0; s < nr_up; s++) {
		for (i = 0; i < up[s].n; i++, id++) {
			r = &up[s].recs[i];
			cls = link_class(r);
			if (r->role != NTPROF_ROLE_TARGET || cls < 0 ||
			    r->slba < up[s].chain_offset)
				continue;
			first_last(r, &first, &last);
			e = &v[n++];
			e->cls = (uint8_t)cls;
			e->vlba = r->slba - up[s].chain_offset;
			e->len = r->length;
			e->id = id;
			e->start = r->ts[NTPROF_PT_TARGET_EXEC] ?:
				   r->ts[NTPROF_PT_TARGET_INIT] ?: first;
			e->end = r->ts[NTPROF_PT_TARGET_COMPLETE] ?: last;
			if (!e->start || e->end < e->start)
				n--;
		}
	}
	qsort(v, n, sizeof(*v), up_cmp);
	for (i = 0; i < n; i++) {
		v[i].maxend = v[i].end;
		if (i && !key_cmp(&v[i - 1], v[i].cls, v[i].vlba, v[i].len) &&
		    v[i - 1].maxend > v[i].maxend)
			v[i].maxend = v[i - 1].maxend;
	}
	*out = v;
	*nr = n;
	return 0;
}

/*
 * down_find() - find the upstream record of one downstream record. It
 * returns its id, or NONE with the state saying why.
 */
static uint32_t down_find(const struct up_entry *v, size_t n, uint8_t cls,
			  uint64_t vlba, uint32_t len, uint64_t first,
			  uint64_t last, uint8_t *state)
{
	size_t lo = 0, hi = n, mid, j, found = 0;
	uint32_t id = NTPROF_CHAIN_NONE;
	int c;

	/* The first entry past (key, start <= first). */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = key_cmp(&v[mid], cls, vlba, len);
		if (c < 0 || (!c && v[mid].start <= first))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (j = lo; j-- > 0;) {
		if (key_cmp(&v[j], cls, vlba, len) || v[j].maxend < last)
			break;
		if (v[j].end < last)
			continue;
		if (found++) {
			*state = NTPROF_CHAIN_AMBIGUOUS;
			return NTPROF_CHAIN_NONE;
		}
		id = v[j].id;
	}
	*state = found ? NTPROF_CHAIN_LINKED : NTPROF_CHAIN_NO_UPSTREAM;
	return id;
}

/* A downstream record taken for a part of an upstream record's split. */
struct part {
	uint32_t up;		/* the upstream record's id */
	uint32_t d;		/* the downstream record */
	uint64_t leg;		/* its side and device: its leg */
	uint64_t vlba;
	uint64_t up_vlba;
	uint32_t len;
	uint32_t up_len;
};

static int part_cmp(const void *pa, const void *pb)
{
	const struct part *a = pa, *b = pb;

	if (a->up != b->up)
		return a->up < b->up ? -1 : 1;
	if (a->leg != b->leg)
		return a->leg < b->leg ? -1 : 1;
	return a->vlba < b->vlba ? -1 : a->vlba > b->vlba;
}

/*
 * part_find() - find the upstream record of which a downstream record of a
 * split is a part: the one whose range and time hold it. It returns NULL
 * with @state set to NO_UPSTREAM or AMBIGUOUS otherwise. @maxspan is the
 * most LBAs that an upstream record can cover.
 */
static const struct up_entry *part_find(const struct up_entry *v, size_t n,
					uint8_t cls, uint64_t vlba,
					uint32_t len, uint64_t first,
					uint64_t last, uint64_t maxspan,
					uint8_t *state)
{
	uint64_t from = vlba > maxspan ? vlba - maxspan : 0;
	const struct up_entry *found = NULL;
	size_t lo = 0, hi = n, mid, j;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (key_cmp(&v[mid], cls, from, 0) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*state = NTPROF_CHAIN_NO_UPSTREAM;
	for (j = lo; j < n && v[j].cls == cls && v[j].vlba <= vlba; j++) {
		/* Its offset in bytes, at 512 bytes an LBA or more. */
		if (v[j].len <= len ||
		    (vlba - v[j].vlba) * 512 > v[j].len - len ||
		    v[j].start > first || v[j].end < last)
			continue;
		if (found) {
			*state = NTPROF_CHAIN_AMBIGUOUS;
			return NULL;
		}
		found = &v[j];
	}
	return found;
}

/*
 * parts_tile() - tell whether the parts @p[0..n) that one leg got of one
 * upstream record tile its range: from its first LBA, contiguous at one
 * block size, to its length.
 */
static bool parts_tile(const struct part *p, size_t n)
{
	uint64_t bs, total = 0;
	size_t i;

	if (n < 2 || p[0].vlba != p[0].up_vlba || p[1].vlba <= p[0].vlba ||
	    p[0].len % (p[1].vlba - p[0].vlba))
		return false;
	bs = p[0].len / (p[1].vlba - p[0].vlba);
	if (bs < 512 || (bs & (bs - 1)))
		return false;
	for (i = 0; i < n; i++) {
		if (i && (p[i].vlba - p[i - 1].vlba) * bs != p[i - 1].len)
			return false;
		total += p[i].len;
	}
	return total == p[0].up_len;
}

/*
 * splits_link() - try the downstream records that no upstream record holds
 * whole as parts of splits (see the top of the file). It returns 0 or
 * -ENOMEM.
 */
static int splits_link(const struct ntprof_chain_side *down, size_t nr_down,
		       const struct up_entry *v, size_t nv,
		       struct ntprof_chain_links *l)
{
	const struct ntprof_record *r;
	const struct up_entry *e;
	struct part *p = NULL, *np;
	size_t s, i, d = 0, n = 0, cap = 0, a, b, k;
	uint64_t maxspan = 0, first, last;
	uint8_t state;

	for (i = 0; i < nv; i++)
		if (v[i].len / 512 > maxspan)
			maxspan = v[i].len / 512;
	for (s = 0; s < nr_down; s++) {
		for (i = 0; i < down[s].n; i++, d++) {
			r = &down[s].recs[i];
			if (l->state[d] != NTPROF_CHAIN_NO_UPSTREAM ||
			    r->slba < down[s].chain_offset)
				continue;
			first_last(r, &first, &last);
			e = part_find(v, nv, (uint8_t)link_class(r),
				      r->slba - down[s].chain_offset, r->length,
				      first, last, maxspan, &state);
			if (state == NTPROF_CHAIN_AMBIGUOUS) {
				l->state[d] = state;
				l->no_upstream--;
				l->ambiguous++;
			}
			if (!e)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				np = realloc(p, cap * sizeof(*p));
				if (!np) {
					free(p);
					return -ENOMEM;
				}
				p = np;
			}
			p[n++] = (struct part){
				.up = e->id, .d = (uint32_t)d,
				.leg = (uint64_t)s << 32 | r->dev,
				.vlba = r->slba - down[s].chain_offset,
				.up_vlba = e->vlba, .len = r->length,
				.up_len = e->len,
			};
		}
	}
	qsort(p, n, sizeof(*p), part_cmp);
	for (a = 0; a < n; a = b) {
		for (b = a + 1; b < n && p[b].up == p[a].up &&
		     p[b].leg == p[a].leg; b++)
			;
		if (!parts_tile(&p[a], b - a))
			continue;
		for (k = a; k < b; k++) {
			l->up[p[k].d] = p[k].up;
			l->state[p[k].d] = NTPROF_CHAIN_LINKED;
		}
		l->no_upstream -= b - a;
		l->linked += b - a;
		l->split += b - a;
	}
	free(p);
	return 0;
}

/*
 * sort_by_first() - sort the downstream records of one upstream record by
 * their first point.
 */
static void sort_by_first(uint32_t *d, size_t n, const uint64_t *key)
{
	size_t i, j;
	uint32_t x;

	for (i = 1; i < n; i++) {
		x = d[i];
		for (j = i; j > 0 && key[d[j - 1]] > key[x]; j--)
			d[j] = d[j - 1];
		d[j] = x;
	}
}

/*
 * lists_build() - build the per-upstream lists from the per-downstream
 * links. It returns 0 or -ENOMEM.
 */
static int lists_build(struct ntprof_chain_links *l, const uint64_t *firsts)
{
	size_t d, u;
	uint32_t *fill;

	l->first = calloc(l->nr_up + 2, sizeof(*l->first));
	l->down = malloc((l->linked + 1) * sizeof(*l->down));
	fill = malloc((l->nr_up + 1) * sizeof(*fill));
	if (!l->first || !l->down || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (d = 0; d < l->nr_down; d++)
		if (l->up[d] != NTPROF_CHAIN_NONE)
			l->first[l->up[d] + 1]++;
	for (u = 0; u < l->nr_up; u++)
		l->first[u + 1] += l->first[u];
	memcpy(fill, l->first, l->nr_up * sizeof(*fill));
	for (d = 0; d < l->nr_down; d++)
		if (l->up[d] != NTPROF_CHAIN_NONE)
			l->down[fill[l->up[d]]++] = (uint32_t)d;
	for (u = 0; u < l->nr_up; u++)
		if (l->first[u + 1] - l->first[u] > 1)
			sort_by_first(&l->down[l->first[u]],
				      l->first[u + 1] - l->first[u], firsts);
	free(fill);
	return 0;
}

int ntprof_chain_link(const struct ntprof_chain_side *up, size_t nr_up,
		      const struct ntprof_chain_side *down, size_t nr_down,
		      struct ntprof_chain_links *l)
{
	const struct ntprof_record *r;
	struct up_entry *v = NULL;
	uint64_t *firsts = NULL, last;
	size_t s, i, d = 0, nv;
	uint8_t state;
	int cls, err;

	memset(l, 0, sizeof(*l));
	for (s = 0; s < nr_up; s++)
		l->nr_up += up[s].n;
	for (s = 0; s < nr_down; s++)
		l->nr_down += down[s].n;
	if (l->nr_up >= NTPROF_CHAIN_NONE || l->nr_down >= NTPROF_CHAIN_NONE)
		return -EINVAL;
	l->up = malloc((l->nr_down + 1) * sizeof(*l->up));
	l->state = malloc(l->nr_down + 1);
	firsts = malloc((l->nr_down + 1) * sizeof(*firsts));
	if (!l->up || !l->state || !firsts) {
		err = -ENOMEM;
		goto out;
	}
	err = up_build(up, nr_up, &v, &nv);
	if (err)
		goto out;
	for (s = 0; s < nr_down; s++) {
		for (i = 0; i < down[s].n; i++, d++) {
			r = &down[s].recs[i];
			cls = link_class(r);
			first_last(r, &firsts[d], &last);
			l->up[d] = NTPROF_CHAIN_NONE;
			if (r->role != NTPROF_ROLE_HOST || cls < 0 || !last ||
			    ntprof_record_aborted(r)) {
				l->state[d] = NTPROF_CHAIN_OUTSIDE;
				l->outside++;
				continue;
			}
			/* Below the offset: the member's own superblock. */
			if (r->slba < down[s].chain_offset)
				state = NTPROF_CHAIN_NO_UPSTREAM;
			else
				l->up[d] = down_find(v, nv, (uint8_t)cls,
						     r->slba - down[s].chain_offset,
						     r->length, firsts[d], last,
						     &state);
			l->state[d] = state;
			l->linked += state == NTPROF_CHAIN_LINKED;
			l->no_upstream += state == NTPROF_CHAIN_NO_UPSTREAM;
			l->ambiguous += state == NTPROF_CHAIN_AMBIGUOUS;
		}
	}
	err = splits_link(down, nr_down, v, nv, l);
	if (!err)
		err = lists_build(l, firsts);
out:
	free(v);
	free(firsts);
	return err;
}

void ntprof_chain_links_free(struct ntprof_chain_links *l)
{
	free(l->up);
	free(l->state);
	free(l->first);
	free(l->down);
	memset(l, 0, sizeof(*l));
}
