// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the uprobe-site and struct-layout resolver
 * (tools/ntprof/lib/sites/elfsite.c) on a program of our own, elfsite-sample.c,
 * built here with cc -g -O2 twice: as a PIE, and as a fixed-address
 * executable, whose file offsets differ from its addresses. The expected
 * values come from elsewhere than the DWARF: the running sample prints
 * its offsetof()s, its bit-fields as it sets them, and where its
 * functions are in the file through /proc/self/maps (as a uprobe counts),
 * nm gives the other symbols and readelf the build-id; the code bytes at
 * an offset must be those the sample finds in memory. Then the files the
 * resolver must refuse, each with its one-line message, and a copy of
 * the sample whose DWARF makes a struct its own anonymous member.
 * Prints TAP; exits 1 if any test failed.
 *
 * usage: test_elfsite   (CC: the compiler for the sample, default cc)
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sites/elfsite.h"
#include "scratch.h"

#ifndef ELFSITE_SAMPLE
#error "build with -DELFSITE_SAMPLE='\"path/to/elfsite-sample.c\"'"
#endif

#define MAX_ITEMS	64

/* What the test leaves in its scratch directory, removed at the end. */
static const char *const scratch[] = {
	"sample", "sample-nopie", "sample-g0", "sample-stripped",
	"sample.o", "not-elf", "build.log", "sample-selfref",
};

/* Runs a shell command; its output goes to build.log, shown on failure. */
__attribute__((format(printf, 1, 2)))
static int run(const char *fmt, ...)
{
	char cmd[2048], line[512];
	va_list ap;
	FILE *log;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " > build.log 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	ret = system(cmd);
	if (ret) {
		diag("failed: %s", cmd);
		log = fopen(scratch_path("build.log"), "r");
		while (log && fgets(line, sizeof(line), log))
			diag("  %s", strtok(line, "\n") ?: "");
		if (log)
			fclose(log);
	}
	return ret;
}

/* ---- What the sample and nm say */

struct item {
	char name[128];
	uint64_t a, b, c;
	char bytes[64];
};

struct view {
	struct item members[MAX_ITEMS], bits[MAX_ITEMS], funcs[MAX_ITEMS];
	struct item maps[MAX_ITEMS], syms[MAX_ITEMS * 4];
	size_t nr_members, nr_bits, nr_funcs, nr_maps, nr_syms;
	uint64_t size, bias;
};

static void add_item(struct item *arr, size_t *n, size_t max,
		     const struct item *it)
{
	if (*n < max)
		arr[(*n)++] = *it;
}

static void parse_sample_line(struct view *v, const char *line)
{
	struct item it = { 0 };
	char kind[16];

	if (sscanf(line, "%15s", kind) != 1)
		return;
	if (!strcmp(kind, "member") &&
	    sscanf(line, "%*s %127s %" SCNu64 " %" SCNu64, it.name, &it.a, &it.b) == 3)
		add_item(v->members, &v->nr_members, MAX_ITEMS, &it);
	else if (!strcmp(kind, "bits") &&
		 sscanf(line, "%*s %127s %" SCNu64 " %" SCNu64, it.name, &it.a, &it.b) == 3)
		add_item(v->bits, &v->nr_bits, MAX_ITEMS, &it);
	else if (!strcmp(kind, "func") &&
		 sscanf(line, "%*s %127s %" SCNx64 " %63s", it.name, &it.a, it.bytes) == 3)
		add_item(v->funcs, &v->nr_funcs, MAX_ITEMS, &it);
	else if (!strcmp(kind, "map") &&
		 sscanf(line, "%*s %" SCNx64 " %" SCNx64 " %" SCNx64, &it.a, &it.b, &it.c) == 3)
		add_item(v->maps, &v->nr_maps, MAX_ITEMS, &it);
	else if (!strcmp(kind, "size"))
		sscanf(line, "%*s %*s %" SCNu64, &v->size);
	else if (!strcmp(kind, "bias"))
		sscanf(line, "%*s %" SCNx64, &v->bias);
}

