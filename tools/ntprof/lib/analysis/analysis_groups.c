// SPDX-License-Identifier: GPL-2.0
/*
 * The analysis's groups: what a command's group is made by (its side and
 * the parts of NTPROF_BY_*), their hash table, their labels and their
 * order in a report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_groups.h"
#include "common/names.h"
#include "common/util.h"

/*
 * What a group is made by: its side, and the parts of the commands that
 * the analysis groups by (NTPROF_BY_*); the others are 0 ("any").
 */
struct group_key {
	bool target_side;
	bool spdk_ns;
	bool passthru;
	enum ntprof_opclass op;	/* NTPROF_OPC_COUNT: any */
	uint32_t length;
	uint32_t dev;
	uint16_t qid;
	uint16_t cpu;
	uint16_t ccpu;
	uint32_t pid;
	uint32_t path;
	uint8_t transport;	/* always: its stages are named for it */
	uint16_t machine;	/* with a part of NTPROF_BY_MACHINE */
};

/*
 * group_spdk_ns() - tell whether @r groups by namespace id. SPDK's
 * namespaces are not devices of the kernel's, so the records of userspace
 * sites have no device, and group by namespace id instead.
 */
static bool group_spdk_ns(const struct ntprof_record *r)
{
	return (r->flags & NTPROF_REC_F_USER) && !r->dev;
}

static unsigned int group_by(const struct ntprof_analysis *an)
{
	return an->opts.by ? an->opts.by : NTPROF_BY_DEFAULT;
}

/*
 * group_host_dev() - return a host's device as a group knows it: the first
 * of the numbers that have its name. Under native multipath, a namespace's
 * records carry the path disk they went through, which the device table
 * names after the namespace (ntp-format.rst, Device entries), so its paths
 * are one device.
 */
static uint32_t group_host_dev(const struct ntprof_analysis *an,
			       uint16_t machine, uint32_t dev)
{
	const struct ntprof_devname *map = an->opts.host_devs;
	size_t nr = an->opts.nr_host_devs, i, k;

	for (i = 0; i < nr; i++) {
		if (map[i].dev != dev || map[i].machine != machine)
			continue;
		for (k = 0; k < i; k++)
			if (map[k].machine == machine &&
			    !strcmp(map[k].name, map[i].name))
				return map[k].dev;
		break;
	}
	return dev;
}

/*
 * group_host_dev_cached() - return group_host_dev() of the last device asked
 * for, kept. A recording's records come from a few devices, mostly many of
 * one device in a row, and the lookup compares names. When the device map
 * has grown (record names devices as their first records come), it asks
 * again.
 */
static uint32_t group_host_dev_cached(struct ntprof_analysis *an,
				      uint32_t dev)
{
	struct ntprof_host_dev_cache *c = &an->host_dev_cache;

	if (!c->valid || c->dev != dev || c->machine != an->machine ||
	    c->map != an->opts.host_devs || c->nr != an->opts.nr_host_devs) {
		c->dev = dev;
		c->machine = an->machine;
		c->head = group_host_dev(an, an->machine, dev);
		c->map = an->opts.host_devs;
		c->nr = an->opts.nr_host_devs;
		c->valid = true;
	}
	return c->head;
}

/*
 * group_key_of() - make the group key of a record of @machine. @host_dev is
 * the record's dev, as group_host_dev() gives it, on a host.
 */
static void group_key_of(const struct ntprof_analysis *an, uint16_t machine,
			 bool target_side, const struct ntprof_record *r,
			 uint32_t host_dev, struct group_key *k)
{
	unsigned int by = group_by(an);

	memset(k, 0, sizeof(*k));
	k->target_side = target_side;
	/* Two hosts' 259:0, CPU 2 or queue 1 are not one. */
	if (by & NTPROF_BY_MACHINE)
		k->machine = machine;
	k->transport = r->transport;
	k->op = by & NTPROF_BY_OP ? ntprof_opclass_of(r->qid, r->opcode) :
				    NTPROF_OPC_COUNT;
	if (by & NTPROF_BY_SIZE)
		k->length = r->length;
	if (by & NTPROF_BY_DEV) {
		k->spdk_ns = group_spdk_ns(r);
		k->dev = k->spdk_ns ? r->nsid : target_side ? r->dev : host_dev;
		/*
		 * Passthrough commands are the disk's too, but they go through
		 * its char device, so they make a group of their own.
		 */
		k->passthru = !target_side && (r->flags & NTPROF_REC_F_PASSTHRU);
	}
	if (by & NTPROF_BY_PATH)
		k->path = target_side ? r->cntlid : r->dev;
	if (by & NTPROF_BY_QUEUE)
		k->qid = r->qid;
	if (by & NTPROF_BY_CPU)
		k->cpu = r->cpu_submit;
	if (by & NTPROF_BY_CCPU)
		k->ccpu = r->cpu_complete;
	if (by & NTPROF_BY_PID)
		k->pid = r->pid;
}

