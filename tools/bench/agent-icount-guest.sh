# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The guest's half of tools/bench/agent-icount.sh: what one hit of an
# agent's site costs, in guest instructions, under QEMU's icount mode on
# one vCPU. /lab/bin/spdk-model runs COUNT commands back to back, three
# site hits each, and times its loop (CLOCK_MONOTONIC: 4 ns an
# instruction at -icount shift=2):
#   none      without the agent
#   off       started with 'ntprof run', no recorder: a hit is the
#             trampoline's test of its site's byte
#   s1000000  a recorder has it on, no command sampled: the handler, a
#             first site's fetches and hash, two hits that find nothing
#   s1        every command recorded (a slot, three stamps, a record)
# The model runs COUNT commands to warm up (the ring's pages faulted in,
# once in a thread's life), the recorder drains them, then COUNT more are
# timed. The recorder is stopped (SIGSTOP) while the model runs, so that
# its drains are not counted; COUNT fits one ring. Each line of runs.tsv:
# repetition, mode, commands, guest ns, records of both passes.
B=$NTPROF_LAB_SHARE/agent-icount
mkdir -p "$B"
model=/lab/bin/spdk-model

# run MODE: the model's "done N SUM NS" line, and the records taken.
run() {
	local mode=$1 pid rec='' n=0

	rm -f /tmp/in /tmp/out /tmp/rec.ntp /tmp/rec.out
	mkfifo /tmp/in
	if [ "$mode" = none ]; then
		$model bench "$COUNT" < /tmp/in > /tmp/out &
	else
		ntprof run -- $model bench "$COUNT" < /tmp/in > /tmp/out 2> /dev/null &
	fi
	pid=$!
	exec 3> /tmp/in
	until grep -q ready /tmp/out 2> /dev/null; do sleep 0.1; done
	if [ "${mode#s}" != "$mode" ]; then
		ntprof record --spdk-target $pid -s "${mode#s}" -o /tmp/rec.ntp \
			> /tmp/rec.out 2>&1 &
		rec=$!
		until grep -q "through the agent" /tmp/rec.out 2> /dev/null; do
			sleep 0.1
		done
		kill -STOP $rec
	fi
	echo go >&3
	until grep -q warm /tmp/out 2> /dev/null; do sleep 0.1; done
	if [ -n "$rec" ]; then
		# Its drains: every 400 ms at most.
		kill -CONT $rec
		sleep 1
		kill -STOP $rec
	fi
	echo go >&3
	exec 3>&-
	wait $pid
	if [ -n "$rec" ]; then
		kill -CONT $rec
		kill -INT $rec
		wait $rec
		n=$(ntprof report --csv - /tmp/rec.ntp | tail -n +2 | wc -l)
	fi
	echo "$(grep '^done' /tmp/out) $n"
}

printf 'rep\tmode\tcommands\tns\trecords\n' > "$B/runs.tsv"
for rep in $(seq 1 "$REPS"); do
	for mode in $MODES; do
		# done N SUM NS RECORDS
		# shellcheck disable=SC2046 # the line's words.
		set -- $(run "$mode")
		printf '%s\t%s\t%s\t%s\t%s\n' "$rep" "$mode" "$2" "$4" "$5" >> "$B/runs.tsv"
		echo "agent-icount: rep $rep $mode: $(( $4 / $2 / 4 )) instructions a command, $5 records"
	done
done
