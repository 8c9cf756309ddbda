// SPDX-License-Identifier: GPL-2.0
/*
 * report --json: the document (schema "ntprof-report/1") holds the
 * numbers of the report's tables:
 *
 *   schema, recorded_on {hostname, kernel}, sample, duration_s, span_s,
 *   records {host, target, matched, unusable, sampled, matched_pct},
 *   join {pairs, windows, theta_known, theta_from_hint, theta_ns,
 *         theta_min_ns, theta_max_ns},
 *   throughput [{op, commands_per_s, bytes_per_s}],
 *   groups [{label, op, size, device, side, kind, transport, n, n_joined,
 *            n_table, n_unusable, rate_per_s,
 *            latency_us {mean, min, p50, p99, p999, max},
 *            stages [{id, name, mean_us, share_pct, avg_qd}], largest,
 *            components [{id, name, n, mean_us, L, p50_us, p99_us,
 *                         p999_us, merged [id], merged_n}],
 *            dropped, wire_negative,
 *            outage {commands, tries, aborted_mean_s, wait_mean_s,
 *                    wait_max_s, events [name]},
 *            chained groups: n_followed, hops [...], legs [...]}],
 *   chain {origin, followed, middles [...], notes [...]}: with chains
 *
 * Times are microseconds with three decimals (the records' nanoseconds);
 * a value that does not exist is null. Version 1 only grows: a member is
 * never renamed or given another meaning without a new schema number.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/names.h"
#include "common/util.h"
#include "out/report_json.h"

static const char *kind_id(enum ntprof_kind kind)
{
	switch (kind) {
	case NTPROF_KIND_JOINED:
		return "joined";
	case NTPROF_KIND_TARGET:
		return "target";
	default:
		return "host";
	}
}

/* A group's "latency_us": its end to end. */
static void json_latency(struct ntprof_json *js, const struct ntprof_stats *st)
{
	ntprof_json_obj_start(js, "latency_us");
	ntprof_json_num(js, "mean", st->mean / 1e3, 3);
	ntprof_json_num(js, "min", st->min / 1e3, 3);
	ntprof_json_num(js, "p50", st->p50 / 1e3, 3);
	ntprof_json_num(js, "p99", st->p99 / 1e3, 3);
	ntprof_json_num(js, "p999", st->p999 / 1e3, 3);
	ntprof_json_num(js, "max", st->max / 1e3, 3);
	ntprof_json_obj_end(js);
}

/* A group's "stages", in path order, and "largest". */
static void json_stages(struct ntprof_json *js, const struct ntprof_group *g)
{
	size_t i;
	int s;

	ntprof_json_arr_start(js, "stages");
	for (i = 0; i < NTPROF_STAGE_COUNT; i++) {
		s = ntprof_stage_order[i];
		if (!(g->stage_has & BIT(s)))
			continue;
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "id", ntprof_stage_id(s));
		ntprof_json_str(js, "name",
				ntprof_stage_name(s, g->transport, g->kind,
						  g->stacks));
		ntprof_json_num(js, "mean_us", g->stage_mean[s] / 1e3, 3);
		ntprof_json_num(js, "share_pct", g->stage_share[s], 2);
		ntprof_json_num(js, "avg_qd", g->stage_qd[s], 4);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
	ntprof_json_str(js, "largest", g->largest < 0 ? NULL :
			ntprof_stage_name(g->largest, g->transport, g->kind,
					  g->stacks));
}

/* A group's "components": those on its path, merged ones included. */
static void json_components(struct ntprof_json *js,
			    const struct ntprof_group *g)
{
	const struct ntprof_stats *st;
	int c, k;

	ntprof_json_arr_start(js, "components");
	for (c = 0; c < NTPROF_COMP_COUNT; c++) {
		st = &g->comp[c];
		if (!st->n && ntprof_group_merged_into(g, c) < 0)
			continue;
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "id", ntprof_comp_id(c));
		ntprof_json_str(js, "name",
				ntprof_comp_name(c, g->transport, g->stacks));
		ntprof_json_u64(js, "n", st->n);
		ntprof_json_num(js, "mean_us", st->mean / 1e3, 3);
		ntprof_json_num(js, "L", g->comp_qd[c], 4);
		ntprof_json_num(js, "p50_us", st->p50 / 1e3, 3);
		ntprof_json_num(js, "p99_us", st->p99 / 1e3, 3);
		ntprof_json_num(js, "p999_us", st->p999 / 1e3, 3);
		ntprof_json_arr_start(js, "merged");
		for (k = 0; k < NTPROF_COMP_COUNT; k++)
			if (g->merged[c] & BIT(k))
				ntprof_json_str(js, NULL, ntprof_comp_id(k));
		ntprof_json_arr_end(js);
		ntprof_json_u64(js, "merged_n", g->merged_n[c]);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
}

