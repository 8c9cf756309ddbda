/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the handler (hit.c) reads and its set-up (hitsetup.c) writes once,
 * before any site is on: shared between the two files only.
 */
#ifndef NTPROF_AGENT_HITSTATE_H
#define NTPROF_AGENT_HITSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "ident.h"
#include "shm.h"
#include "site.h"

/* Sampled commands in flight on one thread: a power of two. */
#define AGENT_INFLIGHT		256
/* The threads that can follow commands: as many as there are rings. */
#define AGENT_TABLES_MAX	AGENT_RINGS_MAX

struct agent_slot {
	uint64_t key;		/* 0: free */
	uint32_t session;	/* the control page's when it was taken */
	struct ntprof_record rec;
};

/* A thread's sampled commands in flight, under their keys. */
struct agent_table {
	struct agent_slot slots[AGENT_INFLIGHT];
};

/**
 * struct agent_hit_state - the handler's state
 * @ctl: the control page; NULL in a child forked from the program, whose
 *	sites then do nothing (hitsetup.c)
 * @shm_base: the shared memory's mapping, of which the rings are part
 * @nr_sites: the sites, by id
 * @pid: the process's, in each record
 * @rdtscp: the CPU has rdtscp (CPUID 0x80000001 EDX bit 27)
 * @tables: AGENT_TABLES_MAX tables, mapped once at start-up, unbacked
 *	until a thread claims one
 * @tables_claimed: tables threads took, with one atomic add each
 * @fd: the shared memory's descriptor, closed in a forked child
 * @sites: the sites, checked at set-up
 * @idents: the identity plans of first sites, by site id
 */
struct agent_hit_state {
	struct agent_shm_ctl *ctl;
	void *shm_base;
	unsigned int nr_sites;
	uint32_t pid;
	bool rdtscp;
	struct agent_table *tables;
	unsigned int tables_claimed;
	int fd;
	struct agent_site sites[AGENT_SITES_MAX];
	struct agent_ident idents[AGENT_SITES_MAX];
};

extern struct agent_hit_state agent_hs __attribute__((visibility("hidden")));

#endif /* NTPROF_AGENT_HITSTATE_H */
