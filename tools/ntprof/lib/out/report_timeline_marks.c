// SPDX-License-Identifier: GPL-2.0
/*
 * report --timeline's marks: each control-path episode of the hosts'
 * controllers (a reset, a loss, a connect, ...) on the rows of the slices
 * it overlaps, and a line per episode under each group's rows with when
 * it started and ended in the timeline's seconds (since the first
 * command), so that a slow slice and the outage that explains it stand
 * side by side. JSON has the same in the timeline's "marks".
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "out/report_timeline_marks.h"

int tl_marks_make(const struct recording_run *run, int role, uint64_t t0,
		  uint64_t slice_ns, size_t nr_slices, struct tl_marks *tm)
{
	int err;

	*tm = (struct tl_marks) {
		.t0 = t0, .slice_ns = slice_ns, .nr_slices = nr_slices,
	};
	if (!slice_ns || !nr_slices)
		return 0;
	err = ctl_marks_collect(run, role, &tm->m, &tm->n);
	tm->machines = ctl_marks_machines(tm->m, tm->n);
	return err;
}

void tl_marks_free(struct tl_marks *tm)
{
	free(tm->m);
	tm->m = NULL;
	tm->n = 0;
}

/* Seconds since the timeline's first command (negative: before it). */
static double tl_s(const struct tl_marks *tm, uint64_t t)
{
	return t >= tm->t0 ? (double)(t - tm->t0) / 1e9 :
			     -((double)(tm->t0 - t) / 1e9);
}

/*
 * The rows @m overlaps, *@first to *@last; false when it overlaps none
 * (wholly before the first command, or after the last slice). An
 * episode's end is exclusive: one that ends on a slice's start leaves
 * that slice out; an instant is in the slice it falls in.
 */
static bool tl_rows(const struct tl_marks *tm, const struct ctl_mark *m,
		    size_t *first, size_t *last)
{
	uint64_t end = m->end_ns > m->start_ns ? m->end_ns - 1 : m->end_ns;
	uint64_t span = tm->slice_ns * tm->nr_slices;

	if (end < tm->t0)
		return false;
	if (m->start_ns >= tm->t0 && m->start_ns - tm->t0 >= span)
		return false;
	*first = m->start_ns > tm->t0 ?
		 (size_t)((m->start_ns - tm->t0) / tm->slice_ns) : 0;
	*last = (size_t)((end - tm->t0) / tm->slice_ns);
	if (*last >= tm->nr_slices)
		*last = tm->nr_slices - 1;
	return true;
}

void tl_marks_row(FILE *f, const struct tl_marks *tm, size_t k)
{
	size_t i, first, last;
	char name[96];

	for (i = 0; i < tm->n; i++) {
		if (!tl_rows(tm, &tm->m[i], &first, &last) || k < first ||
		    k > last)
			continue;
		ctl_mark_name(&tm->m[i], tm->machines, name, sizeof(name));
		fprintf(f, "  << %s", name);
	}
}

void tl_marks_lines(FILE *f, const struct tl_marks *tm)
{
	const struct ctl_mark *m;
	size_t i, first, last;
	char name[96];

	for (i = 0; i < tm->n; i++) {
		m = &tm->m[i];
		ctl_mark_name(m, tm->machines, name, sizeof(name));
		fprintf(f, "  << %s: ", name);
		if (m->instant)
			fprintf(f, "at %.3f s", tl_s(tm, m->start_ns));
		else if (m->open)
			fprintf(f, "%.3f s to the recording's end at %.3f s, still out (%.3f s at least)",
				tl_s(tm, m->start_ns), tl_s(tm, m->end_ns),
				ctl_mark_duration_s(m));
		else
			fprintf(f, "%.3f s to %.3f s (%.3f s)",
				tl_s(tm, m->start_ns), tl_s(tm, m->end_ns),
				ctl_mark_duration_s(m));
		if (m->kind == NTPROF_CTL_RECOVERY)
			fputs(", under way when the recording started", f);
		if (!tl_rows(tm, m, &first, &last))
			fputs(", outside the slices", f);
		fputc('\n', f);
	}
}

void tl_marks_json(struct ntprof_json *js, const struct tl_marks *tm)
{
	const struct ctl_mark *m;
	size_t i, first, last;
	char name[32];
	bool in;

	if (!tm->n)
		return;
	ntprof_json_arr_start(js, "marks");
	for (i = 0; i < tm->n; i++) {
		m = &tm->m[i];
		in = tl_rows(tm, m, &first, &last);
		snprintf(name, sizeof(name), "nvme%" PRIu32, m->ctrl);
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "type", ntprof_ctl_kind_name(m->kind));
		ntprof_json_str(js, "controller", name);
		ntprof_json_str(js, "machine", m->machine);
		ntprof_json_num(js, "start_s", tl_s(tm, m->start_ns), 6);
		ntprof_json_num(js, "end_s", tl_s(tm, m->end_ns), 6);
		ntprof_json_num(js, "duration_s", m->instant ? NAN :
				ctl_mark_duration_s(m), 6);
		ntprof_json_bool(js, "open", m->open);
		ntprof_json_num(js, "first_slice", in ? (double)first : NAN, 0);
		ntprof_json_num(js, "last_slice", in ? (double)last : NAN, 0);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
}
