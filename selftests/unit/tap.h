/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP for the tool's C unit tests: ok() prints one test's line and counts
 * it, tap_done() prints the plan and the tally and gives the exit status.
 *
 * Each program declares its cases in a table of named functions and runs
 * them with tap_main() (or tap_args() and tap_run(), when its main() has
 * more to do), so that every program takes the same options:
 *
 *	-l		print the names of the cases, one a line, and exit
 *	-t NAME		run only case NAME (may be given more than once)
 *
 * for example "./test_ntp -t damaged".
 */
#ifndef NTPROF_SELFTESTS_TAP_H
#define NTPROF_SELFTESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/*
 * The tally of checks run and failed. A program built from several files
 * (test_ntp, test_analysis) keeps one tally for all of them: its shared
 * header defines TAP_SHARED_TALLY before it includes this one, and one of
 * its files defines the two counters.
 */
#ifdef TAP_SHARED_TALLY
extern int tests, failed;
#else
static int tests, failed;
#endif

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

/* Ends the program with TAP's "Bail out!" line, saying why. */
static void __attribute__((format(printf, 1, 2), noreturn, unused))
tap_bail(const char *fmt, ...)
{
	va_list ap;

	fputs("Bail out! ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(1);
}

/*
 * ok N - DESC # SKIP not installed: WHAT. A check that needs a tool this
 * machine lacks reports this line instead of failing, so that a test run on
 * its own says what to install; run_tests.sh counts such a skip as a
 * failure under CHECK_STRICT=1, as make check runs.
 */
static void __attribute__((unused))
tap_skip_missing(const char *desc, const char *what)
{
	tests++;
	printf("ok %d - %s # SKIP not installed: %s\n", tests, desc, what);
}

/*
 * tap_capture() - run @fn(@arg) with file descriptor @fd (standard output
 * or standard error) sent to a temporary file, and return what it wrote,
 * in a buffer that the next call reuses; "(cannot capture)" when the
 * descriptor cannot be moved.
 */
static __attribute__((unused)) const char *
tap_capture(int fd, void (*fn)(void *arg), void *arg)
{
	static char out[8192];
	FILE *f = tmpfile();
	int saved = dup(fd);
	size_t n;

	if (!f || saved < 0 || fflush(NULL) || dup2(fileno(f), fd) < 0) {
		if (f)
			fclose(f);
		if (saved >= 0)
			close(saved);
		return "(cannot capture)";
	}
	fn(arg);
	fflush(NULL);
	dup2(saved, fd);
	close(saved);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	return out;
}

/*
 * tap_same() - check that @got is the text @want, and show both when it
 * is not (@got may be NULL: nothing).
 */
static bool __attribute__((unused))
tap_same(const char *got, const char *want, const char *desc)
{
	if (ok(got && !strcmp(got, want), "%s", desc))
		return true;
	printf("# want:\n%s\n# got:\n%s\n", want, got ? got : "(nothing)");
	return false;
}

/*
 * tap_has_line() - whether @line is one whole line of @text (@text may be
 * NULL: no line). Printed tables are checked a row at a time with it, so
 * that a row's neighbours may change without breaking the check.
 */
static bool __attribute__((unused))
tap_has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/*
 * tap_slurp() - the text of the file at @path, in a buffer that the next
 * call reuses (its first 8 MiB), or NULL when it cannot be opened.
 */
static __attribute__((unused)) char *tap_slurp(const char *path)
{
	static char buf[8 << 20];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* tap_have() - whether program @prog is in a directory of $PATH. */
static bool __attribute__((unused)) tap_have(const char *prog)
{
	const char *path = getenv("PATH");
	char file[4096];
	size_t len;

	while (path && *path) {
		len = strcspn(path, ":");
		if (snprintf(file, sizeof(file), "%.*s/%s", (int)len, path,
			     prog) < (int)sizeof(file) &&
		    access(file, X_OK) == 0)
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

/* A case of a test program: a function that calls ok(), and its name. */
struct tap_case {
	const char *name;
	void (*run)(void);
};

#define TAP_NR_CASES(cases) (sizeof(cases) / sizeof((cases)[0]))

/* The names -t gave; none means every case. */
static const char *tap_only[32];
static unsigned int tap_nr_only;

static void __attribute__((noreturn, unused)) tap_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-l] [-t NAME]... [ARG...]\n", prog);
	exit(2);
}

/*
 * tap_args() - read the options every test program takes, -l and -t NAME,
 * against the @n cases of table @cases. Exits after -l, and with status 2
 * and a one-line error on a name that is not a case's. Returns the index in
 * @argv of the first argument after them, for a program's own arguments.
 */
static int __attribute__((unused))
tap_args(int argc, char **argv, const struct tap_case *cases, size_t n)
{
	const char *prog = argc ? argv[0] : "test";
	size_t i, j;
	int a = 1;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(cases[i].name, cases[j].name)) {
				fprintf(stderr, "%s: two cases named %s\n",
					prog, cases[i].name);
				exit(2);
			}
	while (a < argc && argv[a][0] == '-' && argv[a][1] &&
	       !argv[a][2] && strchr("lt", argv[a][1])) {
		if (argv[a][1] == 'l') {
			for (i = 0; i < n; i++)
				printf("%s\n", cases[i].name);
			exit(0);
		}
		if (a + 1 >= argc || tap_nr_only == TAP_NR_CASES(tap_only))
			tap_usage(prog);
		for (i = 0; i < n && strcmp(cases[i].name, argv[a + 1]); i++)
			;
		if (i == n) {
			fprintf(stderr, "%s: no case named %s (-l lists them)\n",
				prog, argv[a + 1]);
			exit(2);
		}
		tap_only[tap_nr_only++] = argv[a + 1];
		a += 2;
	}
	return a;
}

/* tap_wanted() - whether the options let case @name run. */
static bool __attribute__((unused)) tap_wanted(const char *name)
{
	unsigned int i;

	for (i = 0; i < tap_nr_only; i++)
		if (!strcmp(tap_only[i], name))
			return true;
	return !tap_nr_only;
}

/* tap_run() - run the cases of table @cases that the options let run. */
static void __attribute__((unused))
tap_run(const struct tap_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tap_wanted(cases[i].name))
			cases[i].run();
}

/*
 * tap_main() - the whole main() of a program whose cases need nothing
 * else: read the options, run the cases, and return tap_done()'s status.
 */
static int __attribute__((unused))
tap_main(int argc, char **argv, const char *name,
	 const struct tap_case *cases, size_t n)
{
	if (tap_args(argc, argv, cases, n) != argc)
		tap_usage(name);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	tap_run(cases, n);
	return tap_done(name);
}

#endif /* NTPROF_SELFTESTS_TAP_H */
