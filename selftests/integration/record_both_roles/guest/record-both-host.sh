# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ntprof record as host and as target at once, on one guest (host and
# target in one kernel): each role's session has its own buffers, so the
# two recorders neither take each other's records nor mix their counts.
# Over NVMe/TCP, then NVMe/RDMA, at N=1 while fio reads and writes: each
# file holds its role's records only, one per command fio completed.
# record --stages-only against every hook: the same five stages, joined,
# with fewer hook hits a read (Documentation/ntprof.rst).
# The chain rule (record --chain) over NVMe/TCP at N=10: host and target
# pick the same reads and writes, those ntprof_chain_hash() picks; the
# module refuses it with uprobe sites, and an offset without it.
# Then the module's rule for a request without a role, and rmmod.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/common/guest/kmemleak.sh
. /lab/tests/kmemleak.sh
KTAP_PREFIX="host: "
tc=testclient


# ntp_roles FILE: "HOST TARGET OTHER", the records of each role in the
# blocks of a .ntp 2.0 file (Documentation/ntp-format.rst: compact
# records back to back, each 48 bytes and 4 or 8 a point past the first,
# 4 more with a pid, as its points word at offset 36 says; the file is
# little-endian, and so is this guest).
ntp_roles() {
	local f=$1 size hl off tag len

	size=$(wc -c < "$f")
	hl=$(od -An -tu4 -j 12 -N 4 "$f" | tr -d ' ')
	off=$hl
	while [ $((off + 24)) -le "$size" ]; do
		tag=$(od -An -c -j "$off" -N 4 "$f" | tr -d ' ')
		len=$(od -An -tu4 -j $((off + 12)) -N 4 "$f" | tr -d ' ')
		[ "$tag" = NTPB ] && [ "$len" -gt 0 ] &&
			od -An -v -tu1 -w1 -j $((off + 24)) -N "$len" "$f"
		off=$((off + 24 + len))
	done | awk '
	{ b[n++] = $1 }
	END {
		for (i = 0; i + 48 <= n; i += size) {
			pts = b[i + 36] + 256 * (b[i + 37] + 256 * b[i + 38])
			hi = b[i + 39]
			for (k = 0; pts; pts = int(pts / 2))
				k += pts % 2
			w = int(hi / 64) % 2 ? 8 : 4
			size = 48 + (k ? k - 1 : 0) * w + (hi >= 128 ? 4 : 0)
			if (b[i] == 1) h++
			else if (b[i] == 2) t++
			else o++
		}
		if (i != n) o++
		printf "%d %d %d\n", h, t, o
	}'
}


# stage_shares FILE: the shares (%) of the five stages of the first
# group of a report's text (FILE), in path order, one line; the means
# (us) with "mean".
stage_shares() {
	awk -v mean="${2:-}" '/^ +stage +mean us/ { on = 1; next }
		on && /^ +largest:/ { exit }
		on { for (i = 2; i < NF; i++) if ($(i + 1) ~ /%$/) {
			v = mean ? $i : $(i + 1); sub(/%$/, "", v); printf "%s ", v; break } }
		END { print "" }' "$1"
}

# hook_hits: the hits of every hook since the sessions started, summed
# (<debugfs>/ntprof/hooks, the hits last on each line).
hook_hits() {
	awk '{ n += $NF } END { print n + 0 }' /sys/kernel/debug/ntprof/hooks
}

