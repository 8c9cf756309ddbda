// SPDX-License-Identifier: GPL-2.0
/*
 * elfsite_resolve(): the functions' sites and the structs' DIEs of the
 * names asked for (elfsite.c keeps them), through libelf and libdw.
 *
 * A resolve is three passes, each over what the wanted names need:
 *  - the symbol table, for the functions' out-of-line symbols, clones
 *    ("foo.isra.0") included and ".cold" parts left out;
 *  - the top-level entries of every unit (libdw skips a function's body
 *    by its DW_AT_sibling), for the functions' and structs' DIEs;
 *  - the bodies of the functions in only the units that hold one of the
 *    wanted functions' DIEs, for their DW_TAG_inlined_subroutine copies:
 *    without LTO, a copy's DW_AT_abstract_origin stays in its own unit.
 * GCC gives a clone no DIE of its own name: its code is a concrete
 * instance whose DW_AT_abstract_origin is the function's abstract DIE, so
 * dwarf_diename(), which follows that origin, names it "foo".
 * The structs' definitions and their member paths are dwlayout.c's.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sites/dwlayout.h"
#include "sites/elfsite.h"
#include "sites/elfsite_priv.h"

/* A wanted function's symbol: an entry, whatever the DWARF says. */
struct es_sym {
	const char *name;
	uint64_t vaddr;
	uint64_t size;
	struct es_func *f;
};

/* A wanted function's DIE: what its inlined copies point at. */
struct es_origin {
	Dwarf_Off die;
	struct es_func *f;
};

/* One elfsite_resolve(): the new names are from index f0 and s0 on. */
struct es_pass {
	struct elfsite *es;
	size_t f0, s0;
	struct es_sym *syms;
	size_t nr_syms, cap_syms;
	struct es_origin *origins;
	size_t nr_origins, cap_origins;
	Dwarf_Die *walk;	/* the units to walk for inlined copies */
	size_t nr_walk, cap_walk;
	uint64_t left;		/* DIEs it may still visit (elfsite.h) */
};

/*
 * visit() - count one more DIE visited. It returns false when the walk has
 * reached its bound.
 */
static bool visit(struct es_pass *p)
{
	if (!p->left)
		return false;
	p->left--;
	return true;
}

/* ---- The symbol table */

/*
 * clone_has() - tell whether the clone @name has the part @part:
 * "foo.part.0.cold" has "part" and "cold".
 */
static bool clone_has(const char *name, const char *part)
{
	size_t len = strlen(part);
	const char *s;

	for (s = strchr(name, '.'); s; s = strchr(s + 1, '.'))
		if (!strncmp(s + 1, part, len) && (!s[len + 1] || s[len + 1] == '.'))
			return true;
	return false;
}

static int scan_symtab(struct es_pass *p)
{
	struct elfsite *es = p->es;
	Elf_Data *data = elf_getdata(es->symtab, NULL);
	const char *name;
	struct es_func *f;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i, n;
	int type;

	if (!data || !gelf_getshdr(es->symtab, &sh) || !sh.sh_entsize)
		return 0;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		if (!gelf_getsym(data, i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(es->elf, sh.sh_link, sym.st_name);
		/* C names have no dot: what follows one is a clone's. */
		if (!name || !name[0] ||
		    !(f = es_find_func(es, p->f0, name, strcspn(name, "."))) ||
		    clone_has(name, "cold"))
			continue;
		if (GROW(p->syms, p->nr_syms, p->cap_syms))
			return -ENOMEM;
		p->syms[p->nr_syms++] = (struct es_sym){
			.name = name, .vaddr = sym.st_value, .size = sym.st_size,
			.f = f,
		};
	}
	return 0;
}

static const struct es_sym *sym_at(const struct es_pass *p,
				   const struct es_func *f, uint64_t vaddr)
{
	size_t i;

	for (i = 0; i < p->nr_syms; i++)
		if (p->syms[i].f == f && p->syms[i].vaddr == vaddr)
			return &p->syms[i];
	return NULL;
}

/* ---- Addresses of DIEs */

static int first_pc(Dwarf_Die *die, Dwarf_Addr *pc)
{
	Dwarf_Addr base, end;

	if (!dwarf_lowpc(die, pc))
		return 0;
	return dwarf_ranges(die, 0, &base, pc, &end) > 0 ? 0 : -1;
}

/*
 * die_entry() - find where the code of @die is entered: DW_AT_entry_pc (an
 * address or, in DWARF 5, possibly an offset from the first address),
 * DW_AT_low_pc, or the start of a range. A function split into hot and cold
 * parts has only ranges, and the range that starts at a symbol of @f is its
 * entry.
 */
static int die_entry(const struct es_pass *p, Dwarf_Die *die,
		     const struct es_func *f, Dwarf_Addr *pc)
{
	Dwarf_Addr base, start, end, first = 0;
	Dwarf_Attribute attr;
	ptrdiff_t off = 0;
	Dwarf_Word delta;
	bool have = false;

	if (dwarf_attr(die, DW_AT_entry_pc, &attr)) {
		if (!dwarf_formaddr(&attr, pc))
			return 0;
		if (dwarf_formudata(&attr, &delta) || first_pc(die, &base))
			return -1;
		*pc = base + delta;
		return 0;
	}
	if (!dwarf_lowpc(die, pc))
		return 0;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
		if (f && sym_at(p, f, start)) {
			*pc = start;
			return 0;
		}
		if (!have)
			first = start;
		have = true;
	}
	*pc = first;
	return have ? 0 : -1;
}

