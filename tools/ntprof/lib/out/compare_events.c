// SPDX-License-Identifier: GPL-2.0
/*
 * What compare says of the control path. Two runs' latencies differ by
 * stage; but a run during which a controller was reset or lost its
 * connection has commands that waited through the outage, on the head or
 * in the block layer's requeue list, and that time lands in no stage or
 * in the wrong one (Documentation/stages.rst, Resets and reconnects).
 * When one run had such an outage and the other none, the comparison
 * says so first: the difference may be the outage's. An episode without
 * an end counts to its recording's end, and says it was still out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/compare_events.h"
#include "out/html.h"
#include "out/report_events.h"

static const char *const run_name[2] = { "base", "load" };

static int side_make(const struct recording_run *run,
		     struct cmp_events_side *s)
{
	struct ntprof_ctl_event *ev;
	size_t i, nev;
	int err;

	memset(s, 0, sizeof(*s));
	/* The events dropped, which the marks do not carry. */
	err = report_events_collect(run, &ev, &nev, &s->lost);
	free(ev);
	if (!err)
		err = ctl_marks_collect(run, -1, &s->m, &s->n);
	if (err)
		return err;
	s->machines = ctl_marks_machines(s->m, s->n);
	for (i = 0; i < s->n; i++) {
		if (!ctl_mark_is_outage(s->m[i].kind))
			continue;
		s->outages++;
		s->open += s->m[i].open;
		s->outage_s += ctl_mark_duration_s(&s->m[i]);
	}
	return 0;
}

/* "loss" to "losses", "recovery" to "recoveries", "reset" to "resets". */
static void plural(char *buf, size_t size, const char *name, size_t n)
{
	size_t len = strlen(name);

	if (n == 1)
		snprintf(buf, size, "%s", name);
	else if (len && name[len - 1] == 's')
		snprintf(buf, size, "%ses", name);
	else if (len && name[len - 1] == 'y')
		snprintf(buf, size, "%.*sies", (int)(len - 1), name);
	else
		snprintf(buf, size, "%ss", name);
}

/* Appends to @buf of @size, as far as it goes. */
static void __attribute__((format(printf, 3, 4)))
append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* The run's outages one by one: "a loss on nvme1 (3.100 s)", at most 4. */
static void outages_list(char *buf, size_t size,
			 const struct cmp_events_side *s)
{
	const struct ctl_mark *m;
	size_t i, k = 0;
	char name[96];

	for (i = 0; i < s->n; i++) {
		m = &s->m[i];
		if (!ctl_mark_is_outage(m->kind))
			continue;
		if (k++ == 4) {
			append(buf, size, ", ...");
			break;
		}
		snprintf(name, sizeof(name), "nvme%" PRIu32, m->ctrl);
		append(buf, size, "%s%s%s on %s", k > 1 ? ", " : "",
		       s->outages == 1 ? "a " : "",
		       ntprof_ctl_kind_name(m->kind), name);
		if (s->machines)
			append(buf, size, " of %s", m->machine);
		append(buf, size, " (%.3f s%s)", ctl_mark_duration_s(m),
		       m->open ? " at least, still out at the recording's end" :
		       "");
	}
}

static void verdict(struct cmp_events *ce)
{
	const struct cmp_events_side *b = &ce->side[0], *l = &ce->side[1];
	int one;

	ce->verdict[0] = '\0';
	if (!b->outages && !l->outages)
		return;
	if (b->outages && l->outages) {
		snprintf(ce->verdict, sizeof(ce->verdict),
			 "both runs had outages (base %zu, %.3f s; load %zu, %.3f s): the slow commands of either may be an outage's, not a stage's",
			 b->outages, b->outage_s, l->outages, l->outage_s);
		return;
	}
	one = l->outages ? 1 : 0;
	snprintf(ce->verdict, sizeof(ce->verdict), "the %s run had ",
		 run_name[one]);
	if (ce->side[one].outages > 1)
		append(ce->verdict, sizeof(ce->verdict), "%zu outages, %.3f s in all: ",
		       ce->side[one].outages, ce->side[one].outage_s);
	outages_list(ce->verdict, sizeof(ce->verdict), &ce->side[one]);
	append(ce->verdict, sizeof(ce->verdict),
	       "; the %s run none: its slow commands may be the %s, not a stage's",
	       run_name[!one], ce->side[one].outages > 1 ? "outages'" :
	       "outage's");
}