# record_pair T NAME [OPTIONS]: host and target record over T at N=1
# with OPTIONS while fio reads 4 KiB for 3 s, into /tmp/NAME-host.ntp
# and /tmp/NAME-target.ntp; then the report in /tmp/NAME.rep, its stage
# shares in /tmp/NAME.stages, and hits a read x100 in /tmp/NAME.hits.
record_pair() {
	local t=$1 name=$2 dev side rec reads hits
	shift 2

	dev=$NTPROF_LAB_TCP_DEV
	[ "$t" = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	for side in host target; do
		ntprof record -r $side -t "$t" -s 1 "$@" -d 600 \
			-o "/tmp/$name-$side.ntp" > "/tmp/$name-$side.out" 2>&1 &
		eval "${side}_rec=\$!"
		wait_line "/tmp/$name-$side.out" "^ntprof: profiling as $side" ||
			ktap_fail "$t: $name: record -r $side started"
	done
	reads=$(fio_count "$dev" randread 4k 3)
	reads=${reads% *}
	for side in target host; do
		eval "rec=\$${side}_rec"
		kill -INT "$rec"
		wait "$rec"
	done
	hits=$(hook_hits)
	echo $((hits * 100 / (reads > 0 ? reads : 1))) > "/tmp/$name.hits"
	ntprof report --detail "/tmp/$name-host.ntp" "/tmp/$name-target.ntp" \
		> "/tmp/$name.rep" 2>&1
	stage_shares "/tmp/$name.rep" > "/tmp/$name.stages"
	echo "# $t $name: $reads reads, $hits hook hits, stages (us): $(stage_shares "/tmp/$name.rep" mean), (%): $(cat "/tmp/$name.stages")"
}

# stages_only T: record --stages-only against every hook, over T. The
# same five stages: their shares of the latency within the noise of two
# recordings with every hook (3 times the two's difference, at least 8
# points; the lab's TCG makes whole runs slower or faster, so means
# would not compare), every host record joined, fewer hook hits a read,
# and report --detail saying that the components were not recorded.
stages_only() {
	local t=$1 full1 full2 lean hf hl

	record_pair "$t" full1
	record_pair "$t" lean --stages-only
	record_pair "$t" full2
	dmesg | grep -q "session started ($t, 1 in 1, 0 uprobe sites, pid [0-9]*, stages only)" &&
		ktap_pass "$t: the module says its sessions attach the stages only" ||
		ktap_fail "$t: the module says its sessions attach the stages only"
	if grep -Eq '^records: [0-9]+ host, [0-9]+ target; [0-9]+ matched \(100 % of the host.s\)' /tmp/lean.rep; then
		ktap_pass "$t: stages only: every host record joined"
	else
		ktap_fail "$t: stages only: every host record joined"
		sed 's/^/# /' /tmp/lean.rep
	fi
	read -ra full1 < /tmp/full1.stages
	read -ra full2 < /tmp/full2.stages
	read -ra lean < /tmp/lean.stages
	if [ "${#lean[@]}" -eq 5 ] && [ "${#full1[@]}" -eq 5 ] &&
	   [ "${#full2[@]}" -eq 5 ] &&
	   awk -v a="${full1[*]}" -v b="${full2[*]}" -v l="${lean[*]}" 'BEGIN {
		split(a, x); split(b, y); split(l, z)
		for (i = 1; i <= 5; i++) {
			m = (x[i] + y[i]) / 2; d = x[i] - y[i]; if (d < 0) d = -d
			tol = 3 * d; if (tol < 8) tol = 8
			e = z[i] - m; if (e < 0) e = -e
			if (e > tol) { printf "# stage %d: %d %% against %.1f %% (+-%.1f)\n", i, z[i], m, tol; bad = 1 }
		}
		exit bad }'; then
		ktap_pass "$t: stages only: the five stages, as with every hook"
	else
		ktap_fail "$t: stages only: the five stages, as with every hook"
		sed 's/^/# /' /tmp/lean.rep /tmp/full1.rep
	fi
	hf=$(cat /tmp/full1.hits)
	hl=$(cat /tmp/lean.hits)
	echo "# $t: hook hits a read: every hook $((hf / 100)).$(printf %02d $((hf % 100))), stages only $((hl / 100)).$(printf %02d $((hl % 100)))"
	[ "$hl" -gt 0 ] && [ "$hl" -lt "$hf" ] &&
		ktap_pass "$t: stages only: fewer hook hits a read" ||
		ktap_fail "$t: stages only: fewer hook hits a read ($hl/100 against $hf/100)"
	grep -q '^note: /tmp/lean-target.ntp: the components within the stages were not recorded, only the stages (record --stages-only left out .*block_rq_complete' /tmp/lean.rep &&
	! grep -q 'were not recorded' /tmp/full1.rep &&
		ktap_pass "$t: report --detail says a stages-only file has no components" ||
		ktap_fail "$t: report --detail says a stages-only file has no components"
}

# chain_io ROLE LBS FILE: "opcode slba nlb" of the complete sampled reads
# and writes of ROLE (1 host, 2 target) in testclient's FILE, LBAs of
# LBS bytes, sorted.
chain_io() {
	$tc print "$3" | awk -F'\t' -v role="$1" -v lbs="$2" '
		$1 == role && $9 % 2 == 1 && int($9 / 4) % 2 == 0 &&
		($5 == 1 || $5 == 2) { print $5, $7, $8 / lbs - 1 }' | sort
}

