/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP for the tool's C unit tests: ok() prints one test's line and counts
 * it, tap_done() prints the plan and the tally and gives the exit status.
 */
#ifndef NTPROF_SELFTESTS_TAP_H
#define NTPROF_SELFTESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * @name in the test's scratch directory @dir, in one of 8 buffers used
 * in turn, so that a few such paths can be live at once.
 */
static inline const char *tap_path(const char *dir, const char *name)
{
	static char paths[8][512];
	static int i;

	i = (i + 1) % 8;
	snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, name);
	return paths[i];
}

/* Remove the @n @files of scratch directory @dir, and it; not with KEEP_TMP. */
static inline void tap_rmdir(const char *dir, const char *const *files,
			     size_t n)
{
	size_t i;

	if (getenv("KEEP_TMP"))
		return;
	for (i = 0; i < n; i++)
		unlink(tap_path(dir, files[i]));
	rmdir(dir);
}

static int tests, failed;

static bool __attribute__((format(printf, 2, 3), unused))
ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!cond)
		failed++;
	printf("%sok %d - ", cond ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return cond;
}

/* A diagnostic line, which TAP readers show and do not count. */
static void __attribute__((format(printf, 1, 2), unused))
diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* The exit status of test program @name: 1 if any test failed. */
static int __attribute__((unused)) tap_done(const char *name)
{
	printf("1..%d\n", tests);
	printf("%s: %d passed, %d failed\n", name, tests - failed, failed);
	return failed ? 1 : 0;
}

#endif /* NTPROF_SELFTESTS_TAP_H */
