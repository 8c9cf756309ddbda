#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ntprof run in front of a tutorial's host command, unchanged: a model of
# spdk_nvme_perf (selftests/tools/spdk-host-model: SPDK's host functions
# for both transports, with their DWARF) started as "ntprof run --
# spdk-host-model -r 'trtype:RDMA ...'" without -r or -t gets a host's
# site list over RDMA; with trtype=tcp, over TCP; without a trtype, the
# program having both transports' sites, one line asks for -t. The site
# list is the one --print-env writes (the agent itself is
# test_agent_record.sh's).
#
# usage: test_run_roles.sh    Prints TAP; exits 1 if any test failed.

# Each test is "checks && ... || { diag; return 1; }".
# shellcheck disable=SC2015

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
MODEL=$TOP/selftests/tools/spdk-host-model
make -s -C "$TOP/selftests/tools" spdk-host-model >&2 ||
	{ echo "Bail out! cannot build spdk-host-model"; exit 1; }

# sites WANT_TRANSPORT FILE: FILE is a host's site list whose every site
# is a host's (role 1) over WANT_TRANSPORT (1 TCP, 2 RDMA), three of them.
sites() {
	head -1 "$2" | grep -q '^# ntprof agent sites: host ' &&
		awk -v t="$1" '$1 == "site" { n++; if ($7 != 1 || $8 != t) bad = 1 }
			END { exit !(n == 3 && !bad) }' "$2" ||
		{ ktap_diag "$(cat "$2")"; return 1; }
}

t_rdma() {
	"$NTPROF" run --agent /dev/null --print-env "$TMP/rdma" -- "$MODEL" \
		-q 32 -o 4096 -w randread \
		-r 'trtype:RDMA adrfam:IPv4 traddr:10.0.0.1 trsvcid:4420' \
		> "$TMP/out" 2> "$TMP/err" &&
		grep -q "^NTPROF_AGENT_SITES=$TMP/rdma\$" "$TMP/out" &&
		sites 2 "$TMP/rdma" || { ktap_diag "$(cat "$TMP/err")"; return 1; }
}
ktap_check "run -- perf -r 'trtype:RDMA ...' without -r, -t: a host's sites over RDMA" t_rdma

t_tcp() {
	"$NTPROF" run --agent /dev/null --print-env "$TMP/tcp" -- "$MODEL" \
		-r 'trtype=tcp adrfam=IPv4 traddr=10.0.0.1' > /dev/null 2> "$TMP/err" &&
		sites 1 "$TMP/tcp" || { ktap_diag "$(cat "$TMP/err")"; return 1; }
}
ktap_check "run -- perf -r 'trtype=tcp ...': a host's sites over TCP" t_tcp

t_neither() {
	local err
	err=$("$NTPROF" run --agent /dev/null --print-env "$TMP/none" -- \
		"$MODEL" -q 32 2>&1 > /dev/null)
	[ $? = 1 ] && [ ! -e "$TMP/none" ] &&
		[[ $err == *"a host of both transports, and its arguments name no trtype: give -t tcp or -t rdma" ]] ||
		{ ktap_diag "$err"; return 1; }
	"$NTPROF" run -t rdma --agent /dev/null --print-env "$TMP/given" -- \
		"$MODEL" -q 32 > /dev/null && sites 2 "$TMP/given"
}
ktap_check "no trtype, both transports' sites: one line asks for -t; -t rdma then works" t_neither

ktap_finished
