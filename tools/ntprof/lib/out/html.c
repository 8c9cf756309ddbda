// SPDX-License-Identifier: GPL-2.0
/*
 * The pieces of ntprof's HTML pages: one self-contained file each, its
 * style inline, nothing fetched (no script, font or image from anywhere).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/escape.h"
#include "out/html.h"

static const char *const colour[NTPROF_STAGE_COUNT] = {
	"#8c6bb1", "#4e79a7", "#f28e2b", "#bab0ac", "#59a14f", "#e15759",
	"#79706e",
};

/*
 * A character that is not markup, which it writes; returns its bytes.
 * The page is UTF-8: controls (but the newline and the tab), DEL, the C1
 * controls and bytes that are not UTF-8 are shown as the text "\xHH", as
 * the recording's reader shows them (common/escape.h).
 */
static size_t html_other(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	if (*p == '\n' || *p == '\t' || (*p >= 0x20 && *p < 0x7f)) {
		fputc(*p, f);
		return 1;
	}
	/* What is left below 0x80 is a control; 0xc2 0x80-0x9f, a C1 one. */
	n = *p < 0x80 ? 0 : ntprof_utf8_len(s);
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		n = 0;
	if (!n) {
		fprintf(f, "\\x%02x", *p);
		return 1;
	}
	fwrite(p, 1, n, f);
	return n;
}

void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			s += html_other(f, s) - 1;
		}
	}
}

/*
 * The text's "6.20 us" is "6.20 µs" on a page, as on every chart: the
 * text keeps to ASCII, a page need not.
 */
void html_escape_us(FILE *f, const char *s)
{
	const char *p, *from = s;
	char *part;

	for (p = s; (p = strstr(p, " us")); p += 3) {
		if (p == s || !isdigit((unsigned char)p[-1]) ||
		    isalnum((unsigned char)p[3]))
			continue;
		part = strndup(from, (size_t)(p - from));
		if (!part)
			return;
		html_escape(f, part);
		free(part);
		fputs(" µs", f);
		from = p + 3;
	}
	html_escape(f, from);
}

const char *html_colour(int stage)
{
	return stage >= 0 && stage < NTPROF_STAGE_COUNT ? colour[stage] :
							  "#000";
}

void html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
	html_escape(f, title);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
	      "table { border-collapse: collapse; margin: 1em 0; }\n"
	      "td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }\n"
	      "td:first-child, th:first-child { text-align: left; }\n"
	      "svg { display: block; margin: 1em 0; font-size: 12px; }\n"
	      "svg text { fill: #222; }\n"
	      "svg text.lad-label { fill: #fff; }\n"
	      "figure { margin: 1em 0; }\n"
	      "figcaption { font-size: 90%; color: #555; }\n"
	      "tr.largest td { font-weight: bold; background: #fdf2d0; }\n"
	      "tr.sub td:first-child { padding-left: 2.5em; font-style: italic; }\n"
	      "caption { caption-side: top; text-align: left; color: #555; max-width: 50em; }\n"
	      "p { max-width: 60em; overflow-wrap: break-word; }\n"
	      "p.warning { color: #b00; font-weight: bold; }\n"
	      "svg text.pmark-label { paint-order: stroke; stroke: #fff; stroke-width: 4px; }\n"
	      "</style></head><body>\n<h1>", f);
	html_escape(f, title);
	fputs("</h1>\n", f);
}

void html_end(FILE *f)
{
	fputs("</body></html>\n", f);
}