/*
 * A group's "outage": the commands that waited through one, their tries,
 * the outage stage over them alone, the episodes that overlapped it.
 */
static void json_outage(struct ntprof_json *js, const struct ntprof_group *g)
{
	const struct ntprof_stats *a = &g->comp[NTPROF_COMP_ABORTED_TRIES];
	const struct ntprof_stats *w = &g->comp[NTPROF_COMP_OUTAGE_WAIT];
	const char *p = g->outage_events, *end;

	ntprof_json_obj_start(js, "outage");
	ntprof_json_u64(js, "commands", g->n_outage);
	ntprof_json_u64(js, "tries", g->outage_tries);
	ntprof_json_num(js, "aborted_mean_s", a->n ? a->mean / 1e9 : NAN, 6);
	ntprof_json_num(js, "wait_mean_s", w->n ? w->mean / 1e9 : NAN, 6);
	ntprof_json_num(js, "wait_max_s", w->n ? w->max / 1e9 : NAN, 6);
	ntprof_json_arr_start(js, "events");
	while (*p) {
		char name[sizeof(g->outage_events)];

		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		snprintf(name, sizeof(name), "%.*s", (int)(end - p), p);
		ntprof_json_str(js, NULL, name);
		p = *end ? end + 2 : end;
	}
	ntprof_json_arr_end(js);
	ntprof_json_obj_end(js);
}

static void json_group(struct ntprof_json *js, const struct ntprof_group *g,
		       const struct ntprof_report_meta *meta)
{
	ntprof_json_obj_start(js, NULL);
	ntprof_json_str(js, "label", g->label);
	ntprof_json_str(js, "op", ntprof_opclass_name(g->op));
	ntprof_json_u64(js, "size", g->length);
	ntprof_json_str(js, "device", g->devname);
	if (g->host)
		ntprof_json_str(js, "host", g->host);
	if (g->by & NTPROF_BY_QUEUE)
		ntprof_json_u64(js, "queue", g->qid);
	if (g->by & NTPROF_BY_CPU)
		ntprof_json_u64(js, "cpu", g->cpu);
	if (g->by & NTPROF_BY_CCPU)
		ntprof_json_u64(js, "completion_cpu", g->ccpu);
	if (g->by & NTPROF_BY_PID)
		ntprof_json_u64(js, "pid", g->pid);
	if (g->by & NTPROF_BY_PATH) {
		ntprof_json_obj_start(js, "path");
		if (g->target_side) {
			ntprof_json_u64(js, "cntlid", g->path);
		} else {
			ntprof_json_u64(js, "dev", g->path);
			ntprof_json_str(js, "controller", g->path_ctrl);
			ntprof_json_str(js, "address", g->path_address);
		}
		ntprof_json_obj_end(js);
	}
	ntprof_json_str(js, "side", g->target_side ? "target" : "host");
	ntprof_json_str(js, "kind", kind_id(g->kind));
	ntprof_json_str(js, "transport", ntprof_transport_id(g->transport));
	ntprof_json_u64(js, "n", g->n);
	ntprof_json_u64(js, "n_joined", g->n_joined);
	ntprof_json_u64(js, "n_table", g->n_table);
	ntprof_json_u64(js, "n_unusable", g->n_unusable);
	ntprof_json_num(js, "rate_per_s", g->rate, 1);
	json_latency(js, &g->comp[NTPROF_COMP_E2E]);
	json_stages(js, g);
	json_components(js, g);
	ntprof_json_u64(js, "dropped", g->dropped);
	ntprof_json_u64(js, "wire_negative", g->wire_negative);
	json_outage(js, g);
	if (meta && meta->group_extra)
		meta->group_extra(js, g, meta->group_extra_arg);
	ntprof_json_obj_end(js);
}

static void json_files(struct ntprof_json *js,
		       const struct ntprof_report_meta *meta)
{
	const struct ntprof_report_file *rf;
	size_t i;

	ntprof_json_arr_start(js, "files");
	for (i = 0; i < meta->nr_files; i++) {
		rf = &meta->files[i];
		ntprof_json_obj_start(js, NULL);
		ntprof_json_str(js, "path", rf->path);
		ntprof_json_str(js, "role", rf->role == NTPROF_ROLE_HOST ?
				"host" : "target");
		ntprof_json_str(js, "transport", ntprof_transport_id(rf->transport));
		ntprof_json_str(js, "hostname", rf->hostname);
		ntprof_json_str(js, "kernel", rf->kernel);
		ntprof_json_u64(js, "records", rf->records);
		ntprof_json_bool(js, "cut_short", rf->cut_short);
		ntprof_json_u64(js, "drops", rf->drops);
		ntprof_json_u64(js, "evictions", rf->evictions);
		ntprof_json_obj_end(js);
	}
	ntprof_json_arr_end(js);
}

