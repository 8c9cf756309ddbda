// SPDX-License-Identifier: GPL-2.0
/*
 * A small JSON writer for the --json outputs: members in order, strings
 * escaped, numbers as given, one member per line.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/escape.h"
#include "out/json.h"

void ntprof_json_init(struct ntprof_json *js, FILE *f)
{
	memset(js, 0, sizeof(*js));
	js->f = f;
	js->first[0] = true;
}

/*
 * A character of a string other than the quote and the backslash, which
 * it writes; returns its bytes. RFC 8259 wants the controls below 0x20
 * escaped and the text in UTF-8: DEL and the C1 controls are escaped too,
 * so that no JSON of ours drives a terminal, and a byte that is not UTF-8
 * becomes the text "\xHH" (a recording's strings come so from its reader).
 */
static size_t json_other(FILE *f, const unsigned char *p)
{
	size_t n;

	if (*p < 0x20 || *p == 0x7f) {
		fprintf(f, "\\u%04x", *p);
		return 1;
	}
	n = ntprof_utf8_len((const char *)p);
	if (!n) {
		fprintf(f, "\\\\x%02x", *p);
		return 1;
	}
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		fprintf(f, "\\u%04x", p[1]);
	else
		fwrite(p, 1, n, f);
	return n;
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
			p += json_other(f, p) - 1;
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
