/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Struct layouts from DWARF, for elfsite: a struct's definitions as the
 * pass over the units meets them, and the walk down a member path.
 */
#ifndef NTPROF_DWLAYOUT_H
#define NTPROF_DWLAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "sites/elfsite.h"

/* A struct or union wanted by its tag. */
struct dwlayout_struct {
	char *name;
	bool found;
	Dwarf_Die die;		/* the first definition; lives as long as its Dwarf */
	uint64_t size;
	uint64_t other_size;	/* a definition of another size, or 0 */
};

/*
 * dwlayout_note() - take note of @die, a definition of @s that the pass
 * met in some unit.
 */
void dwlayout_note(struct dwlayout_struct *s, Dwarf_Die *die);

/*
 * dwlayout_size() - put the size of @s in @size; dwlayout_member() puts
 * the place of its member @path ("cmd", "hdr.id") in @m. @big_endian is
 * the file's byte order, on which DWARF 2's bit-fields depend. Both
 * return 0, or an error with a one-line message naming @file in @err:
 * -ENOENT for a struct not found or a path that is not there (no such
 * member, or one reached through a pointer or a scalar), -EBADMSG for
 * definitions of different sizes or DWARF that they cannot read, -E2BIG
 * when the member's lookup would visit more than @dies_max DIEs
 * (elfsite.h).
 */
int dwlayout_size(const struct dwlayout_struct *s, uint64_t *size,
		  const char *file, char *err, size_t errlen);
int dwlayout_member(const struct dwlayout_struct *s, bool big_endian,
		    const char *path, struct elfsite_member *m,
		    uint64_t dies_max, const char *file, char *err,
		    size_t errlen);

#endif /* NTPROF_DWLAYOUT_H */
