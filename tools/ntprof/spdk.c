// SPDX-License-Identifier: GPL-2.0
/*
 * SPDK's NVMe-oF target as a set of uprobe sites. A command's path in
 * nvmf_tgt, for every transport (lib/nvmf/ctrlr.c, ctrlr_bdev.c):
 *
 *   spdk_nvmf_request_exec(req)           TARGET_INIT, the first site:
 *       the transport has the whole capsule, the identity is in
 *       req->cmd->nvme_cmd and the queue in req->qpair->qid;
 *   nvmf_bdev_ctrlr_read_cmd(bdev, desc, ch, req)
 *   nvmf_bdev_ctrlr_write_cmd(bdev, desc, ch, req)
 *                                         TARGET_EXEC: to the bdev;
 *   _nvmf_request_complete(req)           TARGET_COMPLETE, the last: the
 *       response goes to the transport. It is the one function every
 *       completion runs, on the qpair's thread: spdk_nvmf_request_complete()
 *       calls it (directly or by a message) and so does request_exec for
 *       a command it finishes at once.
 *
 * The key of every site is the request's address, the register of its
 * req argument as is. Every layout comes from the binary's DWARF, as the
 * members move from one SPDK release (and configuration) to the next.
 * A site is placed at each out-of-line entry of its function; an inlined
 * copy has no argument registers to fetch from, so the commands that go
 * through one are not seen there (probe says so).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfsite.h"
#include "spdk.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct site_def {
	const char *func;
	uint32_t point;
	uint32_t flags;
	uint32_t key_reg;	/* the req argument */
	bool required;
};

static const struct site_def target_sites[] = {
	{ "spdk_nvmf_request_exec", NTPROF_PT_TARGET_INIT,
	  NTPROF_USITE_F_FIRST, 0, true },
	{ "nvmf_bdev_ctrlr_read_cmd", NTPROF_PT_TARGET_EXEC, 0, 3, false },
	{ "nvmf_bdev_ctrlr_write_cmd", NTPROF_PT_TARGET_EXEC, 0, 3, false },
	{ "_nvmf_request_complete", NTPROF_PT_TARGET_COMPLETE,
	  NTPROF_USITE_F_LAST, 0, true },
};

static const char *const target_structs[] = {
	"spdk_nvmf_request", "spdk_nvmf_qpair", "nvmf_h2c_msg",
	"spdk_nvme_cmd",
};

static const char *point_name(uint32_t point)
{
	switch (point) {
	case NTPROF_PT_TARGET_INIT:
		return "TARGET_INIT: command parsed";
	case NTPROF_PT_TARGET_EXEC:
		return "TARGET_EXEC: to the bdev";
	case NTPROF_PT_TARGET_COMPLETE:
		return "TARGET_COMPLETE: bdev done";
	}
	return "?";
}

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
 * The file the uprobes name. A PID's executable by its path, if that
 * path is the same file here (the process may run in another mount
 * namespace, or from a file since replaced); else /proc/PID/exe itself,
 * which the kernel resolves to the process's very file.
 */
static int target_path(const char *arg, char *path, size_t size, char *err,
		       size_t errlen)
{
	char exe[64], link[PATH_MAX];
	struct stat a, b;
	ssize_t n;

	if (!all_digits(arg)) {
		if (!realpath(arg, link)) {
			snprintf(err, errlen, "%s: %s", arg, strerror(errno));
			return -errno;
		}
		snprintf(path, size, "%s", link);
		return 0;
	}
	snprintf(exe, sizeof(exe), "/proc/%s/exe", arg);
	n = readlink(exe, link, sizeof(link) - 1);
	if (n < 0 || stat(exe, &a)) {
		snprintf(err, errlen, "process %s: %s", arg,
			 errno == ENOENT ? "no such process" : strerror(errno));
		return -errno;
	}
	link[n] = '\0';
	if (!stat(link, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		snprintf(path, size, "%s", link);
	else
		snprintf(path, size, "%s", exe);
	return 0;
}

/* The processes that map the file at @path (any of its segments). */
static void find_pids(struct spdk_target *t)
{
	char maps[sizeof(((struct dirent *)0)->d_name) + 16];
	char line[PATH_MAX + 128];
	unsigned long long ino;
	struct dirent *d;
	struct stat st;
	pid_t self = getpid();
	DIR *dir;
	FILE *f;

	if (stat(t->path, &st))
		return;
	dir = opendir("/proc");
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		/* We map it too: libelf reads it through mmap. */
		if (!all_digits(d->d_name) || atoi(d->d_name) == self)
			continue;
		snprintf(maps, sizeof(maps), "/proc/%s/maps", d->d_name);
		f = fopen(maps, "r");
		if (!f)
			continue;
		/* "start-end perms offset major:minor inode path" */
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%*s %*s %*s %*s %llu", &ino) != 1 ||
			    ino != (unsigned long long)st.st_ino)
				continue;
			/* The inode alone could be another file system's. */
			if (!strstr(line, "/") || strstr(line, " (deleted)"))
				continue;
			if (t->nr_pids < SPDK_PIDS_MAX)
				t->pids[t->nr_pids++] = atoi(d->d_name);
			else
				t->more_pids = true;
			break;
		}
		fclose(f);
	}
	closedir(dir);
}

