// SPDX-License-Identifier: GPL-2.0
/*
 * Strings from outside the tool, printed safely: ntprof_escape() (what
 * the recording reader does to every string of a file), its cut when the
 * escaped form is too long, ntprof_utf8_len() on RFC 3629's edges, and
 * the HTML and JSON writers on controls and bytes that are not UTF-8.
 * test_escape.sh checks the tool's outputs on a crafted recording.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "out/html.h"
#include "out/json.h"
#include "tap.h"

/* What html_escape() or a JSON string member makes of @s, malloc()ed. */
static char *render(const char *s, bool json)
{
	struct ntprof_json js;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		exit(2);
	if (json) {
		ntprof_json_init(&js, f);
		ntprof_json_str(&js, NULL, s);
	} else {
		html_escape(f, s);
	}
	fclose(f);
	return buf;
}

static void test_escape(void)
{
	char buf[32], small[16];
	size_t n;

	n = ntprof_escape(buf, sizeof(buf), "ab\x1b[2J", 6);
	ok(!strcmp(buf, "ab\\x1b[2J") && n == 9, "ESC escaped: %s", buf);
	n = ntprof_escape(buf, sizeof(buf), "\a\r\x7f\xff\\", 5);
	ok(!strcmp(buf, "\\x07\\x0d\\x7f\\xff\\\\") && n == 18,
	   "BEL, CR, DEL, 0xff and a backslash: %s (%zu)", buf, n);
	n = ntprof_escape(small, sizeof(small), "\a\r\x7f\xff\\", 5);
	ok(n == 18 && !strcmp(small, "\\x07\\x0d\\x7f..."),
	   "too long: cut at a whole escape, with \"...\": %s", small);
	n = ntprof_escape(buf, sizeof(buf), "nvme1n1", 7);
	ok(!strcmp(buf, "nvme1n1") && n == 7, "printable ASCII unchanged");
	n = ntprof_escape(buf, 8, "abcdefgh", 8);
	ok(!strcmp(buf, "abcd...") && n == 8, "plain text cut: %s", buf);
	n = ntprof_escape(buf, 8, "abcdefg", 7);
	ok(!strcmp(buf, "abcdefg"), "plain text that fits exactly: %s", buf);
}

static void test_utf8(void)
{
	static const struct {
		const char *s;
		size_t len;
	} c[] = {
		{ "a", 1 }, { "\xc3\xa9", 2 }, { "\xe2\x82\xac", 3 },
		{ "\xf0\x9f\x98\x80", 4 }, { "\xf4\x8f\xbf\xbf", 4 },
		{ "\xc0\xaf", 0 },		/* overlong '/' */
		{ "\xe0\x80\xaf", 0 },		/* overlong */
		{ "\xed\xa0\x80", 0 },		/* a surrogate */
		{ "\xf4\x90\x80\x80", 0 },	/* past U+10FFFF */
		{ "\xff", 0 }, { "\x80", 0 },	/* never, a stray continuation */
		{ "\xc3(", 0 }, { "\xe2\x82", 0 },	/* cut short */
	};
	size_t i, bad = 0;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (ntprof_utf8_len(c[i].s) != c[i].len) {
			diag("case %zu: %zu, not %zu", i,
			     ntprof_utf8_len(c[i].s), c[i].len);
			bad++;
		}
	ok(!bad, "ntprof_utf8_len(): RFC 3629's well-formed sequences only");
}

static void test_writers(void)
{
	const char *in = "a<\x1b[2J\a\r\t\x7f\xc2\x9b\xc3\xa9\xff\xc3(";
	char *out;

	out = render(in, false);
	ok(!strcmp(out, "a&lt;\\x1b[2J\\x07\\x0d\t\\x7f\\xc2\\x9b\xc3\xa9\\xff\\xc3("),
	   "HTML: controls, DEL, C1 and non-UTF-8 as text, UTF-8 kept: %s", out);
	free(out);
	out = render(in, true);
	ok(!strcmp(out, "\"a<\\u001b[2J\\u0007\\u000d\\t\\u007f\\u009b\xc3\xa9\\\\xff\\\\xc3(\""),
	   "JSON: controls as \\u00XX, C1 too, UTF-8 kept, non-UTF-8 as \\\\xHH: %s",
	   out);
	free(out);
}

static const struct tap_case cases[] = {
	{ "escape", test_escape },
	{ "utf8", test_utf8 },
	{ "writers", test_writers },
};

int main(int argc, char *argv[])
{
	return tap_main(argc, argv, "test_strings", cases, TAP_NR_CASES(cases));
}
