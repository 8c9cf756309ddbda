// SPDX-License-Identifier: GPL-2.0
/*
 * The choice of an SPDK program's role and transport, so that ntprof run
 * works in front of a tutorial's command, unchanged: "ntprof run --
 * spdk_nvme_perf -r 'trtype:RDMA ...'" must find that the program is a
 * host (its sites are a host's, not nvmf_tgt's) and that it will talk
 * RDMA (its transport ID says so), as --help promises, without -r and -t.
 * The choice is made here, separate from the parsing of the binary, so
 * that it can be tested on its own (selftests/unit/test_spdk_role.c).
 */
#define _GNU_SOURCE	/* strcasestr() */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <uapi/linux/ntprof.h>

#include "sites/spdk_role.h"

/*
 * trtype_value() - return the transport of one "trtype" value at @v, which
 * runs up to a space or a comma.
 */
static uint32_t trtype_value(const char *v)
{
	size_t len = strcspn(v, " \t,;'\"");

	if (len == 3 && !strncasecmp(v, "tcp", 3))
		return NTPROF_TRANSPORT_TCP;
	if (len == 4 && !strncasecmp(v, "rdma", 4))
		return NTPROF_TRANSPORT_RDMA;
	return NTPROF_TRANSPORT_NONE;
}

uint32_t spdk_args_transport(char *const args[], int nargs, bool *both)
{
	uint32_t found = NTPROF_TRANSPORT_NONE, t;
	const char *s;
	int i;

	*both = false;
	for (i = 0; i < nargs; i++) {
		for (s = args[i]; (s = strcasestr(s, "trtype")); s += 6) {
			/* "trtype:" or "trtype=", not "adrtrtype" or "trtypes". */
			if ((s > args[i] && (s[-1] == '_' ||
					     isalpha((unsigned char)s[-1]))) ||
			    (s[6] != ':' && s[6] != '='))
				continue;
			t = trtype_value(s + 7);
			if (!t)
				continue;
			if (found && found != t)
				*both = true;
			found = t;
		}
	}
	return *both ? NTPROF_TRANSPORT_NONE : found;
}

int spdk_choose(uint32_t role, uint32_t transport, char *const args[],
		int nargs, spdk_has_sites has, void *ctx, uint32_t *role_out,
		uint32_t *transport_out, char *why, size_t whylen)
{
	bool tcp, rdma, both;
	uint32_t named;

	*role_out = role;
	*transport_out = transport;
	if (role == NTPROF_ROLE_TARGET)
		return 0;
	/* A target's sites are the same over both transports. */
	if (!role && has(ctx, NTPROF_ROLE_TARGET, NTPROF_TRANSPORT_NONE)) {
		*role_out = NTPROF_ROLE_TARGET;
		return 0;
	}
	if (transport) {
		*role_out = NTPROF_ROLE_HOST;
		return 0;
	}
	named = spdk_args_transport(args, nargs, &both);
	if (both) {
		snprintf(why, whylen,
			 "its arguments name both transports (trtype): give -t tcp or -t rdma");
		return -EINVAL;
	}
	tcp = has(ctx, NTPROF_ROLE_HOST, NTPROF_TRANSPORT_TCP);
	rdma = has(ctx, NTPROF_ROLE_HOST, NTPROF_TRANSPORT_RDMA);
	if (!role && !tcp && !rdma && !named) {
		/* Neither side's: resolving the target's says what is missing. */
		*role_out = NTPROF_ROLE_TARGET;
		return 0;
	}
	*role_out = NTPROF_ROLE_HOST;
	if (named) {
		*transport_out = named;
		return 0;
	}
	if (tcp != rdma) {
		*transport_out = tcp ? NTPROF_TRANSPORT_TCP :
				       NTPROF_TRANSPORT_RDMA;
		return 0;
	}
	snprintf(why, whylen, "%s",
		 tcp ? "a host of both transports, and its arguments name no trtype: give -t tcp or -t rdma" :
		       "a host's sites are missing for both transports: give -t tcp or -t rdma to see which");
	return -EINVAL;
}
