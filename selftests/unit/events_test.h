/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the control-path event tests share (test_events, test_attempts,
 * test_prom_events, test_events_views): the module's raw events written
 * by hand, as a drain hands them to record; the header of host1's
 * recording over TCP, which each of them writes with its events; and the
 * directory of the test program, from which they find the tool and the
 * scripts beside them; and the checks of report --json they all make.
 */
#ifndef NTPROF_SELFTESTS_EVENTS_TEST_H
#define NTPROF_SELFTESTS_EVENTS_TEST_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ntp/ntp.h"
#include "scratch.h"

/* ev_state() - a state change from @old to @new_state asked of nvme@ctrl at @t. */
static inline struct ntp_event ev_state(uint64_t t, uint32_t ctrl, uint8_t old,
					uint8_t new_state)
{
	return (struct ntp_event) {
		.time_mono_ns = t, .ctrl = ctrl,
		.type = NTPROF_EVENT_CTRL_STATE, .old_state = old,
		.new_state = new_state,
	};
}

/* ev_reset() - a reset asked of nvme@ctrl at @t. */
static inline struct ntp_event ev_reset(uint64_t t, uint32_t ctrl)
{
	return (struct ntp_event) {
		.time_mono_ns = t, .ctrl = ctrl,
		.type = NTPROF_EVENT_CTRL_RESET,
	};
}

/* ev_attempt() - an attempt to connect nvme@ctrl, begun at @t. */
static inline struct ntp_event ev_attempt(uint64_t t, uint32_t ctrl)
{
	return (struct ntp_event) {
		.time_mono_ns = t, .ctrl = ctrl,
		.type = NTPROF_EVENT_CTRL_ATTEMPT,
	};
}

/*
 * events_host_header() - fill @h, cleared first, for host1's recording
 * of every command over TCP on one CPU, started at @start_ns on the
 * records' clock and 1,700,000,000 s into the epoch.
 */
static inline void events_host_header(struct ntp_header *h, uint64_t start_ns)
{
	memset(h, 0, sizeof(*h));
	h->role = NTPROF_ROLE_HOST;
	h->transport = NTPROF_TRANSPORT_TCP;
	h->sample = 1;
	h->nr_cpus = 1;
	h->start_mono_ns = start_ns;
	h->start_real_ns = 1700000000ULL * 1000000000ULL;
	snprintf(h->hostname, sizeof(h->hostname), "host1");
}

/*
 * test_program_dir() - put in @dir the directory of this test's program
 * (selftests/unit), or bail out.
 */
static inline void test_program_dir(char *dir, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", dir, size - 1);
	char *slash;

	if (n <= 0)
		scratch_bail("readlink /proc/self/exe");
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
}

/*
 * json_squeeze() - take the blanks of JSON's layout out of @s, in place,
 * and return it (NULL stays NULL): none of the strings the tests look
 * for has any.
 */
static inline char *json_squeeze(char *s)
{
	char *r = s, *w = s;

	if (!s)
		return NULL;
	for (; *r; r++)
		if (*r != ' ' && *r != '\n')
			*w++ = *r;
	*w = '\0';
	return s;
}

/*
 * events_schema_ok() - whether file @json of the scratch directory
 * matches Documentation/schemas/@schema (selftests/json-check.py), the
 * tree being two folders above this test's program.
 */
static inline bool events_schema_ok(const char *schema, const char *json)
{
	char self[PATH_MAX], cmd[3 * PATH_MAX + 256];

	test_program_dir(self, sizeof(self));
	if (snprintf(cmd, sizeof(cmd),
		     "python3 %s/../json-check.py %s/../../Documentation/schemas/%s %s",
		     self, self, schema, json) >= (int)sizeof(cmd))
		scratch_bail("the test's path is too long");
	return system(cmd) == 0;
}

#endif /* NTPROF_SELFTESTS_EVENTS_TEST_H */
