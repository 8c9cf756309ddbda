// SPDX-License-Identifier: GPL-2.0
/*
 * The site list's two ends agree: what the tool writes from an SPDK
 * program's resolved sites (tools/ntprof/lib/sites/agent_sites.c) is what the
 * agent reads (tools/agent/sitelist.c), field for field: derefs,
 * negative offsets, widths, the address-only key, trtype, each kind of
 * site, the object's build (its build ID, or its file's size and time);
 * a site of no named object is no site, and a site without a symbol
 * size is refused at the writing.
 * Prints TAP; exits 1 if any test failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sites/agent_sites.h"
#include "sitelist.h"
#include "tap.h"

static struct spdk_prog prog;

static void fetch(struct session_fetch *f, uint32_t reg, int32_t d0,
		  int32_t offset, uint32_t width)
{
	*f = (struct session_fetch){ .set = true, .reg = reg,
				     .offset = offset, .width = width };
	if (d0) {
		f->derefs[0] = d0;
		f->derefs[1] = -d0;
		f->nr_derefs = 2;
	}
}

static bool same(const struct session_fetch *s, const struct agent_fetch *a)
{
	unsigned int i;

	if (!s->set)
		return !a->set;
	if (!a->set || a->reg != s->reg || a->nr_derefs != s->nr_derefs ||
	    a->offset != s->offset || a->width != s->width)
		return false;
	for (i = 0; i < s->nr_derefs; i++)
		if (a->derefs[i] != s->derefs[i])
			return false;
	return true;
}

int main(void)
{
	char path[] = "/tmp/test_agent_sites.XXXXXX";
	static struct agent_listed got[8];
	const struct session_usite *u;
	unsigned int n, bad_line, k;
	bool good = true;
	struct stat st;
	size_t i;
	FILE *f;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	prog.role = NTPROF_ROLE_TARGET;
	strcpy(prog.path, "/opt/spdk/build/bin/nvmf_tgt");
	prog.build_id = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567";
	prog.nr_usites = 3;
	prog.usites[0] = (struct session_usite){
		.vaddr = 0x4a1230, .size = 312, .point = NTPROF_PT_TARGET_INIT,
		.flags = NTPROF_USITE_F_FIRST,
	};
	fetch(&prog.usites[0].f[SESSION_F_KEY], 0, 0, 0, 0);
	fetch(&prog.usites[0].f[SESSION_F_QID], 0, 8, 42, 2);
	fetch(&prog.usites[0].f[SESSION_F_CID], 0, 16, 2, 2);
	fetch(&prog.usites[0].f[SESSION_F_SLBA], 0, 16, -8, 8);
	fetch(&prog.usites[0].f[SESSION_F_LENGTH], 0, 0, 120, 4);
	fetch(&prog.usites[0].trtype, 0, 8, 0x10, 1);
	prog.usites[1] = (struct session_usite){
		.vaddr = 0x4b0000, .size = 48, .point = NTPROF_PT_TARGET_EXEC,
		.transport = NTPROF_TRANSPORT_RDMA,
	};
	fetch(&prog.usites[1].f[SESSION_F_KEY], 1, 0, 0, 0);
	prog.usites[2] = (struct session_usite){
		.vaddr = 0x4c0010, .size = 9, .point = NTPROF_PT_TARGET_COMPLETE,
		.flags = NTPROF_USITE_F_FIRST | NTPROF_USITE_F_LAST,
	};
	fetch(&prog.usites[2].f[SESSION_F_KEY], 5, 24, 0, 8);

	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f || agent_sites_write(f, &prog, prog.path) || fclose(f)) {
		printf("Bail out! cannot write the site list\n");
		return 1;
	}
	ok(!agent_sitelist_read(path, got, 8, &n, &bad_line) && n == 3,
	   "the agent reads the 3 sites the tool wrote");
	for (i = 0; i < 3 && i < n; i++) {
		u = &prog.usites[i];
		good = !strcmp(got[i].object, prog.path) &&
		       got[i].vaddr == u->vaddr && got[i].size == u->size &&
		       got[i].site.point == u->point &&
		       got[i].site.flags == u->flags &&
		       got[i].site.role == prog.role &&
		       got[i].site.transport == u->transport &&
		       same(&u->trtype, &got[i].site.f[AGENT_F_TRTYPE]);
		for (k = 0; k < SESSION_F_COUNT; k++)
			good = good && same(&u->f[k], &got[i].site.f[k]);
		ok(good, "site %zu: object, symbol, point, flags, role, transport and every fetch",
		   i);
	}
	ok(n && got[0].build.id_len == 20 && got[0].build.id[0] == 0x0a &&
	   got[0].build.id[19] == 0x67 && got[2].build.id_len == 20,
	   "each site has its object's build ID");

	/* No build ID: the file's size and time, from the parsed file. */
	prog.build_id = NULL;
	prog.fd = open("/proc/self/exe", O_RDONLY);
	f = fopen(path, "w");
	ok(prog.fd >= 0 && fstat(prog.fd, &st) == 0 && f &&
	   !agent_sites_write(f, &prog, prog.path) && !fclose(f) &&
	   !agent_sitelist_read(path, got, 8, &n, &bad_line) && n == 3 &&
	   !got[1].build.id_len && got[1].build.size == (uint64_t)st.st_size &&
	   got[1].build.mtime_sec == st.st_mtim.tv_sec &&
	   got[1].build.mtime_nsec == st.st_mtim.tv_nsec,
	   "without a build ID, each site has its object's file size and time");
	close(prog.fd);

	f = fopen(path, "w");
	fprintf(f, "object /bin/a build-id 00ff\n"
		"site /bin/b 0x10 20 1 first 2 3 key=0\n");
	fclose(f);
	ok(agent_sitelist_read(path, got, 8, &n, &bad_line) == -EINVAL &&
	   bad_line == 2, "a site of an object no object line names is no site");
	f = fopen(path, "w");
	fprintf(f, "object /bin/a build-id 0f0\n");
	fclose(f);
	ok(agent_sitelist_read(path, got, 8, &n, &bad_line) == -EINVAL &&
	   bad_line == 1, "a build ID of an odd number of digits is refused");

	prog.usites[1].size = 0;
	f = fopen(path, "w");
	ok(agent_sites_write(f, &prog, prog.path) == -EINVAL,
	   "a site without a symbol size is refused");
	fclose(f);
	unlink(path);
	return tap_done("test_agent_sites");
}