static uint64_t group_hash(const struct group_key *k)
{
	return ntprof_fmix64(((uint64_t)k->dev << 32 | k->length) ^
			     ntprof_fmix64((uint64_t)k->qid << 48 |
					   (uint64_t)k->cpu << 32 |
					   (uint64_t)k->ccpu << 16 |
					   (uint64_t)k->op << 4 |
					   (uint64_t)k->transport << 2 |
					   (uint64_t)k->passthru << 8 |
					   k->spdk_ns << 1 | k->target_side) ^
			     ((uint64_t)k->path << 32 | k->pid) ^
			     ((uint64_t)k->machine << 48));
}

static bool group_is(const struct ntprof_group *g, const struct group_key *k)
{
	return g->target_side == k->target_side && g->spdk_ns == k->spdk_ns &&
	       g->passthru == k->passthru && g->transport == k->transport &&
	       g->op == k->op && g->length == k->length && g->dev == k->dev &&
	       g->qid == k->qid && g->cpu == k->cpu && g->ccpu == k->ccpu &&
	       g->pid == k->pid && g->path == k->path &&
	       g->machine == k->machine;
}

static void group_key_get(const struct ntprof_group *g, struct group_key *k)
{
	*k = (struct group_key){
		.target_side = g->target_side, .spdk_ns = g->spdk_ns,
		.passthru = g->passthru, .transport = g->transport, .op = g->op, .length = g->length,
		.dev = g->dev,
		.qid = g->qid, .cpu = g->cpu, .ccpu = g->ccpu, .pid = g->pid,
		.path = g->path, .machine = g->machine,
	};
}

const struct ntprof_group *
ntprof_analysis_group_of(const struct ntprof_analysis *an, uint16_t machine,
			 const struct ntprof_record *host,
			 const struct ntprof_record *target)
{
	const struct ntprof_record *r = host ? host : target;
	struct group_key k;
	size_t i;

	if (!r)
		return NULL;
	group_key_of(an, machine, !host, r,
		     host ? group_host_dev(an, machine, r->dev) : 0, &k);
	for (i = 0; i < an->nr_groups; i++)
		if (group_is(&an->groups[i], &k))
			return &an->groups[i];
	return NULL;
}

static int slots_grow(struct ntprof_analysis *an)
{
	size_t nr = an->nr_slots ? an->nr_slots * 2 : 64, i, j;
	const struct ntprof_group *g;
	struct group_key k;
	uint32_t *slots;

	slots = calloc(nr, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < an->nr_groups; i++) {
		g = &an->groups[i];
		group_key_get(g, &k);
		j = group_hash(&k) & (nr - 1);
		while (slots[j])
			j = (j + 1) & (nr - 1);
		slots[j] = i + 1;
	}
	free(an->slots);
	an->slots = slots;
	an->nr_slots = nr;
	return 0;
}

/*
 * group_label_path() - write a path's label: "path nvme1 10.0.0.1:4420", a
 * host's controller and the target's address and port (the traddr and
 * trsvcid of its address), or "path cntlid 2" on a target, whose records
 * name their controller by its id.
 */
