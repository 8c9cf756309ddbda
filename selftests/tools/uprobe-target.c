// SPDX-License-Identifier: GPL-2.0
/*
 * A program for the uprobe sites' tests: it runs "jobs" through three
 * functions of its own, at a steady rate, each taking a pointer to its
 * own structs, so that a test can put sites on them and check what the
 * module recorded against what the program did.
 *
 *   uprobe-target run COUNT INTERVAL_US   run COUNT jobs (0: until killed),
 *                                         one every INTERVAL_US, then print
 *                                         "done COUNT"
 *   uprobe-target list COUNT              each job's identity, one a line:
 *                                         qid cid opcode nsid slba nlb
 *   uprobe-target layout                  the member offsets a spec needs
 *
 * A job's identity depends on its number only, so "list" tells what
 * "run" will do. The functions are noinline and their arguments are
 * used, so that each has an entry of its own that takes them in the
 * argument registers; the lab takes their offsets with nm and readelf.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The namespace a job belongs to, one pointer away from the job. */
struct ut_space {
	uint32_t flags;
	uint32_t space_id;
};

/* A job, as ut_begin() gets it. */
struct ut_job {
	uint64_t serial;
	struct ut_space *space;
	uint16_t lane;
	uint16_t ticket;
	uint8_t kind;
	uint8_t pad[3];
	uint64_t first_block;
	uint32_t block_count;	/* 0-based, as NVMe's NLB */
	uint32_t state;
};

/* The job's work, as ut_work() gets it: the job is a pointer away. */
struct ut_work {
	uint32_t step;
	uint32_t unused;
	struct ut_job *job;
};

/* Keeps the compiler from folding the calls away. */
static volatile uint64_t ut_sink;

__attribute__((noinline)) void ut_begin(struct ut_job *job)
{
	job->state = 1;
	ut_sink += job->serial;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void ut_work(struct ut_work *w)
{
	w->step++;
	w->job->state = 2;
	ut_sink += w->step;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void ut_end(int status, struct ut_job *job)
{
	job->state = 3 + status;
	ut_sink += job->state;
	__asm__ volatile("" ::: "memory");
}

static struct ut_space ut_spaces[2] = {
	{ .flags = 1, .space_id = 7 },
	{ .flags = 1, .space_id = 9 },
};

/* Job i's identity: every field varies, none is 0 for long. */
static void ut_job_fill(struct ut_job *job, uint64_t i)
{
	memset(job, 0, sizeof(*job));
	job->serial = i;
	job->space = &ut_spaces[i % 2];
	job->lane = 1 + i % 4;
	job->ticket = (uint16_t)(i * 3 + 1);
	job->kind = i % 3 ? 2 : 1;
	job->first_block = i * 8 + 1000;
	job->block_count = i % 8;
}

static int ut_run(uint64_t count, long interval_us)
{
	struct timespec next;
	/* Two jobs in turn: the key of a job in flight is its address. */
	struct ut_job jobs[2];
	struct ut_work w;
	uint64_t i;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; !count || i < count; i++) {
		struct ut_job *job = &jobs[i % 2];

		ut_job_fill(job, i);
		ut_begin(job);
		w.step = 0;
		w.job = job;
		ut_work(&w);
		ut_end(0, job);

		next.tv_nsec += interval_us * 1000;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (i % 1000 == 999) {
			printf("ran %" PRIu64 "\n", i + 1);
			fflush(stdout);
		}
	}
	printf("done %" PRIu64 "\n", i);
	return 0;
}

static int ut_list(uint64_t count)
{
	struct ut_job job;
	uint64_t i;

	for (i = 0; i < count; i++) {
		ut_job_fill(&job, i);
		printf("%u %u %u %u %" PRIu64 " %u\n", job.lane, job.ticket,
		       job.kind, job.space->space_id, job.first_block,
		       job.block_count);
	}
	return 0;
}

static int ut_layout(void)
{
	printf("job_space %zu\n", offsetof(struct ut_job, space));
	printf("job_lane %zu\n", offsetof(struct ut_job, lane));
	printf("job_ticket %zu\n", offsetof(struct ut_job, ticket));
	printf("job_kind %zu\n", offsetof(struct ut_job, kind));
	printf("job_first_block %zu\n", offsetof(struct ut_job, first_block));
	printf("job_block_count %zu\n", offsetof(struct ut_job, block_count));
	printf("space_id %zu\n", offsetof(struct ut_space, space_id));
	printf("work_job %zu\n", offsetof(struct ut_work, job));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "run"))
		return ut_run(strtoull(argv[2], NULL, 0),
			      strtol(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "list"))
		return ut_list(strtoull(argv[2], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "layout"))
		return ut_layout();
	fputs("usage: uprobe-target run COUNT INTERVAL_US | list COUNT | layout\n",
	      stderr);
	return 2;
}
