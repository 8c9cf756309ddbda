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
 * ntprof_escape() - write the @len bytes at @src into @dst, which has room
 * for @size bytes including the NUL. Each byte outside printable ASCII
 * (0x20 to 0x7e) becomes "\xHH" and a backslash becomes "\\", so that
 * two strings that differ before escaping still differ after it. When
 * the result does not fit, it ends at the last whole escape that leaves
 * room for "...", which the function writes. It returns the length of
 * the whole escaped string, as snprintf() does: @size or more when the
 * string was cut.
 */
size_t ntprof_escape(char *dst, size_t size, const void *src, size_t len);

/*
 * ntprof_utf8_len() - return the length, 1 to 4, of the well-formed UTF-8
 * sequence of one character at @s (RFC 3629: no overlong form, no
 * surrogate, at most U+10FFFF). It returns 0 when @s does not start such
 * a sequence: at a stray continuation byte, at a sequence cut short by
 * the NUL, or at a byte that UTF-8 never uses.
 */
size_t ntprof_utf8_len(const char *s);

#endif /* NTPROF_ESCAPE_H */
