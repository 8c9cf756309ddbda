// SPDX-License-Identifier: GPL-2.0
/*
 * The files report and compare write: a report's HTML or CSV must never
 * cost the recordings it was made of. "report --html host.ntp target.ntp",
 * the page's name forgotten, used to write the page over host.ntp. An
 * output is refused when it is an input, or when what is there is a
 * recording (the .ntp magic, of a whole recording or of a part); and it
 * is written to a temporary file in the same directory, renamed over the
 * path only once whole, so that an error or a full disk leaves the old
 * file as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/files.h"
#include "ntp/ntp.h"
#include "out/out_file.h"

int out_file_check(const char *cmd, const char *opt, const char *path,
		   char *const inputs[], size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!ntprof_same_file(path, inputs[i]))
			continue;
		fprintf(stderr,
			"ntprof: %s: %s %s: that is also given as a recording: refusing to write over it\n",
			cmd, opt, path);
		return 1;
	}
	if (ntp_is_recording(path)) {
		fprintf(stderr,
			"ntprof: %s: %s %s: that is a recording: refusing to write over it (the output's name forgotten?)\n",
			cmd, opt, path);
		return 1;
	}
	return -1;
}

int out_file_open(struct out_file *o, const char *cmd, const char *path)
{
	size_t len = strlen(path) + sizeof(".tmp.XXXXXX");
	mode_t mask;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->tmp = malloc(len);
	if (!o->tmp) {
		fprintf(stderr, "ntprof: %s: out of memory\n", cmd);
		return 1;
	}
	/* Beside the path: rename() stays on one file system. */
	snprintf(o->tmp, len, "%s.tmp.XXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd, path,
			strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return 1;
	}
	/* mkstemp()'s 0600, opened up as fopen() would have made it. */
	mask = umask(0);
	umask(mask);
	/* Should it fail, the file stays private: no reason to give up. */
	(void)fchmod(fd, 0666 & ~mask);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd, path,
			strerror(errno));
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return 1;
	}
	return 0;
}

int out_file_close(struct out_file *o, const char *cmd, int err)
{
	int ret = 0;

	if (fclose(o->f) && !err)
		err = -errno;
	if (!err && rename(o->tmp, o->path))
		err = -errno;
	if (err) {
		unlink(o->tmp);
		fprintf(stderr, "ntprof: %s: cannot write %s: %s\n", cmd,
			o->path, strerror(-err));
		ret = 1;
	}
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return ret;
}