static int member(struct spdk_target *t, const char *st, const char *path,
		  struct elfsite_member *m)
{
	char err[256];

	if (elfsite_member(t->es, st, path, m, err, sizeof(err))) {
		snprintf(t->why, sizeof(t->why), "%s", err);
		return -1;
	}
	return 0;
}

/* A plain member's width: what a fetch can read whole. */
static uint32_t width(const struct elfsite_member *m)
{
	return m->size == 1 || m->size == 2 || m->size == 4 || m->size == 8 ?
	       (uint32_t)m->size : 0;
}

/* A fetch of the member at @off of the command, through req->cmd. */
static void cmd_fetch(struct session_fetch *f, int32_t cmd, int32_t off,
		      uint32_t w)
{
	*f = (struct session_fetch){
		.set = true, .reg = 0, .nr_derefs = 1, .derefs = { cmd },
		.offset = off, .width = w,
	};
}

/*
 * The first site's identity: qid from req->qpair->qid; cid, opcode, nsid,
 * SLBA (CDW11:CDW10) and NLB (CDW12's low 16 bits) from req->cmd->nvme_cmd.
 */
static int identity(struct spdk_target *t, struct session_usite *u)
{
	struct elfsite_member qpair, qid, cmd, nvme, opc, cid, nsid, c10, c11,
			      c12;
	int32_t base;

	if (member(t, "spdk_nvmf_request", "qpair", &qpair) ||
	    member(t, "spdk_nvmf_qpair", "qid", &qid) ||
	    member(t, "spdk_nvmf_request", "cmd", &cmd) ||
	    member(t, "nvmf_h2c_msg", "nvme_cmd", &nvme) ||
	    member(t, "spdk_nvme_cmd", "opc", &opc) ||
	    member(t, "spdk_nvme_cmd", "cid", &cid) ||
	    member(t, "spdk_nvme_cmd", "nsid", &nsid) ||
	    member(t, "spdk_nvme_cmd", "cdw10", &c10) ||
	    member(t, "spdk_nvme_cmd", "cdw11", &c11) ||
	    member(t, "spdk_nvme_cmd", "cdw12", &c12))
		return -1;
	/* NVMe fixes these; a binary that differs is not one we know. */
	if (qpair.size != 8 || cmd.size != 8 || width(&qid) != 2 ||
	    width(&cid) != 2 || width(&nsid) != 4 || width(&c10) != 4 ||
	    c11.offset != c10.offset + 4 || width(&c12) != 4 ||
	    !opc.bitfield || opc.bit_offset % 8 || opc.bit_size != 8) {
		snprintf(t->why, sizeof(t->why),
			 "unknown layout: struct spdk_nvmf_request, spdk_nvmf_qpair or spdk_nvme_cmd is not as SPDK defines them");
		return -1;
	}
	u->f[SESSION_F_QID] = (struct session_fetch){
		.set = true, .reg = 0, .nr_derefs = 1,
		.derefs = { (int32_t)qpair.offset },
		.offset = (int32_t)qid.offset, .width = 2,
	};
	base = (int32_t)nvme.offset;
	cmd_fetch(&u->f[SESSION_F_CID], cmd.offset, base + cid.offset, 2);
	cmd_fetch(&u->f[SESSION_F_OPCODE], cmd.offset,
		  base + opc.bit_offset / 8, 1);
	cmd_fetch(&u->f[SESSION_F_NSID], cmd.offset, base + nsid.offset, 4);
	cmd_fetch(&u->f[SESSION_F_SLBA], cmd.offset, base + c10.offset, 8);
	/* Little-endian: the low two bytes are bits 15:0. */
	cmd_fetch(&u->f[SESSION_F_NLB], cmd.offset, base + c12.offset, 2);
	return 0;
}

