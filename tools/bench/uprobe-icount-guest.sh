# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153,SC2154 # UT_* come from uprobe-sites.sh
#
# The guest's half of tools/bench/uprobe-icount.sh: what one hit of a
# userspace site costs, in guest instructions, under QEMU's icount mode
# on one vCPU. /lab/bin/uprobe-target runs JOBS jobs back to back through
# three functions of its own; with a session, each has a site (the three
# points of an SPDK target's map: a first site with six identity fetches,
# one through a pointer; a middle and a last site keyed by the job).
#   off       no session
#   s1000000  the sites attached, no job sampled: a first site's fetches
#             and hash, and two hits that find nothing in flight
#   s1        every job recorded (a slot, three stamps, a record)
# A job's guest time is its instructions times 4 (-icount shift=2). Each
# line of runs.tsv: repetition, mode, jobs, guest ns (to the us), records.
B=$NTPROF_LAB_SHARE/uprobe-icount
mkdir -p "$B"
mount -t debugfs none /sys/kernel/debug 2>/dev/null
modprobe ntprof || exit 1
tc=testclient
ut=/lab/bin/uprobe-target

cat > /tmp/sites <<EOS
$ut $UT_OFF_begin target-init first key=0 qid=0+$UT_job_lane:2 cid=0+$UT_job_ticket:2 opcode=0+$UT_job_kind:1 nsid=0>$UT_job_space+$UT_space_id:4 slba=0+$UT_job_first_block:8 nlb=0+$UT_job_block_count:2
$ut $UT_OFF_work target-exec mid key=0>$UT_work_job
$ut $UT_OFF_end target-complete last key=1
EOS

printf 'rep\tmode\tjobs\tns\trecords\n' > "$B/runs.tsv"
for rep in $(seq 1 "$REPS"); do
	for mode in $MODES; do
		if [ "$mode" != off ]; then
			$tc ustart target tcp "${mode#s}" /tmp/sites > /dev/null || exit 1
		fi
		# bash's clock in microseconds (busybox's date has no %N).
		t0=${EPOCHREALTIME/./}
		$ut run "$JOBS" 0 > /dev/null
		t1=${EPOCHREALTIME/./}
		n=0
		if [ "$mode" != off ]; then
			$tc stop > /dev/null
			rm -f /tmp/u.bin
			$tc drain /tmp/u.bin target > /dev/null
			n=$($tc print /tmp/u.bin | wc -l)
		fi
		printf '%s\t%s\t%s\t%s\t%s\n' "$rep" "$mode" "$JOBS" $(((t1 - t0) * 1000)) "$n" >> "$B/runs.tsv"
		echo "uprobe-icount: rep $rep $mode: $(( (t1 - t0) * 1000 / JOBS / 4 )) instructions a job, $n records"
	done
done
