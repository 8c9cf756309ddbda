// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz's view of a family: its YAML spec (the kernel's netlink spec
 * style, Documentation/netlink/specs/) read with libyaml's document API.
 *
 * Attribute ids are their position in their set from 1, command ids
 * their position in operations.list from 1, either moved on by a
 * "value:" key as the kernel's specs allow. A subset-of set takes the
 * types of its parent's attributes of the same names.
 *
 * Here too: the values an attribute takes (spec_value(), spec_string()),
 * what in a message could harm the machine, found as the kernel would
 * parse it (spec_sanitize()), and the check of the spec's ids against
 * include/uapi/linux/ntprof.h (spec_check()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <uapi/linux/ntprof.h>

#include "nlfuzz.h"

struct ctx {
	yaml_document_t doc;
	struct spec *s;
	char *err;
	size_t errlen;
};

static int fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static yaml_node_t *node(struct ctx *c, int id)
{
	return yaml_document_get_node(&c->doc, id);
}

/* The value of @key in mapping @map, or NULL. */
static yaml_node_t *get(struct ctx *c, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;
	yaml_node_t *k;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		k = node(c, p->key);
		if (k && k->type == YAML_SCALAR_NODE &&
		    !strcmp((char *)k->data.scalar.value, key))
			return node(c, p->value);
	}
	return NULL;
}

static const char *str(struct ctx *c, yaml_node_t *map, const char *key)
{
	yaml_node_t *n = get(c, map, key);

	return n && n->type == YAML_SCALAR_NODE ? (char *)n->data.scalar.value : NULL;
}

static unsigned int seq_len(yaml_node_t *n)
{
	if (!n || n->type != YAML_SEQUENCE_NODE)
		return 0;
	return n->data.sequence.items.top - n->data.sequence.items.start;
}

static yaml_node_t *seq_at(struct ctx *c, yaml_node_t *n, unsigned int i)
{
	return node(c, n->data.sequence.items.start[i]);
}

static char *dup(const char *v)
{
	char *d = strdup(v ? v : "");

	if (!d) {
		perror("nlfuzz");
		exit(1);
	}
	return d;
}

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		perror("nlfuzz");
		exit(1);
	}
	return p;
}

static int def_index(const struct spec *s, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < s->ndefs; i++)
		if (!strcmp(s->defs[i].name, name))
			return i;
	return -1;
}

/* A number, or the name of a const definition. */
static int number(struct ctx *c, const char *v, int64_t *out)
{
	char *end;
	int d;

	errno = 0;
	*out = strtoll(v, &end, 0);
	if (!errno && end != v && !*end)
		return 0;
	d = def_index(c->s, v);
	if (d < 0 || c->s->defs[d].kind != FD_CONST)
		return fail(c, "'%s' is neither a number nor a const", v);
	*out = (int64_t)c->s->defs[d].start;
	return 0;
}

static const char *const type_names[] = {
	[FT_BINARY] = "binary", [FT_U8] = "u8", [FT_U16] = "u16",
	[FT_U32] = "u32", [FT_U64] = "u64", [FT_S8] = "s8", [FT_S16] = "s16",
	[FT_S32] = "s32", [FT_S64] = "s64", [FT_STRING] = "string",
	[FT_NEST] = "nest", [FT_PAD] = "pad", [FT_FLAG] = "flag",
};

const char *spec_type_name(enum ft t)
{
	return type_names[t];
}

static enum ft type_of(const char *v)
{
	unsigned int i;

	for (i = 0; v && i < sizeof(type_names) / sizeof(*type_names); i++)
		if (!strcmp(v, type_names[i]))
			return i;
	if (v && !strcmp(v, "uint"))
		return FT_U64;
	if (v && !strcmp(v, "sint"))
		return FT_S64;
	return FT_BINARY;
}

