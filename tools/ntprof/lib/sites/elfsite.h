/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Uprobe sites and struct layouts of a user-space binary (SPDK's nvmf_tgt,
 * spdk_nvme_perf), read from its ELF symbol table and DWARF with libdw.
 *
 * A uprobe is placed at (file, file offset), so every address here comes
 * with its file offset, through the executable PT_LOAD that holds it. The
 * names wanted are given at once to elfsite_resolve(): one pass over the
 * compilation units' top-level entries, and a walk of only the units that
 * define one of the wanted functions, for their inlined copies.
 */
#ifndef NTPROF_ELFSITE_H
#define NTPROF_ELFSITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elfsite;

enum elfsite_state {
	ELFSITE_MISSING,	/* neither defined nor inlined anywhere */
	ELFSITE_OK,		/* at least one out-of-line definition */
	ELFSITE_INLINED,	/* only inlined copies */
};

/* One place where a function's code starts. */
struct elfsite_site {
	uint64_t vaddr;		/* as linked */
	uint64_t offset;	/* in the file: what a uprobe takes */
	/*
	 * Out-of-line entries: the ELF symbol there, the name itself or a
	 * GCC clone ("name.isra.0"), NULL if the symbol table has none.
	 * Inlined copies: NULL.
	 */
	const char *symbol;
	/* That symbol's size, the body the agent decodes; 0 without one. */
	uint64_t size;
	/*
	 * The entry is "name.part.N", the rest of a function whose head GCC
	 * inlined into its callers: it runs only when an inlined head calls
	 * it, so the inlined copies need probes too.
	 */
	bool partial;
	/* Inlined copies: the function whose code holds the copy. */
	const char *caller;
};

/*
 * What a function name resolved to. The strings and arrays belong to the
 * struct elfsite and last until elfsite_close().
 */
struct elfsite_func {
	const char *name;
	enum elfsite_state state;
	/*
	 * Out-of-line definitions by address: one, or a static function
	 * defined in several files.
	 */
	struct elfsite_site *entries;
	size_t nr_entries;
	/*
	 * An entry is a GCC clone, whose arguments may differ from the
	 * source's (.isra drops or splits some).
	 */
	bool clone;
	/* The start of every inlined copy, by address. */
	struct elfsite_site *inlined;
	size_t nr_inlined;
};

/* A member of a struct, at any depth of embedded structs and unions. */
struct elfsite_member {
	uint64_t offset;	/* bytes from the start of the outermost struct */
	uint64_t size;		/* bytes; a bit-field: the bytes it spans */
	bool bitfield;
	uint64_t bit_offset;	/* bit-fields: bits from the struct's start */
	uint64_t bit_size;
};

/*
 * elfsite_open() - open the ELF executable or shared object at @path. On
 * failure, it returns -errno and puts a one-line message naming @path in
 * @err: the system's error for a file that cannot be opened, -ENOEXEC for
 * a file that is not ELF or not linked, -ENODATA for a file without DWARF
 * or without a symbol table.
 */
int elfsite_open(const char *path, struct elfsite **esp, char *err,
		 size_t errlen);
/*
 * elfsite_open_fd() - do what elfsite_open() does, for the file open as
 * @fd, named @path in messages.
 */
int elfsite_open_fd(int fd, const char *path, struct elfsite **esp,
		    char *err, size_t errlen);
/* elfsite_close() - free @es and everything that it resolved. */
void elfsite_close(struct elfsite *es);

/*
 * elfsite_resolve() - look up the functions @funcs and the structs or
 * unions tagged @structs, in one pass. Function names are plain: "foo"
 * also finds the clone "foo.isra.0". Names already resolved are skipped,
 * so the function can be called again with more names. It returns 0, or
 * -errno with a message in @err (damaged DWARF, no memory).
 */
int elfsite_resolve(struct elfsite *es, const char *const funcs[],
		    size_t nr_funcs, const char *const structs[],
		    size_t nr_structs, char *err, size_t errlen);

/*
 * elfsite_func() - return the result for a name given to
 * elfsite_resolve(), or NULL for a name that was not given.
 */
const struct elfsite_func *elfsite_func(const struct elfsite *es,
					const char *name);

/* A function's code as linked: its symbol's [vaddr, vaddr + size). */
struct elfsite_code {
	uint64_t vaddr;
	uint64_t size;
};

/*
 * elfsite_code_near() - find the functions whose code overlaps [@lo, @hi),
 * except those at @self (the function itself and its aliases). Functions
 * here are code symbols with a size: f.cold pieces, clones and others
 * alike. It puts the first @max of them, by address, in @out, and returns
 * how many there are, each counted once (except that an alias of a
 * function past the first @max may be counted again).
 */
size_t elfsite_code_near(const struct elfsite *es, uint64_t lo, uint64_t hi,
			 uint64_t self, struct elfsite_code *out, size_t max);

/* elfsite_state_name() - return "ok", "inlined" or "missing". */
const char *elfsite_state_name(enum elfsite_state state);

/*
 * elfsite_struct_size() - put the size of struct @name in @size;
 * elfsite_member() puts the place of its member @path in @m. A path such
 * as "cmd" or "hdr.id" goes through embedded structs and unions, never
 * through a pointer. Both return 0, or -ENOENT with "struct X not found"
 * or "unknown layout: struct X has no member Y" in @err, -EINVAL if
 * @name was not given to elfsite_resolve(), or -EBADMSG if the struct's
 * definitions differ in size from one compilation unit to another.
 */
int elfsite_struct_size(const struct elfsite *es, const char *name,
			uint64_t *size, char *err, size_t errlen);
int elfsite_member(const struct elfsite *es, const char *name,
		   const char *path, struct elfsite_member *m, char *err,
		   size_t errlen);

/*
 * A bound on the work of walking the DWARF, which a damaged or crafted
 * file could make endless (a DW_AT_sibling that points back) or
 * exponential (two anonymous members of the same type at each of 30
 * levels, within the depth bound of dwlayout.c). One elfsite_resolve(),
 * and one elfsite_member(), visit at most ELFSITE_DIES_PER_BYTE DIEs per
 * byte of the file's .debug_info and .debug_types (uncompressed), plus
 * ELFSITE_DIES_MIN. A DIE takes at least one byte, and each pass visits a
 * DIE once, so no real binary comes near the bound (ntprof itself, with
 * 460 KB of .debug_info, needs one visit per 47 bytes), and the work
 * stays in proportion to the file's size. Past the bound, they fail with
 * -E2BIG and a message that says so.
 */
#define ELFSITE_DIES_PER_BYTE	4
#define ELFSITE_DIES_MIN	(1ULL << 20)
/* When not 0, the bound to use instead, for the tests that cross it. */
extern uint64_t elfsite_die_budget;

/*
 * elfsite_build_id() - return the GNU build-id in hex, which tells which
 * binary was profiled, or NULL.
 */
const char *elfsite_build_id(const struct elfsite *es);

#endif /* NTPROF_ELFSITE_H */
