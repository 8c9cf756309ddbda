// SPDX-License-Identifier: GPL-2.0
/*
 * A small JSON writer for the --json outputs: members in order, strings
 * escaped, numbers as given, one member per line.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out/json.h"

void ntprof_json_init(struct ntprof_json *js, FILE *f)
{
	memset(js, 0, sizeof(*js));
	js->f = f;
	js->first[0] = true;
}

static void json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* The separator, indentation and key before a value. */
static void json_member(struct ntprof_json *js, const char *key)
{
	if (js->depth) {
		fputs(js->first[js->depth] ? "\n" : ",\n", js->f);
		fprintf(js->f, "%*s", 2 * js->depth, "");
	}
	js->first[js->depth] = false;
	if (key) {
		json_string(js->f, key);
		fputs(": ", js->f);
	}
}

static void json_open(struct ntprof_json *js, const char *key, char c)
{
	json_member(js, key);
	fputc(c, js->f);
	/* Deeper than that is a bug of ours; stay valid-ish, flat. */
	if (js->depth < NTPROF_JSON_DEPTH - 1)
		js->depth++;
	js->first[js->depth] = true;
}

static void json_close(struct ntprof_json *js, char c)
{
	bool empty = js->first[js->depth];

	if (js->depth)
		js->depth--;
	if (!empty)
		fprintf(js->f, "\n%*s", 2 * js->depth, "");
	fputc(c, js->f);
	if (!js->depth)
		fputc('\n', js->f);
}

void ntprof_json_obj_start(struct ntprof_json *js, const char *key)
{
	json_open(js, key, '{');
}

void ntprof_json_obj_end(struct ntprof_json *js)
{
	json_close(js, '}');
}

void ntprof_json_arr_start(struct ntprof_json *js, const char *key)
{
	json_open(js, key, '[');
}

void ntprof_json_arr_end(struct ntprof_json *js)
{
	json_close(js, ']');
}

void ntprof_json_str(struct ntprof_json *js, const char *key,
		     const char *val)
{
	json_member(js, key);
	if (val)
		json_string(js->f, val);
	else
		fputs("null", js->f);
}

void ntprof_json_u64(struct ntprof_json *js, const char *key, uint64_t val)
{
	json_member(js, key);
	fprintf(js->f, "%" PRIu64, val);
}

void ntprof_json_i64(struct ntprof_json *js, const char *key, int64_t val)
{
	json_member(js, key);
	fprintf(js->f, "%" PRId64, val);
}

void ntprof_json_num(struct ntprof_json *js, const char *key, double val,
		     int prec)
{
	json_member(js, key);
	if (isnan(val) || isinf(val))
		fputs("null", js->f);
	else
		fprintf(js->f, "%.*f", prec, val);
}

void ntprof_json_bool(struct ntprof_json *js, const char *key, bool val)
{
	json_member(js, key);
	fputs(val ? "true" : "false", js->f);
}