static int load_defs(struct ctx *c, yaml_node_t *defs)
{
	struct spec *s = c->s;
	unsigned int i;
	int64_t v;

	s->ndefs = seq_len(defs);
	s->defs = zalloc(s->ndefs, sizeof(*s->defs));
	for (i = 0; i < s->ndefs; i++) {
		yaml_node_t *d = seq_at(c, defs, i);
		struct fdef *f = &s->defs[i];
		const char *type = str(c, d, "type"), *val;

		f->name = dup(str(c, d, "name"));
		f->n = seq_len(get(c, d, "entries"));
		f->kind = !type ? FD_OTHER : !strcmp(type, "enum") ? FD_ENUM :
			  !strcmp(type, "flags") ? FD_FLAGS :
			  !strcmp(type, "const") ? FD_CONST : FD_OTHER;
		val = str(c, d, f->kind == FD_CONST ? "value" : "value-start");
		if (val) {
			if (number(c, val, &v))
				return -1;
			f->start = v;
		}
	}
	return 0;
}

static int load_attr(struct ctx *c, yaml_node_t *n, struct fattr *a,
		     unsigned int id)
{
	yaml_node_t *checks = get(c, n, "checks");
	const char *v;
	int64_t x;

	a->name = dup(str(c, n, "name"));
	a->id = id;
	a->type = type_of(str(c, n, "type"));
	a->nest = -1;	/* resolved once every set is known */
	v = str(c, n, "multi-attr");
	a->multi = v && !strcmp(v, "true");
	v = str(c, n, "doc");
	a->required = v && strstr(v, "required");
	a->def = def_index(c->s, str(c, n, "enum"));
	v = str(c, n, "enum-as-flags");
	a->as_flags = (v && !strcmp(v, "true")) ||
		      (a->def >= 0 && c->s->defs[a->def].kind == FD_FLAGS);
	if ((v = str(c, checks, "min"))) {
		if (number(c, v, &a->min))
			return -1;
		a->has_min = true;
	}
	if ((v = str(c, checks, "max"))) {
		if (number(c, v, &a->max))
			return -1;
		a->has_max = true;
	}
	if ((v = str(c, checks, "max-len"))) {
		if (number(c, v, &x))
			return -1;
		a->max_len = x;
	}
	return 0;
}

static int load_sets(struct ctx *c, yaml_node_t *sets)
{
	struct spec *s = c->s;
	unsigned int i, j, id;
	int64_t v;

	s->nsets = seq_len(sets);
	s->sets = zalloc(s->nsets, sizeof(*s->sets));
	for (i = 0; i < s->nsets; i++) {
		yaml_node_t *set = seq_at(c, sets, i), *attrs = get(c, set, "attributes");
		struct fset *fs = &s->sets[i];
		const char *sub = str(c, set, "subset-of");

		fs->name = dup(str(c, set, "name"));
		fs->subset_of = sub ? dup(sub) : NULL;
		fs->n = seq_len(attrs);
		fs->a = zalloc(fs->n, sizeof(*fs->a));
		for (j = 0, id = 1; j < fs->n; j++, id++) {
			yaml_node_t *an = seq_at(c, attrs, j);
			const char *val = str(c, an, "value");

			if (val) {
				if (number(c, val, &v))
					return -1;
				id = v;
			}
			if (load_attr(c, an, &fs->a[j], id))
				return -1;
			if (id > fs->max_id)
				fs->max_id = id;
		}
	}
	/* Now that every set has a name: nests, then subsets' attributes. */
	for (i = 0; i < s->nsets; i++) {
		yaml_node_t *attrs = get(c, seq_at(c, sets, i), "attributes");
		struct fset *fs = &s->sets[i];

		for (j = 0; j < fs->n; j++) {
			struct fattr *a = &fs->a[j];
			const char *nest = str(c, seq_at(c, attrs, j), "nested-attributes");

			if (nest && (a->nest = spec_set(s, nest)) < 0)
				return fail(c, "attribute %s.%s: no set %s",
					    fs->name, a->name, nest);
		}
	}
	for (i = 0; i < s->nsets; i++) {
		yaml_node_t *attrs = get(c, seq_at(c, sets, i), "attributes");
		struct fset *fs = &s->sets[i];
		int parent = fs->subset_of ? spec_set(s, fs->subset_of) : -1;

		if (fs->subset_of && parent < 0)
			return fail(c, "set %s: no set %s", fs->name, fs->subset_of);
		for (j = 0, fs->max_id = 0; j < fs->n; j++) {
			struct fattr *a = &fs->a[j];
			const struct fattr *pa;

			if (parent >= 0 && !str(c, seq_at(c, attrs, j), "type") &&
			    (pa = spec_attr_named(s, parent, a->name))) {
				char *name = a->name;

				*a = *pa;
				a->name = name;
			}
			if (a->type == FT_NEST && a->nest < 0)
				return fail(c, "attribute %s.%s: a nest of no set",
					    fs->name, a->name);
			if (a->id > fs->max_id)
				fs->max_id = a->id;
		}
	}
	return 0;
}

