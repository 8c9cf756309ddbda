// SPDX-License-Identifier: GPL-2.0
/*
 * Whether two paths name one file: by their strings, then by the device
 * and inode that stat() gives, so that a hard or symbolic link or another
 * spelling of a path ("./a.ntp", "dir/../a.ntp") counts as the same file.
 */
#include <string.h>
#include <sys/stat.h>

#include "common/files.h"

bool ntprof_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}
