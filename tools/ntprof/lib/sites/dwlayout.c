// SPDX-License-Identifier: GPL-2.0
/*
 * Struct layouts from DWARF, through libdw: where a member is, at any
 * depth of embedded structs and unions, as DW_AT_data_member_location and
 * the bit-field attributes of both DWARF 2 and DWARF 4 say. The offsets
 * are within the outermost struct: a pointer is never followed, as the
 * memory it points at is not the struct's.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sites/dwlayout.h"

void dwlayout_note(struct dwlayout_struct *s, Dwarf_Die *die)
{
	int size = dwarf_bytesize(die);

	if (size < 0)
		return;
	if (!s->found) {
		s->found = true;
		s->die = *die;
		s->size = size;
	} else if ((uint64_t)size != s->size && !s->other_size) {
		/* C has no one-definition rule: an #ifdef can tell them apart. */
		s->other_size = size;
	}
}

/*
 * check_struct() - check that @s was found and has the same size in every
 * compilation unit.
 */
static int check_struct(const struct dwlayout_struct *s, const char *file,
			char *err, size_t errlen)
{
	if (!s->found) {
		snprintf(err, errlen, "%s: struct %s not found", file, s->name);
		return -ENOENT;
	}
	if (s->other_size) {
		snprintf(err, errlen,
			 "%s: struct %s has %llu bytes in one compilation unit, %llu in another",
			 file, s->name, (unsigned long long)s->size,
			 (unsigned long long)s->other_size);
		return -EBADMSG;
	}
	return 0;
}

int dwlayout_size(const struct dwlayout_struct *s, uint64_t *size,
		  const char *file, char *err, size_t errlen)
{
	int ret = check_struct(s, file, err, errlen);

	if (!ret)
		*size = s->size;
	return ret;
}

static int udata_attr(Dwarf_Die *die, unsigned int name, Dwarf_Word *val)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, name, &attr))
		return -1;
	return dwarf_formudata(&attr, val) ? -EBADMSG : 0;
}

/*
 * member_location() - read DW_AT_data_member_location, which is a constant,
 * or an expression in DWARF 2.
 */
static int member_location(Dwarf_Die *mem, Dwarf_Word *loc)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;

	*loc = 0;
	if (!dwarf_attr_integrate(mem, DW_AT_data_member_location, &attr))
		return 0;	/* a union's member */
	if (!dwarf_formudata(&attr, loc))
		return 0;
	if (!dwarf_getlocation(&attr, &ops, &nops) && nops == 1 &&
	    (ops[0].atom == DW_OP_plus_uconst || ops[0].atom == DW_OP_constu)) {
		*loc = ops[0].number;
		return 0;
	}
	return -EBADMSG;
}

/*
 * member_type() - find the member's type as written (@raw) and without
 * typedefs and qualifiers (@peeled).
 */
static int member_type(Dwarf_Die *mem, Dwarf_Die *raw, Dwarf_Die *peeled)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(mem, DW_AT_type, &attr) ||
	    !dwarf_formref_die(&attr, raw) || dwarf_peel_type(raw, peeled))
		return -EBADMSG;
	return 0;
}

static bool is_aggregate(Dwarf_Die *type)
{
	int tag = dwarf_tag(type);

	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type;
}

/*
 * How deep anonymous structs and unions nest in one another. C code
 * nests a few; damaged or crafted DWARF can make a type its own member,
 * which without a bound would recurse until the stack ran out.
 */
#define ANON_DEPTH_MAX	32

/*
 * find_member() - find the member @name (@len bytes of it) of @type, also
 * looking into anonymous structs and unions, of which @depth have been
 * entered so far. It returns 1 with the member in @found and the byte offset
 * of the struct or union that holds it in @base; 0 if there is no such
 * member; -EBADMSG if the DWARF is damaged or nests too deep; or -E2BIG once
 * it has visited *@left DIEs. The depth bounds the recursion, but not the
 * members at each level, and two anonymous members of the same type at each
 * level make the walk exponential.
 */
static int find_member(Dwarf_Die *type, const char *name, size_t len,
		       Dwarf_Die *found, Dwarf_Word *base, unsigned int depth,
		       uint64_t *left)
{
	Dwarf_Die die, raw, inner;
	Dwarf_Word loc;
	const char *n;
	int ret;

	if (!dwarf_haschildren(type) || dwarf_child(type, &die))
		return 0;
	do {
		if (!*left)
			return -E2BIG;
		--*left;
		if (dwarf_tag(&die) != DW_TAG_member)
			continue;
		n = dwarf_diename(&die);
		if (n && !strncmp(n, name, len) && !n[len]) {
			*found = die;
			*base = 0;
			return 1;
		}
		if (n || member_type(&die, &raw, &inner) || !is_aggregate(&inner))
			continue;
		ret = depth < ANON_DEPTH_MAX ?
		      find_member(&inner, name, len, found, base, depth + 1,
				  left) :
		      -EBADMSG;
		if (ret < 0)
			return ret;
		if (ret > 0 && member_location(&die, &loc))
			return -EBADMSG;
		if (ret) {
			*base += loc;
			return 1;
		}
	} while (!dwarf_siblingof(&die, &die));
	return 0;
}