/* One of an op's requests: the attributes it lists, by name. */
static int load_request(struct ctx *c, struct fop *op, int k, yaml_node_t *mode)
{
	yaml_node_t *list = get(c, get(c, mode, "request"), "attributes");
	unsigned int i;

	op->has[k] = true;
	op->nreq[k] = seq_len(list);
	op->req[k] = zalloc(op->nreq[k], sizeof(int));
	for (i = 0; i < op->nreq[k]; i++) {
		yaml_node_t *n = seq_at(c, list, i);
		const char *name = n->type == YAML_SCALAR_NODE ?
				   (char *)n->data.scalar.value : "";
		const struct fattr *a = spec_attr_named(c->s, op->set, name);

		if (!a)
			return fail(c, "op %s: no attribute %s in its set",
				    op->name, name);
		op->req[k][i] = a - c->s->sets[op->set].a;
	}
	return 0;
}

static int load_ops(struct ctx *c, yaml_node_t *list)
{
	struct spec *s = c->s;
	unsigned int i, id;
	int64_t v;

	s->nops = seq_len(list);
	s->ops = zalloc(s->nops, sizeof(*s->ops));
	for (i = 0, id = 1; i < s->nops; i++, id++) {
		yaml_node_t *o = seq_at(c, list, i), *m;
		struct fop *op = &s->ops[i];
		const char *set = str(c, o, "attribute-set"), *val = str(c, o, "value");

		if (val) {
			if (number(c, val, &v))
				return -1;
			id = v;
		}
		op->name = dup(str(c, o, "name"));
		op->id = id;
		op->set = set ? spec_set(s, set) : -1;
		if (set && op->set < 0)
			return fail(c, "op %s: no set %s", op->name, set);
		if ((m = get(c, o, "do")) && load_request(c, op, 0, m))
			return -1;
		if ((m = get(c, o, "dump")) && load_request(c, op, 1, m))
			return -1;
		if (id > s->max_cmd)
			s->max_cmd = id;
	}
	return 0;
}

int spec_load(const char *path, struct spec *s, char *err, size_t errlen)
{
	struct ctx c = { .s = s, .err = err, .errlen = errlen };
	yaml_parser_t parser;
	yaml_node_t *root;
	FILE *f;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &c.doc)) {
		snprintf(err, errlen, "%s:%zu: %s", path,
			 parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "YAML error");
		goto out_parser;
	}
	root = yaml_document_get_root_node(&c.doc);
	if (!root || !str(&c, root, "name")) {
		fail(&c, "%s: no family name", path);
		goto out_doc;
	}
	s->family = dup(str(&c, root, "name"));
	if (load_defs(&c, get(&c, root, "definitions")) ||
	    load_sets(&c, get(&c, root, "attribute-sets")) ||
	    load_ops(&c, get(&c, get(&c, root, "operations"), "list")))
		goto out_doc;
	if (!s->nops)
		fail(&c, "%s: no operations", path);
	else
		ret = 0;
out_doc:
	yaml_document_delete(&c.doc);
out_parser:
	yaml_parser_delete(&parser);
	fclose(f);
	return ret;
}

int spec_set(const struct spec *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nsets; i++)
		if (!strcmp(s->sets[i].name, name))
			return i;
	return -1;
}

int spec_op(const struct spec *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nops; i++)
		if (!strcmp(s->ops[i].name, name))
			return i;
	return -1;
}

const struct fattr *spec_attr(const struct spec *s, int set, unsigned int id)
{
	unsigned int i;

	for (i = 0; set >= 0 && i < s->sets[set].n; i++)
		if (s->sets[set].a[i].id == id)
			return &s->sets[set].a[i];
	return NULL;
}

