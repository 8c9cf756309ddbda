// SPDX-License-Identifier: GPL-2.0
/*
 * libntprof-agent.so's start-up. Loaded into an SPDK program when it
 * starts (ntprof run, or LD_PRELOAD in a container's spec), it reads the
 * site list NTPROF_AGENT_SITES names, makes the shared memory and
 * patches each site's function, before main, while the process has one
 * thread. Each site's outcome is in the control page, where probe and
 * the recorder read it. Without NTPROF_AGENT_SITES (or in a setuid
 * program, which ignores it) it does nothing: a process with the agent
 * and no recorder runs as without it. Then it takes itself out of the
 * environment the program's children inherit. What it does cannot stop
 * the program: a site that cannot be patched is left as it was, any
 * failure at start-up leaves the agent off with one line on stderr, and
 * the handler's loads of the program's memory fault into a dropped
 * record, not a signal (fault.c), while the program's own faults stay
 * the program's (selftests/unit/test_agent_fault.c).
 */
#define _GNU_SOURCE	/* dl_iterate_phdr() */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"
#include "hit.h"
#include "patch.h"
#include "sitelist.h"
#include "tramp.h"

struct object_find {
	dev_t dev;
	ino_t ino;
	uintptr_t base;
	const uint8_t *id;	/* its GNU build ID as loaded, or NULL */
	size_t id_len;
	const ElfW(Phdr) *phdr;	/* its program headers, as loaded */
	size_t phnum;
	int found;
};

static size_t note_align(size_t n, size_t align)
{
	return (n + align - 1) & ~(align - 1);
}

/* The GNU build ID in a loaded object's notes, as the linker put it. */
static void build_id_of(const struct dl_phdr_info *info, struct object_find *f)
{
	const ElfW(Phdr) *ph;
	const ElfW(Nhdr) *nh;
	const uint8_t *p, *end;
	size_t align;
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		align = ph->p_align == 8 ? 8 : 4;
		p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while (p + sizeof(*nh) <= end) {
			nh = (const ElfW(Nhdr) *)p;
			p += sizeof(*nh) + note_align(nh->n_namesz, align);
			if (p + nh->n_descsz > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(nh + 1, "GNU", 4)) {
				f->id = p;
				f->id_len = nh->n_descsz;
				return;
			}
			p += note_align(nh->n_descsz, align);
		}
	}
}

/* The load address of the object that is file @f->dev, @f->ino. */
static int object_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct object_find *f = data;
	const char *name = info->dlpi_name;
	struct stat st;

	(void)size;
	/* The executable has no name here: /proc/self/exe is its file. */
	if (!name || !*name)
		name = "/proc/self/exe";
	if (stat(name, &st) || st.st_dev != f->dev || st.st_ino != f->ino)
		return 0;
	f->base = info->dlpi_addr;
	f->phdr = info->dlpi_phdr;
	f->phnum = info->dlpi_phnum;
	build_id_of(info, f);
	f->found = 1;
	return 1;
}

/* Whether the loaded object is the build the list was made from. */
static bool same_build(const struct agent_build *b, const struct object_find *f,
		       const struct stat *st)
{
	if (b->id_len)
		return f->id && f->id_len == b->id_len &&
		       !memcmp(f->id, b->id, b->id_len);
	return !f->id && (uint64_t)st->st_size == b->size &&
	       st->st_mtim.tv_sec == b->mtime_sec &&
	       st->st_mtim.tv_nsec == b->mtime_nsec;
}

/*
 * Whether [@vaddr, @vaddr + @size) lies in one readable, executable
 * PT_LOAD segment of @f: the list names code of its object, never its
 * data, its headers or past its end, however it was made.
 */
static bool in_text(const struct object_find *f, uint64_t vaddr, uint64_t size)
{
	const ElfW(Phdr) *ph;
	size_t i;

	if (!size)
		size = 1;
	for (i = 0; i < f->phnum; i++) {
		ph = &f->phdr[i];
		if (ph->p_type == PT_LOAD &&
		    (ph->p_flags & (PF_R | PF_X)) == (PF_R | PF_X) &&
		    vaddr >= ph->p_vaddr && size <= ph->p_memsz &&
		    vaddr - ph->p_vaddr <= ph->p_memsz - size)
			return true;
	}
	return false;
}

