// SPDX-License-Identifier: GPL-2.0
/*
 * The site list the recorder hands the agent (Documentation/agent.rst,
 * "The site list"): a text file, a site a line,
 *
 *   object OBJECT build-id HEX | object OBJECT file SIZE SEC.NSEC
 *   site OBJECT VADDR SIZE POINT FLAGS ROLE TRANSPORT key=FETCH [F=FETCH]...
 *   near VADDR SIZE
 *
 * An object line says which build of OBJECT (the executable or a shared
 * library) the sites that follow were found in. A site's OBJECT is the
 * file whose function it is, VADDR and SIZE the function's symbol as linked, POINT,
 * ROLE and TRANSPORT the uapi's numbers, FLAGS first, mid, last or
 * first,last, each F one of qid cid opcode nsid slba nlb length trtype, and a
 * FETCH REG[>DEREF]...[+OFF|-OFF][:WIDTH]. A near line, after a site's,
 * names a function of the same object whose code is within 128 bytes
 * of the site's function (VADDR and SIZE its symbol's), which the agent
 * decodes for rel8 branches into the patch. Read once, at start-up.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sitelist.h"

static const char *const field_names[AGENT_F_COUNT] = {
	"key", "qid", "cid", "opcode", "nsid", "slba", "nlb", "length",
	"trtype",
};

static int parse_fetch(const char *s, struct agent_fetch *f)
{
	char *end;
	long v;

	memset(f, 0, sizeof(*f));
	f->set = 1;
	v = strtol(s, &end, 10);
	if (end == s || v < 0 || v > 5)
		return -1;
	f->reg = v;
	while (*end) {
		s = end;
		if (*s == '>' && f->nr_derefs < AGENT_DEREFS_MAX) {
			f->derefs[f->nr_derefs++] = strtol(s + 1, &end, 0);
		} else if (*s == '+' || *s == '-') {
			f->offset = strtol(s, &end, 0);
		} else if (*s == ':') {
			v = strtol(s + 1, &end, 10);
			if (v != 1 && v != 2 && v != 4 && v != 8)
				return -1;
			f->width = v;
		} else {
			return -1;
		}
		/* A sign or a '>' or ':' with no number: no fetch. */
		if (end <= s + 1)
			return -1;
	}
	return 0;
}

/* Objects named in one list: an SPDK program and its SPDK libraries. */
#define OBJECTS_MAX	16

struct object_line {
	char path[PATH_MAX];
	struct agent_build build;
};

static int parse_hex(const char *s, struct agent_build *b)
{
	size_t n = strlen(s), i;
	unsigned int byte;

	if (!n || n % 2 || n / 2 > AGENT_BUILD_ID_MAX)
		return -1;
	for (i = 0; i < n / 2; i++) {
		if (!isxdigit((unsigned char)s[2 * i]) ||
		    !isxdigit((unsigned char)s[2 * i + 1]) ||
		    sscanf(s + 2 * i, "%2x", &byte) != 1)
			return -1;
		b->id[i] = byte;
	}
	b->id_len = n / 2;
	return 0;
}

static int parse_object(char *line, struct object_line *o)
{
	char *tok[5], *save, *t, *end;
	unsigned int n;

	memset(o, 0, sizeof(*o));
	for (n = 0, t = strtok_r(line, " \t\n", &save); t && n < 5;
	     t = strtok_r(NULL, " \t\n", &save))
		tok[n++] = t;
	if (n < 3 || strlen(tok[1]) >= sizeof(o->path))
		return -1;
	strcpy(o->path, tok[1]);
	if (n == 4 && !strcmp(tok[2], "build-id"))
		return parse_hex(tok[3], &o->build);
	if (n != 5 || strcmp(tok[2], "file"))
		return -1;
	o->build.size = strtoull(tok[3], &end, 10);
	if (end == tok[3] || *end)
		return -1;
	o->build.mtime_sec = strtoll(tok[4], &end, 10);
	if (*end != '.')
		return -1;
	t = end + 1;
	o->build.mtime_nsec = strtoll(t, &end, 10);
	return end == t || *end ? -1 : 0;
}

static int parse_site(char *line, struct agent_listed *l,
		      const struct object_line *objects, unsigned int nr_objects)
{
	char *tok[8], *save, *t, *eq;
	unsigned int i, n;

	memset(l, 0, sizeof(*l));
	for (n = 0, t = strtok_r(line, " \t\n", &save); t && n < 8;
	     t = strtok_r(NULL, " \t\n", &save))
		tok[n++] = t;
	if (n < 8 || strcmp(tok[0], "site") ||
	    strlen(tok[1]) >= sizeof(l->object))
		return -1;
	strcpy(l->object, tok[1]);
	for (i = 0; i < nr_objects; i++)
		if (!strcmp(objects[i].path, l->object))
			break;
	if (i == nr_objects)
		return -1;
	l->build = objects[i].build;
	l->vaddr = strtoull(tok[2], NULL, 0);
	l->size = strtoull(tok[3], NULL, 0);
	l->site.point = strtoul(tok[4], NULL, 10);
	l->site.flags = (strstr(tok[5], "first") ? NTPROF_USITE_F_FIRST : 0) |
			(strstr(tok[5], "last") ? NTPROF_USITE_F_LAST : 0);
	l->site.role = strtoul(tok[6], NULL, 10);
	l->site.transport = strtoul(tok[7], NULL, 10);
	for (; t; t = strtok_r(NULL, " \t\n", &save)) {
		eq = strchr(t, '=');
		if (!eq)
			return -1;
		*eq = '\0';
		for (i = 0; i < AGENT_F_COUNT; i++)
			if (!strcmp(t, field_names[i]))
				break;
		if (i == AGENT_F_COUNT || parse_fetch(eq + 1, &l->site.f[i]))
			return -1;
	}
	return l->site.f[AGENT_F_KEY].set ? 0 : -1;
}

/* "near VADDR SIZE", for the site before it. */
static int parse_near(const char *line, struct agent_listed *l)
{
	unsigned long long vaddr, size;
	int end = 0;

	if (sscanf(line, "near %llx %llu %n", &vaddr, &size, &end) != 2 ||
	    line[end] || !size)
		return -1;
	if (l->nr_near == AGENT_NEAR_MAX) {
		l->near_over = true;
		return 0;
	}
	l->near[l->nr_near++] = (struct agent_sym){ vaddr, size };
	return 0;
}

int agent_sitelist_read(const char *path, struct agent_listed *sites,
			unsigned int max, unsigned int *nr, unsigned int *bad_line)
{
	static struct object_line objects[OBJECTS_MAX];
	unsigned int lineno = 0, nr_objects = 0;
	char line[1024], *p;
	int bad;
	FILE *f;

	*nr = 0;
	*bad_line = 0;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		p = line + strspn(line, " \t");
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		if (!strncmp(p, "object", 6) && isspace((unsigned char)p[6])) {
			bad = nr_objects == OBJECTS_MAX ||
			      parse_object(p, &objects[nr_objects]);
			nr_objects += !bad;
		} else if (!strncmp(p, "near", 4) && isspace((unsigned char)p[4])) {
			bad = !*nr || parse_near(p, &sites[*nr - 1]);
		} else {
			bad = *nr == max ||
			      parse_site(p, &sites[*nr], objects, nr_objects);
			*nr += !bad;
		}
		if (bad) {
			*bad_line = lineno;
			fclose(f);
			return -EINVAL;
		}
	}
	fclose(f);
	return 0;
}