const struct fattr *spec_attr_named(const struct spec *s, int set,
				    const char *name)
{
	unsigned int i;

	for (i = 0; set >= 0 && i < s->sets[set].n; i++)
		if (!strcmp(s->sets[set].a[i].name, name))
			return &s->sets[set].a[i];
	return NULL;
}

/* A value of the attribute's enum or flags, within its checks, or any. */
uint64_t spec_value(const struct spec *s, const struct fattr *a,
		    unsigned int width, uint64_t file_size, int valid)
{
	const struct fdef *d = a->def >= 0 ? &s->defs[a->def] : NULL;
	uint64_t mask = width >= 8 ? ~0ULL : (1ULL << (width * 8)) - 1, span, v;
	int64_t lo, hi;

	if (d && d->n && (valid || chance(90))) {
		if (!a->as_flags)
			return d->start + rnd(d->n + (!valid && chance(5)));
		v = rnd64() & ((1ULL << d->n) - 1);
		if (valid && (!v || chance(50)))
			v = (1ULL << d->n) - 1;
		return v << d->start;
	}
	if ((a->has_min || a->has_max) && (valid || chance(85))) {
		lo = a->has_min ? a->min : 0;
		hi = a->has_max ? a->max : (int64_t)(mask >> 1);
		switch (valid ? 9 : rnd(8)) {
		case 0: return lo;
		case 1: return hi;
		case 2: return lo - 1;
		case 3: return hi + 1;
		}
		span = (uint64_t)(hi - lo) + 1;
		return lo + (span ? rnd64() % span : rnd64());
	}
	if (valid)
		return rnd(chance(50) && file_size ? file_size : 4096);
	switch (rnd(8)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return mask;
	case 3: return mask >> 1;
	case 4: return (mask >> 1) + 1;
	case 5: return rnd(file_size + 64);	/* a file offset, say */
	case 6: return rnd(4096);
	}
	return rnd64() & mask;
}

/* A string that is no path to any file but the scratch file; its length. */
size_t spec_string(const struct fattr *a, const char *scratch, char *out,
		   size_t cap, int valid)
{
	size_t n, i;

	switch (valid ? 0 : rnd(16)) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6:
		return snprintf(out, cap, "%s", scratch) + 1;
	case 7: case 8:
		return snprintf(out, cap, NLFUZZ_NONEXISTENT "%x/%x", rnd(1 << 20), rnd(99)) + 1;
	case 9:
		return snprintf(out, cap, "nlfuzz-relative/%x", rnd(1 << 16)) + 1;
	case 10:
		out[0] = 0;
		return 1;
	case 11:	/* no NUL */
		return snprintf(out, cap, "%s", scratch);
	case 12:	/* the scratch file, then what follows its NUL */
		n = snprintf(out, cap, "%s", scratch) + 1;
		return n + snprintf(out + n, cap - n, "/etc/passwd");
	case 13:	/* just past the checks' max-len, or PATH_MAX */
		n = (a->max_len ? a->max_len : 4095) + rnd(3);
		n = n < cap - 1 ? n : cap - 1;
		memset(out, 'A', n);
		out[n] = 0;
		return n + 1;
	}
	n = 1 + rnd(cap < 64 ? cap - 1 : 63);	/* garbage, never from '/' */
	for (i = 0; i < n; i++)
		out[i] = 1 + rnd(255);
	if (out[0] == '/')
		out[0] = '#';
	out[n] = 0;
	return n + chance(80);
}

/*
 * The hazards of a message, as the kernel parses it (nlfuzz.c's header):
 * every attribute of @set in @p, nests followed as the spec nests them.
 */
struct hazards {
	const struct spec *s;
	const char *scratch;
	const struct fattr *field;	/* layout's field */
	int role;
};

static bool path_ok(const struct hazards *h, const uint8_t *d, int dl)
{
	size_t n = strlen(h->scratch);

	return dl <= 0 || d[0] != '/' ||
	       ((size_t)dl > n && !memcmp(d, h->scratch, n + 1)) ||
	       ((size_t)dl >= strlen(NLFUZZ_NONEXISTENT) &&
		!memcmp(d, NLFUZZ_NONEXISTENT, strlen(NLFUZZ_NONEXISTENT)));
}

