#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The layers (Documentation/architecture.rst). Each room of tools/ntprof
# imports only the rooms below it, so the arrows run one way: cmd -> out
# -> analysis -> sites -> genl -> ntp -> common (sites hand genl the
# uprobe sites it sends; probe's verdict in analysis and its lines in out
# read the module's hooks and the kernel's BTF). The module's files include only
# their own layer's or the ones below: control -> I/O path -> shared. A
# line per room and layer; a failure names the file and the include that
# runs the wrong way.
# Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOOL_DIR=$(cd "$UNIT_DIR/../../tools/ntprof" && pwd)
. "$UNIT_DIR/../ktap.sh"

# What each room may import besides itself. What the tool shares with
# the module and the agent is in include/ (<uapi/linux/ntprof.h>,
# <ntprof/agent_abi.h>), which is no room: nothing of tools/agent is.
declare -A ALLOWED=(
	[lib/common]=""
	[lib/ntp]="common"
	[lib/genl]="common ntp"
	[lib/analysis]="common ntp genl sites"
	[lib/sites]="common ntp genl"
	[lib/out]="common ntp analysis genl sites"
	[cmd]="common ntp genl analysis out sites cmd"
	[main.c]="common cmd"
)
ROOMS=(lib/common lib/ntp lib/genl lib/analysis lib/sites lib/out cmd main.c)

# room_of FILE: the room a file of the tool is in ("lib/ntp", "cmd").
room_of() {
	case $1 in
	lib/*) echo "${1%%/*}/$(cut -d/ -f2 <<< "$1")" ;;
	cmd/*) echo cmd ;;
	*) echo "$1" ;;
	esac
}

# imports ROOM: "FILE: include" for each of ROOM's includes that is not
# allowed, or that names no room.
wrong_imports() {
	local room=$1 self f inc target

	self=${room#lib/}
	while IFS= read -r f; do
		[ "$(room_of "$f")" = "$room" ] || continue
		while IFS= read -r inc; do
			target=${inc%%/*}
			[ "$target" = "$inc" ] && { echo "$f: \"$inc\" names no room"; continue; }
			[ "$target" = "$self" ] && continue
			grep -qw -- "$target" <<< "${ALLOWED[$room]}" ||
				echo "$f: \"$inc\""
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	done < <(cd "$TOOL_DIR" && find lib cmd main.c -name '*.[ch]' | sort)
}

ktap_header
cd "$TOOL_DIR" || { echo "Bail out! no $TOOL_DIR"; exit 1; }
for room in "${ROOMS[@]}"; do
	bad=$(wrong_imports "$room")
	if [ -z "$bad" ]; then
		ktap_pass "$room imports only: ${ALLOWED[$room]:-nothing of the tool}"
	else
		ktap_fail "$room imports only: ${ALLOWED[$room]:-nothing of the tool}"
		sed 's/^/#   /' <<< "$bad"
	fi
done

# Every source of the tool is in a room, so none escapes the check.
stray=$(find . -maxdepth 1 -name '*.[ch]' ! -name main.c | sort)
if [ -z "$stray" ]; then
	ktap_pass "every source of the tool is in a room (lib/*, cmd/) but main.c"
else
	ktap_fail "every source of the tool is in a room (lib/*, cmd/) but main.c"
	sed 's/^/#   /' <<< "$stray"
fi

# The library stands without the commands: no symbol it leaves undefined
# is one that main.c or cmd/ defines.
if make -s ntprof >&2; then
	undefined=$(nm libntprof.a 2>/dev/null | awk '$1 == "U" {print $2}' | sort -u)
	# shellcheck disable=SC2046 # the objects' names have no spaces.
	commands=$(nm main.o $(find cmd -name '*.o') 2>/dev/null |
		awk 'NF == 3 && $2 ~ /^[TDBR]$/ {print $3}' | sort -u)
	ours=$(comm -12 <(echo "$undefined") <(echo "$commands"))
	if [ -n "$commands" ] && [ -z "$ours" ]; then
		ktap_pass "libntprof.a uses nothing of cmd/ or main.c"
	else
		ktap_fail "libntprof.a uses nothing of cmd/ or main.c"
		sed 's/^/#   /' <<< "$ours"
	fi
else
	ktap_fail "libntprof.a uses nothing of cmd/ or main.c (the tool builds)"
fi

# The module: a file's layer, by name; a header is its .c's.
KMOD_DIR=$(cd "$UNIT_DIR/../../kmod" && pwd)
kmod_layer() {
	case ${1%.[ch]} in
	main | netlink | netlink_status | netlink_events | netlink_ops | \
	usite_parse | session | debugfs) echo 3 ;;
	hooks | hooks_host | hooks_host_req | hooks_host_slots | hooks_target | \
	hooks_events | uprobes | draingen | hookcost) echo 2 ;;
	*) echo 1 ;;
	esac
}
KMOD_LAYERS=([1]=shared [2]="I/O path" [3]=control)
for layer in 1 2 3; do
	bad=$(cd "$KMOD_DIR" && for f in *.[ch]; do
		[ "$(kmod_layer "$f")" = "$layer" ] || continue
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
			[ "$(kmod_layer "$inc")" -le "$layer" ] || echo "kmod/$f: \"$inc\""
		done
	done)
	desc="kmod: the ${KMOD_LAYERS[$layer]} layer includes no layer above it"
	if [ -z "$bad" ]; then
		ktap_pass "$desc"
	else
		ktap_fail "$desc"
		sed 's/^/#   /' <<< "$bad"
	fi
done

echo "1..$KTAP_COUNT"
[ "$KTAP_FAILED" -eq 0 ]
