#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CET in libntprof-agent.so (Documentation/agent.rst, "Entry patching"):
# a program marked for shadow stacks (SHSTK) and indirect branch tracking
# (IBT) keeps them only if every library it loads is marked too. Checks
# that each of the library's own objects carries the x86 feature property
# IBT and SHSTK (gcc's -fcf-protection, and stub.S's note by hand), that
# the linked library does, and that both stubs, which the trampolines
# call indirectly, start with endbr64.
# Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
AGENT_DIR=$(cd "$UNIT_DIR/../../tools/agent" && pwd)
LIB=$AGENT_DIR/libntprof-agent.so
. "$UNIT_DIR/../ktap.sh"

make -s -C "$AGENT_DIR" libntprof-agent.so >&2 ||
	{ echo "Bail out! cannot build the agent"; exit 1; }

# marked FILE: whether readelf finds the x86 feature IBT, SHSTK in its notes.
marked() {
	readelf -n "$1" | grep -q 'x86 feature: IBT, SHSTK'
}

# starts_endbr STUB: whether the library's STUB begins with endbr64.
starts_endbr() {
	objdump -d --no-show-raw-insn --disassemble="$1" "$LIB" |
		grep -A1 "<$1>:" | tail -1 | grep -q 'endbr64'
}

ktap_header
# The objects the library is linked from, as its Makefile names them.
# shellcheck disable=SC2016 # $(OBJS) is make's, not the shell's.
objs=$(make -s -C "$AGENT_DIR" --no-print-directory -f Makefile -f - \
	print-objs <<< 'print-objs: ; @echo $(OBJS) $(HANDLER) agent.o sitelist.o')
[ -n "$objs" ] || { echo "Bail out! no objects in the agent's Makefile"; exit 1; }
for o in $objs; do
	ktap_check "$o is marked IBT and SHSTK" marked "$AGENT_DIR/$o"
done
ktap_check "libntprof-agent.so is marked IBT and SHSTK" marked "$LIB"
for stub in agent_stub agent_stub_follow; do
	ktap_check "$stub starts with endbr64" starts_endbr "$stub"
done
ktap_finished