static void load_view(struct view *v, const char *bin)
{
	char cmd[1024], line[1024];
	struct item it;
	FILE *f;

	memset(v, 0, sizeof(*v));
	snprintf(cmd, sizeof(cmd), "'%s'", bin);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		parse_sample_line(v, line);
	if (!f || pclose(f))
		scratch_bail("the sample did not run");
	snprintf(cmd, sizeof(cmd), "nm -S --defined-only '%s'", bin);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f)) {
		memset(&it, 0, sizeof(it));
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %*s %127s", &it.a,
			   &it.b, it.name) == 3)
			add_item(v->syms, &v->nr_syms, MAX_ITEMS * 4, &it);
	}
	if (!f || pclose(f))
		scratch_bail("nm failed on the sample");
	if (!v->nr_members || !v->nr_maps || v->nr_funcs < 2 || !v->size)
		scratch_bail("the sample printed too little");
}

static const struct item *find_item(const struct item *arr, size_t n,
				    const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(arr[i].name, name))
			return &arr[i];
	return NULL;
}

/* A clone of @name in nm's list: "name.isra.0" and the like, not .cold. */
static const struct item *find_clone(const struct view *v, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < v->nr_syms; i++)
		if (!strncmp(v->syms[i].name, name, len) &&
		    v->syms[i].name[len] == '.' &&
		    !strstr(v->syms[i].name, ".cold"))
			return &v->syms[i];
	return NULL;
}

/*
 * The file offset of link-time address @vaddr, the way the kernel maps
 * the file: loaded at vaddr + bias, in a mapping of known page offset.
 */
static int offset_by_maps(const struct view *v, uint64_t vaddr, uint64_t *off)
{
	uint64_t addr = vaddr + v->bias;
	size_t i;

	for (i = 0; i < v->nr_maps; i++) {
		if (addr >= v->maps[i].a && addr < v->maps[i].b) {
			*off = addr - v->maps[i].a + v->maps[i].c;
			return 0;
		}
	}
	return -1;
}

