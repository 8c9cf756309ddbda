/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's <linux/build_bug.h>, for kmod/ code in unit tests. */
#include "../kshim.h"
