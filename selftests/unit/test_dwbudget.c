// SPDX-License-Identifier: GPL-2.0
/*
 * The bound on the DIEs a DWARF walk visits (ELFSITE_DIES_PER_BYTE in
 * tools/ntprof/lib/sites/elfsite.h), on a program it writes and builds
 * with cc -g: struct fan, FAN_MEMBERS ints after anonymous unions nested
 * FAN_LEVELS deep, each level with a second, small anonymous union.
 *  - With the bound lowered (elfsite_die_budget), a resolve and a member
 *    lookup that need more fail with -E2BIG and one line that says so;
 *    with the file's own bound both succeed.
 *  - A copy whose DWARF points each level's second anonymous union at the
 *    level below, as a crafted file could: a lookup that looks into
 *    anonymous members takes both ways at each level, 2^FAN_LEVELS paths
 *    within the depth bound; with the file's own bound it ends, -E2BIG,
 *    at once (an alarm fails the test if it hangs).
 * Prints TAP; exits 1 if any test failed.
 *
 * usage: test_dwbudget   (CC: the compiler, default cc)
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sites/elfsite.h"
#include "scratch.h"

#define FAN_MEMBERS	300
/* Below dwlayout.c's ANON_DEPTH_MAX (32), which would end the walk. */
#define FAN_LEVELS	30
/* Seconds the crafted copy may take before the walk counts as a hang. */
#define HANG_SECONDS	60

/* What the test leaves in its scratch directory, removed at the end. */
static const char *const scratch[] = {
	"fan.c", "fan", "fan-crafted", "build.log",
};

static void on_alarm(int sig)
{
	static const char msg[] =
		"not ok - the crafted copy's walk ends (it hung)\nBail out! hung\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

/* Anonymous union @level of fan.c and those below it. */
static void write_level(FILE *f, int level)
{
	fprintf(f, "union {\n\tint x%d;\n", level);
	if (level < FAN_LEVELS)
		write_level(f, level + 1);
	fprintf(f, "\tunion { int y%d; };\n};\n", level);
}

/* Writes fan.c and builds it as fan. */
static void build(const char *cc)
{
	FILE *f = fopen(scratch_path("fan.c"), "w");
	char cmd[512];
	int i;

	if (!f)
		scratch_bail("cannot write fan.c");
	fputs("struct fan {\n", f);
	write_level(f, 1);
	fputs("union { int y0; };\n", f);
	for (i = 0; i < FAN_MEMBERS; i++)
		fprintf(f, "\tint m%d;\n", i);
	fprintf(f, "};\nstruct fan fan;\nint main(void) { return fan.m%d; }\n",
		FAN_MEMBERS - 1);
	if (fclose(f))
		scratch_bail("cannot write fan.c");
	snprintf(cmd, sizeof(cmd),
		 "%s -g -O0 -o fan fan.c > build.log 2>&1 && cp fan fan-crafted",
		 cc);
	if (system(cmd))
		scratch_bail("cannot build fan.c");
}

/* Where the crafted copy is changed: its descriptor and .debug_info's. */
struct craft {
	int fd;
	Elf_Data *data;
	GElf_Shdr sh;
	int patched;
};

/* The file offset of a DW_FORM_ref4's bytes, or -1. */
static off_t ref_offset(const struct craft *c, Dwarf_Attribute *attr)
{
	const unsigned char *buf = c->data->d_buf;

	if (attr->form != DW_FORM_ref4 || attr->valp < buf ||
	    attr->valp + 4 > buf + c->data->d_size)
		return -1;
	return c->sh.sh_offset + (attr->valp - buf);
}

/*
 * In @type, a level: points the type of the second anonymous member at
 * the first one's type, then does the same in that type.
 */
static int craft_level(struct craft *c, Dwarf_Die *type)
{
	Dwarf_Attribute attr[2];
	Dwarf_Die mem, next;
	int n = 0;

	if (dwarf_child(type, &mem))
		return 0;
	do {
		if (dwarf_tag(&mem) == DW_TAG_member && !dwarf_diename(&mem) &&
		    n < 2 && dwarf_attr(&mem, DW_AT_type, &attr[n]))
			n++;
	} while (!dwarf_siblingof(&mem, &mem));
	if (n < 2)
		return 0;
	if (ref_offset(c, &attr[0]) < 0 || ref_offset(c, &attr[1]) < 0 ||
	    pwrite(c->fd, attr[0].valp, 4, ref_offset(c, &attr[1])) != 4 ||
	    !dwarf_formref_die(&attr[0], &next))
		return -1;
	c->patched++;
	return craft_level(c, &next);
}

/* Crafts fan-crafted from what fan's DWARF says: 0, or -1. */
static int make_crafted(void)
{
	struct craft c = {
		.fd = open(scratch_path("fan-crafted"), O_WRONLY),
	};
	int fd = open(scratch_path("fan"), O_RDONLY), ret = -1;
	Dwarf_Die cudie, die;
	Elf_Scn *scn = NULL;
	Dwarf_CU *cu = NULL;
	size_t shstrndx;
	const char *name;
	Dwarf *dw;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
	if (!dw || c.fd < 0 || elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(elf, scn)) && !c.data) {
		name = gelf_getshdr(scn, &c.sh) ?
		       elf_strptr(elf, shstrndx, c.sh.sh_name) : NULL;
		if (name && !strcmp(name, ".debug_info"))
			c.data = elf_getdata(scn, NULL);
	}
	while (c.data && !dwarf_get_units(dw, cu, &cu, NULL, NULL, &cudie, NULL)) {
		if (dwarf_child(&cudie, &die))
			continue;
		do {
			name = dwarf_diename(&die);
			if (dwarf_tag(&die) == DW_TAG_structure_type && name &&
			    !strcmp(name, "fan"))
				ret = craft_level(&c, &die);
		} while (ret && !dwarf_siblingof(&die, &die));
		break;
	}
	dwarf_end(dw);
	elf_end(elf);
	close(fd);
	if (close(c.fd) || c.patched != FAN_LEVELS)
		return -1;
	return ret;
}