static void group_label_path(const struct ntprof_group *g, char *buf,
			     size_t size)
{
	const char *a = g->path_address, *addr, *svc;
	int na = 0, ns = 0;

	if (g->target_side) {
		snprintf(buf, size, "path cntlid %u", g->path);
		return;
	}
	if (!g->path_ctrl) {
		snprintf(buf, size, "path dev %u:%u", g->path >> 8 & 0xfff,
			 (g->path & 0xff) | (g->path >> 12 & 0xfff00));
		return;
	}
	addr = a ? strstr(a, "traddr=") : NULL;
	svc = a ? strstr(a, "trsvcid=") : NULL;
	if (addr)
		na = (int)strcspn(addr += 7, ",");
	if (svc)
		ns = (int)strcspn(svc += 8, ",");
	if (addr && svc)
		snprintf(buf, size, "path %s %.*s:%.*s", g->path_ctrl, na, addr,
			 ns, svc);
	else
		snprintf(buf, size, "path %s", g->path_ctrl);
}

/*
 * group_path_names() - look up the controller and address of a host's path
 * in the opts' map.
 */
static void group_path_names(const struct ntprof_analysis *an,
			     struct ntprof_group *g)
{
	size_t i;

	for (i = 0; !g->target_side && i < an->opts.nr_host_paths; i++) {
		if (an->opts.host_paths[i].dev != g->path ||
		    an->opts.host_paths[i].machine != g->machine)
			continue;
		g->path_ctrl = an->opts.host_paths[i].ctrl;
		g->path_address = an->opts.host_paths[i].address;
		return;
	}
}

/*
 * group_label() - write the group's label, made of the parts it is grouped
 * by: "read 4KiB nvme1n1", "write queue 3", "cpu 2".
 */
static void group_label(const struct ntprof_analysis *an,
			struct ntprof_group *g)
{
	unsigned int by = group_by(an);
	size_t n = 0, size = sizeof(g->label);
	char buf[16], path[96];

	g->label[0] = '\0';
#define LABEL_ADD(...) \
	(n += (size_t)snprintf(g->label + n, n < size ? size - n : 0, \
			       n ? " %s" : "%s", __VA_ARGS__))
	if (by & NTPROF_BY_OP)
		LABEL_ADD(ntprof_opclass_name(g->op));
	if (by & NTPROF_BY_SIZE)
		LABEL_ADD(ntprof_size_str(g->length, buf, sizeof(buf)));
	if (by & NTPROF_BY_DEV)
		LABEL_ADD(g->devname);
	if (by & NTPROF_BY_QUEUE) {
		snprintf(buf, sizeof(buf), "queue %u", g->qid);
		LABEL_ADD(buf);
	}
	if (by & NTPROF_BY_CPU) {
		snprintf(buf, sizeof(buf), "cpu %u", g->cpu);
		LABEL_ADD(buf);
	}
	if (by & NTPROF_BY_CCPU) {
		snprintf(buf, sizeof(buf), "ccpu %u", g->ccpu);
		LABEL_ADD(buf);
	}
	if (by & NTPROF_BY_PID) {
		snprintf(buf, sizeof(buf), "pid %u", g->pid);
		LABEL_ADD(buf);
	}
	if (by & NTPROF_BY_PATH) {
		group_label_path(g, path, sizeof(path));
		LABEL_ADD(path);
	}
	/* "read 4KiB nvme1n1 on host-a"; "host-a" with --by host alone. */
	if ((by & NTPROF_BY_MACHINE) &&
	    (an->opts.nr_machines > 1 || by == NTPROF_BY_HOST) &&
	    g->machine < an->opts.nr_machines) {
		if (n)
			LABEL_ADD("on");
		LABEL_ADD(an->opts.machines[g->machine].label);
	}
	if (an->opts.transports && g->transport)
		LABEL_ADD(ntprof_transport_name(g->transport));
#undef LABEL_ADD
}

/*
 * group_devname() - look up the group's device name in the side's device
 * table.
 */
static void group_devname(const struct ntprof_analysis *an,
			  struct ntprof_group *g)
{
	const struct ntprof_devname *map;
	size_t nr, i;

