/* SPDX-License-Identifier: GPL-2.0 */
/* The host hooks' slot tables (hooks_host_slots.c). */
#ifndef _NTPROF_HOOKS_HOST_SLOTS_H
#define _NTPROF_HOOKS_HOST_SLOTS_H

#include <linux/types.h>

struct nvme_command;
struct request;

void ntprof_host_cmd_keep(struct request *rq, struct nvme_command *cmd);
struct nvme_command *ntprof_host_cmd_find(struct request *rq);
void ntprof_host_rx_keep(const void *queue, u16 cid, u64 ts);
u64 ntprof_host_rx_find(const void *queue, u16 cid);
void ntprof_host_start_keep(struct request *rq, u64 ts);
u64 ntprof_host_start_find(struct request *rq);

#endif /* _NTPROF_HOOKS_HOST_SLOTS_H */
