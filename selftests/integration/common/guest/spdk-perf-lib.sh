# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of the spdk_nvme_perf lab tests (spdk-perf-host.sh with
# uprobes, spdk-agent-perf-host.sh with the agent): perf's run, its
# figures, and the report's.
# shellcheck disable=SC2034 # the variables are for the scripts that source it.

# perf_args TRTYPE ADDR PORT NQN SECONDS: spdk_nvme_perf's options for
# QD1 4 KiB reads on core 1 (the target polls core 0), in PERF_ARGS.
# -LL: perf prints its latency histogram, whose buckets count each read
# it completed (perf_count).
perf_args() {
	PERF_ARGS=(-q 1 -o 4096 -w randread -t "$5" -c 0x2 -s 128 -LL
		-r "trtype:$1 adrfam:IPv4 traddr:$2 trsvcid:$3 subnqn:$4")
}

# perf_count [FILE]: the I/Os perf completed, the sum of the counts of its
# latency histogram's buckets ("Latency histogram for ...", then lines
# "START - END: CUMULATIVE%  (COUNT)"), in /tmp/perf.out by default;
# nothing without a histogram. Its IOPS times the run's seconds is no
# count: perf divides by the time its loop really ran, which ends at the
# first check past the run's seconds, and counts the reads it waits for
# after that too; under TCG a guest's vCPUs take turns, and the loop
# went past 5 s by some 6 ms, 8 reads at 1337 IOPS.
perf_count() {
	awk '/^Latency histogram for / { h = 1; next }
	     h && /^ *[0-9.]+ - +[0-9.]+: +[0-9.]+% +\( *[0-9]+\)$/ {
		c = $NF; gsub(/[()]/, "", c); n += c; seen = 1 }
	     END { if (seen) print n }' "${1:-/tmp/perf.out}"
}

# perf_field N [FILE]: field N of perf's Total line (1 IOPS, 2 MiB/s,
# 3 Average), in /tmp/perf.out by default.
perf_field() {
	awk -F: -v n="$1" '/^Total/ { split($2, f, " "); print f[n] }' \
		"${2:-/tmp/perf.out}"
}

# perf_summary [FILE]: perf's output up to its latency sections (-LL),
# its Total line last, in /tmp/perf.out by default.
perf_summary() {
	sed '/^Summary latency data/,$d' "${1:-/tmp/perf.out}"
}

# read_mean FILE: the mean latency (us) of the report's first read group.
read_mean() {
	awk '/^== read / { r = 1 } r && /latency \(us\): mean/ {
		sub(/.*mean /, ""); sub(/,.*/, ""); print; exit }' "$1"
}

# records_line FILE: "HOST TARGET MATCHED PCT" of a report's records line.
records_line() {
	grep '^records: ' "$1" | tail -n 1 |
		sed -E 's/^records: ([0-9]+) host, ([0-9]+) target; ([0-9]+) matched \(([0-9]+) % .*/\1 \2 \3 \4/'
}

# read_count FILE: the commands of the report's first read group.
read_count() {
	sed -nE 's/^== read [^:]*: ([0-9]+) commands.*/\1/p' "$1" | head -n 1
}

# stages_named REPORT TRANSPORT KIND: the report's stages are SPDK's host
# driver, the transport's network, and KIND's (spdk or nvmet) target.
stages_named() {
	grep -q '^  host driver (SPDK) ' "$1" || return 1
	if [ "$2" = rdma ]; then
		grep -q '^  network (RDMA, NICs, wire) ' "$1" || return 1
	else
		grep -q '^  network (TCP/IP, NICs, wire) ' "$1" || return 1
	fi
	if [ "$3" = spdk ]; then
		grep -q '^  target driver (SPDK) ' "$1" &&
			grep -q '^  storage (SPDK bdev, drive) ' "$1"
	else
		grep -q '^  target driver (nvmet-tcp) ' "$1"
	fi
}

# check_joined NAME REPORT RC: report (exit RC) joined every host record;
# HOST_RECORDS is the host's count.
check_joined() {
	local line host matched pct

	line=$(grep '^records: ' "$2" | tail -n 1)
	# shellcheck disable=SC2086,SC2046 # the words of a line.
	set -- "$1" "$2" "$3" $(records_line "$2")
	host=${4:-0} matched=${6:-0} pct=${7:-0}
	HOST_RECORDS=$host
	if [ "$3" -eq 0 ] && [ "$host" -gt 0 ] && [ "$pct" = 100 ] &&
	   [ "$matched" -eq "$host" ]; then
		ktap_pass "$1: report joins every host record ($line)"
	else
		ktap_fail "$1: report joins every host record (rc $3: ${line:-no records line})"
	fi
}

