// SPDX-License-Identifier: GPL-2.0
/*
 * An SPDK program, opened for its uprobe sites: the file the probes name
 * (a path, or a running process's executable), its ELF and DWARF through
 * elfsite.c, the site map of spdk_sites.c resolved in it, and the
 * processes that run it (their executable is the file), for probe and
 * record.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "sites/elfsite.h"
#include "sites/spdk.h"


static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * prog_open() - open the program's file, which the tool parses and the
 * module probes, whatever its name points to later
 * (Documentation/security.rst). A PID's file is /proc/PID/exe, the process's
 * very file. Its name is its path if that path is the same file here (the
 * process may run in another mount namespace, or from a file since
 * replaced), or else /proc/PID/exe. It returns the descriptor, or -errno
 * with @err set.
 */
static int prog_open(const char *arg, char *path, size_t size, char *err,
		     size_t errlen)
{
	char exe[64], link[PATH_MAX];
	struct stat a, b;
	ssize_t n;
	int fd;

	if (!all_digits(arg)) {
		if (!realpath(arg, link)) {
			snprintf(err, errlen, "%s: %s", arg, strerror(errno));
			return -errno;
		}
		snprintf(path, size, "%s", link);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			snprintf(err, errlen, "%s: %s", arg, strerror(errno));
		return fd < 0 ? -errno : fd;
	}
	snprintf(exe, sizeof(exe), "/proc/%s/exe", arg);
	fd = open(exe, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : readlink(exe, link, sizeof(link) - 1);
	if (n < 0 || fstat(fd, &a)) {
		snprintf(err, errlen, "process %s: %s", arg,
			 errno == ENOENT ? "no such process" : strerror(errno));
		n = -errno;
		if (fd >= 0)
			close(fd);
		return n;
	}
	link[n] = '\0';
	if (!stat(link, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		snprintf(path, size, "%s", link);
	else
		snprintf(path, size, "%s", exe);
	return fd;
}

/*
 * runs() - tell whether process @name (its /proc entry) runs the file @st,
 * that is, whether its executable is that file, by device and inode (mapping
 * the file is not enough: anyone can map a world-readable binary). It puts
 * the process's owner (its effective uid) into *@uid.
 */
static bool runs(const char *name, const struct stat *st, uid_t *uid)
{
	char path[sizeof(((struct dirent *)0)->d_name) + 16];
	struct stat e;

	snprintf(path, sizeof(path), "/proc/%s/exe", name);
	if (stat(path, &e) || e.st_dev != st->st_dev || e.st_ino != st->st_ino)
		return false;
	snprintf(path, sizeof(path), "/proc/%s", name);
	if (stat(path, &e))
		return false;
	*uid = e.st_uid;
	return true;
}

/*
 * pid_add() - add @pid to @p's table if there is room, or else to those left
 * out.
 */
static void pid_add(struct spdk_prog *p, pid_t pid)
{
	if (p->nr_pids < SPDK_PIDS_MAX) {
		p->pids[p->nr_pids++] = pid;
		return;
	}
	p->more_pids = true;
	if (p->nr_left_out < SPDK_LEFT_OUT_SAID)
		p->left_out[p->nr_left_out] = pid;
	p->nr_left_out++;
}

void spdk_prog_find_pids(struct spdk_prog *p)
{
	pid_t self = getpid(), *others = NULL, *v;
	size_t nr_others = 0, i;
	uid_t me = getuid(), uid;
	struct dirent *d;
	struct stat st;
	DIR *dir;

	p->nr_pids = 0;
	p->more_pids = false;
	p->nr_left_out = 0;
	/* The file parsed, whatever its name points to now. */
	if (p->fd >= 0 ? fstat(p->fd, &st) : stat(p->path, &st))
		return;
	dir = opendir("/proc");
	if (!dir)
		return;
	/*
	 * Root's processes and this user's first, then the others': a
	 * stranger who runs many copies of the program cannot crowd the
	 * table and keep them out.
	 */
	while ((d = readdir(dir))) {
		/* Not this process, whatever it has open. */
		if (!all_digits(d->d_name) || atoi(d->d_name) == self ||
		    !runs(d->d_name, &st, &uid))
			continue;
		if (uid == 0 || uid == me) {
			pid_add(p, atoi(d->d_name));
			continue;
		}
		v = realloc(others, (nr_others + 1) * sizeof(*others));
		if (!v)
			continue;
		others = v;
		others[nr_others++] = atoi(d->d_name);
	}
	closedir(dir);
	for (i = 0; i < nr_others; i++)
		pid_add(p, others[i]);
	free(others);
}

int spdk_prog_open(const char *arg, uint32_t role, uint32_t transport,
		   struct spdk_prog *p, char *err, size_t errlen)
{
	const char *funcs[SPDK_FUNCS_MAX], *structs[16];
	size_t nr_funcs, nr_structs;
	int ret;

	memset(p, 0, sizeof(*p));
	p->role = role;
	p->transport = transport;
	p->fd = prog_open(arg, p->path, sizeof(p->path), err, errlen);
	if (p->fd < 0)
		return p->fd;
	ret = elfsite_open_fd(p->fd, p->path, &p->es, err, errlen);
	if (ret) {
		spdk_prog_close(p);
		return ret;
	}
	nr_funcs = spdk_sites_funcs(p, funcs, ARRAY_SIZE(funcs));
	nr_structs = spdk_sites_structs(p, structs, ARRAY_SIZE(structs));
	ret = elfsite_resolve(p->es, funcs, nr_funcs, structs, nr_structs, err,
			      errlen);
	if (ret) {
		spdk_prog_close(p);
		return ret;
	}
	p->build_id = elfsite_build_id(p->es);
	spdk_sites_resolve(p);
	spdk_prog_find_pids(p);
	return 0;
}

void spdk_prog_close_elf(struct spdk_prog *p)
{
	if (p->es)
		elfsite_close(p->es);
	p->es = NULL;
	/* Its string was the elfsite's; the sites and the path stay. */
	p->build_id = NULL;
}

void spdk_prog_close(struct spdk_prog *p)
{
	spdk_prog_close_elf(p);
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

void spdk_prog_say_left_out(const struct spdk_prog *p, FILE *f,
			    const char *prefix)
{
	size_t i;

	fprintf(f, "%s%zu more process%s of %s left out (%d at most; root's and this user's first):",
		prefix, p->nr_left_out, p->nr_left_out == 1 ? "" : "es",
		p->path, SPDK_PIDS_MAX);
	for (i = 0; i < p->nr_left_out && i < SPDK_LEFT_OUT_SAID; i++)
		fprintf(f, " %d", (int)p->left_out[i]);
	fputs(p->nr_left_out > SPDK_LEFT_OUT_SAID ? " ...\n" : "\n", f);
}

void spdk_prog_print(const struct spdk_prog *p, FILE *f)
{
	const struct spdk_func *fn;
	char count[32];
	size_t i;

	fprintf(f, "SPDK %s %s%s%s\n",
		p->role == NTPROF_ROLE_HOST ? "host" : "target", p->path,
		p->build_id ? ", build-id " : "", p->build_id ? p->build_id : "");
	fprintf(f, "  sites (the key: the %s request's address):\n",
		p->role == NTPROF_ROLE_HOST ? "driver's" : "target's");
	for (i = 0; i < p->nr_funcs; i++) {
		fn = &p->funcs[i];
		snprintf(count, sizeof(count), "%zu site%s", fn->nr_sites,
			 fn->nr_sites == 1 ? "" : "s");
		fprintf(f, "  %-8s %-36s %-8s %-31s %s\n", fn->state, fn->name,
			count, spdk_point_name(fn->point),
			fn->required ? "(required)" : "(optional)");
		if (fn->nr_sites && fn->nr_inlined)
			fprintf(f, "           (and %zu inlined cop%s, whose commands this site misses)\n",
				fn->nr_inlined, fn->nr_inlined == 1 ? "y" : "ies");
	}
	fputs("  running processes:", f);
	for (i = 0; i < p->nr_pids; i++)
		fprintf(f, " %d", (int)p->pids[i]);
	if (p->more_pids)
		fputs(" ...", f);
	if (!p->nr_pids)
		fputs(" none (the sites attach to those that start later)", f);
	fputc('\n', f);
	if (p->nr_left_out)
		spdk_prog_say_left_out(p, f, "  ");
}