/* The records of @meta's files of @role. */
static uint64_t meta_records(const struct ntprof_report_meta *meta,
			     uint8_t role)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < meta->nr_files; i++)
		if (meta->files[i].role == role)
			n += meta->files[i].records;
	return n;
}

void ntprof_print_json(FILE *f, const struct ntprof_analysis *an,
		       const struct ntprof_join *j,
		       const struct ntprof_report_meta *meta)
{
	int side = an->nr_host ? 0 : 1;
	struct ntprof_json js;
	double dur = an->duration_s, span = NAN, rdur;
	size_t i;
	int op;

	ntprof_json_init(&js, f);
	ntprof_json_obj_start(&js, NULL);
	ntprof_json_str(&js, "schema", NTPROF_REPORT_SCHEMA);
	if (meta) {
		ntprof_json_obj_start(&js, "recorded_on");
		ntprof_json_str(&js, "hostname", meta->hostname);
		ntprof_json_str(&js, "kernel", meta->kernel);
		ntprof_json_obj_end(&js);
		json_files(&js, meta);
	}
	ntprof_json_u64(&js, "sample", an->opts.sample);
	ntprof_json_num(&js, "duration_s", dur, 3);
	/* The span the commands ran in: the rates' when rates_over_span. */
	if (an->last_ns[side] > an->first_ns[side])
		span = (double)(an->last_ns[side] - an->first_ns[side]) / 1e9;
	ntprof_json_num(&js, "span_s", span, 6);
	rdur = an->opts.rates_over_span && span > 0 ? span : dur;

	/*
	 * The records read, as the text's records line counts them; the
	 * sampled ones are those of the numbers, and the share matched is
	 * of those.
	 */
	ntprof_json_obj_start(&js, "records");
	ntprof_json_u64(&js, "host", meta ? meta_records(meta, NTPROF_ROLE_HOST) :
			an->nr_host);
	ntprof_json_u64(&js, "target", j ? j->nr_target : meta ?
			meta_records(meta, NTPROF_ROLE_TARGET) :
			an->nr_target);
	ntprof_json_u64(&js, "matched", j ? j->matched : an->nr_joined);
	ntprof_json_u64(&js, "unusable", an->nr_unusable);
	ntprof_json_u64(&js, "sampled", an->nr_host ? an->nr_host :
			an->nr_target);
	ntprof_json_num(&js, "matched_pct", j && an->nr_host ?
			100.0 * (double)an->nr_joined / (double)an->nr_host :
			NAN, 2);
	ntprof_json_obj_end(&js);

	if (j) {
		ntprof_json_obj_start(&js, "join");
		ntprof_json_u64(&js, "pairs", j->pairs);
		ntprof_json_u64(&js, "windows", j->windows);
		ntprof_json_bool(&js, "theta_known", j->theta_known);
		ntprof_json_bool(&js, "theta_from_hint", j->theta_from_hint);
		ntprof_json_i64(&js, "theta_ns", j->theta_ns);
		ntprof_json_i64(&js, "theta_min_ns", j->theta_min_ns);
		ntprof_json_i64(&js, "theta_max_ns", j->theta_max_ns);
		ntprof_json_obj_end(&js);
	}

	ntprof_json_arr_start(&js, "throughput");
	for (op = 0; op < NTPROF_OPC_COUNT; op++) {
		if (!an->ops[side][op])
			continue;
		ntprof_json_obj_start(&js, NULL);
		ntprof_json_str(&js, "op", ntprof_opclass_name(op));
		ntprof_json_num(&js, "commands_per_s", rdur > 0 ?
				(double)an->ops[side][op] * an->opts.sample /
				rdur : NAN, 1);
		ntprof_json_num(&js, "bytes_per_s", rdur > 0 ?
				(double)an->bytes[side][op] * an->opts.sample /
				rdur : NAN, 1);
		ntprof_json_obj_end(&js);
	}
	ntprof_json_arr_end(&js);

	ntprof_json_arr_start(&js, "groups");
	for (i = 0; i < an->nr_groups; i++)
		json_group(&js, &an->groups[i], meta);
	ntprof_json_arr_end(&js);
	if (meta && meta->extra)
		meta->extra(&js, meta->extra_arg);
	ntprof_json_obj_end(&js);
}
