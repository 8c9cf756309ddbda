// SPDX-License-Identifier: GPL-2.0
/*
 * The machines of a run: two hosts' recordings with their targets in one
 * report are two hosts, whose device numbers, CPUs, queues and processes
 * are each their own. A machine is a boot of a host name (the headers'
 * hostname and boot id): the groups are keyed by it with any of those
 * parts (NTPROF_BY_MACHINE), and labelled with it when the run holds more
 * than one. Only the side the groups are made of counts: the hosts, or
 * the targets when no host was given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording.h"

static bool same_machine(const struct ntp_header *a, const struct ntp_header *b)
{
	return !strcmp(a->hostname, b->hostname) &&
	       !strcmp(a->boot_id, b->boot_id);
}

/*
 * machine_label() - make each machine's label: its hostname and, where two
 * boots share the hostname (a reboot between two recordings, or generated
 * files), also the boot id's first eight digits. It returns NULL when out of
 * memory.
 */
static char *machine_label(const struct recording_run *run,
			   const struct ntp_header *hdr)
{
	const struct ntp_header *other;
	bool shared = false;
	size_t i, len;
	char *s;

	for (i = 0; i < run->nr_files; i++) {
		other = run->files[i].hdr;
		if (other->role == hdr->role && !same_machine(other, hdr) &&
		    !strcmp(other->hostname, hdr->hostname))
			shared = true;
	}
	len = strlen(hdr->hostname) + 32;
	s = malloc(len);
	if (!s)
		return NULL;
	if (shared && hdr->boot_id[0])
		snprintf(s, len, "%s (boot %.8s)", hdr->hostname, hdr->boot_id);
	else
		snprintf(s, len, "%s", hdr->hostname[0] ? hdr->hostname :
							  "unnamed host");
	return s;
}

int recording_machines(struct recording_run *run, const char *cmd)
{
	uint8_t role = run->nr_host_files ? NTPROF_ROLE_HOST :
					    NTPROF_ROLE_TARGET;
	struct ntprof_machine *mc;
	struct recording *rec;
	size_t i, k;

	run->machines = calloc(run->nr_files + 1, sizeof(*run->machines));
	if (!run->machines)
		goto nomem;
	for (i = 0; i < run->nr_files; i++) {
		rec = &run->files[i];
		rec->machine = 0;
		/* A middle's host side is no machine of the groups. */
		if (rec->hdr->role != role || rec->leg)
			continue;
		/* A machine of an earlier file of the side, or a new one. */
		for (k = 0; k < i; k++)
			if (run->files[k].hdr->role == role &&
			    !run->files[k].leg &&
			    same_machine(run->files[k].hdr, rec->hdr))
				break;
		if (k < i) {
			rec->machine = run->files[k].machine;
			continue;
		}
		mc = &run->machines[run->nr_machines];
		mc->hostname = rec->hdr->hostname;
		mc->label = machine_label(run, rec->hdr);
		if (!mc->label)
			goto nomem;
		rec->machine = (uint16_t)run->nr_machines++;
	}
	return 0;
nomem:
	fprintf(stderr, "ntprof: %s: out of memory\n", cmd);
	return 1;
}

void recording_machines_free(struct recording_run *run)
{
	size_t m;

	for (m = 0; run->machines && m < run->nr_machines; m++)
		free((char *)run->machines[m].label);
	free(run->machines);
	run->machines = NULL;
	run->nr_machines = 0;
}
