// SPDX-License-Identifier: GPL-2.0
/*
 * A host recording's aborted tries linked to their next tries
 * (analysis/attempts.h), with what the run knows of the recording: the
 * names of its namespaces, which native multipath's path disks share,
 * its controllers' paths, and its control-path events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attempts.h"
#include "analysis/recording.h"

struct names {
	const struct recording_run *run;
	uint16_t machine;
};

/*
 * A namespace as a number its paths share: the first device of the
 * machine with the record's device's name (the device table names a path
 * disk after its namespace's head), else the device.
 */
static uint32_t head_of(const struct ntprof_record *r, void *arg)
{
	const struct names *nm = arg;
	const struct ntprof_devname *d = nm->run->host_devs;
	size_t n = nm->run->nr_host_devs, i, k;

	for (i = 0; i < n; i++) {
		if (d[i].dev != r->dev || d[i].machine != nm->machine ||
		    !d[i].name)
			continue;
		for (k = 0; k < n; k++)
			if (d[k].machine == nm->machine && d[k].name &&
			    !strcmp(d[k].name, d[i].name))
				return d[k].dev;
	}
	return r->dev;
}

/* The controller ("nvme1") whose path disk the record went through. */
static const char *ctrl_of(const struct ntprof_record *r, void *arg)
{
	const struct names *nm = arg;
	const struct ntprof_pathname *p = nm->run->host_paths;
	size_t i;

	for (i = 0; i < nm->run->nr_host_paths; i++)
		if (p[i].dev == r->dev && p[i].machine == nm->machine)
			return p[i].ctrl;
	return NULL;
}

/* The episodes of @rec's events, its parts' in their order. */
static int episodes(const struct recording *rec, struct ntprof_ctl_event **ev,
		    size_t *nev)
{
	const struct ntp_event *e;
	struct ntp_event *all = NULL, *v;
	size_t i, k, n = 0, cap = 0;
	uint64_t drops;
	int err = 0;

	for (i = 0; i < rec->nr_parts; i++) {
		if (!rec->parts[i].file)
			continue;
		e = ntp_events(rec->parts[i].file, &k, &drops);
		if (!k)
			continue;
		v = realloc(all, (n + k) * sizeof(*all));
		if (!v) {
			free(all);
			return -ENOMEM;
		}
		all = v;
		memcpy(all + n, e, k * sizeof(*all));
		n += k;
	}
	*ev = NULL;
	*nev = 0;
	if (n)
		err = ntprof_ctl_events(all, n, rec->parts[0].hdr->start_mono_ns,
					0, ev, nev, &cap);
	free(all);
	return err;
}

int recording_attempts(const struct recording_run *run,
		       const struct recording *rec,
		       struct ntprof_attempts *out)
{
	struct names nm = { .run = run, .machine = rec->machine };
	struct ntprof_ctl_event *ev = NULL;
	size_t nev = 0;
	int err;

	memset(out, 0, sizeof(*out));
	/*
	 * For selftests/unit/test_stream.sh: a loaded run as a streamed one
	 * is, which links nothing, to compare the rest of their views.
	 */
	if (getenv("NTPROF_NO_OUTAGE_LINK"))
		return 0;
	err = episodes(rec, &ev, &nev);
	if (!err)
		err = ntprof_attempts_link(rec->recs, rec->n, head_of, &nm,
					   ctrl_of, ev, nev, out);
	free(ev);
	return err;
}
