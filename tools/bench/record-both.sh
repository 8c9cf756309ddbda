# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# record_roles "ROLES" T N [OPTION...]: start ntprof record for each of
# ROLES (host, target) for transport T, sampling 1 in N, with OPTIONs
# (--stages-only), and return once all have started (their probing
# done), their PIDs added to PIDS. record_both T N [OPTION...]: the same
# as host and as target. Sent to the guest in front of
# tools/bench/icount-guest.sh and hookcost-guest.sh, which define log().
record_roles() {
	local roles=$1 t=$2 n=$3 role c want

	shift 3
	want=$(wc -w <<< "$roles")
	for role in $roles; do
		rm -f "/tmp/rec-$role.out"
		ntprof record -r "$role" -t "$t" -s "$n" "$@" -d 3600 \
			-o "/tmp/$role.ntp" > "/tmp/rec-$role.out" 2>&1 &
		PIDS="$PIDS $!"
	done
	for _ in $(seq 1 6000); do
		c=0
		for role in $roles; do
			grep -q '^ntprof: profiling' "/tmp/rec-$role.out" 2> /dev/null &&
				c=$((c + 1))
		done
		[ "$c" = "$want" ] && return 0
		sleep 0.1
	done
	log "ntprof record did not start"
	cat /tmp/rec-*.out
	return 1
}

record_both() {
	local t=$1 n=$2

	shift 2
	record_roles "host target" "$t" "$n" "$@"
}
