# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# record_both T N: start ntprof record as host and as target for
# transport T, sampling 1 in N, and return once both have started (their
# probing done), their PIDs added to PIDS. Sent to the guest in front of
# tools/bench/icount-guest.sh and hookcost-guest.sh, which define log().
record_both() {
	local t=$1 n=$2 role c

	for role in host target; do
		ntprof record -r $role -t "$t" -s "$n" -d 3600 \
			-o "/tmp/$role.ntp" > "/tmp/rec-$role.out" 2>&1 &
		PIDS="$PIDS $!"
	done
	for _ in $(seq 1 6000); do
		c=$(cat /tmp/rec-host.out /tmp/rec-target.out | grep -c '^ntprof: profiling')
		[ "$c" = 2 ] && return 0
		sleep 0.1
	done
	log "ntprof record did not start"
	cat /tmp/rec-*.out
	return 1
}
