# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of the recorder's lab tests: fio jobs that report how many
# commands they issued, and checks over the test client's printed records
# (tab-separated: role transport qid cid opcode nsid slba length flags
# status, then one column per point of enum ntprof_point).

# fio_count DEV RW BS SECONDS: run fio, print "reads writes" it completed.
fio_count() {
	local out

	out=$(fio --name=rec --filename="$1" --rw="$2" --bs="$3" --direct=1 \
		--ioengine=libaio --iodepth=4 --size=256m --runtime="$4" \
		--time_based --output-format=json 2>/dev/null) || return 1
	echo "$out" | awk '/"read" : \{/ { s = "r" } /"write" : \{/ { s = "w" }
		/"total_ios"/ { gsub(/[^0-9]/, "", $3); n[s] += $3; s = "" }
		END { printf "%d %d\n", n["r"], n["w"] }'
}

# Host points in path order, as column numbers (points start at column 11).
# SEND_DONE is left out: an RDMA SEND may complete after the response.
HOST_ORDER="11 12 13 14 15 17 18 19 20 21"
TARGET_ORDER="22 23 24 25 26 27 28 29 30 31 32"

# Columns of the points the checks below name.
COL_HOST_SEND=15
COL_HOST_SEND_DONE=16
COL_HOST_RECV=18
COL_HOST_DRIVER_DONE=19
COL_TARGET_DATA=25
COL_TARGET_SEND_DONE=32

# hook_ok ROLE TRANSPORT NAME: whether ntprof probe lists the hook as ok.
hook_ok() {
	ntprof probe -r "$1" -t "$2" 2>/dev/null |
		grep -Eq "^ +ok +$3( |\$)"
}

# lacking FILE COL [OPCODE [MIN_LENGTH]]: "records lacking" for the
# records (of one opcode, of at least MIN_LENGTH bytes) whose point in
# column COL is 0.
lacking() {
	awk -F'\t' -v col="$2" -v op="${3:-}" -v len="${4:-0}" '
		(op == "" || $5 == op) && $8 >= len {
			n++; if ($(col) == 0) m++
		}
		END { printf "%d %d\n", n, m }' "$1"
}

