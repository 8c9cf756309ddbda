/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What elfsite.c (the binary, the names asked for and the struct layouts)
 * and elfsite_resolve.c (the passes that resolve them) share. Not for use
 * outside lib/sites.
 */
#ifndef NTPROF_ELFSITE_PRIV_H
#define NTPROF_ELFSITE_PRIV_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sites/dwlayout.h"
#include "sites/elfsite.h"

/*
 * An executable PT_LOAD, which tells where the code at an address lies in
 * the file.
 */
struct es_load {
	uint64_t vaddr;
	uint64_t filesz;
	uint64_t offset;
};

/* A function's result, with the capacities of its growing arrays. */
struct es_func {
	struct elfsite_func pub;
	size_t cap_entries;
	size_t cap_inlined;
};

struct elfsite {
	char *path;
	int fd;
	Elf *elf;
	Dwarf *dw;
	Elf_Scn *symtab;
	bool big_endian;
	struct es_load *loads;
	size_t nr_loads;
	char *build_id;
	struct es_func **funcs;	/* pointers: the results don't move */
	size_t nr_funcs;
	struct dwlayout_struct **structs;
	size_t nr_structs;
	uint64_t dies_max;	/* DIE visits of one walk (elfsite.h) */
};

/*
 * es_dies_max() - return how many DIEs one resolve or one member's lookup
 * may visit (elfsite.h).
 */
uint64_t es_dies_max(const struct elfsite *es);

/*
 * es_grow() - make room for element @n of the array *@arr of *@cap
 * elements of @size bytes.
 */
int es_grow(void **arr, size_t *cap, size_t n, size_t size);
#define GROW(arr, n, cap) es_grow((void **)&(arr), &(cap), (n), sizeof(*(arr)))

/*
 * es_find_func() - return the function asked for by that name, searching
 * from index @from on; es_find_struct() does the same for a struct.
 */
struct es_func *es_find_func(const struct elfsite *es, size_t from,
			     const char *name, size_t len);
struct dwlayout_struct *es_find_struct(const struct elfsite *es, size_t from,
				       const char *name);
/* es_add_names() - add the names not asked for yet, as unresolved. */
int es_add_names(struct elfsite *es, const char *const funcs[],
		 size_t nr_funcs, const char *const structs[],
		 size_t nr_structs);
/*
 * es_drop_new_names() - drop the names added since @f0 functions and @s0
 * structs, so that a failed resolve leaves no half-resolved names behind.
 */
void es_drop_new_names(struct elfsite *es, size_t f0, size_t s0);

#endif /* NTPROF_ELFSITE_PRIV_H */
