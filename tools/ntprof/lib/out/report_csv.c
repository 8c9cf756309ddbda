// SPDX-License-Identifier: GPL-2.0
/*
 * ntprof report --csv: one row per command, for pandas and R. A run with
 * host recordings has a row per host record, with its target record's
 * points beside it when the join found one; a run of targets alone, a row
 * per target record. Every row has the command's identity, every point of
 * both sides (CLOCK_MONOTONIC ns of that side's machine, empty when not
 * seen), and each stage and component of its breakdown in ns (empty when
 * absent), as the report's tables count them (Documentation/report.rst).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/recording.h"
#include "analysis/report_rows.h"
#include "common/names.h"
#include "common/util.h"
#include "out/report_chain.h"
#include "out/report_csv.h"
#include "out/table.h"


/* Column names of enum ntprof_point. */
static const char *const point_id[] = {
	"host_blk_start", "host_queue_rq", "host_setup", "host_blk_issue",
	"host_send", "host_send_done", "host_r2t", "host_recv",
	"host_driver_done", "host_nvme_complete", "host_blk_complete",
	"target_recv", "target_init", "target_r2t", "target_data",
	"target_exec", "target_blk_issue", "target_blk_complete",
	"target_complete", "target_queue_resp", "target_send",
	"target_send_done",
};
_Static_assert(ARRAY_SIZE(point_id) == NTPROF_PT_COUNT,
	       "a point without a CSV column");

static void csv_header(FILE *f, const struct recording_run *run)
{
	int i;

	fputs("file,role,transport,qid,cid,opcode,nsid,slba,length,status,flags,"
	      "cpu_submit,cpu_complete,dev,target_file,usable", f);
	for (i = 0; i < NTPROF_PT_COUNT; i++)
		fprintf(f, ",%s_ns", point_id[i]);
	for (i = 0; i < NTPROF_STAGE_COUNT; i++)
		fprintf(f, ",stage_%s_ns", ntprof_stage_id(i));
	for (i = 0; i < NTPROF_COMP_COUNT; i++)
		fprintf(f, ",%s_ns", ntprof_comp_id(i));
	/* A run of chains: each origin command's hops and legs after. */
	report_chain_csv_header(f, run);
	fputc('\n', f);
}

struct csv_out {
	FILE *f;
	const struct recording_run *run;
};

void report_csv_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A row: the command's identity, every point of both sides, its parts. */
static int csv_row(const struct report_row *row, void *arg)
{
	const struct ntprof_record *r = row->host ? row->host : row->target;
	const struct ntprof_breakdown *bd = &row->bd;
	const struct csv_out *out = arg;
	FILE *f = out->f;
	int i;

	report_csv_quoted(f, row->host ? row->host_path : row->target_path);
	fprintf(f, ",%s,%s,%u,%u,%u,%u,%" PRIu64 ",%u,%u,%u,%u,%u,%u,",
		r->role == NTPROF_ROLE_HOST ? "host" : "target",
		ntprof_transport_id(r->transport) ?: "", r->qid, r->cid, r->opcode, r->nsid,
		(uint64_t)r->slba, r->length, r->status, r->flags,
		r->cpu_submit, r->cpu_complete, r->dev);
	if (row->host && row->target)
		report_csv_quoted(f, row->target_path);
	fprintf(f, ",%d", row->usable);
	for (i = 0; i < NTPROF_PT_COUNT; i++) {
		const struct ntprof_record *side =
			i < NTPROF_PT_TARGET_RECV ? row->host : row->target;

		if (side && side->ts[i])
			fprintf(f, ",%" PRIu64, (uint64_t)side->ts[i]);
		else
			fputc(',', f);
	}
	for (i = 0; i < NTPROF_STAGE_COUNT; i++) {
		if (row->usable && (bd->stage_has & (1U << i)))
			fprintf(f, ",%" PRId64, bd->stage[i]);
		else
			fputc(',', f);
	}
	for (i = 0; i < NTPROF_COMP_COUNT; i++) {
		if (row->usable && (bd->has & (1U << i)))
			fprintf(f, ",%" PRId64, bd->comp[i]);
		else
			fputc(',', f);
	}
	report_chain_csv_row(f, out->run, row->host);
	fputc('\n', f);
	return 0;
}

int report_csv_write(FILE *f, const struct recording_run *run)
{
	struct csv_out out = { f, run };
	int err;

	csv_header(f, run);
	/* A streamed run's second pass can fail: its reader said why. */
	err = report_rows_each(run, csv_row, &out);
	fflush(f);
	return err ? err : ferror(f) ? -EIO : 0;
}
