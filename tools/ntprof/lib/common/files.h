/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether two paths name one file, for the commands that must not read a
 * recording twice (analysis/recording.c) or write over one of their
 * inputs (out/out_file.c).
 */
#ifndef NTPROF_FILES_H
#define NTPROF_FILES_H

#include <stdbool.h>

/*
 * ntprof_same_file() - tell whether @a and @b are the same string, or
 * both exist and are the same file (the same device and inode: a link,
 * or another spelling of the path).
 */
bool ntprof_same_file(const char *a, const char *b);

#endif /* NTPROF_FILES_H */