# check_reads NAME REPORT PERF_OUTPUT: the report's read group has
# exactly the reads perf completed (perf_count of its output): one
# record lost, or one of another run, fails.
check_reads() {
	local n want

	n=$(read_count "$2")
	want=$(perf_count "$3")
	if [ -n "$n" ] && [ -n "$want" ] && [ "$want" -gt 0 ] && [ "$n" -eq "$want" ]; then
		ktap_pass "$1: the host recorded each of perf's reads and no other ($n, perf's histogram $want)"
	else
		ktap_fail "$1: the host recorded each of perf's reads and no other (${n:-?}, perf's histogram ${want:-?})"
	fi
}

# check_mean NAME REPORT AVERAGE MAX: ntprof's read mean is perf's
# Average at most, and below it by MAX % at most. ntprof's window, from
# the transport's submit to the parsed completion, lies inside perf's,
# which adds the driver's code around it.
check_mean() {
	local mean gap ok

	mean=$(read_mean "$2")
	gap=$(awk -v m="${mean:-0}" -v a="${3:-0}" 'BEGIN {
		printf "%.1f", (a > 0 ? 100 * (a - m) / a : 100) }')
	ok=$(awk -v g="$gap" -v x="$4" 'BEGIN { print (g >= -0.5 && g <= x) ? 1 : 0 }')
	[ "$ok" = 1 ] &&
		ktap_pass "$1: ntprof's read mean is perf's Average, at most, within $4 % (${mean} us, $3 us: $gap % below)" ||
		ktap_fail "$1: ntprof's read mean is perf's Average, at most, within $4 % (${mean:-?} us, ${3:-?} us: $gap % below)"
}

# target_record NAME TRANSPORT KIND: the target's recording at -s 1 into
# $NTPROF_LAB_SHARE/NAME-target.ntp, its output in /tmp/NAME-rt.out, in
# the background (its pid in TARGET_REC): SPDK's target by its program
# (KIND spdk), or nvmet's (nvmet).
target_record() {
	if [ "$3" = spdk ]; then
		ntprof record -t "$2" -s 1 --spdk-target "$NTPROF_LAB_SPDK_TGT" \
			-o "$NTPROF_LAB_SHARE/$1-target.ntp" > "/tmp/$1-rt.out" 2>&1 &
	else
		ntprof record -r target -t "$2" -s 1 \
			-o "$NTPROF_LAB_SHARE/$1-target.ntp" > "/tmp/$1-rt.out" 2>&1 &
	fi
	TARGET_REC=$!
}

# pairing_start NAME TRANSPORT KIND [AGENT]: the start of a pairing of
# perf with a target of KIND (spdk or nvmet) over TRANSPORT: the target's
# record started (target_record), its pid in TARGET_REC, and checked to
# have started; with AGENT, through nvmf_tgt's agent where KIND is spdk.
pairing_start() {
	local name=$1 kind=$3 agent=${4:-} how=''

	[ -z "$agent" ] || how=" (through nvmf_tgt's agent for SPDK)"
	target_record "$name" "$2" "$kind"
	if wait_line "/tmp/$name-rt.out" 'profiling as target' 60 &&
	   { [ -z "$agent" ] || [ "$kind" = nvmet ] ||
	     grep -q 'through the agent' "/tmp/$name-rt.out"; }; then
		ktap_pass "$name: the target's record starts$how"
	else
		ktap_fail "$name: the target's record starts"
		sed 's/^/# /' "/tmp/$name-rt.out"
	fi
}

# pairing_report NAME TRANSPORT KIND PERF_OUT AVG PCT: the end of a
# pairing, both recordings stopped: their report --detail joins every
# host record, holds each of perf's reads (PERF_OUT, perf's output),
# its mean lies within PCT % of perf's AVG, and its stages are named for
# SPDK's side and the transport. The host's records in HOST_RECORDS.
pairing_report() {
	local name=$1 t=$2 kind=$3 report=$NTPROF_LAB_SHARE/$1-report.txt rc

	ntprof report --detail "$NTPROF_LAB_SHARE/$name-host.ntp" \
		"$NTPROF_LAB_SHARE/$name-target.ntp" > "$report" 2>&1
	rc=$?
	sed 's/^/# /' "$report" | tail -n 40
	check_joined "$name" "$report" $rc
	check_reads "$name" "$report" "$4"
	check_mean "$name" "$report" "$5" "$6"
	stages_named "$report" "$t" "$kind" &&
		ktap_pass "$name: the stages are named for SPDK's side and the transport" ||
		ktap_fail "$name: the stages are named for SPDK's side and the transport"
}
