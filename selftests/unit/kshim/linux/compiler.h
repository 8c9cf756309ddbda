/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's <linux/compiler.h>, for kmod/ code in unit tests. */
#include "../kshim.h"