static const char *const funcs[] = { "main" };
static const char *const structs[] = { "fan" };

/* A resolve and a lookup, each over a lowered bound, then within the file's. */
static void test_lowered(const char *bin)
{
	struct elfsite_member m;
	struct elfsite *es;
	char err[512] = "";
	int ret;

	if (elfsite_open(bin, &es, err, sizeof(err)))
		scratch_bail(err);
	elfsite_die_budget = 5;
	ret = elfsite_resolve(es, funcs, 1, structs, 1, err, sizeof(err));
	if (!ok(ret == -E2BIG && strstr(err, "visits more than 5 DIEs") &&
		!strchr(err, '\n'),
		"a resolve over a bound of 5 DIEs: -E2BIG, one line"))
		diag("got %d: %s", ret, err);
	else
		diag("%s", err);
	elfsite_die_budget = 0;
	ret = elfsite_resolve(es, funcs, 1, structs, 1, err, sizeof(err));
	ok(!ret && elfsite_func(es, "main")->state == ELFSITE_OK,
	   "the same resolve within the file's bound finds main and struct fan");

	elfsite_die_budget = FAN_MEMBERS / 2;
	ret = elfsite_member(es, "fan", "m299", &m, err, sizeof(err));
	if (!ok(ret == -E2BIG && strstr(err, "m299") &&
		strstr(err, "visits more than 150 DIEs") && !strchr(err, '\n'),
		"a lookup of member 300 over a bound of 150 DIEs: -E2BIG, one line"))
		diag("got %d: %s", ret, err);
	else
		diag("%s", err);
	elfsite_die_budget = 0;
	ret = elfsite_member(es, "fan", "m299", &m, err, sizeof(err));
	if (!ok(!ret && m.offset == 8 + 4 * (FAN_MEMBERS - 1) && m.size == 4,
		"the same lookup within the file's bound: offset %d",
		8 + 4 * (FAN_MEMBERS - 1)))
		diag("got %d, offset %llu: %s", ret,
		     (unsigned long long)m.offset, err);
	elfsite_close(es);
}

/* The crafted copy: the file's own bound ends the exponential walk. */
static void test_crafted(const char *bin)
{
	struct elfsite_member m;
	struct timespec t0, t1;
	struct elfsite *es;
	char err[512] = "";
	double secs;
	int ret;

	if (elfsite_open(bin, &es, err, sizeof(err)) ||
	    elfsite_resolve(es, funcs, 1, structs, 1, err, sizeof(err)))
		scratch_bail(err);
	signal(SIGALRM, on_alarm);
	alarm(HANG_SECONDS);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = elfsite_member(es, "fan", "no_such_member", &m, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	alarm(0);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (!ok(ret == -E2BIG && strstr(err, "no_such_member") &&
		strstr(err, "damaged or crafted DWARF") && !strchr(err, '\n'),
		"anonymous unions two ways deep at each of %d levels: -E2BIG in %.2f s, one line",
		FAN_LEVELS, secs))
		diag("got %d: %s", ret, err);
	else
		diag("%s", err);
	elfsite_close(es);
}

static void t_lowered(void)
{
	test_lowered(scratch_path("fan"));
}

static void t_crafted(void)
{
	test_crafted(scratch_path("fan-crafted"));
}

static const struct tap_case cases[] = {
	{ "lowered", t_lowered },
	{ "crafted", t_crafted },
};

int main(int argc, char *argv[])
{
	const char *cc = getenv("CC");

	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_dwbudget");
	scratch_enter("test_dwbudget", scratch,
		      sizeof(scratch) / sizeof(*scratch));
	build(cc && *cc ? cc : "cc");
	if (make_crafted())
		scratch_bail("cannot make the crafted copy of fan");
	tap_run(cases, TAP_NR_CASES(cases));
	scratch_cleanup();
	return tap_done("test_dwbudget");
}