/*
 * Where a listed site's function is: its object loaded, of the list's
 * build, the listed bytes (and the functions near it) in that object's
 * code, and no rel8 branch of those functions into its patch (xref.c
 * finds the rel32 ones, from anywhere, as it patches); else the refusal.
 */
static enum agent_refusal site_address(const struct agent_listed *l,
				       uintptr_t *addr)
{
	struct agent_code near[AGENT_NEAR_MAX];
	struct object_find f = { 0 };
	struct stat st;
	unsigned int i;

	if (stat(l->object, &st))
		return AGENT_NOT_LOADED;
	f.dev = st.st_dev;
	f.ino = st.st_ino;
	dl_iterate_phdr(object_cb, &f);
	if (!f.found)
		return AGENT_NOT_LOADED;
	if (!same_build(&l->build, &f, &st))
		return AGENT_OTHER_BUILD;
	if (!in_text(&f, l->vaddr, l->size))
		return AGENT_NOT_IN_TEXT;
	for (i = 0; i < l->nr_near; i++) {
		if (!in_text(&f, l->near[i].vaddr, l->near[i].size))
			return AGENT_NOT_IN_TEXT;
		near[i].start = f.base + l->near[i].vaddr;
		near[i].size = l->near[i].size;
	}
	/* More functions near it than the list could name: no telling. */
	if (l->near_over)
		return AGENT_BRANCH_FROM_OBJECT;
	*addr = f.base + l->vaddr;
	return agent_patch_near(*addr, l->size, near, l->nr_near);
}

/*
 * NTPROF_AGENT_WAIT=SECONDS (ntprof run --wait-recorder): the program
 * held before its main until a recorder turns the agent on, or for that
 * long at most, so that a recording has its every command.
 */
static void wait_recorder(const struct agent_shm_ctl *ctl)
{
	const char *s = secure_getenv(AGENT_ENV_WAIT);
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	unsigned long secs, i;
	char *end;

	if (!s || !*s)
		return;
	secs = strtoul(s, &end, 10);
	if (*end || !secs || secs > 3600) {
		fprintf(stderr, "ntprof-agent: NTPROF_AGENT_WAIT=%s: not 1 to 3600 seconds: no wait\n",
			s);
		return;
	}
	for (i = 0; i < secs * 100; i++) {
		if (__atomic_load_n(&ctl->sample, __ATOMIC_ACQUIRE)) {
			fprintf(stderr, "ntprof-agent: a recorder is on after %.2f s\n",
				i / 100.0);
			return;
		}
		nanosleep(&tick, NULL);
	}
	fprintf(stderr, "ntprof-agent: no recorder within %lu s: the program starts\n",
		secs);
}

/*
 * The site list's descriptor that ntprof run passed
 * (NTPROF_AGENT_SITES=/proc/self/fd/N), made close-on-exec: the
 * program's children do not inherit it.
 */
static void sitelist_cloexec(const char *path)
{
	const char *prefix = "/proc/self/fd/";
	unsigned long n;
	char *end;
	int flags;

	if (strncmp(path, prefix, strlen(prefix)))
		return;
	n = strtoul(path + strlen(prefix), &end, 10);
	if (*end || end == path + strlen(prefix) || n > 65535)
		return;
	flags = fcntl((int)n, F_GETFD);
	if (flags >= 0)
		fcntl((int)n, F_SETFD, flags | FD_CLOEXEC);
}

/*
 * Whether @entry of LD_PRELOAD names the library, file @lib loaded as
 * @name: a path to the same file, or, as a name the loader searched
 * for (no slash), the same name as the loaded file's.
 */
static bool is_lib(const char *entry, size_t len, const struct stat *lib,
		   const char *name)
{
	const char *base = strrchr(name, '/');
	char path[4096];
	struct stat st;

	if (!len || len >= sizeof(path))
		return false;
	memcpy(path, entry, len);
	path[len] = '\0';
	if (!strchr(path, '/'))
		return !strcmp(path, base ? base + 1 : name);
	return !stat(path, &st) && st.st_dev == lib->st_dev &&
	       st.st_ino == lib->st_ino;
}

/*
 * The agent's variables out of the program's environment, and its
 * library out of LD_PRELOAD (the entries, separated by spaces or colons,
 * that are its file, or its file's name; the others kept), so that the
 * programs it starts (SPDK's scripts, a shell) run without the agent.
 * Before main, with one thread: setenv and unsetenv are safe.
 */
