// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobe sites and struct layouts from a binary's ELF and DWARF, through
 * libelf and libdw: nothing here decodes DWARF by hand. This file opens
 * the binary and keeps the names asked for; elfsite_resolve.c resolves
 * them, and the structs' definitions and their member paths are
 * dwlayout.c's.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sites/dwlayout.h"
#include "sites/elfsite.h"
#include "sites/elfsite_priv.h"

/*
 * es_grow() - make room for element @n of the array *@arr of *@cap elements
 * of @size bytes.
 */
int es_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = reallocarray(*arr, ncap, size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* ---- Opening */

static int open_elf(struct elfsite *es, char *err, size_t errlen)
{
	struct stat st;
	GElf_Ehdr eh;
	int ret;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "%s: libelf: %s", es->path, elf_errmsg(-1));
		return -ENOSYS;
	}
	if (fstat(es->fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", es->path, strerror(errno));
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", es->path);
		return -ENOEXEC;
	}
	/*
	 * Read, not mapped: a file truncated while it is parsed (a build
	 * writing it) gives an error here, where a mapping would SIGBUS.
	 */
	es->elf = elf_begin(es->fd, ELF_C_READ, NULL);
	if (!es->elf || elf_kind(es->elf) != ELF_K_ELF ||
	    !gelf_getehdr(es->elf, &eh)) {
		snprintf(err, errlen, "%s is not an ELF file", es->path);
		return -ENOEXEC;
	}
	/* A .o has no file offsets where its code will run. */
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		snprintf(err, errlen,
			"%s is not a linked executable or shared object (ELF type %u)",
			es->path, eh.e_type);
		return -ENOEXEC;
	}
	es->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	return 0;
}

static int read_loads(struct elfsite *es, char *err, size_t errlen)
{
	size_t i, n, cap = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(es->elf, &n))
		n = 0;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(es->elf, i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X))
			continue;
		if (GROW(es->loads, es->nr_loads, cap)) {
			snprintf(err, errlen, "%s: out of memory", es->path);
			return -ENOMEM;
		}
		es->loads[es->nr_loads++] = (struct es_load){
			.vaddr = ph.p_vaddr,
			.filesz = ph.p_filesz,
			.offset = ph.p_offset,
		};
	}
	if (!es->nr_loads) {
		snprintf(err, errlen, "%s has no executable segment", es->path);
		return -ENOEXEC;
	}
	return 0;
}

static Elf_Scn *find_section(Elf *elf, const char *name, unsigned int type)
{
	Elf_Scn *scn = NULL;
	const char *s;
	GElf_Shdr sh;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type)
			continue;
		s = elf_strptr(elf, shstrndx, sh.sh_name);
		if (s && (!name || !strcmp(s, name)))
			return scn;
	}
	return NULL;
}

uint64_t elfsite_die_budget;

/*
 * dwarf_bytes() - return the size of the DIEs, uncompressed: that of
 * .debug_info and .debug_types (a compressed section's ch_size, or a .zdebug
 * section's own size, which ELFSITE_DIES_MIN leaves room for).
 */
static uint64_t dwarf_bytes(Elf *elf)
{
	static const char *const names[] = {
		".debug_info", ".debug_types", ".zdebug_info", ".zdebug_types",
	};
	uint64_t bytes = 0;
	GElf_Chdr ch;
	GElf_Shdr sh;
	Elf_Scn *scn;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		scn = find_section(elf, names[i], SHT_PROGBITS);
		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && gelf_getchdr(scn, &ch))
			bytes += ch.ch_size;
		else
			bytes += sh.sh_size;
	}
	return bytes;
}

uint64_t es_dies_max(const struct elfsite *es)
{
	return elfsite_die_budget ? elfsite_die_budget : es->dies_max;
}

static int open_dwarf(struct elfsite *es, char *err, size_t errlen)
{
	if (!find_section(es->elf, ".debug_info", SHT_PROGBITS) &&
	    !find_section(es->elf, ".zdebug_info", SHT_PROGBITS)) {
		snprintf(err, errlen,
			"%s has no debug info (stripped?): ntprof needs SPDK's default -g build",
			es->path);
		return -ENODATA;
	}
	es->dw = dwarf_begin_elf(es->elf, DWARF_C_READ, NULL);
	if (!es->dw) {
		snprintf(err, errlen, "%s: cannot read its DWARF: %s", es->path,
			dwarf_errmsg(-1));
		return -EBADMSG;
	}
	es->dies_max = ELFSITE_DIES_PER_BYTE * dwarf_bytes(es->elf) +
		       ELFSITE_DIES_MIN;
	return 0;
}