# chain_rule: the kernel's chain rule at N=10, with testclient (whose
# cpick redoes the uapi's decision) and with ntprof record --chain.
chain_rule() {
	local lbs n want sites

	lbs=$(cat "/sys/block/${NTPROF_LAB_TCP_DEV##*/}/queue/logical_block_size")
	ktap_check "chain: a host session of the chain rule starts" \
		$tc cstart host tcp 10 1 0
	ktap_check "chain: a target session of the chain rule starts" \
		$tc cstart target tcp 10 1 -
	ntprof status | grep -q '^host session sampling: 1 in 10, chain rule, offset 0$' &&
		ktap_pass "chain: status shows the rule" ||
		ktap_fail "chain: status shows the rule ($(ntprof status | head -3 | tr '\n' ' '))"
	n=$(fio_count "$NTPROF_LAB_TCP_DEV" randrw 4k 3)
	$tc stop
	rm -f /tmp/chain.bin
	$tc drain /tmp/chain.bin host && $tc drain /tmp/chain.bin target
	chain_io 1 "$lbs" /tmp/chain.bin > /tmp/chain.host
	chain_io 2 "$lbs" /tmp/chain.bin > /tmp/chain.target
	$tc cpick 10 0 < /tmp/chain.host > /tmp/chain.want
	want=$(( (${n% *} + ${n#* }) / 10 ))
	echo "# chain: fio $n, host $(wc -l < /tmp/chain.host), target $(wc -l < /tmp/chain.target), about $want"
	if [ -s /tmp/chain.host ] && cmp -s /tmp/chain.host /tmp/chain.want &&
	   cmp -s /tmp/chain.host /tmp/chain.target &&
	   [ "$(wc -l < /tmp/chain.host)" -ge $((want / 3)) ] &&
	   [ "$(wc -l < /tmp/chain.host)" -le $((want * 3)) ]; then
		ktap_pass "chain: host and target recorded the same reads and writes, those the chain rule picks"
	else
		ktap_fail "chain: host and target recorded the same reads and writes, those the chain rule picks"
		diff /tmp/chain.host /tmp/chain.want | head -5 | sed 's/^/# /'
	fi
	dmesg | grep -q "session started (tcp, 1 in 10 by the chain rule, 0 uprobe sites" &&
		ktap_pass "chain: the module says its sessions sample by the chain rule" ||
		ktap_fail "chain: the module says its sessions sample by the chain rule"

	# Refusals, each with its reason.
	sites="$(command -v testclient) 0 target-init first,last key=0"
	echo "$sites" > /tmp/chain.sites
	if ! $tc cstart target tcp 10 1 - /tmp/chain.sites > /tmp/chain.err 2>&1 &&
	   grep -q 'the chain rule is for kernel hooks, not uprobe sites' /tmp/chain.err; then
		ktap_pass "chain: refused with uprobe sites"
	else
		ktap_fail "chain: refused with uprobe sites ($(cat /tmp/chain.err))"
		$tc stop
	fi
	if ! $tc cstart host tcp 10 0 4096 > /tmp/chain.err 2>&1 &&
	   grep -q 'the chain offset needs the chain rule' /tmp/chain.err; then
		ktap_pass "chain: an offset without the rule refused"
	else
		ktap_fail "chain: an offset without the rule refused ($(cat /tmp/chain.err))"
		$tc stop
	fi

	# ntprof record --chain: the rule in the files, every host record joined.
	record_pair tcp chain -s 10 --chain
	grep -q '^sampling: 1 in 10, chain rule, offset 0$' /tmp/chain.rep &&
	grep -Eq '^records: [0-9]+ host, [0-9]+ target; [0-9]+ matched \(100 % of the host.s\)' /tmp/chain.rep &&
		ktap_pass "chain: record --chain: the report names the rule, every host record joined" || {
		ktap_fail "chain: record --chain: the report names the rule, every host record joined"
		sed 's/^/# /' /tmp/chain.rep /tmp/chain-host.out | head -30
	}
}

ktap_header
kmemleak_scan boot
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }
for t in tcp rdma; do
	dev=$NTPROF_LAB_TCP_DEV
	[ $t = rdma ] && dev=$NTPROF_LAB_RDMA_DEV
	for side in host target; do
		rm -f /tmp/$side.ntp
		ntprof record -r $side -t $t -s 1 -d 600 -o /tmp/$side.ntp \
			> /tmp/$side.out 2> /tmp/$side.err &
		eval "${side}_rec=\$!"
		wait_line /tmp/$side.out "^ntprof: profiling as $side, sampling every command" ||
			ktap_fail "$t: record -r $side started"
	done
	r=$(fio_count "$dev" randread 4k 3)
	w=$(fio_count "$dev" randwrite 128k 3)
	reads=${r% *}
	writes=${w#* }
	total=$((reads + writes))
	# The target stops first: the host's recorder drains on alone.
	for side in target host; do
		eval "rec=\$${side}_rec"
		kill -INT "$rec"
		wait "$rec"
		rc=$?
		[ $rc -eq 0 ] && ktap_pass "$t: record -r $side stops on SIGINT, exit 0" ||
			ktap_fail "$t: record -r $side stops on SIGINT, exit 0 (got $rc)"
	done
	for side in host target; do
		sed 's/^/# /' /tmp/$side.out /tmp/$side.err
		n=$(sed -n "s/^ntprof: \([0-9]*\) records written to \/tmp\/$side.ntp$/\1/p" /tmp/$side.out)
		# shellcheck disable=SC2086,SC2046 # the words of a line.
		set -- $(ntp_roles /tmp/$side.ntp)
		mine=$1 theirs=$2 bad=$3
		[ $side = target ] && { mine=$2 theirs=$1; }
		if [ "$theirs" = 0 ] && [ "$bad" = 0 ] && [ "$mine" -gt 0 ]; then
			ktap_pass "$t: $side.ntp holds $side records only ($mine)"
		else
			ktap_fail "$t: $side.ntp holds $side records only (got $mine own, $theirs of the other role, $bad unknown)"
		fi
		if [ "$reads" -gt 0 ] && [ "$writes" -gt 0 ] &&
		   [ "$mine" = "$total" ] && [ "$n" = "$total" ]; then
			ktap_pass "$t: $side recorded each of fio's $reads reads and $writes writes once"
		else
			ktap_fail "$t: $side recorded each of fio's $reads reads and $writes writes once (file $mine, record says ${n:-nothing})"
			$tc stats $side | sed 's/^/# /'
		fi
		if grep -q 'WARNING' /tmp/$side.err; then
			ktap_fail "$t: record -r $side warns of nothing (other role's records, drops)"
		else
			ktap_pass "$t: record -r $side warns of nothing (other role's records, drops)"
		fi
		# Its counters are its own: the other role's records are not in them.
		rs=$(stat_of records $side)
		[ "$rs" = "$total" ] && ktap_pass "$t: the $side counters count $total records" ||
			ktap_fail "$t: the $side counters count $total records (got ${rs:-none})"
	done
done

# record --stages-only: the stages' hooks only, the same stages.
for t in tcp rdma; do
	stages_only $t
done
chain_rule

# Both roles have had sessions: a request without a role is refused.
$tc stats any > /tmp/any.out 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'needs a role' /tmp/any.out; then
	ktap_pass "stats-get without a role is refused once both roles ran"
else
	ktap_fail "stats-get without a role is refused once both roles ran (rc $rc)"
	sed 's/^/# /' /tmp/any.out
fi
grep -q '^host cpu 0: ' /sys/kernel/debug/ntprof/buffers &&
grep -q '^target cpu 0: ' /sys/kernel/debug/ntprof/buffers &&
	ktap_pass "debugfs shows each role's buffers" ||
	ktap_fail "debugfs shows each role's buffers"

# Only a target session since the load: without a role, the target's.
ktap_check "rmmod ntprof" rmmod ntprof
modprobe ntprof
$tc start target tcp 1
fio_count "$NTPROF_LAB_TCP_DEV" randread 4k 1 > /tmp/fio.out
$tc stop
rm -f /tmp/any.bin
if $tc drain /tmp/any.bin any && [ -s /tmp/any.bin ] &&
   [ "$($tc print /tmp/any.bin | awk -F'\t' '$1 != 2' | wc -l)" -eq 0 ]; then
	ktap_pass "records-get without a role takes the only role's records"
else
	ktap_fail "records-get without a role takes the only role's records"
fi

# Unload with both recording under I/O.
$tc start host tcp 1 && $tc start target tcp 1
fio_count "$NTPROF_LAB_TCP_DEV" randrw 4k 4 > /tmp/fio.out &
fio=$!
sleep 2
ktap_check "rmmod ntprof while both roles record under I/O" rmmod ntprof
wait $fio && ktap_pass "fio completes after ntprof went away under it" ||
	ktap_fail "fio completes after ntprof went away under it"
kmemleak_scan record-both
ktap_finished
