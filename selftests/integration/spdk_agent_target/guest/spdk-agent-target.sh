# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# SPDK's target started with ntprof's in-process agent (ntprof run): the
# same checks as spdk-target.sh, the target's records taken through the
# agent, with no trap, and joined with the kernel host's.
export LAB_SPDK_AGENT=1
SPDK_LOAD_OK='^  load: ok, through the agent$'
KTAP_PREFIX="spdk agent target: "
# shellcheck source=selftests/integration/common/guest/spdk-target.sh
. /lab/tests/spdk-target.sh
