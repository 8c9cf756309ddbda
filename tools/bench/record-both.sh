# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# record_roles "ROLES" T N [OPTION...]: start ntprof record for each of
# ROLES (host, target) for transport T, sampling 1 in N, with OPTIONs
# (--stages-only), and return once all have started (their probing
# done), their PIDs added to PIDS. record_both T N [OPTION...]: the same
# as host and as target. stop_recorders stops them all. Sent to the
# guest in front of tools/bench/icount-guest.sh, hookcost-guest.sh and
# chain-icount-guest.sh, which define log().
PIDS=
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

# stop_recorders: SIGINT to every recorder of PIDS, each waited for.
stop_recorders() {
	local p

	for p in $PIDS; do
		kill -INT "$p" 2> /dev/null
		wait "$p"
	done
	PIDS=
	return 0
}

# The CPU time of the recorders so far, in ns (schedstat's first field:
# guest time, so instructions times 4 under icount).
cpu_ns() {
	local p s=0 t

	for p in $PIDS; do
		read -r t _ < "/proc/$p/schedstat" 2> /dev/null || t=0
		s=$((s + t))
	done
	echo $s
}

# Records the kernel handed to the readers so far, both roles.
records() {
	awk '$2 == "cpu" { for (i = 2; i <= NF; i++) if ($(i - 1) == "records") s += $i }
		END { print s + 0 }' /sys/kernel/debug/ntprof/buffers
}