static int add_site(struct elfsite_site **arr, size_t *n, size_t *cap,
		    uint64_t vaddr, const char *caller)
{
	if (GROW(*arr, *n, *cap))
		return -ENOMEM;
	(*arr)[(*n)++] = (struct elfsite_site){
		.vaddr = vaddr, .caller = caller,
	};
	return 0;
}

/* ---- The top-level entries of every unit */

static int scan_subprogram(struct es_pass *p, Dwarf_Die *die, bool *walk)
{
	struct es_func *f;
	const char *name;
	Dwarf_Addr pc;

	/* A prototype, for the call sites: never an origin nor code. */
	if (dwarf_hasattr(die, DW_AT_declaration))
		return 0;
	name = dwarf_diename(die);
	if (!name || !(f = es_find_func(p->es, p->f0, name, strlen(name))))
		return 0;
	if (GROW(p->origins, p->nr_origins, p->cap_origins))
		return -ENOMEM;
	p->origins[p->nr_origins++] = (struct es_origin){
		.die = dwarf_dieoffset(die), .f = f,
	};
	*walk = true;
	if (die_entry(p, die, f, &pc))
		return 0;
	return add_site(&f->pub.entries, &f->pub.nr_entries, &f->cap_entries,
			pc, NULL);
}

static void scan_struct(struct es_pass *p, Dwarf_Die *die)
{
	struct dwlayout_struct *s;
	const char *name;

	/* A declaration ("struct foo;") has no members. */
	if (dwarf_hasattr(die, DW_AT_declaration))
		return;
	name = dwarf_diename(die);
	if (name && (s = es_find_struct(p->es, p->s0, name)))
		dwlayout_note(s, die);
}

/*
 * unit_is_lto() - tell whether a unit is one of GCC's LTO units. For their
 * inlined copies, these point at DIEs of other units (the early debug info),
 * so they are walked whatever they define.
 */
static bool unit_is_lto(Dwarf_Die *cudie)
{
	Dwarf_Attribute attr;
	const char *producer;

	producer = dwarf_formstring(dwarf_attr(cudie, DW_AT_producer, &attr));
	return producer && strstr(producer, "GNU GIMPLE");
}

static int scan_unit(struct es_pass *p, Dwarf_Die *cudie)
{
	bool walk = unit_is_lto(cudie);
	Dwarf_Die die;
	int ret, more;

	if (dwarf_child(cudie, &die))
		return 0;
	do {
		if (!visit(p))
			return -E2BIG;
		switch (dwarf_tag(&die)) {
		case DW_TAG_subprogram:
			ret = scan_subprogram(p, &die, &walk);
			if (ret)
				return ret;
			break;
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			scan_struct(p, &die);
			break;
		case DW_TAG_imported_unit:
			/* dwz: the copies may point into a partial unit. */
			walk = true;
			break;
		}
	} while ((more = dwarf_siblingof(&die, &die)) == 0);
	if (more < 0)
		return -EBADMSG;
	if (!walk)
		return 0;
	if (GROW(p->walk, p->nr_walk, p->cap_walk))
		return -ENOMEM;
	p->walk[p->nr_walk++] = *cudie;
	return 0;
}