/* A layout field the module refuses for the message's role. */
static uint32_t field_refused(uint32_t v, int role)
{
	if (role == NTPROF_ROLE_HOST)
		return v < NTPROF_LF_FIRST_TARGET ? NTPROF_LF_FIRST_TARGET +
		       v % (NTPROF_LF_COUNT - NTPROF_LF_FIRST_TARGET) : v;
	if (role == NTPROF_ROLE_TARGET)
		return v >= NTPROF_LF_FIRST_TARGET && v < NTPROF_LF_COUNT ?
		       v % NTPROF_LF_FIRST_TARGET : v;
	return v < NTPROF_LF_COUNT ? v + NTPROF_LF_COUNT : v;
}

static void walk(const struct hazards *h, uint8_t *p, int rem, int set)
{
	while (rem >= NLA_HDRLEN) {
		struct nlattr *a = (void *)p;
		const struct fattr *fa;
		uint8_t *d = p + NLA_HDRLEN;
		int dl = a->nla_len - NLA_HDRLEN;
		uint32_t v;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > rem)
			return;
		fa = spec_attr(h->s, set, a->nla_type & NLA_TYPE_MASK);
		if (fa && fa->type == FT_STRING && !strcmp(fa->name, "path") &&
		    !path_ok(h, d, dl))
			d[0] = 'x';	/* relative: refused */
		if (fa && fa == h->field && dl >= 4) {
			memcpy(&v, d, 4);
			v = field_refused(v, h->role);
			memcpy(d, &v, 4);
		}
		if (fa && fa->type == FT_NEST)
			walk(h, d, dl, fa->nest);
		p += NLA_ALIGN(a->nla_len);
		rem -= NLA_ALIGN(a->nla_len);
	}
}

/* The role the kernel takes from a message: its last "role", if 4 bytes. */
static int role_of(const struct spec *s, uint8_t *p, int rem, int set)
{
	const struct fattr *ra = spec_attr_named(s, set, "role");
	int role = -1;

	while (ra && rem >= NLA_HDRLEN) {
		struct nlattr *a = (void *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > rem)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == ra->id)
			role = a->nla_len == NLA_HDRLEN + 4 ?
			       (int)*(uint32_t *)(p + NLA_HDRLEN) : -1;
		p += NLA_ALIGN(a->nla_len);
		rem -= NLA_ALIGN(a->nla_len);
	}
	return role;
}

size_t spec_sanitize(const struct spec *s, uint16_t family,
		     const char *scratch, uint8_t *b, size_t len)
{
	struct hazards h = { .s = s, .scratch = scratch };
	int layout = spec_set(s, "layout");
	size_t off = 0;

	h.field = spec_attr_named(s, layout, "field");
	/* Message by message, as netlink_rcv_skb() takes them. */
	while (len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr *nlh = (void *)(b + off);
		int set = -1, rem = (int)nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
		uint8_t *p = b + off + NLMSG_HDRLEN + GENL_HDRLEN;
		unsigned int i;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - off)
			break;
		if (nlh->nlmsg_type >= NLMSG_MIN_TYPE && nlh->nlmsg_type != family)
			return off;
		/* Control messages too, though the kernel skips them. */
		if (rem >= 0) {
			for (i = 0; i < s->nops; i++)
				if (s->ops[i].id == b[off + NLMSG_HDRLEN])
					set = s->ops[i].set;
			h.role = role_of(s, p, rem, set);
			walk(&h, p, rem, set);
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		if (off > len)
			off = len;
	}
	return len;
}