int cmp_events_make(const struct recording_run *base,
		    const struct recording_run *load, struct cmp_events *ce)
{
	int err;

	memset(ce, 0, sizeof(*ce));
	err = side_make(base, &ce->side[0]);
	if (!err)
		err = side_make(load, &ce->side[1]);
	if (!err)
		verdict(ce);
	return err;
}

void cmp_events_free(struct cmp_events *ce)
{
	free(ce->side[0].m);
	free(ce->side[1].m);
	memset(ce, 0, sizeof(*ce));
}

bool cmp_events_any(const struct cmp_events *ce)
{
	return ce->side[0].n || ce->side[1].n || ce->side[0].lost ||
	       ce->side[1].lost;
}

/*
 * kind_count() - the number of @s's episodes of episode @i's kind when
 * @i is the first of them, 0 when an earlier one is: each kind counted
 * once, in the order the kinds first came.
 */
static size_t kind_count(const struct cmp_events_side *s, size_t i)
{
	size_t j, n = 0;

	for (j = 0; j < i; j++)
		if (s->m[j].kind == s->m[i].kind)
			return 0;
	for (j = i; j < s->n; j++)
		n += s->m[j].kind == s->m[i].kind;
	return n;
}

/* Each kind's count, in the order they first came: "2 losses, 1 reset". */
static void side_counts(FILE *f, const struct cmp_events_side *s)
{
	size_t i, n;
	char word[32];
	bool first = true;

	for (i = 0; i < s->n; i++) {
		n = kind_count(s, i);
		if (!n)
			continue;
		plural(word, sizeof(word), ntprof_ctl_kind_name(s->m[i].kind),
		       n);
		fprintf(f, "%s%zu %s", first ? "" : ", ", n, word);
		first = false;
	}
}

void cmp_events_print(FILE *f, const struct cmp_events *ce)
{
	const struct cmp_events_side *s;
	int k;

	if (!cmp_events_any(ce))
		return;
	fputs("\nevents (the controllers' control path)\n", f);
	for (k = 0; k < 2; k++) {
		s = &ce->side[k];
		fprintf(f, "  %s: ", run_name[k]);
		if (!s->n)
			fputs("none", f);
		side_counts(f, s);
		if (s->n)
			fprintf(f, "; %.3f s out", s->outage_s);
		if (s->open)
			fprintf(f, " (%zu still out at the recording's end)",
				s->open);
		if (s->lost)
			fprintf(f, "; %" PRIu64 " events lost", s->lost);
		fputc('\n', f);
	}
}

void cmp_events_html(FILE *f, const struct cmp_events *ce)
{
	char *buf = NULL, *s;
	const char *line, *end;
	size_t size = 0, indent;
	FILE *m;

	if (!cmp_events_any(ce))
		return;
	/* The text's own lines, so that the page says what the text says. */
	m = open_memstream(&buf, &size);
	if (!m)
		return;
	cmp_events_print(m, ce);
	if (fclose(m)) {
		free(buf);
		return;
	}
	fputs("<section class=\"events\">\n", f);
	for (line = buf; *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (end == line)
			continue;
		indent = strspn(line, " ");
		s = strndup(line + indent, (size_t)(end - line) - indent);
		if (!s)
			break;
		fputs(indent ? "<p class=\"events-run\">" : "<h2>", f);
		html_escape(f, s);
		fputs(indent ? "</p>\n" : "</h2>\n", f);
		free(s);
	}
	if (ce->verdict[0]) {
		fputs("<p class=\"answer outage\">outage: ", f);
		html_escape(f, ce->verdict);
		fputs("</p>\n", f);
	}
	fputs("</section>\n", f);
	free(buf);
}

void cmp_events_print_verdict(FILE *f, const struct cmp_events *ce)
{
	if (ce->verdict[0])
		fprintf(f, "\noutage: %s\n", ce->verdict);
}

void cmp_events_json_side(struct ntprof_json *js, const struct cmp_events *ce,
			  bool load)
{
	const struct cmp_events_side *s = &ce->side[load];
	size_t i, n;

	if (!cmp_events_any(ce))
		return;
	ntprof_json_obj_start(js, "events");
	ntprof_json_obj_start(js, "episodes");
	for (i = 0; i < s->n; i++) {
		n = kind_count(s, i);
		if (n)
			ntprof_json_u64(js, ntprof_ctl_kind_name(s->m[i].kind),
					n);
	}
	ntprof_json_obj_end(js);
	ntprof_json_u64(js, "outages", s->outages);
	ntprof_json_num(js, "outage_s", s->outage_s, 6);
	ntprof_json_u64(js, "open", s->open);
	ntprof_json_u64(js, "lost", s->lost);
	ntprof_json_obj_end(js);
}
