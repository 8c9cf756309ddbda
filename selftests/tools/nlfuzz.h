/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nlfuzz: the generic-netlink fuzzer of selftests/tools. What it knows of
 * a family comes from the family's YAML spec (nlfuzz_spec.c): commands,
 * attribute sets, attribute types, nesting and the enums that values
 * come from.
 */
#ifndef NLFUZZ_H
#define NLFUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ft {
	FT_BINARY,	/* and any type this fuzzer does not know */
	FT_U8, FT_U16, FT_U32, FT_U64,
	FT_S8, FT_S16, FT_S32, FT_S64,
	FT_STRING, FT_NEST, FT_PAD, FT_FLAG,
};

/* definitions: an enum or flags (n entries from value-start), or a const. */
struct fdef {
	char *name;
	enum { FD_ENUM, FD_FLAGS, FD_CONST, FD_OTHER } kind;
	unsigned int n;
	uint64_t start;		/* enum: first value; const: the value */
};

struct fattr {
	char *name;
	unsigned int id;
	enum ft type;
	int nest;		/* index of the nested set, or -1 */
	bool multi;
	bool required;		/* its doc says so */
	int def;		/* index of its enum or flags, or -1 */
	bool as_flags;
	bool has_min, has_max;
	int64_t min, max;
	unsigned int max_len;	/* checks: max-len, 0 without */
};

struct fset {
	char *name;
	char *subset_of;
	struct fattr *a;
	unsigned int n;
	unsigned int max_id;
};

/* An operation: req[0]/nreq[0] its do request, [1] its dump request. */
struct fop {
	char *name;
	unsigned int id;
	int set;
	bool has[2];
	int *req[2];		/* indexes into the set's attributes */
	unsigned int nreq[2];
};

struct spec {
	char *family;
	struct fdef *defs;
	unsigned int ndefs;
	struct fset *sets;
	unsigned int nsets;
	struct fop *ops;
	unsigned int nops;
	unsigned int max_cmd;
};

/* Returns 0, or -1 with the reason in @err. */
int spec_load(const char *path, struct spec *s, char *err, size_t errlen);
int spec_set(const struct spec *s, const char *name);
int spec_op(const struct spec *s, const char *name);
const struct fattr *spec_attr(const struct spec *s, int set, unsigned int id);
const struct fattr *spec_attr_named(const struct spec *s, int set,
				    const char *name);
const char *spec_type_name(enum ft t);

/* nlfuzz.c's random numbers: 64 bits, below @n, true at @pct %. */
uint64_t rnd64(void);
unsigned int rnd(unsigned int n);
int chance(unsigned int pct);

/*
 * A random value of @a of @width bytes: mostly of its enum or flags,
 * within its checks, else among the edges (and file offsets of a file of
 * @file_size bytes). @valid: only of its enum, non-empty flags (half
 * the time all of them), within its checks, or small.
 */
uint64_t spec_value(const struct spec *s, const struct fattr *a,
		    unsigned int width, uint64_t file_size, int valid);
/*
 * A random string for @a into @out: the scratch file's path, one under
 * NLFUZZ_NONEXISTENT, relative, empty, over-long or garbage, with its NUL
 * or without; @valid: the scratch file's path. Returns its length.
 */
size_t spec_string(const struct fattr *a, const char *scratch, char *out,
		   size_t cap, int valid);

/* Paths under this are never created: a usite may name them. */
#define NLFUZZ_NONEXISTENT	"/nonexistent-nlfuzz/"

/*
 * Make a datagram harmless: every usite path the scratch file, under
 * NLFUZZ_NONEXISTENT or relative, every layout field one the module
 * refuses. Returns the length to send: it stops before any message to
 * another family than @family (a control message may stay).
 */
size_t spec_sanitize(const struct spec *s, uint16_t family,
		     const char *scratch, uint8_t *b, size_t len);
/* Print the ops' shapes, compare the ids with the uapi header's: 0 or 1. */
int spec_check(const struct spec *s);

#endif /* NLFUZZ_H */
