/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files report and compare write (--csv, --html): never over a
 * recording, and never half written (out_file.c).
 */
#ifndef NTPROF_OUT_FILE_H
#define NTPROF_OUT_FILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Whether @opt's output @path may be written: not one of the @nr
 * @inputs (by name or as the same file), and no file that starts with
 * the .ntp magic (a recording, or a part of one, given or not). -1 when
 * it may, else 1 after a one-line message for @cmd.
 */
int out_file_check(const char *cmd, const char *opt, const char *path,
		   char *const inputs[], size_t nr);

/* An output being written: a temporary file beside the path, renamed. */
struct out_file {
	FILE *f;
	const char *path;
	char *tmp;
};

/*
 * Opens a temporary file in @path's directory; 0, or 1 after a one-line
 * message for @cmd.
 */
int out_file_open(struct out_file *o, const char *cmd, const char *path);
/*
 * Closes the temporary file and, when @err (the writer's, -errno) is 0
 * and the close succeeds, renames it over the path; else removes it and
 * leaves the path as it was. 0, or 1 after a one-line message for @cmd.
 */
int out_file_close(struct out_file *o, const char *cmd, int err);

#endif /* NTPROF_OUT_FILE_H */
