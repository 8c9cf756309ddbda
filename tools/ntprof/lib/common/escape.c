// SPDX-License-Identifier: GPL-2.0
/*
 * Strings from outside the tool, made safe to print (escape.h): the
 * recording reader's escape, and the UTF-8 check of the JSON and HTML
 * writers.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/escape.h"

/*
 * escape_byte() - write into @out what byte @c becomes: itself, "\\" or
 * "\xHH". It returns the length written.
 */
static size_t escape_byte(unsigned char c, char out[5])
{
	if (c == '\\') {
		memcpy(out, "\\\\", 3);
		return 2;
	}
	if (c >= 0x20 && c <= 0x7e) {
		out[0] = c;
		out[1] = '\0';
		return 1;
	}
	snprintf(out, 5, "\\x%02x", c);
	return 4;
}

size_t ntprof_escape(char *dst, size_t size, const void *src, size_t len)
{
	static const char cut[] = "...";
	const unsigned char *p = src;
	size_t i, n, full = 0, at = 0;
	char piece[5];
	bool fits;

	for (i = 0; i < len; i++)
		full += escape_byte(p[i], piece);
	if (!size)
		return full;
	fits = full < size;
	for (i = 0; i < len; i++) {
		n = escape_byte(p[i], piece);
		/* When cut, leave room for the mark and the NUL. */
		if (at + n + (fits ? 0 : sizeof(cut) - 1) >= size)
			break;
		memcpy(dst + at, piece, n);
		at += n;
	}
	if (!fits && at + sizeof(cut) <= size) {
		memcpy(dst + at, cut, sizeof(cut) - 1);
		at += sizeof(cut) - 1;
	}
	dst[at] = '\0';
	return full;
}

static bool cont(unsigned char c, unsigned char lo, unsigned char hi)
{
	return c >= lo && c <= hi;
}

size_t ntprof_utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* The second byte's range rules out overlong forms and surrogates. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (!cont(s[1], lo, hi))
		return 0;
	for (i = 2; i < n; i++)
		if (!cont(s[i], 0x80, 0xbf))
			return 0;
	return n;
}
