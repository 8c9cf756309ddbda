/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scratch directory of a C unit test that builds programs to read
 * (test_elfsite, test_dwbudget): made under $TMPDIR (or /tmp) and entered,
 * so that the commands the test runs write there, and removed with the
 * files the test names when it ends or bails out. The helpers are static
 * functions in a header, as tap.h's are, because each test program has
 * one scratch directory of its own.
 */
#ifndef NTPROF_SELFTESTS_SCRATCH_H
#define NTPROF_SELFTESTS_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static char scratch_dir[256];
static const char *const *scratch_files;
static size_t scratch_nr_files;

/* File @name of the scratch directory, in one of tap_path()'s buffers. */
static inline const char *scratch_path(const char *name)
{
	return tap_path(scratch_dir, name);
}

/* Removes the files scratch_enter() was given and the directory. */
static inline void scratch_cleanup(void)
{
	tap_rmdir(scratch_dir, scratch_files, scratch_nr_files);
}

/* Ends the test with TAP's line saying why, the directory removed. */
static inline void __attribute__((noreturn)) scratch_bail(const char *what)
{
	printf("Bail out! %s\n", what);
	scratch_cleanup();
	exit(1);
}

/*
 * Makes test @test's scratch directory, @test.XXXXXX under $TMPDIR (or
 * /tmp), and enters it; @files are the @nr_files names that
 * scratch_cleanup() removes from it. Then begins the TAP output, line by
 * line so that what passed stays on record should the test crash.
 */
static inline void scratch_enter(const char *test, const char *const *files,
				 size_t nr_files)
{
	const char *tmp = getenv("TMPDIR");

	scratch_files = files;
	scratch_nr_files = nr_files;
	snprintf(scratch_dir, sizeof(scratch_dir), "%s/%s.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp", test);
	if (!mkdtemp(scratch_dir) || chdir(scratch_dir))
		scratch_bail("mkdtemp");
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
}

/*
 * scratch_main() - the whole main() of a test whose cases run in a
 * scratch directory and need nothing else set up: the options (-l, -t
 * NAME), the directory entered with its @nr_files @files, the cases,
 * the directory removed, the exit status.
 */
static inline int scratch_main(int argc, char **argv, const char *test,
			       const struct tap_case *cases, size_t nr_cases,
			       const char *const *files, size_t nr_files)
{
	if (tap_args(argc, argv, cases, nr_cases) != argc)
		tap_usage(test);
	scratch_enter(test, files, nr_files);
	tap_run(cases, nr_cases);
	scratch_cleanup();
	return tap_done(test);
}

#endif /* NTPROF_SELFTESTS_SCRATCH_H */