static void scrub_env(void)
{
	extern char **environ;
	const char *pre, *p, *q;
	char name[256], *out;
	struct stat lib;
	Dl_info info;
	size_t i, len;
	bool again = true;

	while (again) {
		again = false;
		for (i = 0; environ && environ[i]; i++) {
			if (strncmp(environ[i], "NTPROF_AGENT_", 13))
				continue;
			len = strcspn(environ[i], "=");
			if (len >= sizeof(name))
				continue;
			memcpy(name, environ[i], len);
			name[len] = '\0';
			unsetenv(name);
			again = true;
			break;
		}
	}
	pre = getenv("LD_PRELOAD");
	if (!pre || !dladdr((void *)scrub_env, &info) || !info.dli_fname ||
	    stat(info.dli_fname, &lib))
		return;
	out = malloc(strlen(pre) + 1);
	if (!out)
		return;
	*out = '\0';
	for (p = pre; *p; p = q) {
		p += strspn(p, " :");
		q = p + strcspn(p, " :");
		if (q == p || is_lib(p, q - p, &lib, info.dli_fname))
			continue;
		if (*out)
			strcat(out, " ");
		strncat(out, p, q - p);
	}
	if (*out)
		setenv("LD_PRELOAD", out, 1);
	else
		unsetenv("LD_PRELOAD");
	free(out);
}

static struct agent_listed listed[AGENT_SITES_MAX];
static struct agent_site sites[AGENT_SITES_MAX];
static struct agent_patch patches[AGENT_SITES_MAX];

static void agent_setup(const char *path);

/*
 * The variables are read with secure_getenv: a setuid or setcap program
 * (AT_SECURE) ignores them, and the agent stays off in it.
 */
__attribute__((constructor)) static void agent_start(void)
{
	const char *path = secure_getenv(AGENT_ENV_SITES);

	if (path && *path) {
		sitelist_cloexec(path);
		agent_setup(path);
	}
	scrub_env();
}

static void agent_setup(const char *path)
{
	unsigned int i, n, bad, patched = 0;
	struct agent_shm_ctl *ctl;
	enum agent_refusal r;
	uintptr_t addr;
	void *shm;
	int fd, err;

	err = agent_sitelist_read(path, listed, AGENT_SITES_MAX, &n, &bad);
	if (err == -EINVAL) {
		fprintf(stderr, "ntprof-agent: %s, line %u: not a site: the agent stays off\n",
			path, bad);
		return;
	}
	if (err) {
		fprintf(stderr, "ntprof-agent: %s: %s: the agent stays off\n",
			path, strerror(-err));
		return;
	}
	for (i = 0; i < n; i++)
		sites[i] = listed[i].site;
	fd = agent_shm_create(&shm);
	if (fd < 0 || agent_hit_setup(shm, fd, sites, n, getpid())) {
		fprintf(stderr, "ntprof-agent: cannot set up (%s): the agent stays off\n",
			fd < 0 ? strerror(-fd) : "a site out of range");
		/* No memfd left for a recorder to wait on. */
		if (fd >= 0)
			close(fd);
		return;
	}
	agent_tramp_ctl(fd);
	ctl = shm;
	ctl->nr_sites = n;
	for (i = 0; i < n; i++) {
		r = site_address(&listed[i], &addr);
		if (r == AGENT_PATCHED)
			r = agent_patch(addr, listed[i].size, i,
					(sites[i].flags & NTPROF_USITE_F_FIRST) ?
					AGENT_STUB_ALL : AGENT_STUB_FOLLOW,
					&patches[i]);
		ctl->site_state[i] = AGENT_STATE(r);
		ctl->site_vaddr[i] = listed[i].vaddr;
		patched += r == AGENT_PATCHED;
	}
	/*
	 * The handler's loads from the program's memory are safe only with
	 * the fault handler in place: without it, no recorder can attach
	 * (the control page is never published), and the sites stay off.
	 */
	if (patched && (err = agent_fault_install())) {
		fprintf(stderr, "ntprof-agent: cannot handle faults (%s): the agent stays off\n",
			strerror(-err));
		close(fd);
		return;
	}
	agent_shm_publish(shm);
	fprintf(stderr, "ntprof-agent: %u of %u sites patched\n", patched, n);
	if (patched)
		wait_recorder(ctl);
}