static int read_build_id(struct elfsite *es, char *err, size_t errlen)
{
	const unsigned char *id;
	const void *p;
	ssize_t n, i;

	n = dwelf_elf_gnu_build_id(es->elf, &p);
	if (n <= 0)
		return 0;
	es->build_id = malloc(2 * n + 1);
	if (!es->build_id) {
		snprintf(err, errlen, "%s: out of memory", es->path);
		return -ENOMEM;
	}
	id = p;
	for (i = 0; i < n; i++)
		sprintf(es->build_id + 2 * i, "%02x", id[i]);
	return 0;
}

int elfsite_open_fd(int fd, const char *path, struct elfsite **esp,
		    char *err, size_t errlen)
{
	struct elfsite *es;
	int ret;

	*esp = NULL;
	es = calloc(1, sizeof(*es));
	if (!es || !(es->path = strdup(path))) {
		free(es);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	/* Its own descriptor of the caller's open file: closed with it. */
	es->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (es->fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		elfsite_close(es);
		return ret;
	}
	ret = open_elf(es, err, errlen);
	if (!ret)
		ret = read_loads(es, err, errlen);
	/*
	 * Before the symbol table: a fully stripped file lacks both, and
	 * the missing debug info is the message that tells what to do.
	 */
	if (!ret)
		ret = open_dwarf(es, err, errlen);
	if (!ret && !(es->symtab = find_section(es->elf, NULL, SHT_SYMTAB))) {
		snprintf(err, errlen, "%s has no symbol table (stripped?)", path);
		ret = -ENODATA;
	}
	if (!ret)
		ret = read_build_id(es, err, errlen);
	if (ret) {
		elfsite_close(es);
		return ret;
	}
	*esp = es;
	return 0;
}

int elfsite_open(const char *path, struct elfsite **esp, char *err,
		 size_t errlen)
{
	int fd, ret;

	*esp = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	ret = elfsite_open_fd(fd, path, esp, err, errlen);
	close(fd);
	return ret;
}

/*
 * code_seen() - tell whether @c is among the first @n of @out, as an alias
 * of one of them.
 */
static bool code_seen(const struct elfsite_code *out, size_t n,
		      const struct elfsite_code *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (out[i].vaddr == c->vaddr && out[i].size == c->size)
			return true;
	return false;
}

size_t elfsite_code_near(const struct elfsite *es, uint64_t lo, uint64_t hi,
			 uint64_t self, struct elfsite_code *out, size_t max)
{
	Elf_Data *data = elf_getdata(es->symtab, NULL);
	size_t i, k, m, n = 0, nsyms;
	struct elfsite_code c;
	GElf_Shdr sh;
	GElf_Sym sym;
	int type;

	if (!data || !gelf_getshdr(es->symtab, &sh) || !sh.sh_entsize)
		return 0;
	nsyms = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < nsyms; i++) {
		if (!gelf_getsym(data, i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		c = (struct elfsite_code){ sym.st_value, sym.st_size };
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !c.size || c.vaddr == self ||
		    c.vaddr >= hi || c.vaddr + c.size <= lo ||
		    code_seen(out, n < max ? n : max, &c))
			continue;
		/* Kept by address: the first @max are the lowest. */
		m = n < max ? n : max;
		for (k = m; k > 0 && out[k - 1].vaddr > c.vaddr; k--)
			;
		if (k < max) {
			memmove(&out[k + 1], &out[k],
				(m - k - (m == max)) * sizeof(*out));
			out[k] = c;
		}
		n++;
	}
	return n;
}

static void free_func(struct es_func *f)
{
	free((char *)f->pub.name);
	free(f->pub.entries);
	free(f->pub.inlined);
	free(f);
}

static void free_struct(struct dwlayout_struct *s)
{
	free(s->name);
	free(s);
}

void elfsite_close(struct elfsite *es)
{
	size_t i;

	if (!es)
		return;
	for (i = 0; i < es->nr_funcs; i++)
		free_func(es->funcs[i]);
	for (i = 0; i < es->nr_structs; i++)
		free_struct(es->structs[i]);
	free(es->funcs);
	free(es->structs);
	free(es->loads);
	free(es->build_id);
	if (es->dw)
		dwarf_end(es->dw);
	if (es->elf)
		elf_end(es->elf);
	if (es->fd >= 0)
		close(es->fd);
	free(es->path);
	free(es);
}

const char *elfsite_build_id(const struct elfsite *es)
{
	return es->build_id;
}

const char *elfsite_state_name(enum elfsite_state state)
{
	switch (state) {
	case ELFSITE_OK:
		return "ok";
	case ELFSITE_INLINED:
		return "inlined";
	case ELFSITE_MISSING:
		break;
	}
	return "missing";
}

/* ---- Names */

struct es_func *es_find_func(const struct elfsite *es, size_t from,
			     const char *name, size_t len)
{
	const char *n;
	size_t i;

	for (i = from; i < es->nr_funcs; i++) {
		n = es->funcs[i]->pub.name;
		if (n[0] == name[0] && !strncmp(n, name, len) && !n[len])
			return es->funcs[i];
	}
	return NULL;
}

struct dwlayout_struct *es_find_struct(const struct elfsite *es, size_t from,
				       const char *name)
{
	size_t i;

	for (i = from; i < es->nr_structs; i++)
		if (!strcmp(es->structs[i]->name, name))
			return es->structs[i];
	return NULL;
}

const struct elfsite_func *elfsite_func(const struct elfsite *es,
					const char *name)
{
	struct es_func *f = es_find_func(es, 0, name, strlen(name));

	return f ? &f->pub : NULL;
}

int es_add_names(struct elfsite *es, const char *const funcs[],
		 size_t nr_funcs, const char *const structs[],
		 size_t nr_structs)
{
	size_t i, cap;
	void *p;

	cap = es->nr_funcs + nr_funcs;
	p = reallocarray(es->funcs, cap ? cap : 1, sizeof(*es->funcs));
	if (!p)
		return -ENOMEM;
	es->funcs = p;
	for (i = 0; i < nr_funcs; i++) {
		struct es_func *f;

		if (es_find_func(es, 0, funcs[i], strlen(funcs[i])))
			continue;
		f = calloc(1, sizeof(*f));
		if (!f || !(f->pub.name = strdup(funcs[i]))) {
			free(f);
			return -ENOMEM;
		}
		es->funcs[es->nr_funcs++] = f;
	}
	cap = es->nr_structs + nr_structs;
	p = reallocarray(es->structs, cap ? cap : 1, sizeof(*es->structs));
	if (!p)
		return -ENOMEM;
	es->structs = p;
	for (i = 0; i < nr_structs; i++) {
		struct dwlayout_struct *s;

		if (es_find_struct(es, 0, structs[i]))
			continue;
		s = calloc(1, sizeof(*s));
		if (!s || !(s->name = strdup(structs[i]))) {
			free(s);
			return -ENOMEM;
		}
		es->structs[es->nr_structs++] = s;
	}
	return 0;
}

void es_drop_new_names(struct elfsite *es, size_t f0, size_t s0)
{
	while (es->nr_funcs > f0)
		free_func(es->funcs[--es->nr_funcs]);
	while (es->nr_structs > s0)
		free_struct(es->structs[--es->nr_structs]);
}

/* ---- Struct layouts */

/*
 * asked_struct() - return the struct @name if elfsite_resolve() was given
 * it.
 */
static const struct dwlayout_struct *asked_struct(const struct elfsite *es,
						   const char *name, char *err,
						   size_t errlen)
{
	const struct dwlayout_struct *s = es_find_struct(es, 0, name);

	if (!s)
		snprintf(err, errlen, "%s: struct %s was not looked up",
			 es->path, name);
	return s;
}

int elfsite_struct_size(const struct elfsite *es, const char *name,
			uint64_t *size, char *err, size_t errlen)
{
	const struct dwlayout_struct *s = asked_struct(es, name, err, errlen);

	if (!s)
		return -EINVAL;
	return dwlayout_size(s, size, es->path, err, errlen);
}

int elfsite_member(const struct elfsite *es, const char *name,
		   const char *path, struct elfsite_member *m, char *err,
		   size_t errlen)
{
	const struct dwlayout_struct *s = asked_struct(es, name, err, errlen);

	if (!s)
		return -EINVAL;
	return dwlayout_member(s, es->big_endian, path, m, es_dies_max(es),
			       es->path, err, errlen);
}