/* The file's bytes at @off in hex, to compare with the sample's memory. */
static void file_bytes(const char *path, uint64_t off, size_t n, char *hex)
{
	unsigned char buf[16];
	size_t i;
	int fd = open(path, O_RDONLY);

	hex[0] = '\0';
	if (fd < 0 || n > sizeof(buf) || pread(fd, buf, n, off) != (ssize_t)n) {
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", buf[i]);
}

/* ---- Functions */

static const char *const funcs[] = {
	"sample_exported", "sample_mix", "sample_scaled", "sample_both",
	"sample_caller_a", "sample_caller_b", "no_such_function",
};

static const char *const structs[] = {
	"sample_req", "sample_hdr", "no_such_struct",
};

static struct elfsite *open_resolved(const char *bin)
{
	struct elfsite *es;
	char err[512];

	if (elfsite_open(bin, &es, err, sizeof(err))) {
		diag("%s", err);
		scratch_bail("elfsite_open failed on the sample");
	}
	if (elfsite_resolve(es, funcs, sizeof(funcs) / sizeof(*funcs), structs,
			    sizeof(structs) / sizeof(*structs), err, sizeof(err))) {
		diag("%s", err);
		scratch_bail("elfsite_resolve failed on the sample");
	}
	return es;
}

static void diag_func(const struct elfsite_func *f)
{
	size_t i;

	diag("%s: %s, %zu entries, %zu inlined", f->name,
	     elfsite_state_name(f->state), f->nr_entries, f->nr_inlined);
	for (i = 0; i < f->nr_entries; i++)
		diag("  entry vaddr %#" PRIx64 " offset %#" PRIx64 " %s",
		     f->entries[i].vaddr, f->entries[i].offset,
		     f->entries[i].symbol ?: "(no symbol)");
	for (i = 0; i < f->nr_inlined; i++)
		diag("  inlined vaddr %#" PRIx64 " offset %#" PRIx64 " in %s",
		     f->inlined[i].vaddr, f->inlined[i].offset,
		     f->inlined[i].caller ?: "?");
}

/*
 * An out-of-line function the sample printed: one entry, at the offset
 * the maps give its address, holding the bytes the sample read there.
 */
static void test_entry(struct elfsite *es, const struct view *v,
		       const char *bin, const char *label, const char *name,
		       size_t nr_inlined)
{
	const struct elfsite_func *f = elfsite_func(es, name);
	const struct item *want = find_item(v->funcs, v->nr_funcs, name);
	const struct item *sym = find_item(v->syms, v->nr_syms, name);
	uint64_t nm_off = 0;
	char hex[64];
	size_t n;
	bool good;

	if (!want || !sym || !f)
		scratch_bail("the sample or nm lacks a function");
	good = f->state == ELFSITE_OK && f->nr_entries == 1 &&
	       f->nr_inlined == nr_inlined && !f->clone &&
	       f->entries[0].symbol && !strcmp(f->entries[0].symbol, name);
	good = ok(good, "%s: %s is ok: one entry, inlined copies: %zu",
		  label, name, nr_inlined) && good;
	if (!good) {
		diag_func(f);
		return;
	}
	if (offset_by_maps(v, sym->a, &nm_off))
		nm_off = UINT64_MAX;
	if (!ok(f->entries[0].offset == want->a && nm_off == want->a,
		"%s: %s at file offset %#" PRIx64 " (vaddr %#" PRIx64 "), as /proc/self/maps and nm have it",
		label, name, f->entries[0].offset, f->entries[0].vaddr))
		diag("elfsite %#" PRIx64 ", maps %#" PRIx64 ", nm+maps %#" PRIx64,
		     f->entries[0].offset, want->a, nm_off);
	ok(f->entries[0].size == sym->b,
	   "%s: %s: its symbol's size %" PRIu64 ", as nm has it", label, name,
	   f->entries[0].size);
	n = sym->b < 16 ? sym->b : 16;
	file_bytes(bin, f->entries[0].offset, n, hex);
	if (!ok(n && !strncmp(hex, want->bytes, 2 * n),
		"%s: %s: the file's %zu bytes there are the code in memory",
		label, name, n))
		diag("file %s, memory %s", hex, want->bytes);
}

/* Does the inlined copy at @site lie in function @caller, by nm? */
static bool copy_in(const struct view *v, const struct elfsite_site *site,
		    const char *caller)
{
	const struct item *sym = find_item(v->syms, v->nr_syms, caller);
	uint64_t start;

	if (!sym || offset_by_maps(v, sym->a, &start))
		return false;
	return site->offset >= start && site->offset < start + sym->b &&
	       site->caller && !strcmp(site->caller, caller);
}

static void test_inlined_only(struct elfsite *es, const struct view *v,
			      const char *label)
{
	const struct elfsite_func *f = elfsite_func(es, "sample_mix");
	bool good;

	good = f && f->state == ELFSITE_INLINED && !f->nr_entries &&
	       f->nr_inlined == 2;
	if (!ok(good, "%s: always_inline sample_mix: inlined, 2 copies, no entry",
		label)) {
		if (f)
			diag_func(f);
		return;
	}
	if (!ok(copy_in(v, &f->inlined[0], "sample_caller_a") &&
		copy_in(v, &f->inlined[1], "sample_caller_b"),
		"%s: its copies lie in sample_caller_a and sample_caller_b, as nm -S has them",
		label))
		diag_func(f);
}

static void test_both(struct elfsite *es, const struct view *v,
		      const char *bin, const char *label)
{
	const struct elfsite_func *f;

	test_entry(es, v, bin, label, "sample_both", 1);
	f = elfsite_func(es, "sample_both");
	if (f->nr_inlined == 1 &&
	    !ok(copy_in(v, &f->inlined[0], "sample_caller_b"),
		"%s: sample_both's inlined copy lies in sample_caller_b", label))
		diag_func(f);
}

static void test_clone(struct elfsite *es, const struct view *v,
		       const char *label)
{
	const struct elfsite_func *f = elfsite_func(es, "sample_scaled");
	const struct item *sym = find_clone(v, "sample_scaled");
	uint64_t off;
	bool good;

	if (!sym) {
		printf("ok %d - %s: sample_scaled found as its clone # SKIP this compiler made no .isra/.constprop clone of it at -O2\n",
		       ++tests, label);
		return;
	}
	good = f->state == ELFSITE_OK && f->nr_entries == 1 && f->clone &&
	       f->entries[0].symbol && !strcmp(f->entries[0].symbol, sym->name) &&
	       !offset_by_maps(v, sym->a, &off) && f->entries[0].offset == off;
	if (!ok(good, "%s: sample_scaled is ok, at its clone %s (nm and maps)",
		label, sym->name))
		diag_func(f);
}

static void test_missing(struct elfsite *es, const char *label)
{
	const struct elfsite_func *f = elfsite_func(es, "no_such_function");

	ok(f && f->state == ELFSITE_MISSING && !f->nr_entries && !f->nr_inlined &&
	   !strcmp(elfsite_state_name(f->state), "missing"),
	   "%s: no_such_function is missing", label);
	ok(!elfsite_func(es, "never_asked"),
	   "%s: a name not given to elfsite_resolve has no result", label);
}

static void test_funcs(const char *bin, const char *label)
{
	struct elfsite *es = open_resolved(bin);
	struct view v;

	load_view(&v, bin);
	diag("%s: loaded at bias %#" PRIx64 ", %zu executable mappings",
	     label, v.bias, v.nr_maps);
	test_entry(es, &v, bin, label, "sample_exported", 0);
	test_inlined_only(es, &v, label);
	test_both(es, &v, bin, label);
	test_clone(es, &v, label);
	test_missing(es, label);
	elfsite_close(es);
}

/* ---- Layouts */

static void test_members(struct elfsite *es, const struct view *v)
{
	struct elfsite_member m;
	const struct item *it;
	char err[512];
	uint64_t size = 0;
	size_t i;
	int ret;

	for (i = 0; i < v->nr_members; i++) {
		it = &v->members[i];
		ret = elfsite_member(es, "sample_req", it->name, &m, err, sizeof(err));
		if (!ok(!ret && m.offset == it->a && m.size == it->b && !m.bitfield,
			"sample_req.%s: offset %" PRIu64 " size %" PRIu64 " (offsetof, sizeof)",
			it->name, it->a, it->b))
			diag("got %d: offset %" PRIu64 " size %" PRIu64 " %s", ret,
			     m.offset, m.size, ret ? err : "");
	}
	for (i = 0; i < v->nr_bits; i++) {
		it = &v->bits[i];
		ret = elfsite_member(es, "sample_req", it->name, &m, err, sizeof(err));
		if (!ok(!ret && m.bitfield && m.bit_offset == it->a &&
			m.bit_size == it->b && m.offset == it->a / 8 && m.size == 1,
			"sample_req.%s: bit-field at bit %" PRIu64 ", %" PRIu64 " bits",
			it->name, it->a, it->b))
			diag("got %d: bit %" PRIu64 " bits %" PRIu64 " %s", ret,
			     m.bit_offset, m.bit_size, ret ? err : "");
	}
	ret = elfsite_struct_size(es, "sample_req", &size, err, sizeof(err));
	if (!ok(!ret && size == v->size, "struct sample_req is %" PRIu64 " bytes",
		v->size))
		diag("got %d, %" PRIu64 " %s", ret, size, ret ? err : "");
	/* struct sample_hdr on its own: hdr.id less hdr. */
	ret = elfsite_member(es, "sample_hdr", "id", &m, err, sizeof(err));
	it = find_item(v->members, v->nr_members, "hdr.id");
	ok(!ret && it && m.offset == it->a -
	   find_item(v->members, v->nr_members, "hdr")->a && m.size == 2,
	   "struct sample_hdr's own id is at its offset within sample_req.hdr");
}

/* @name.@path must fail with @want, its message holding @text. */
static void test_bad_member(struct elfsite *es, const char *name,
			    const char *path, int want, const char *text)
{
	struct elfsite_member m;
	char err[512] = "";
	int ret;

	ret = elfsite_member(es, name, path, &m, err, sizeof(err));
	if (!ok(ret == want && strstr(err, text) && !strchr(err, '\n'),
		"%s %s: %s", name, path, text))
		diag("got %d: %s", ret, err);
}

static void test_layouts(const char *bin)
{
	struct elfsite *es = open_resolved(bin);
	uint64_t size;
	char err[512];
	struct view v;

	load_view(&v, bin);
	test_members(es, &v);
	test_bad_member(es, "sample_req", "nosuch", -ENOENT,
			"unknown layout: struct sample_req has no member nosuch");
	test_bad_member(es, "sample_req", "hdr.nosuch", -ENOENT,
			"struct sample_req has no member hdr.nosuch");
	test_bad_member(es, "sample_req", "next.len", -ENOENT,
			"struct sample_req: next is a pointer, not followed");
	test_bad_member(es, "sample_req", "len.x", -ENOENT,
			"len is not a struct or union");
	test_bad_member(es, "sample_req", "hdr.", -ENOENT,
			"has no member hdr.");
	test_bad_member(es, "no_such_struct", "x", -ENOENT,
			"struct no_such_struct not found");
	test_bad_member(es, "never_asked", "x", -EINVAL,
			"struct never_asked was not looked up");
	ok(elfsite_struct_size(es, "no_such_struct", &size, err, sizeof(err)) == -ENOENT,
	   "the size of a struct not found is -ENOENT");
	elfsite_close(es);
}

/* A second resolve adds names; the results given out stay where they are. */
static void test_resolve_again(const char *bin)
{
	static const char *const more[] = { "sample_exported", "main" };
	static const char *const more_structs[] = { "sample_payload" };
	struct elfsite *es = open_resolved(bin);
	const struct elfsite_func *before = elfsite_func(es, "sample_exported");
	const struct elfsite_func *f;
	struct elfsite_member m;
	char err[512];
	int ret;

	ret = elfsite_resolve(es, more, 2, more_structs, 1, err, sizeof(err));
	f = elfsite_func(es, "main");
	ok(!ret && elfsite_func(es, "sample_exported") == before &&
	   before->state == ELFSITE_OK && f && f->state == ELFSITE_OK &&
	   !elfsite_member(es, "sample_payload", "half.hi", &m, err, sizeof(err)) &&
	   m.offset == 4,
	   "a second elfsite_resolve adds main and union sample_payload");
	elfsite_close(es);
}

/* ---- Files it refuses */

static void test_refused(const char *path, int want, const char *text,
			 const char *what)
{
	struct elfsite *es = (struct elfsite *)1;
	char err[512] = "";
	int ret;

	ret = elfsite_open(path, &es, err, sizeof(err));
	if (!ok(ret == want && !es && strstr(err, text) && strstr(err, path) &&
		!strchr(err, '\n'), "%s: refused with \"%s\"", what, text))
		diag("got %d: %s", ret, err);
	else
		diag("%s", err);
}

static void test_build_id(const char *bin)
{
	char cmd[1024], line[512], want[256] = "";
	struct elfsite *es = open_resolved(bin);
	const char *got = elfsite_build_id(es);
	FILE *f;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s'", bin);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " Build ID: %255s", want) == 1)
			break;
	if (f)
		pclose(f);
	if (!ok(want[0] && got && !strcmp(got, want),
		"the build-id is readelf's %s", want))
		diag("got %s", got ?: "(none)");
	elfsite_close(es);
}

/* The first DIE under @parent with @tag and @name (NULL: none), or -1. */
static int child_named(Dwarf_Die *parent, int tag, const char *name,
		       Dwarf_Die *die)
{
	const char *n;

	if (dwarf_child(parent, die))
		return -1;
	do {
		n = dwarf_diename(die);
		if (dwarf_tag(die) == tag &&
		    (name ? n && !strcmp(n, name) : !n))
			return 0;
	} while (!dwarf_siblingof(die, die));
	return -1;
}

/*
 * The file offset of the DW_AT_type reference of struct sample_req's
 * anonymous union in @bin, and the reference that names the struct
 * itself: what a crafted file would hold. 0, or -1 if not found.
 */
static int selfref_patch(const char *bin, off_t *at, uint32_t *ref)
{
	Dwarf_Die cudie, st, mem;
	Dwarf_CU *cu = NULL;
	Dwarf_Attribute attr;
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *name;
	int fd, ret = -1;
	Dwarf *dw;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(bin, O_RDONLY);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
	while (dw && !dwarf_get_units(dw, cu, &cu, NULL, NULL, &cudie, NULL)) {
		if (child_named(&cudie, DW_TAG_structure_type, "sample_req", &st) ||
		    child_named(&st, DW_TAG_member, NULL, &mem) ||
		    !dwarf_attr(&mem, DW_AT_type, &attr) ||
		    attr.form != DW_FORM_ref4)
			continue;
		/* The reference's bytes, in .debug_info as libelf read it. */
		elf_getshdrstrndx(elf, &shstrndx);
		while ((scn = elf_nextscn(elf, scn))) {
			name = gelf_getshdr(scn, &sh) ?
			       elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
			data = name && !strcmp(name, ".debug_info") ?
			       elf_getdata(scn, NULL) : NULL;
			if (data && attr.valp >= (unsigned char *)data->d_buf &&
			    attr.valp + 4 <= (unsigned char *)data->d_buf + data->d_size) {
				*at = sh.sh_offset +
				      (attr.valp - (unsigned char *)data->d_buf);
				*ref = dwarf_cuoffset(&st);
				ret = 0;
			}
		}
		break;
	}
	if (dw)
		dwarf_end(dw);
	elf_end(elf);
	close(fd);
	return ret;
}

/*
 * A struct that is its own anonymous member: a member lookup that looks
 * into anonymous members would recurse forever. One line, naming the
 * member, and no crash.
 */
static void test_selfref(const char *bin)
{
	static const char *const selfref_structs[] = { "sample_req" };
	const char *copy = scratch_path("sample-selfref");
	struct elfsite_member m;
	struct elfsite *es;
	uint8_t le[4];
	char err[512] = "";
	uint32_t ref;
	off_t at;
	int fd, ret;

	if (selfref_patch(bin, &at, &ref) ||
	    run("cp '%s' '%s'", bin, copy) ||
	    (fd = open(copy, O_WRONLY)) < 0)
		scratch_bail("cannot make the self-referential copy of the sample");
	le[0] = ref;
	le[1] = ref >> 8;
	le[2] = ref >> 16;
	le[3] = ref >> 24;
	if (pwrite(fd, le, 4, at) != 4 || close(fd))
		scratch_bail("cannot write the self-referential copy of the sample");
	if (elfsite_open(copy, &es, err, sizeof(err)) ||
	    elfsite_resolve(es, NULL, 0, selfref_structs, 1, err, sizeof(err)))
		scratch_bail("the self-referential copy does not open");
	ret = elfsite_member(es, "sample_req", "no_such_member", &m, err,
			     sizeof(err));
	if (!ok(ret == -EBADMSG && strstr(err, "no_such_member") &&
		!strchr(err, '\n'),
		"a struct that is its own anonymous member: one line, no crash"))
		diag("got %d: %s", ret, err);
	else
		diag("%s", err);
	elfsite_close(es);
}

static void build(const char *cc)
{
	if (run("%s -g -O2 -Wl,--build-id -o sample %s", cc, ELFSITE_SAMPLE) ||
	    run("%s -g -O2 -no-pie -o sample-nopie %s", cc, ELFSITE_SAMPLE) ||
	    run("%s -g0 -O2 -o sample-g0 %s", cc, ELFSITE_SAMPLE) ||
	    run("%s -g -O2 -c -o sample.o %s", cc, ELFSITE_SAMPLE) ||
	    run("objcopy --strip-debug sample sample-stripped") ||
	    run("echo 'not an ELF file' > not-elf"))
		scratch_bail("cannot build the sample");
}

static void t_funcs_pie(void)
{
	test_funcs(scratch_path("sample"), "pie");
}

static void t_funcs_nopie(void)
{
	test_funcs(scratch_path("sample-nopie"), "no-pie");
}

static void t_layouts(void)
{
	test_layouts(scratch_path("sample"));
}

static void t_resolve_again(void)
{
	test_resolve_again(scratch_path("sample"));
}

static void t_build_id(void)
{
	test_build_id(scratch_path("sample"));
}

static void t_selfref(void)
{
	test_selfref(scratch_path("sample"));
}

/* Files that cannot give sites, each refused with its own message. */
static void t_refused(void)
{
	test_refused(scratch_path("sample-stripped"), -ENODATA,
		     "has no debug info (stripped?): ntprof needs SPDK's default -g build",
		     "objcopy --strip-debug");
	test_refused(scratch_path("sample-g0"), -ENODATA,
		     "has no debug info (stripped?)",
		     "built with -g0");
	test_refused(scratch_path("sample.o"), -ENOEXEC,
		     "is not a linked executable or shared object",
		     "an object file");
	test_refused(scratch_path("not-elf"), -ENOEXEC, "is not an ELF file",
		     "a text file");
	test_refused(scratch_path("no-such-file"), -ENOENT,
		     "No such file or directory",
		     "a missing file");
}

static const struct tap_case cases[] = {
	{ "funcs_pie", t_funcs_pie },
	{ "funcs_nopie", t_funcs_nopie },
	{ "layouts", t_layouts },
	{ "resolve_again", t_resolve_again },
	{ "build_id", t_build_id },
	{ "selfref", t_selfref },
	{ "refused", t_refused },
};

int main(int argc, char *argv[])
{
	const char *cc = getenv("CC");

	if (tap_args(argc, argv, cases, TAP_NR_CASES(cases)) != argc)
		tap_usage("test_elfsite");
	scratch_enter("test_elfsite", scratch,
		      sizeof(scratch) / sizeof(*scratch));
	build(cc && *cc ? cc : "cc");
	tap_run(cases, TAP_NR_CASES(cases));
	scratch_cleanup();
	return tap_done("test_elfsite");
}
