#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The SPDK agent's handler as compilers build it: tools/agent/hit.c, the
# object the stub calls into, built by the agent's Makefile's rule for it
# by gcc and clang, at -O2 and -O0, and with Debian's hardening flags
# (make deb's), calls nothing outside itself. A call into libc (memcpy,
# memset, a stack protector's failure) may use the vector registers,
# which the stub does not save: objdump -dr must show no call or jump to a symbol
# the object does not define, and no indirect call (an indirect jump is
# a switch's table, within the object), and nm -u only the
# data the handler reads (agent_hs, agent_reg_slot, agent_ident_zeros,
# agent_inflight; _GLOBAL_OFFSET_TABLE_ for -O0's PIC addressing). Then
# libntprof-agent.so's thread-local storage (PT_TLS) is small: under 256
# bytes a thread, the in-flight tables being a pool, not TLS.
# Prints its TAP; exits 1 if any test failed.
set -u
cd "$(dirname "$0")" || exit 1
. ../ktap.sh

TOP=$(cd ../.. && pwd)
AGENT=$TOP/tools/agent
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ALLOWED=" agent_hs agent_reg_slot agent_ident_zeros agent_inflight _GLOBAL_OFFSET_TABLE_ "

# Debian's package build flags (dpkg-buildflags, as debian/rules has
# them): a stack protector and _FORTIFY_SOURCE, which the handler's own
# flags must override.
DEB_CFLAGS=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CFLAGS 2>/dev/null)
DEB_CPPFLAGS=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CPPFLAGS 2>/dev/null)

# nocall CC CFLAGS [CPPFLAGS]: hit.o built by the agent's Makefile's own
# rule (make -n prints its command), with the build's CFLAGS and
# CPPFLAGS as given, calls nothing outside itself.
nocall() {
	local cc=$1 cmd undef bad sym words

	cmd=$(make -s -n -B -C "$AGENT" hit.o CC="$cc" CFLAGS="$2" \
		CPPFLAGS="${3-}" | grep "^$cc ") || return 1
	case $cmd in
	*" -o hit.o hit.c") ;;
	*) echo "unexpected rule: $cmd"; return 1 ;;
	esac
	# shellcheck disable=SC2086 # the flags are words
	(cd "$AGENT" && ${cmd% -o hit.o hit.c} -o "$TMP/hit.o" hit.c) || return 1
	undef=" $(nm -u "$TMP/hit.o" | awk '{ print $NF }' | tr '\n' ' ') "
	bad=
	for sym in $undef; do
		case $ALLOWED in
		*" $sym "*) ;;
		*) bad="$bad $sym" ;;
		esac
	done
	# A call or jump whose relocation names an undefined symbol.
	bad="$bad $(objdump -dr --no-show-raw-insn "$TMP/hit.o" | awk -v undef="$undef" '
		/^[ \t]+[0-9a-f]+:\t(call|jmp)/ { branch = 1
			if ($0 ~ /call.*\*/) print "indirect:" $0
			next }
		branch && /R_X86_64_/ { s = $NF; sub(/[-+].*/, "", s)
			if (index(undef, " " s " ")) print "call:" s }
		{ branch = 0 }' | tr '\n' ' ')"
	read -ra words <<< "$bad"
	bad=${words[*]}
	[ -z "$bad" ] && return 0
	echo "$cc $2: $bad"
	return 1
}

ktap_header
for cc in gcc clang; do
	ktap_need "$cc: the handler calls nothing outside itself" "$cc" ||
		continue
	for level in -O2 -O0; do
		ktap_check "$cc $level: the handler calls nothing outside itself" \
			nocall "$cc" "$level -g"
	done
	if [ -n "$DEB_CFLAGS" ]; then
		ktap_check "$cc with Debian's hardening flags: the handler calls nothing outside itself" \
			nocall "$cc" "$DEB_CFLAGS" "$DEB_CPPFLAGS"
	else
		ktap_skip_missing "$cc with Debian's hardening flags: the handler calls nothing outside itself" \
			"dpkg-buildflags (dpkg-dev)"
	fi
done

make -s -C "$AGENT" libntprof-agent.so >&2 ||
	{ echo "Bail out! cannot build the agent"; exit 1; }
tls=$(readelf -lW "$AGENT/libntprof-agent.so" | awk '$1 == "TLS" { print strtonum($6) }')
if [ -n "$tls" ] && [ "$tls" -lt 256 ]; then
	ktap_pass "the library's TLS is $tls bytes a thread (under 256)"
else
	ktap_fail "the library's TLS is ${tls:-?} bytes a thread (not under 256)"
fi
ktap_finished
