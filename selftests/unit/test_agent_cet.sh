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

make -s -C "$AGENT_DIR" libntprof-agent.so >&2 ||
	{ echo "Bail out! cannot build the agent"; exit 1; }
n=0
failed=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

echo "TAP version 13"
# The objects the library is linked from, as its Makefile names them.
objs=$(make -s -C "$AGENT_DIR" --no-print-directory -f Makefile -f - \
	print-objs <<< 'print-objs: ; @echo $(OBJS) $(HANDLER) agent.o sitelist.o')
for o in $objs; do
	readelf -n "$AGENT_DIR/$o" 2>/dev/null | grep -q 'x86 feature: IBT, SHSTK'
	ok $? "$o is marked IBT and SHSTK"
done
readelf -n "$LIB" | grep -q 'x86 feature: IBT, SHSTK'
ok $? "libntprof-agent.so is marked IBT and SHSTK"
for stub in agent_stub agent_stub_follow; do
	objdump -d --no-show-raw-insn --disassemble="$stub" "$LIB" |
		grep -A1 "<$stub>:" | tail -1 | grep -q 'endbr64'
	ok $? "$stub starts with endbr64"
done
echo "1..$n"
echo "test_agent_cet: $((n - failed)) passed, $failed failed" >&2
[ "$failed" -eq 0 ]