static int scan_units(struct es_pass *p)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Half version;
	uint8_t unit_type;
	Dwarf_Die cudie;
	int ret;

	while (!(ret = dwarf_get_units(p->es->dw, cu, &cu, &version,
				       &unit_type, &cudie, NULL))) {
		ret = scan_unit(p, &cudie);
		if (ret)
			return ret;
	}
	return ret < 0 ? -EBADMSG : 0;
}

/* ---- Inlined copies */

static int cmp_origin(const void *a, const void *b)
{
	const struct es_origin *x = a, *y = b;

	return x->die < y->die ? -1 : x->die > y->die;
}

static int inlined_copy(struct es_pass *p, Dwarf_Die *die, const char *caller)
{
	struct es_origin key, *o;
	Dwarf_Attribute attr;
	Dwarf_Die origin;
	struct es_func *f;
	Dwarf_Addr pc;

	if (!dwarf_attr(die, DW_AT_abstract_origin, &attr) ||
	    !dwarf_formref_die(&attr, &origin))
		return 0;
	key.die = dwarf_dieoffset(&origin);
	o = bsearch(&key, p->origins, p->nr_origins, sizeof(*o), cmp_origin);
	if (!o || die_entry(p, die, NULL, &pc))
		return 0;
	f = o->f;
	return add_site(&f->pub.inlined, &f->pub.nr_inlined, &f->cap_inlined,
			pc, caller);
}

/*
 * How deep blocks and inlined copies nest in a function's body: far more
 * than compilers make, and a bound on the recursion for crafted DWARF.
 */
#define BODY_DEPTH_MAX	256

/*
 * walk_body() - walk the blocks and inlined copies in the body of @parent,
 * @depth levels deep.
 */
static int walk_body(struct es_pass *p, Dwarf_Die *parent, const char *caller,
		     unsigned int depth)
{
	Dwarf_Die die;
	int ret, more;

	if (!dwarf_haschildren(parent) || dwarf_child(parent, &die))
		return 0;
	if (depth >= BODY_DEPTH_MAX)
		return -EBADMSG;
	do {
		if (!visit(p))
			return -E2BIG;
		switch (dwarf_tag(&die)) {
		case DW_TAG_inlined_subroutine:
			ret = inlined_copy(p, &die, caller);
			if (!ret)
				ret = walk_body(p, &die, caller, depth + 1);
			break;
		case DW_TAG_lexical_block:
			ret = walk_body(p, &die, caller, depth + 1);
			break;
		default:
			ret = 0;
		}
		if (ret)
			return ret;
	} while ((more = dwarf_siblingof(&die, &die)) == 0);
	return more < 0 ? -EBADMSG : 0;
}

static int walk_unit(struct es_pass *p, Dwarf_Die *cudie)
{
	Dwarf_Die die;
	int ret, more;

	if (dwarf_child(cudie, &die))
		return 0;
	do {
		if (!visit(p))
			return -E2BIG;
		/* Abstract DIEs have no code, and so no copies with code. */
		if (dwarf_tag(&die) != DW_TAG_subprogram ||
		    (!dwarf_hasattr(&die, DW_AT_low_pc) &&
		     !dwarf_hasattr(&die, DW_AT_ranges)))
			continue;
		ret = walk_body(p, &die, dwarf_diename(&die), 0);
		if (ret)
			return ret;
	} while ((more = dwarf_siblingof(&die, &die)) == 0);
	return more < 0 ? -EBADMSG : 0;
}

