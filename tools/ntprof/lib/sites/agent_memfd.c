// SPDX-License-Identifier: GPL-2.0
/*
 * Finding and checking an agent's memfd. Anyone can name a memfd
 * "ntprof-agent", and a process that does is not thereby an agent: the
 * recorder, often root, maps the file only once it is shown to be one
 * that cannot hurt it. A file that shrinks under a mapping raises SIGBUS
 * at the next load, so the file must be sealed against shrinking (and
 * growing, which the agent does too) and of the very size the recorder
 * maps. It must be the process's own (its effective uid owns it), and a
 * regular file from the start, so that no open of a device or a FIFO
 * that someone named so has an effect. The header and everything read
 * later are the caller's to bound (agent_attach.c): a same-uid process,
 * or the stranger who made the file, can still write into it.
 */
#define _GNU_SOURCE	/* F_GET_SEALS */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ntprof/agent_abi.h>

#include "sites/agent_memfd.h"

/* The memfd's link in /proc/PID/fd, with the " (deleted)" that follows. */
#define AGENT_MEMFD_LINK	"/memfd:" AGENT_SHM_NAME " "

#ifndef F_GET_SEALS
#define F_GET_SEALS	1034
#endif
#ifndef F_SEAL_SHRINK
#define F_SEAL_SHRINK	0x0002
#define F_SEAL_GROW	0x0004
#endif

/* The reason of a refusal into @err; @ret, a -errno. */
__attribute__((format(printf, 4, 5)))
static int refuse(char *err, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * proc_euid() - return process @pid's effective uid, from /proc/PID/status,
 * or -errno.
 */
static long long proc_euid(pid_t pid)
{
	unsigned int real, eff;
	char path[64], line[256];
	long long ret = -ESRCH;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u %u", &real, &eff) == 2) {
			ret = eff;
			break;
		}
	fclose(f);
	return ret;
}

/*
 * find_fd() - put in @path the name in /proc/PID/fd of @pid's descriptor
 * whose link is the agent's memfd. It returns -ENOENT if there is none.
 */
static int find_fd(pid_t pid, char *path, size_t size)
{
	char dir[64], link[256];
	struct dirent *d;
	int ret = -ENOENT;
	ssize_t n;
	DIR *dp;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while (ret == -ENOENT && (d = readdir(dp))) {
		if (snprintf(path, size, "%s/%s", dir, d->d_name) >= (int)size)
			continue;
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		/* "ntprof-agent-sites" is the site list, not this. */
		if (!strncmp(link, AGENT_MEMFD_LINK, strlen(AGENT_MEMFD_LINK)))
			ret = 0;
	}
	closedir(dp);
	return ret;
}

/*
 * check_fd() - check that the open @fd is a sealed agent memfd of @uid's; if
 * it is not, say why in @err.
 */
static int check_fd(int fd, long long uid, char *err, size_t len)
{
	struct stat st;
	int seals, e;

	if (fstat(fd, &st)) {
		e = errno;
		return refuse(err, len, -e, "its agent memory: %s", strerror(e));
	}
	if (!S_ISREG(st.st_mode))
		return refuse(err, len, -EPROTO,
			      "its \"ntprof-agent\" is not a regular file");
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0)
		return refuse(err, len, -EPROTO,
			      "its \"ntprof-agent\" file is not a memfd");
	if ((seals & (F_SEAL_SHRINK | F_SEAL_GROW)) !=
	    (F_SEAL_SHRINK | F_SEAL_GROW))
		return refuse(err, len, -EPROTO,
			      "its \"ntprof-agent\" memfd is not sealed against shrinking and growing (seals %#x)",
			      (unsigned int)seals);
	if (st.st_size != (off_t)AGENT_SHM_SIZE)
		return refuse(err, len, -EPROTO,
			      "its \"ntprof-agent\" memfd is %lld bytes, not an agent's %zu",
			      (long long)st.st_size, (size_t)AGENT_SHM_SIZE);
	if ((long long)st.st_uid != uid)
		return refuse(err, len, -EPROTO,
			      "its \"ntprof-agent\" memfd is uid %u's, not the process's (uid %lld)",
			      (unsigned int)st.st_uid, uid);
	return 0;
}

int agent_memfd_map(pid_t pid, void **shm, char *err, size_t len)
{
	char path[600], self[64];
	struct stat a, b;
	int ro, rw, ret, e;
	long long uid;
	void *p;

	ret = find_fd(pid, path, sizeof(path));
	if (ret)
		return refuse(err, len, ret, "%s", ret == -ENOENT ?
			      "no ntprof agent (start it with ntprof run)" :
			      strerror(-ret));
	uid = proc_euid(pid);
	if (uid < 0)
		return refuse(err, len, (int)uid, "%s", strerror((int)-uid));
	/* Not even opened if it is not a regular file (a device, a FIFO). */
	if (stat(path, &a)) {
		e = errno;
		return refuse(err, len, -e, "its agent memory: %s", strerror(e));
	}
	if (!S_ISREG(a.st_mode))
		return refuse(err, len, -EPROTO,
			      "its \"ntprof-agent\" is not a regular file");
	ro = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (ro < 0) {
		e = errno;
		return refuse(err, len, -e, "its agent memory: %s", strerror(e));
	}
	ret = check_fd(ro, uid, err, len);
	/* The process may have put another file under that number. */
	if (!ret && (fstat(ro, &b) || a.st_dev != b.st_dev ||
		     a.st_ino != b.st_ino))
		ret = refuse(err, len, -EAGAIN,
			     "its \"ntprof-agent\" descriptor changed while it was checked");
	if (ret) {
		close(ro);
		return ret;
	}
	/* The very file checked, whatever the process's descriptor is now. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", ro);
	rw = open(self, O_RDWR | O_NOCTTY | O_CLOEXEC);
	e = errno;
	close(ro);
	if (rw < 0)
		return refuse(err, len, -e, "its agent memory: %s", strerror(e));
	if (fstat(rw, &a) || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		close(rw);
		return refuse(err, len, -EPROTO,
			      "its \"ntprof-agent\" memfd could not be opened again");
	}
	p = mmap(NULL, AGENT_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, rw, 0);
	e = errno;
	close(rw);
	if (p == MAP_FAILED)
		return refuse(err, len, -EPROTO, "its agent memory: %s",
			      strerror(e));
	*shm = p;
	return 0;
}