/*
 * bit_position() - find a bit-field's first bit, counted from the start of
 * the struct that holds it.
 */
static int bit_position(Dwarf_Die *mem, bool big_endian, Dwarf_Word bits,
			Dwarf_Word *pos)
{
	Dwarf_Word loc, bit_offset, unit;
	Dwarf_Die raw, type;
	int size;

	if (!udata_attr(mem, DW_AT_data_bit_offset, pos))
		return 0;
	/* DWARF 2 and 3 count from the storage unit's most significant bit. */
	if (member_location(mem, &loc) || udata_attr(mem, DW_AT_bit_offset, &bit_offset))
		return -EBADMSG;
	size = dwarf_bytesize(mem);
	if (size < 0 && !member_type(mem, &raw, &type))
		size = dwarf_bytesize(&type);
	if (size < 0)
		return -EBADMSG;
	unit = (Dwarf_Word)size * 8;
	*pos = loc * 8 + (big_endian ? bit_offset : unit - bit_offset - bits);
	return 0;
}

/*
 * place_member() - fill @m for member @mem of a struct that starts @base
 * bytes in.
 */
static int place_member(Dwarf_Die *mem, bool big_endian, Dwarf_Word base,
			struct elfsite_member *m)
{
	Dwarf_Word loc, bits, pos, size;
	Dwarf_Die raw, type;

	memset(m, 0, sizeof(*m));
	if (!udata_attr(mem, DW_AT_bit_size, &bits)) {
		if (bit_position(mem, big_endian, bits, &pos))
			return -EBADMSG;
		m->bitfield = true;
		m->bit_offset = base * 8 + pos;
		m->bit_size = bits;
		m->offset = m->bit_offset / 8;
		m->size = (m->bit_offset % 8 + bits + 7) / 8;
		return 0;
	}
	if (member_location(mem, &loc) || member_type(mem, &raw, &type))
		return -EBADMSG;
	if (dwarf_aggregate_size(&raw, &size)) {
		/* A flexible array member takes no room. */
		if (dwarf_tag(&type) != DW_TAG_array_type)
			return -EBADMSG;
		size = 0;
	}
	m->offset = base + loc;
	m->size = size;
	return 0;
}

/*
 * step_into() - step from the struct or union @type into its member @mem,
 * the middle part of a path. It returns 0 with @type set to the member's
 * type, or -ENOTDIR when that type is not a struct or union (a pointer is
 * not followed).
 */
static int step_into(Dwarf_Die *mem, Dwarf_Die *type, Dwarf_Word *loc,
		     bool *pointer)
{
	Dwarf_Attribute attr;
	Dwarf_Die raw;

	*pointer = false;
	if (dwarf_attr_integrate(mem, DW_AT_bit_size, &attr))
		return -ENOTDIR;
	if (member_location(mem, loc) || member_type(mem, &raw, type))
		return -EBADMSG;
	*pointer = dwarf_tag(type) == DW_TAG_pointer_type;
	return is_aggregate(type) ? 0 : -ENOTDIR;
}

int dwlayout_member(const struct dwlayout_struct *s, bool big_endian,
		    const char *path, struct elfsite_member *m,
		    uint64_t dies_max, const char *file, char *err,
		    size_t errlen)
{
	const char *comp = path, *dot, *name = s->name;
	Dwarf_Word base = 0, at, loc;
	Dwarf_Die die = s->die, *type = &die, mem;
	uint64_t left = dies_max;
	bool pointer = false;
	size_t len;
	int ret;

	ret = check_struct(s, file, err, errlen);
	if (ret)
		return ret;
	for (;;) {
		dot = strchr(comp, '.');
		len = dot ? (size_t)(dot - comp) : strlen(comp);
		ret = len ? find_member(type, comp, len, &mem, &at, 0, &left) :
			    0;
		if (ret <= 0) {
			ret = ret ? ret : -ENOENT;
			break;
		}
		if (!dot) {
			ret = place_member(&mem, big_endian, base + at, m);
			break;
		}
		ret = step_into(&mem, type, &loc, &pointer);
		if (ret)
			break;
		base += at + loc;
		comp = dot + 1;
	}
	/* The path up to the member at fault. */
	len = comp - path + len;
	if (ret == -ENOENT)
		snprintf(err, errlen,
			"%s: unknown layout: struct %s has no member %.*s",
			file, name, (int)len, path);
	else if (ret == -ENOTDIR)
		snprintf(err, errlen,
			"%s: unknown layout: struct %s: %.*s is %s, not followed (offsets are within the struct)",
			file, name, (int)len, path,
			pointer ? "a pointer" : "not a struct or union");
	else if (ret == -E2BIG)
		snprintf(err, errlen,
			"%s: struct %s: looking up member %.*s visits more than %llu DIEs: damaged or crafted DWARF",
			file, name, (int)len, path,
			(unsigned long long)dies_max);
	else if (ret)
		snprintf(err, errlen,
			"%s: struct %s: cannot read the DWARF of member %.*s",
			file, name, (int)len, path);
	return ret == -ENOTDIR ? -ENOENT : ret;
}
