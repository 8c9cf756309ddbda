// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of 'ntprof status': the module's version and state, the
 * running kernel, the session that records, and the NVMe-oF host and
 * target modules the module sees.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <uapi/linux/ntprof.h>

#include "common/names.h"
#include "out/status_out.h"

static const char *state_name(uint32_t state, char *buf, size_t size)
{
	switch (state) {
	case NTPROF_STATE_IDLE:
		return "idle";
	case NTPROF_STATE_RECORDING:
		return "recording";
	}
	/* A newer module: show the number rather than guess. */
	snprintf(buf, size, "state %u", state);
	return buf;
}

static const char *role_name(uint32_t role)
{
	switch (role) {
	case NTPROF_ROLE_HOST:
		return "host";
	case NTPROF_ROLE_TARGET:
		return "target";
	}
	return "-";
}

/* A module's transport: none for the role's core, else its name. */
static const char *transport_name(uint32_t transport)
{
	if (transport == NTPROF_TRANSPORT_NONE)
		return NULL;
	return ntprof_transport_id(transport) ?: "unknown";
}

static const char *present_name(bool present)
{
	return present ? "present" : "absent";
}

void status_print(const struct session_status *st)
{
	const struct session_module *mod;
	const char *transport;
	char buf[32];
	int width = 0;
	size_t i;

	printf("ntprof module %s, %s, kernel %s\n",
	       st->version[0] ? st->version : "(unknown version)",
	       state_name(st->state, buf, sizeof(buf)),
	       st->release[0] ? st->release : "(unknown)");
	/* Who records: a session stops when its owner closes its socket. */
	if (st->have_session && st->owner_pid)
		printf("%s session recording, owned by process %u\n",
		       role_name(st->role), st->owner_pid);
	/* The rule the other machines of a chain must record with. */
	if (st->have_session && st->chain)
		printf("%s session sampling: 1 in %u, chain rule, offset %" PRIu64 "\n",
		       role_name(st->role), st->sample, st->chain_offset);

	if (!st->nr_modules) {
		puts("nvme modules: none reported");
		return;
	}
	for (i = 0; i < st->nr_modules; i++)
		if ((int)strlen(st->modules[i].name) > width)
			width = strlen(st->modules[i].name);

	puts("nvme modules:");
	for (i = 0; i < st->nr_modules; i++) {
		mod = &st->modules[i];
		transport = transport_name(mod->transport);
		printf("  %-6s  %-*s  ", role_name(mod->role), width, mod->name);
		if (transport)
			printf("%-7s  (%s)\n", present_name(mod->present),
			       transport);
		else
			printf("%s\n", present_name(mod->present));
	}
}
