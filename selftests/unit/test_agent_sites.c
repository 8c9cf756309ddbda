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
#include "sites/elfsite.h"
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

__attribute__((noinline))
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

/*
 * The functions beside this program's same() within a rel8's reach of
 * its patch ([vaddr - 128, vaddr + 149)), from nm: how many, each once,
 * in @near (at most @max), and same()'s own symbol in @self.
 */
static size_t nm_near(struct agent_sym *self, struct agent_sym *near,
		      size_t max)
{
	char line[PATH_MAX + 64], sym[256], type, exe[PATH_MAX];
	static struct agent_sym all[16384];
	unsigned long long v, sz;
	size_t n = 0, i, k = 0;
	FILE *f;

	if (!realpath("/proc/self/exe", exe))
		return 0;
	snprintf(line, sizeof(line), "nm -S --defined-only '%s'", exe);
	f = popen(line, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %llx %c %255s", &v, &sz, &type, sym) == 4 &&
		    strchr("TtWwi", type) && sz && n < 16384) {
			all[n++] = (struct agent_sym){ v, sz };
			if (!strcmp(sym, "same"))
				*self = all[n - 1];
		}
	if (f)
		pclose(f);
	for (i = 0; i < n; i++) {
		if (all[i].vaddr == self->vaddr ||
		    all[i].vaddr >= self->vaddr + 149 ||
		    all[i].vaddr + all[i].size <= self->vaddr - 128)
			continue;
		if (k < max)
			near[k] = all[i];
		k++;
	}
	return k;
}

/*
 * The near lines: written from a real program's symbols (this one's),
 * read back as nm sees them; too many, one too few room, or out of place.
 */
static void test_near(const char *path)
{
	static struct agent_listed got[2];
	struct agent_sym self = { 0 }, want[AGENT_NEAR_MAX];
	unsigned int n, bad_line, i, k, found = 0;
	size_t nr_want;
	char err[256];
	FILE *f;

	memset(&prog, 0, sizeof(prog));
	prog.role = NTPROF_ROLE_TARGET;
	strcpy(prog.path, "/proc/self/exe");
	prog.build_id = "00";
	nr_want = nm_near(&self, want, AGENT_NEAR_MAX);
	if (!ok(self.vaddr && nr_want && nr_want <= AGENT_NEAR_MAX &&
		!elfsite_open(prog.path, &prog.es, err, sizeof(err)),
		"this program's symbols, and same()'s %zu neighbours from nm",
		nr_want))
		return;
	prog.nr_usites = 1;
	prog.usites[0] = (struct session_usite){
		.vaddr = self.vaddr, .size = self.size,
		.point = NTPROF_PT_TARGET_INIT, .flags = NTPROF_USITE_F_FIRST,
	};
	fetch(&prog.usites[0].f[SESSION_F_KEY], 0, 0, 0, 0);
	f = fopen(path, "w");
	ok(f && !agent_sites_write(f, &prog, prog.path) && !fclose(f) &&
	   !agent_sitelist_read(path, got, 2, &n, &bad_line) && n == 1,
	   "a site written with its program's symbols is read");
	for (i = 0; i < nr_want; i++)
		for (k = 0; k < got[0].nr_near; k++)
			found += want[i].vaddr == got[0].near[k].vaddr &&
				 want[i].size == got[0].near[k].size;
	if (!ok(got[0].nr_near == nr_want && found == nr_want &&
		!got[0].near_over,
		"its near lines are the %zu functions nm finds within a rel8's reach",
		nr_want))
		diag("%u near lines, %u of them nm's", got[0].nr_near, found);
	elfsite_close(prog.es);
	prog.es = NULL;

	f = fopen(path, "w");
	fprintf(f, "object /bin/a build-id 00ff\nsite /bin/a 0x1000 20 1 first 2 3 key=0\n");
	for (i = 0; i <= AGENT_NEAR_MAX; i++)
		fprintf(f, "near %#x 16\n", 0x800 + 16 * i);
	fclose(f);
	ok(!agent_sitelist_read(path, got, 2, &n, &bad_line) && n == 1 &&
	   got[0].nr_near == AGENT_NEAR_MAX && got[0].near_over &&
	   got[0].near[1].vaddr == 0x810 && got[0].near[1].size == 16,
	   "more near lines than the agent holds: the site says so");
	f = fopen(path, "w");
	fprintf(f, "object /bin/a build-id 00ff\nnear 0x800 16\n");
	fclose(f);
	ok(agent_sitelist_read(path, got, 2, &n, &bad_line) == -EINVAL &&
	   bad_line == 2, "a near line before any site is no line of the list");
	f = fopen(path, "w");
	fprintf(f, "object /bin/a build-id 00ff\nsite /bin/a 0x1000 20 1 first 2 3 key=0\nnear 0x800 0\n");
	fclose(f);
	ok(agent_sitelist_read(path, got, 2, &n, &bad_line) == -EINVAL &&
	   bad_line == 3, "a near line of no size is refused");
}

/* The site list the cases write and read. */
static char path[] = "/tmp/test_agent_sites.XXXXXX";

/* A program of three sites, with every kind of fetch among them. */
static void make_prog(void)
{
	memset(&prog, 0, sizeof(prog));
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
}

/* The site list as the tool writes it and as the agent reads it. */
static void test_round_trip(void)
{
	static struct agent_listed got[8];
	const struct session_usite *u;
	unsigned int n, bad_line, k;
	bool good = true;
	struct stat st;
	size_t i;
	FILE *f;

	make_prog();
	f = fopen(path, "w");
	if (!f || agent_sites_write(f, &prog, prog.path) || fclose(f))
		tap_bail("cannot write the site list");
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
}

/* Lists and sites the tool and the agent refuse. */
static void test_refusals(void)
{
	static struct agent_listed got[8];
	unsigned int n, bad_line;
	FILE *f;

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

	make_prog();
	prog.usites[1].size = 0;
	f = fopen(path, "w");
	ok(agent_sites_write(f, &prog, prog.path) == -EINVAL,
	   "a site without a symbol size is refused");
	fclose(f);
}

static void t_near(void)
{
	test_near(path);
}

static const struct tap_case cases[] = {
	{ "round_trip", test_round_trip },
	{ "refusals", test_refusals },
	{ "near", t_near },
};

int main(int argc, char *argv[])
{
	int fd;

	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_agent_sites");
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	fd = mkstemp(path);
	if (fd < 0 || close(fd))
		tap_bail("cannot make the site list's file");
	tap_run(cases, TAP_NR_CASES(cases));
	unlink(path);
	return tap_done("test_agent_sites");
}
