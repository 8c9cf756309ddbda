// SPDX-License-Identifier: GPL-2.0
/*
 * The files a run is given, as recordings: a directory stands for its
 * .ntp files, and the parts of a rotated recording (record --rotate,
 * ntp-format.rst "Parts") become one recording, whatever order they
 * were given in. Parts belong together when their headers name the same
 * session: role, start on both clocks, host name and boot id.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/recording.h"
#include "common/util.h"

static int path_add(struct recording_paths *p, char *path)
{
	char **v;

	if (!path)
		return -ENOMEM;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		v = realloc(p->v, p->cap * sizeof(*v));
		if (!v) {
			free(path);
			return -ENOMEM;
		}
		p->v = v;
	}
	p->v[p->n++] = path;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * dir_add() - add @dir's .ntp files, sorted by name. It returns 0, or 1
 * after a message.
 */
static int dir_add(struct recording_paths *p, const char *cmd,
		   const char *dir)
{
	size_t first = p->n, len;
	struct dirent *e;
	char *path;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "ntprof: %s: %s: %s\n", cmd, dir,
			strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		len = strlen(e->d_name);
		if (len <= 4 || strcmp(e->d_name + len - 4, ".ntp"))
			continue;
		path = malloc(strlen(dir) + len + 2);
		if (path)
			sprintf(path, "%s/%s", dir, e->d_name);
		if (path_add(p, path)) {
			closedir(d);
			fprintf(stderr, "ntprof: %s: out of memory\n", cmd);
			return 1;
		}
	}
	closedir(d);
	if (p->n == first) {
		fprintf(stderr, "ntprof: %s: %s: no .ntp file in this directory\n",
			cmd, dir);
		return 1;
	}
	qsort(p->v + first, p->n - first, sizeof(*p->v), name_cmp);
	return 0;
}

int recording_paths_expand(struct recording_paths *p, const char *cmd,
			   char *const paths[], size_t nr_paths)
{
	struct stat st;
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < nr_paths; i++) {
		if (!stat(paths[i], &st) && S_ISDIR(st.st_mode)) {
			if (dir_add(p, cmd, paths[i]))
				return 1;
			continue;
		}
		if (path_add(p, strdup(paths[i]))) {
			fprintf(stderr, "ntprof: %s: out of memory\n", cmd);
			return 1;
		}
	}
	return 0;
}

void recording_paths_free(struct recording_paths *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/*
 * same_start() - tell whether two files' headers name one session: the same
 * machine, boot and start.
 */
static bool same_start(const struct ntp_header *a, const struct ntp_header *b)
{
	return a->role == b->role && a->start_mono_ns == b->start_mono_ns &&
	       a->start_real_ns == b->start_real_ns &&
	       !strcmp(a->hostname, b->hostname) &&
	       !strcmp(a->boot_id, b->boot_id);
}

/*
 * recording_same_session() - tell whether two parts' headers belong to one
 * session.
 */
bool recording_same_session(const struct ntp_header *a,
			    const struct ntp_header *b)
{
	return a->part && b->part && same_start(a, b);
}

bool recording_copy_of(const struct ntp_header *a, const struct ntp_header *b)
{
	return !a->part && !b->part && same_start(a, b);
}

static int part_cmp(const void *a, const void *b)
{
	const struct recording_part *x = a, *y = b;

	return x->hdr->part < y->hdr->part ? -1 : x->hdr->part > y->hdr->part;
}

/*
 * recording_parts_order() - put @rec's parts in the order of their numbers.
 * A number that occurs twice means a file given twice under two names, or a
 * copy. It returns 0, or 1 after a message.
 */
int recording_parts_order(struct recording *rec, const char *cmd)
{
	struct recording_part *v = rec->parts;
	size_t i;

	qsort(v, rec->nr_parts, sizeof(*v), part_cmp);
	for (i = 1; i < rec->nr_parts; i++) {
		if (v[i].hdr->part == v[i - 1].hdr->part) {
			fprintf(stderr,
				"ntprof: %s: %s and %s are both part %" PRIu32 " of one recording\n",
				cmd, v[i - 1].path, v[i].path, v[i].hdr->part);
			return 1;
		}
		rec->missing_parts += v[i].hdr->part - v[i - 1].hdr->part - 1;
	}
	return 0;
}

/*
 * parts_bound() - return an upper bound on the parts' records from their
 * blocks, so that the array is allocated once.
 */
static size_t parts_bound(const struct recording *rec)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < rec->nr_parts; i++)
		n += ntp_records_bound(rec->parts[i].file);
	return n + 1;
}

/*
 * recording_parts_read() - read the records of @rec's parts, in order, into
 * one array, and sum what their trailers say. It returns 0, or 1 after a
 * message.
 */
int recording_parts_read(struct recording *rec, const char *cmd)
{
	size_t cap = parts_bound(rec), i, n;
	const struct ntprof_record *recs;
	const struct ntp_trailer *t;
	struct ntp_file *f;
	int ret;

	rec->recs = malloc(cap * sizeof(*rec->recs));
	if (!rec->recs) {
		fprintf(stderr, "ntprof: %s: out of memory for %s\n", cmd,
			rec->path);
		return 1;
	}
	for (i = 0; i < rec->nr_parts; i++) {
		f = rec->parts[i].file;
		while ((ret = ntp_next_block(f, &recs, &n)) > 0) {
			/* Only if a part changed since its blocks were counted. */
			if (n > cap - rec->n) {
				fprintf(stderr, "ntprof: %s: %s grew while read\n",
					cmd, rec->parts[i].path);
				return 1;
			}
			memcpy(rec->recs + rec->n, recs, n * sizeof(*recs));
			rec->n += n;
		}
		if (ret < 0) {
			fprintf(stderr, "ntprof: %s: %s\n", cmd, ntp_error(f));
			return 1;
		}
		t = ntp_trailer(f);
		/* A part without its end: killed, or still being written. */
		rec->cut_short |= !t;
		rec->discarded += ntp_discarded(f);
		if (t) {
			rec->drops += t->drops;
			rec->evictions += t->evictions;
		}
	}
	return 0;
}
