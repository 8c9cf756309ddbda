/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strings from outside the tool, made safe to print. A recording's host
 * name, kernel release and hook, device and controller names are what
 * its writer put there: a crafted file may hold terminal escape
 * sequences, or bytes that are not UTF-8. The reader (lib/ntp) passes
 * each through ntprof_escape() once, so that every string of a recording
 * the tool handles is printable ASCII; the JSON and HTML writers check
 * UTF-8 with ntprof_utf8_len() for the strings that come from elsewhere
 * (paths given on the command line).
 */
#ifndef NTPROF_ESCAPE_H
#define NTPROF_ESCAPE_H

#include <stddef.h>

/*
 * Writes the @len bytes at @src into @dst (room for @size bytes, the NUL
 * included) with each byte outside printable ASCII (0x20 to 0x7e) as
 * "\xHH" and a backslash as "\\", so that two strings differ after as
 * they did before. When that does not fit, it ends at the last whole
 * escape that leaves room for "...", which it writes. Returns the length
 * of the whole escaped string, as snprintf() does: @size or more when it
 * was cut.
 */
size_t ntprof_escape(char *dst, size_t size, const void *src, size_t len);

/*
 * The length of the well-formed UTF-8 sequence of one character at @s
 * (RFC 3629: no overlong form, no surrogate, at most U+10FFFF), 1 to 4;
 * 0 when @s does not start one (a stray continuation byte, a sequence
 * cut short by the NUL, a byte that UTF-8 never uses).
 */
size_t ntprof_utf8_len(const char *s);

#endif /* NTPROF_ESCAPE_H */
