// SPDX-License-Identifier: GPL-2.0
/* The names of roles and transports (names.h). */
#include <errno.h>
#include <string.h>
#include <uapi/linux/ntprof.h>

#include "common/names.h"

const char *ntprof_role_name(uint32_t role)
{
	switch (role) {
	case NTPROF_ROLE_HOST:
		return "host";
	case NTPROF_ROLE_TARGET:
		return "target";
	}
	return "?";
}

const char *ntprof_transport_id(uint32_t transport)
{
	switch (transport) {
	case NTPROF_TRANSPORT_TCP:
		return "tcp";
	case NTPROF_TRANSPORT_RDMA:
		return "rdma";
	}
	return NULL;
}

const char *ntprof_transport_name(uint32_t transport)
{
	const char *id = ntprof_transport_id(transport);

	if (id)
		return id;
	return transport == NTPROF_TRANSPORT_NONE ? "tcp,rdma" : "?";
}

int ntprof_role_parse(const char *s, uint32_t *role)
{
	if (!strcmp(s, "host"))
		*role = NTPROF_ROLE_HOST;
	else if (!strcmp(s, "target"))
		*role = NTPROF_ROLE_TARGET;
	else
		return -EINVAL;
	return 0;
}

int ntprof_transport_parse(const char *s, uint32_t *transport)
{
	uint32_t seen = 0, t;
	const char *p = s;
	size_t len;

	/* tcp, rdma, or a comma-separated list of them: tcp,rdma is all. */
	do {
		len = strcspn(p, ",");
		if (len == 3 && !strncmp(p, "tcp", 3))
			t = NTPROF_TRANSPORT_TCP;
		else if (len == 4 && !strncmp(p, "rdma", 4))
			t = NTPROF_TRANSPORT_RDMA;
		else
			return -EINVAL;
		seen |= 1U << t;
		p += len;
	} while (*p++ == ',');

	if (seen == (1U << NTPROF_TRANSPORT_TCP | 1U << NTPROF_TRANSPORT_RDMA))
		*transport = NTPROF_TRANSPORT_NONE;
	else
		*transport = t;
	return 0;
}
