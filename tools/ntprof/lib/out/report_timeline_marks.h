/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --timeline's marks (report_timeline_marks.c): the control-path
 * episodes on the timeline's clock, so that a reader sees which slow
 * slices an outage explains.
 */
#ifndef NTPROF_REPORT_TIMELINE_MARKS_H
#define NTPROF_REPORT_TIMELINE_MARKS_H

#include <stdio.h>

#include "out/ctl_marks.h"
#include "out/json.h"

struct tl_marks {
	struct ctl_mark *m;
	size_t n;
	bool machines;		/* from more than one machine: name it */
	uint64_t t0, slice_ns;	/* the timeline's first command, its slices */
	size_t nr_slices;
};

/*
 * tl_marks_make() - the marks of @run's files of @role (the timeline's
 * side: its clock) on a timeline of @nr_slices slices of @slice_ns from
 * @t0. 0 or -ENOMEM; free with tl_marks_free().
 */
int tl_marks_make(const struct recording_run *run, int role, uint64_t t0,
		  uint64_t slice_ns, size_t nr_slices, struct tl_marks *tm);
void tl_marks_free(struct tl_marks *tm);

/* After slice @k's row: "  << loss nvme1" per episode in the slice. */
void tl_marks_row(FILE *f, const struct tl_marks *tm, size_t k);
/* Under a group's rows: a line per episode, when and how long. */
void tl_marks_lines(FILE *f, const struct tl_marks *tm);
/* "marks": [...] in the timeline's object, when there are any. */
void tl_marks_json(struct ntprof_json *js, const struct tl_marks *tm);

#endif /* NTPROF_REPORT_TIMELINE_MARKS_H */