# check_present DESC FILE COL [OPCODE [MIN_LENGTH]]: a TAP line, passing
# when there are such records and each has the point of column COL.
check_present() {
	local desc=$1 r n m

	shift
	r=$(lacking "$@")
	n=${r% *}
	m=${r#* }
	if [ "$n" -gt 0 ] && [ "$m" -eq 0 ]; then
		ktap_pass "$desc ($n records)"
	else
		ktap_fail "$desc ($m of $n records lack it)"
		awk -F'\t' -v col="$2" -v op="${3:-}" -v len="${4:-0}" '
			(op == "" || $5 == op) && $8 >= len && $(col) == 0' "$1" |
			head -n 3 | sed 's/^/# /'
	fi
}

# out_of_order FILE ROLE: print the records whose points go backwards.
out_of_order() {
	local order=$HOST_ORDER role=1

	[ "$2" = target ] && { order=$TARGET_ORDER; role=2; }
	awk -F'\t' -v order="$order" -v role=$role '
		$1 == role {
			n = split(order, col, " "); last = 0
			for (i = 1; i <= n; i++) {
				t = $(col[i]); if (t == 0) continue
				if (t < last) { print; break }
				last = t
			}
		}' "$1"
}

# count_op FILE OPCODE: records of one NVMe opcode (1 write, 2 read).
count_op() {
	awk -F'\t' -v op="$2" '$5 == op { n++ } END { print n + 0 }' "$1"
}

# identities FILE: the sorted identities (qid cid opcode nsid slba length).
identities() {
	awk -F'\t' '{ print $3, $4, $5, $6, $7, $8 }' "$1" | sort
}

# wait_flag NAME: until the other guest's flag file is in the share (5 min).
wait_flag() {
	local i=0

	while [ ! -e "$NTPROF_LAB_SHARE/$1" ]; do
		[ $i -ge 3000 ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# check_new_points TRANSPORT HOST_FILE TARGET_FILE: the points that need
# a hook the kernel may lack are in every record where it has the hook
# (tcp_send, rdma_data, rdma_send_done: yes or no, from hook_ok).
# shellcheck disable=SC2154 # hook_ok set them, in the caller.
check_new_points() {
	local t=$1 host=$2 target=$3

	if [ "$t" = tcp ]; then
		[ "$tcp_send" = yes ] &&
			check_present "tcp: every host record has HOST_SEND" \
				"$host" $COL_HOST_SEND
		return 0
	fi
	check_present "rdma: every host record has HOST_RECV" \
		"$host" $COL_HOST_RECV
	# The commands whose capsule's SEND completed after the response
	# arrived, which nvme-rdma completes from nvme_rdma_send_done(): the
	# driver's completion follows the SEND's, not the RECV's.
	awk -F'\t' -v s=$COL_HOST_SEND_DONE -v r=$COL_HOST_RECV \
	    -v d=$COL_HOST_DRIVER_DONE '
		{ n++ } $(s) && $(r) && $(s) > $(r) { late++ }
		$(r) == 0 { miss++; if ($(s) && $(d) > $(s)) miss_sd++ }
		END { printf "# rdma: of %d host records, %d completed after their capsule SEND done, past the response; %d lack HOST_RECV, %d of them completed after their SEND done\n", n, late, miss, miss_sd }' \
		"$host"
	[ "$rdma_send_done" = yes ] &&
		check_present "rdma: every target read record has TARGET_SEND_DONE" \
			"$target" $COL_TARGET_SEND_DONE 2
	# Writes only where the workload had some.
	[ "$(count_op "$target" 1)" -gt 0 ] || return 0
	[ "$rdma_send_done" = yes ] &&
		check_present "rdma: every target write record has TARGET_SEND_DONE" \
			"$target" $COL_TARGET_SEND_DONE 1
	[ "$rdma_data" = yes ] &&
		check_present "rdma: every target write record past the inline data has TARGET_DATA" \
			"$target" $COL_TARGET_DATA 1 16384
	return 0
}

# wait_line FILE REGEX [SECONDS]: until FILE has a matching line (10 s
# at most, or SECONDS).
wait_line() {
	local i=0 max=$(( ${3:-10} * 10 ))

	until grep -Eq "$2" "$1" 2>/dev/null; do
		[ $i -ge $max ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# probe_ok ROLE TRANSPORT: ntprof probe exits 0 and ends with "load: ok";
# its output is in /tmp/probe.out.
probe_ok() {
	ntprof probe -r "$1" -t "$2" > /tmp/probe.out 2>&1
	local rc=$?

	cat /tmp/probe.out
	[ $rc -eq 0 ] && tail -n 1 /tmp/probe.out | grep -Eq '^  load: ok'
}

# ntp_cntlid FILE: the cntlid of a .ntp file's first record
# (Documentation/ntp-format.rst: header_len at 12, a unit header of 24
# bytes, cntlid at 26 in a record).
ntp_cntlid() {
	local hl

	hl=$(od -An -tu4 -j12 -N4 "$1" | tr -d ' ')
	[ -n "$hl" ] && od -An -tu2 -j$((hl + 24 + 26)) -N2 "$1" | tr -d ' '
}

# stat_of NAME [ROLE]: one counter of the test client's stats (of ROLE).
stat_of() {
	# shellcheck disable=SC2086 # the role, or nothing.
	testclient stats $2 | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}

# stop_recorder PID: SIGINT to a recorder started in the background, and a
# check that it exits 0.
stop_recorder() {
	local rc

	kill -INT "$1"
	wait "$1"
	rc=$?
	[ $rc -eq 0 ] && ktap_pass "record stops on SIGINT, exit 0" ||
		ktap_fail "record stops on SIGINT, exit 0 (got $rc)"
}

# prom_series NAME FILE STRING: a check that a line of record --prom's
# FILE holds STRING (labels as they are written); else its first counts.
prom_series() {
	if grep -qF "$3" "$2"; then
		ktap_pass "$1"
	else
		ktap_fail "$1"
		grep _count "$2" | head -5 | sed 's/^/# /'
	fi
}

# record_stop STEP PID OUT: stop the recorder PID with SIGINT, and a TAP
# line: it exits 0, and OUT, what it printed, has no warning (drops,
# evictions), else OUT follows as diagnostics.
record_stop() {
	local rc

	kill -INT "$2"
	wait "$2"
	rc=$?
	if [ $rc -eq 0 ] && ! grep -q WARNING "$3"; then
		ktap_pass "$1: record exit 0, no warning"
	else
		ktap_fail "$1: record exit 0, no warning (rc $rc)"
		sed 's/^/# /' "$3"
	fi
}

# settle DEV: until the block layer's counts of DEV stop changing (the
# partition scan after a connect is no step's I/O), 25 s at most.
settle() {
	local a b i=0

	b=$(cat "/sys/block/$1/stat")
	while [ $i -lt 50 ]; do
		sleep 0.5
		a=$b
		b=$(cat "/sys/block/$1/stat")
		[ "$a" = "$b" ] && return 0
		i=$((i + 1))
	done
}

# subsys_entries NQN PATTERN: the entries of NQN's subsystem in sysfs
# whose names match PATTERN (an extended regular expression).
subsys_entries() {
	local s

	s=$(grep -lx "$1" /sys/class/nvme-subsystem/*/subsysnqn 2>/dev/null | head -n 1)
	[ -n "$s" ] || return 1
	# The guest's find is busybox's, without -printf; sysfs's names have
	# no spaces.
	# shellcheck disable=SC2010
	ls "$(dirname "$s")" | grep -E "^$2\$"
}

# tcp_port PORTID PORT: a new nvmet NVMe/TCP port on the lab's TCP address,
# with no subsystem yet (a target's second or third port).
tcp_port() {
	local p=/sys/kernel/config/nvmet/ports/$1

	mkdir "$p" && echo tcp > "$p/addr_trtype" && echo ipv4 > "$p/addr_adrfam" &&
		echo "$NTPROF_LAB_TCP_ADDR" > "$p/addr_traddr" &&
		echo "$2" > "$p/addr_trsvcid"
}