static int walk_units(struct es_pass *p)
{
	size_t i;
	int ret;

	if (!p->nr_origins)
		return 0;
	qsort(p->origins, p->nr_origins, sizeof(*p->origins), cmp_origin);
	for (i = 0; i < p->nr_walk; i++) {
		ret = walk_unit(p, &p->walk[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- Results */

static int file_offset(const struct elfsite *es, uint64_t vaddr,
		       uint64_t *off)
{
	const struct es_load *l;
	size_t i;

	for (i = 0; i < es->nr_loads; i++) {
		l = &es->loads[i];
		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz) {
			*off = vaddr - l->vaddr + l->offset;
			return 0;
		}
	}
	return -1;
}

static int cmp_site(const void *a, const void *b)
{
	const struct elfsite_site *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/*
 * finish_sites() - sort @sites by address, and drop the repeated ones and
 * those outside the code: the DWARF of a function that the linker threw away
 * keeps an address of 0 or so, in no executable segment.
 */
static size_t finish_sites(const struct elfsite *es,
			   struct elfsite_site *sites, size_t n)
{
	size_t i, k = 0;

	if (!n)
		return 0;	/* @sites may be NULL, which qsort() must not get */
	qsort(sites, n, sizeof(*sites), cmp_site);
	for (i = 0; i < n; i++) {
		if (k && sites[k - 1].vaddr == sites[i].vaddr)
			continue;
		if (file_offset(es, sites[i].vaddr, &sites[i].offset))
			continue;
		sites[k++] = sites[i];
	}
	return k;
}

static bool has_entry(const struct elfsite_func *f, uint64_t vaddr)
{
	size_t i;

	for (i = 0; i < f->nr_entries; i++)
		if (f->entries[i].vaddr == vaddr)
			return true;
	return false;
}

static int finish_func(struct es_pass *p, struct es_func *f)
{
	struct elfsite_func *pub = &f->pub;
	const struct es_sym *sym;
	size_t i;

	/* Code that the DWARF does not place (built without -g?). */
	for (i = 0; i < p->nr_syms; i++) {
		sym = &p->syms[i];
		if (sym->f != f || has_entry(pub, sym->vaddr))
			continue;
		if (add_site(&pub->entries, &pub->nr_entries, &f->cap_entries,
			     sym->vaddr, NULL))
			return -ENOMEM;
	}
	pub->nr_entries = finish_sites(p->es, pub->entries, pub->nr_entries);
	pub->nr_inlined = finish_sites(p->es, pub->inlined, pub->nr_inlined);
	for (i = 0; i < pub->nr_entries; i++) {
		sym = sym_at(p, f, pub->entries[i].vaddr);
		if (!sym)
			continue;
		pub->entries[i].symbol = sym->name;
		pub->entries[i].size = sym->size;
		pub->entries[i].partial = clone_has(sym->name, "part");
		if (strcmp(sym->name, pub->name))
			pub->clone = true;
	}
	if (pub->nr_entries)
		pub->state = ELFSITE_OK;
	else if (pub->nr_inlined)
		pub->state = ELFSITE_INLINED;
	else
		pub->state = ELFSITE_MISSING;
	return 0;
}

int elfsite_resolve(struct elfsite *es, const char *const funcs[],
		    size_t nr_funcs, const char *const structs[],
		    size_t nr_structs, char *err, size_t errlen)
{
	struct es_pass p = {
		.es = es, .f0 = es->nr_funcs, .s0 = es->nr_structs,
		.left = es_dies_max(es),
	};
	size_t i;
	int ret;

	ret = es_add_names(es, funcs, nr_funcs, structs, nr_structs);
	if (!ret && es->nr_funcs == p.f0 && es->nr_structs == p.s0)
		return 0;
	if (!ret)
		ret = scan_symtab(&p);
	if (!ret)
		ret = scan_units(&p);
	if (!ret)
		ret = walk_units(&p);
	for (i = p.f0; !ret && i < es->nr_funcs; i++)
		ret = finish_func(&p, es->funcs[i]);
	free(p.syms);
	free(p.origins);
	free(p.walk);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", es->path);
	else if (ret == -E2BIG)
		snprintf(err, errlen,
			 "%s: walking its DWARF visits more than %llu DIEs: damaged or crafted DWARF",
			 es->path, (unsigned long long)es_dies_max(es));
	else if (ret)
		snprintf(err, errlen, "%s: damaged DWARF: %s", es->path,
			dwarf_errmsg(-1));
	if (ret)
		es_drop_new_names(es, p.f0, p.s0);
	return ret;
}