/* spec_check(): the spec's ids against the uapi header's. */
static const struct { const char *set, *name; unsigned int id; } uapi_ids[] = {
	{ NULL, "status-get", NTPROF_CMD_STATUS_GET }, { NULL, "start", NTPROF_CMD_START },
	{ NULL, "stop", NTPROF_CMD_STOP }, { NULL, "probe-get", NTPROF_CMD_PROBE_GET },
	{ NULL, "stats-get", NTPROF_CMD_STATS_GET },
	{ NULL, "records-get", NTPROF_CMD_RECORDS_GET },
	{ NULL, "events-get", NTPROF_CMD_EVENTS_GET },
	{ "events", NULL, NTPROF_A_EVENTS_MAX }, { "events", "role", NTPROF_A_EVENTS_ROLE },
	{ "events", "time", NTPROF_A_EVENTS_TIME }, { "events", "pad", NTPROF_A_EVENTS_PAD },
	{ "module", NULL, NTPROF_A_MODULE_MAX }, { "status", NULL, NTPROF_A_STATUS_MAX },
	{ "start", NULL, NTPROF_A_START_MAX }, { "layout", NULL, NTPROF_A_LAYOUT_MAX },
	{ "fetch", NULL, NTPROF_A_FETCH_MAX }, { "usite", NULL, NTPROF_A_USITE_MAX },
	{ "hook", NULL, NTPROF_A_HOOK_MAX }, { "stats", NULL, NTPROF_A_STATS_MAX },
	{ "records", NULL, NTPROF_A_RECORDS_MAX },
	{ "start", "role", NTPROF_A_START_ROLE }, { "start", "usite", NTPROF_A_START_USITE },
	{ "start", "layout", NTPROF_A_START_LAYOUT }, { "usite", "path", NTPROF_A_USITE_PATH },
	{ "usite", "key", NTPROF_A_USITE_KEY }, { "usite", "trtype", NTPROF_A_USITE_TRTYPE },
	{ "fetch", "deref", NTPROF_A_FETCH_DEREF }, { "layout", "field", NTPROF_A_LAYOUT_FIELD },
	{ "status", "pad", NTPROF_A_STATUS_PAD }, { "stats", "role", NTPROF_A_STATS_ROLE },
	{ "records", "role", NTPROF_A_RECORDS_ROLE },
	{ "start", "chain", NTPROF_A_START_CHAIN },
	{ "start", "chain-offset", NTPROF_A_START_CHAIN_OFFSET },
	{ "status", "chain", NTPROF_A_STATUS_CHAIN },
	{ "status", "chain-offset", NTPROF_A_STATUS_CHAIN_OFFSET },
};

static void print_op(const struct spec *s, const struct fop *op, int k)
{
	unsigned int j;

	printf("op %u %s %s (set %s):", op->id, op->name, k ? "dump" : "do",
	       op->set >= 0 ? s->sets[op->set].name : "none");
	for (j = 0; j < op->nreq[k]; j++) {
		const struct fattr *a = &s->sets[op->set].a[op->req[k][j]];

		printf(" %s=%u:%s%s%s%s", a->name, a->id, spec_type_name(a->type),
		       a->nest >= 0 ? ">" : "", a->nest >= 0 ? s->sets[a->nest].name : "",
		       a->multi ? "*" : "");
	}
	printf("\n");
}

int spec_check(const struct spec *s)
{
	unsigned int i, k, bad = 0, n = sizeof(uapi_ids) / sizeof(*uapi_ids);

	for (i = 0; i < s->nops; i++)
		for (k = 0; k < 2; k++)
			if (s->ops[i].has[k])
				print_op(s, &s->ops[i], k);
	for (i = 0; i < n; i++) {
		int set = uapi_ids[i].set ? spec_set(s, uapi_ids[i].set) : -1;
		const struct fattr *a = set >= 0 && uapi_ids[i].name ?
					spec_attr_named(s, set, uapi_ids[i].name) : NULL;
		int o = uapi_ids[i].set ? -1 : spec_op(s, uapi_ids[i].name);
		unsigned int got = o >= 0 ? s->ops[o].id : a ? a->id :
				   set >= 0 && !uapi_ids[i].name ? s->sets[set].max_id : 0;

		if (got != uapi_ids[i].id) {
			printf("mismatch: %s %s: spec %u, uapi %u\n",
			       uapi_ids[i].set ?: "op", uapi_ids[i].name ?: "(max)",
			       got, uapi_ids[i].id);
			bad++;
		}
	}
	if (s->max_cmd != NTPROF_CMD_MAX) {
		printf("mismatch: the last op: spec %u, uapi %u\n", s->max_cmd, NTPROF_CMD_MAX);
		bad++;
	}
	printf("nlfuzz: spec %s: %u ops, %u attribute sets, %u definitions; "
	       "%u of %u ids as in the uapi header\n", s->family, s->nops,
	       s->nsets, s->ndefs, n + 1 - bad, n + 1);
	return bad ? 1 : 0;
}
