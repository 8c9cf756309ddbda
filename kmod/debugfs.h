/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <debugfs>/ntprof/: what the module knows, as text for humans and scripts.
 */
#ifndef _NTPROF_DEBUGFS_H
#define _NTPROF_DEBUGFS_H

void ntprof_debugfs_init(void);
void ntprof_debugfs_exit(void);

#endif /* _NTPROF_DEBUGFS_H */