	map = g->target_side ? an->opts.target_devs : an->opts.host_devs;
	nr = g->target_side ? an->opts.nr_target_devs : an->opts.nr_host_devs;
	/* The group's machine's name of the number, none of another's. */
	for (i = 0; i < nr; i++)
		if (map[i].dev == g->dev && map[i].machine == g->machine)
			break;
	if (i < nr) {
		map += i;
		nr = 1;
	} else {
		nr = 0;
	}
	if (!(g->by & NTPROF_BY_DEV))
		g->devname[0] = '\0';
	else if (g->spdk_ns)
		snprintf(g->devname, sizeof(g->devname), "spdk-n%u", g->dev);
	else if (g->passthru)
		ntprof_passthru_dev_str(g->dev, map, nr, g->devname,
					sizeof(g->devname));
	else
		ntprof_dev_str(g->dev, map, nr, g->devname, sizeof(g->devname));
}

struct ntprof_group *ntprof_group_get(struct ntprof_analysis *an,
				      bool target_side,
				      const struct ntprof_record *r)
{
	struct ntprof_group *g, *groups;
	struct group_key k;
	size_t j, cap;

	/* Kept at most half full, so that probing stays short. */
	if (2 * (an->nr_groups + 1) > an->nr_slots && slots_grow(an))
		return NULL;
	group_key_of(an, an->machine, target_side, r,
		     target_side ? 0 : group_host_dev_cached(an, r->dev), &k);
	j = group_hash(&k) & (an->nr_slots - 1);
	for (; an->slots[j]; j = (j + 1) & (an->nr_slots - 1)) {
		g = &an->groups[an->slots[j] - 1];
		if (group_is(g, &k))
			return g;
	}

	if (an->nr_groups == an->cap_groups) {
		cap = an->cap_groups ? an->cap_groups * 2 : 16;
		groups = realloc(an->groups, cap * sizeof(*groups));
		if (!groups)
			return NULL;
		an->groups = groups;
		an->cap_groups = cap;
	}
	g = &an->groups[an->nr_groups];
	memset(g, 0, sizeof(*g));
	g->target_side = target_side;
	g->op = k.op;
	g->length = k.length;
	g->spdk_ns = k.spdk_ns;
	g->passthru = k.passthru;
	g->dev = k.dev;
	g->by = group_by(an);
	g->qid = k.qid;
	g->cpu = k.cpu;
	g->ccpu = k.ccpu;
	g->pid = k.pid;
	g->path = k.path;
	g->machine = k.machine;
	if ((g->by & NTPROF_BY_MACHINE) && k.machine < an->opts.nr_machines)
		g->host = an->opts.machines[k.machine].label;
	group_path_names(an, g);
	g->transport = r->transport;
	g->largest = -1;
	group_devname(an, g);
	group_label(an, g);
	an->slots[j] = ++an->nr_groups;
	return g;
}

void ntprof_analysis_relabel(struct ntprof_analysis *an)
{
	struct ntprof_group *g;
	size_t i;

	for (i = 0; i < an->nr_groups; i++) {
		g = &an->groups[i];
		if (!(g->by & NTPROF_BY_DEV) || g->spdk_ns)
			continue;
		group_devname(an, g);
		group_label(an, g);
	}
}

int ntprof_group_cmp(const void *a, const void *b)
{
	const struct ntprof_group *x = a, *y = b;
	int r;

	if (x->target_side != y->target_side)
		return x->target_side - y->target_side;
	/* Each machine's groups together, in the order of its files. */
	if (x->machine != y->machine)
		return (int)x->machine - (int)y->machine;
	if (x->op != y->op)
		return (int)x->op - (int)y->op;
	if (x->length != y->length)
		return x->length < y->length ? -1 : 1;
	r = strcmp(x->devname, y->devname);
	if (r)
		return r;
	if (x->transport != y->transport)
		return (int)x->transport - (int)y->transport;
	if (x->dev != y->dev)
		return (x->dev > y->dev) - (x->dev < y->dev);
	if (x->qid != y->qid)
		return (int)x->qid - (int)y->qid;
	if (x->cpu != y->cpu)
		return (int)x->cpu - (int)y->cpu;
	if (x->ccpu != y->ccpu)
		return (int)x->ccpu - (int)y->ccpu;
	return (x->path > y->path) - (x->path < y->path);
}

int ntprof_group_merged_into(const struct ntprof_group *g, int comp)
{
	int c;

	for (c = 0; c < NTPROF_COMP_COUNT; c++)
		if (g->merged[c] & BIT(comp))
			return c;
	return -1;
}
