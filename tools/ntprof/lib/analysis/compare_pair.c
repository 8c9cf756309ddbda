// SPDX-License-Identifier: GPL-2.0
/*
 * Which group of the loaded run compares with which of the base: the
 * same op, size and device by default. Runs over two transports reach
 * their namespace through two controllers, which the host names apart
 * (nvme1n1 over TCP, nvme2n1 over RDMA): a group left without its
 * device's pair still pairs by op and size when each run holds one group
 * of them, and --match op,size pairs by those alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "common/names.h"
#include "common/util.h"

static const struct {
	const char *name;
	unsigned int bit;
} match_parts[] = {
	{ "op", NTPROF_BY_OP },
	{ "size", NTPROF_BY_SIZE },
	{ "dev", NTPROF_BY_DEV },
};

int cmp_match_parse(const char *s, unsigned int *match)
{
	const char *p = s, *end;
	size_t i, len;

	*match = 0;
	do {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		for (i = 0; i < ARRAY_SIZE(match_parts); i++)
			if (len == strlen(match_parts[i].name) &&
			    !strncmp(p, match_parts[i].name, len))
				break;
		if (i == ARRAY_SIZE(match_parts))
			return -EINVAL;
		*match |= match_parts[i].bit;
		p = end + 1;
	} while (end);
	return 0;
}

/*
 * same_key() - tell whether @a and @b have the same key: their side and
 * @match's parts and, with @transport (when both runs hold both transports),
 * their transport.
 */
static bool same_key(const struct ntprof_group *a, const struct ntprof_group *b,
		     unsigned int match, bool transport)
{
	return a->target_side == b->target_side &&
	       (!(match & NTPROF_BY_OP) || a->op == b->op) &&
	       (!(match & NTPROF_BY_SIZE) || a->length == b->length) &&
	       (!(match & NTPROF_BY_DEV) || !strcmp(a->devname, b->devname)) &&
	       (!transport || a->transport == b->transport);
}

/*
 * count_key() - count the groups of @an that have @g's key and commands in
 * their tables.
 */
static size_t count_key(const struct ntprof_analysis *an,
			const struct ntprof_group *g, unsigned int match,
			bool transport, const struct ntprof_group **one)
{
	size_t i, n = 0;

	for (i = 0; i < an->nr_groups; i++)
		if (an->groups[i].n_table &&
		    same_key(&an->groups[i], g, match, transport)) {
			*one = &an->groups[i];
			n++;
		}
	return n;
}

bool cmp_paired(const struct cmp_group *v, size_t n,
		const struct ntprof_group *g, bool load)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((load ? v[i].load : v[i].base) == g)
			return true;
	return false;
}

/*
 * key_str() - write, for a message, "read 4KiB" or the part of it that
 * @match has.
 */
static void key_str(const struct ntprof_group *g, unsigned int match,
		    char *buf, size_t size)
{
	char sz[32];

	ntprof_size_str(g->length, sz, sizeof(sz));
	snprintf(buf, size, "%s%s%s%s%s",
		 match & NTPROF_BY_OP ? ntprof_opclass_name(g->op) : "",
		 (match & NTPROF_BY_OP) && (match & ~NTPROF_BY_OP) ? " " : "",
		 match & NTPROF_BY_SIZE ? sz : "",
		 (match & NTPROF_BY_SIZE) && (match & NTPROF_BY_DEV) ? " " : "",
		 match & NTPROF_BY_DEV ? g->devname : "");
}

/*
 * pair_by() - pair the groups by @match's parts; each key must have one
 * group in each run, or else it is an error.
 */
static int pair_by(const char *cmd, const struct ntprof_analysis *ba,
		   const struct ntprof_analysis *la, unsigned int match,
		   bool transport, struct cmp_group *out, size_t *nr)
{
	const struct ntprof_group *g, *one = NULL;
	const struct ntprof_analysis *an;
	char key[128];
	size_t i, r;

	for (i = 0; i < ba->nr_groups; i++) {
		g = &ba->groups[i];
		if (!g->n_table)
			continue;
		for (r = 0; r < 2; r++) {
			an = r ? la : ba;
			if (count_key(an, g, match, transport, &one) > 1) {
				key_str(g, match, key, sizeof(key));
				fprintf(stderr, "ntprof: %s: --match: the %s run has more than one group of %s; match by more parts\n",
					cmd, r ? "loaded" : "base", key);
				return 1;
			}
		}
		if (!count_key(la, g, match, transport, &one))
			continue;
		out[*nr].base = g;
		out[*nr].load = one;
		out[(*nr)++].match = match;
	}
	return 0;
}

int cmp_pair(const char *cmd, const struct ntprof_analysis *ba,
	     const struct ntprof_analysis *la, unsigned int match,
	     bool explicit, struct cmp_group *out, size_t *nr)
{
	bool transport = ba->opts.transports && la->opts.transports;
	const unsigned int loose = NTPROF_BY_OP | NTPROF_BY_SIZE;
	const struct ntprof_group *g, *lg, *bg;
	size_t i;

	*nr = 0;
	if (explicit)
		return pair_by(cmd, ba, la, match, transport, out, nr);
	for (i = 0; i < ba->nr_groups; i++) {
		g = &ba->groups[i];
		lg = cmp_group_find(la, ba, g);
		if (!g->n_table || !lg || !lg->n_table)
			continue;
		out[*nr].base = g;
		out[*nr].load = lg;
		out[(*nr)++].match = CMP_MATCH_DEFAULT;
	}
	/* Left without their device's pair: by op and size, if unique. */
	for (i = 0; i < ba->nr_groups; i++) {
		g = &ba->groups[i];
		if (!g->n_table || cmp_paired(out, *nr, g, false) ||
		    count_key(ba, g, loose, transport, &bg) != 1 ||
		    count_key(la, g, loose, transport, &lg) != 1 ||
		    cmp_paired(out, *nr, lg, true))
			continue;
		out[*nr].base = g;
		out[*nr].load = lg;
		out[(*nr)++].match = loose;
	}
	return 0;
}

void cmp_group_notes(const struct cmp_group *cg,
		     void (*emit)(const char *line, void *arg), void *arg)
{
	const struct ntprof_group *b = cg->base, *l = cg->load;
	bool op = cg->match & NTPROF_BY_OP, size = cg->match & NTPROF_BY_SIZE;
	char line[512];

	if (strcmp(b->devname, l->devname)) {
		snprintf(line, sizeof(line),
			 "paired by %s%s%s: %s in the base run, %s in the loaded",
			 op ? "op" : "", op && size ? " and " : "",
			 size ? "size" : "", b->devname, l->devname);
		emit(line, arg);
	}
	if (b->transport != l->transport) {
		snprintf(line, sizeof(line),
			 "the base run over %s, the loaded over %s: each run's stages are named for its own",
			 ntprof_transport_name(b->transport),
			 ntprof_transport_name(l->transport));
		emit(line, arg);
	}
	if (cg->common_ground)
		emit("one run has the target's side and the other not: compared on their common ground, the network and the target as one stage",
		     arg);
}