/* One function's sites, appended to @t->usites; -1 when they do not fit. */
static int add_sites(struct spdk_target *t, const struct site_def *def,
		     const struct elfsite_func *ef)
{
	struct session_usite *u;
	size_t i;

	for (i = 0; i < ef->nr_entries; i++) {
		if (t->nr_usites == NTPROF_USITES_MAX) {
			snprintf(t->why, sizeof(t->why),
				 "more than %d sites: the module takes no more",
				 NTPROF_USITES_MAX);
			return -1;
		}
		u = &t->usites[t->nr_usites++];
		*u = (struct session_usite){
			.path = t->path, .offset = ef->entries[i].offset,
			.point = def->point, .flags = def->flags,
		};
		u->f[SESSION_F_KEY] = (struct session_fetch){
			.set = true, .reg = def->key_reg,
		};
		if ((def->flags & NTPROF_USITE_F_FIRST) && identity(t, u))
			return -1;
	}
	return 0;
}

static void resolve_sites(struct spdk_target *t)
{
	const struct elfsite_func *ef;
	struct spdk_func *fn;
	size_t i;

	t->ok = true;
	for (i = 0; i < ARRAY_SIZE(target_sites); i++) {
		const struct site_def *def = &target_sites[i];

		fn = &t->funcs[t->nr_funcs++];
		*fn = (struct spdk_func){
			.name = def->func, .point = def->point,
			.required = def->required, .state = "missing",
		};
		ef = elfsite_func(t->es, def->func);
		if (ef) {
			fn->state = elfsite_state_name(ef->state);
			fn->nr_inlined = ef->nr_inlined;
		}
		/*
		 * A GCC clone may have dropped or moved the arguments the
		 * fetches read: no site rather than a wrong one.
		 */
		if (ef && ef->state == ELFSITE_OK && ef->clone)
			fn->state = "clone";
		else if (ef && ef->state == ELFSITE_OK)
			fn->nr_sites = ef->nr_entries;
		if (!fn->nr_sites) {
			if (def->required && t->ok) {
				t->ok = false;
				snprintf(t->why, sizeof(t->why),
					 "the required site %s is %s in this binary",
					 def->func, fn->state);
			}
			continue;
		}
		if (t->ok && add_sites(t, def, ef))
			t->ok = false;
	}
}

int spdk_target_open(const char *arg, struct spdk_target *t, char *err,
		     size_t errlen)
{
	const char *funcs[ARRAY_SIZE(target_sites)];
	size_t i;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = target_path(arg, t->path, sizeof(t->path), err, errlen);
	if (ret)
		return ret;
	ret = elfsite_open(t->path, &t->es, err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(target_sites); i++)
		funcs[i] = target_sites[i].func;
	ret = elfsite_resolve(t->es, funcs, ARRAY_SIZE(funcs), target_structs,
			      ARRAY_SIZE(target_structs), err, errlen);
	if (ret) {
		elfsite_close(t->es);
		t->es = NULL;
		return ret;
	}
	t->build_id = elfsite_build_id(t->es);
	resolve_sites(t);
	find_pids(t);
	return 0;
}

void spdk_target_close(struct spdk_target *t)
{
	if (t->es)
		elfsite_close(t->es);
	t->es = NULL;
	/* Its string was the elfsite's; the sites and the path stay. */
	t->build_id = NULL;
}

void spdk_target_print(const struct spdk_target *t, FILE *f)
{
	const struct spdk_func *fn;
	char count[32];
	size_t i;

	fprintf(f, "SPDK target %s%s%s\n", t->path,
		t->build_id ? ", build-id " : "", t->build_id ? t->build_id : "");
	fprintf(f, "  uprobe sites (the key: the request's address):\n");
	for (i = 0; i < t->nr_funcs; i++) {
		fn = &t->funcs[i];
		snprintf(count, sizeof(count), "%zu site%s", fn->nr_sites,
			 fn->nr_sites == 1 ? "" : "s");
		fprintf(f, "  %-8s %-28s %-8s %-28s %s\n", fn->state, fn->name,
			count, point_name(fn->point),
			fn->required ? "(required)" : "(optional)");
		if (fn->nr_sites && fn->nr_inlined)
			fprintf(f, "           (and %zu inlined cop%s, whose commands this site misses)\n",
				fn->nr_inlined, fn->nr_inlined == 1 ? "y" : "ies");
	}
	fputs("  running processes:", f);
	for (i = 0; i < t->nr_pids; i++)
		fprintf(f, " %d", (int)t->pids[i]);
	if (t->more_pids)
		fputs(" ...", f);
	if (!t->nr_pids)
		fputs(" none (the sites attach to those that start later)", f);
	fputc('\n', f);
}
