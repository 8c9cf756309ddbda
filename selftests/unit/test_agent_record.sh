#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ntprof record and probe through the in-process agent, on this machine,
# with no kernel module: selftests/tools/spdk-model (nvmf_tgt's command
# path under SPDK's names) started with 'ntprof run', then probed,
# recorded, filtered, recorded twice at once, recorded by a recorder
# killed with SIGKILL, and ended while recorded. Checks what a user
# would: every record is a command the model ran, whole and in order;
# the model's results are the same as without the agent; a killed
# recorder leaves the agent off by itself.
# shellcheck source=selftests/unit/agent_env.sh
. "$(dirname "$0")/agent_env.sh"

# rows_are_commands CSV: each row is a command of the model's list, with
# TARGET_INIT <= TARGET_EXEC <= TARGET_COMPLETE; prints the first bad row.
rows_are_commands() {
	"$MODEL" list 2000000 > "$TMP/list" || return 1
	awk -F, 'NR == FNR { want[NR - 1] = $0; next }
		{
			i = $8 / 1000
			split(want[i], w, " ")
			if ($4 != w[1] || $5 != w[2] || $6 != w[3] ||
			    $7 != w[4] || $8 != w[5] || $9 != w[6] ||
			    $29 == "" || $32 == "" || $35 == "" ||
			    $29 > $32 || $32 > $35) { print "bad: " $0; exit 1 }
		}' "$TMP/list" "$1"
}

model_start
if grep -q "ntprof-agent: 4 of 4 sites patched" "$TMP/model.err"; then
	ktap_pass "ntprof run: the model's 4 sites patched before main"
else
	ktap_fail "ntprof run: the model's 4 sites patched before main"
	sed 's/^/# /' "$TMP/model.err"
fi

out=$("$NTPROF" probe --spdk-target "$MODEL_PID" 2>&1)
if grep -q "process $MODEL_PID: agent, 4 of 4 sites patched, off" <<< "$out" &&
   grep -q "load: ok, through the agent" <<< "$out" &&
   [ "$(grep -c '^    patched  ' <<< "$out")" = 4 ]; then
	ktap_pass "probe: the process's agent, its 4 sites patched, off, no module needed"
else
	ktap_fail "probe: the process's agent, its 4 sites patched, off, no module needed"
	sed 's/^/# /' <<< "$out"
fi

out=$("$NTPROF" record --spdk-target "$MODEL_PID" -s 1 -d 2 \
	-o "$TMP/all.ntp" 2>&1)
rc=$?
n=$(record_csv "$TMP/all.ntp" | wc -l)
if [ $rc = 0 ] && grep -q "SPDK pid $MODEL_PID through the agent" <<< "$out" &&
   [ "$n" -gt 500 ]; then
	ktap_pass "record -s 1 -d 2: $n records through the agent"
else
	ktap_fail "record -s 1 -d 2 through the agent (rc $rc, $n records)"
	sed 's/^/# /' <<< "$out"
fi
record_csv "$TMP/all.ntp" > "$TMP/all.csv"
if out=$(rows_are_commands "$TMP/all.csv"); then
	ktap_pass "each record is a command the model ran, whole, its stamps in order"
else
	ktap_fail "each record is a command the model ran, whole, its stamps in order"
	ktap_diag "$out"
fi
if "$NTPROF" report "$TMP/all.ntp" 2>&1 |
   grep -q "SPDK in pid $MODEL_PID through the agent (4 of 4 sites patched)"; then
	ktap_pass "report: the file's header says the process went through the agent"
else
	ktap_fail "report: the file's header says the process went through the agent"
fi
# The agent's records carry their process's pid (format 2.0: the PID
# flag and the word after the offsets): every group of --by pid is its.
groups=$("$NTPROF" report --by pid "$TMP/all.ntp" 2>&1 | grep '^== ')
if [ -n "$groups" ] && ! grep -qv " pid $MODEL_PID" <<< "$groups"; then
	ktap_pass "report --by pid: every record is pid $MODEL_PID's, as the agent stamped it"
else
	ktap_fail "report --by pid: every record is pid $MODEL_PID's"
	sed 's/^/# /' <<< "$groups"
fi

"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 -d 1 --op write \
	-o "$TMP/writes.ntp" > /dev/null 2>&1
record_csv "$TMP/writes.ntp" > "$TMP/writes.csv"
n=$(wc -l < "$TMP/writes.csv")
if [ "$n" -gt 100 ] && awk -F, '$6 != 1 { exit 1 }' "$TMP/writes.csv"; then
	ktap_pass "--op write: the agent records the $n writes only"
else
	ktap_fail "--op write: the agent records writes only ($n records)"
fi

"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 -o "$TMP/killed.ntp" \
	> "$TMP/killed.out" 2>&1 &
rec=$!
# Long enough for a whole block (1,024 records) to reach the file.
sleep 2
out=$("$NTPROF" record --spdk-target "$MODEL_PID" -s 1 -d 1 \
	-o "$TMP/second.ntp" 2>&1)
rc=$?
if [ $rc != 0 ] && grep -q "its agent is on for another recorder" <<< "$out" &&
   [ ! -e "$TMP/second.ntp" ]; then
	ktap_pass "a second recorder is refused while the first has the agent"
else
	ktap_fail "a second recorder is refused while the first has the agent (rc $rc)"
	sed 's/^/# /' <<< "$out"
fi
kill -9 $rec
wait $rec 2>/dev/null
# The heartbeat's 5 s, and the hits that see it.
sleep 6
out=$("$NTPROF" probe --spdk-target "$MODEL_PID" 2>&1)
if grep -q "process $MODEL_PID: agent, 4 of 4 sites patched, off (it turned itself off 1 time" <<< "$out"; then
	ktap_pass "a recorder killed with SIGKILL: the agent turned itself off"
else
	ktap_fail "a recorder killed with SIGKILL: the agent turned itself off"
	sed 's/^/# /' <<< "$out"
fi
n=$(record_csv "$TMP/killed.ntp" | wc -l)
if [ "$n" -gt 0 ]; then
	ktap_pass "the killed recorder's file keeps its $n records"
else
	ktap_fail "the killed recorder's file keeps its records"
fi

# wait_file PATH: wait up to 120 s for PATH to appear. The model's rate
# falls on a loaded machine (make check runs lab guests beside the unit
# tests), so the recordings below run until their parts exist, not for a
# fixed time; a rotation that never makes a part still fails.
wait_file() {
	for _ in $(seq 1200); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# --rotate: parts of about 1 MiB (some 17,000 records of the model's, 60
# bytes each; the model makes 5,000 to 15,000 a second, one every 20 us),
# each whole once closed and reportable while the recording goes on.
mkdir "$TMP/rot"
"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 -d 300 --rotate 1M \
	-o "$TMP/rot/p.ntp" > "$TMP/rot.out" 2>&1 &
rec=$!
# Part 1 is closed once part 2 is there.
wait_file "$TMP/rot/p.0002.ntp"
out=$("$NTPROF" report "$TMP/rot/p.0001.ntp" 2>&1)
live_rc=$?
# Three parts at least: the recording stops once the third is begun.
wait_file "$TMP/rot/p.0003.ntp"
kill -INT $rec
wait $rec
rc=$?
n=$(sed -n 's/^ntprof: \([0-9]*\) records written in \([0-9]*\) parts.*/\1 \2/p' \
	"$TMP/rot.out")
parts=$(ls "$TMP/rot" | wc -l)
rows=$(record_csv "$TMP/rot" | wc -l)
# A part ends at most 64 records (of at most 236 bytes) past its size.
big=$(find "$TMP/rot" -size +$((1048576 + 64 * 236 + 4096))c | wc -l)
if [ $rc = 0 ] && [ $live_rc = 0 ] && ! grep -q "ends early" <<< "$out" &&
   grep -q "part 1 of a rotated recording" <<< "$out" &&
   [ "$parts" -ge 3 ] && [ "$n" = "$rows $parts" ] && [ "$big" = 0 ]; then
	ktap_pass "--rotate 1M: $parts parts of at most 1 MiB and a block, all $rows records; a closed part reports while recording"
else
	ktap_fail "--rotate 1M: parts (rc $rc, report rc $live_rc, '$n' written, $parts parts, $rows rows, $big too big)"
	sed 's/^/# /' "$TMP/rot.out"
	sed 's/^/# /' <<< "$out"
fi
record_csv "$TMP/rot" > "$TMP/rot.csv"
if out=$(rows_are_commands "$TMP/rot.csv") &&
   [ "$(cut -d, -f4-8 "$TMP/rot.csv" | sort | uniq -d | wc -l)" = 0 ]; then
	ktap_pass "--rotate: the parts' records are the model's commands, none twice"
else
	ktap_fail "--rotate: the parts' records are the model's commands, none twice"
	ktap_diag "$out"
fi

rm -rf "$TMP/rot"
mkdir "$TMP/rot"
# Until part 4 is begun: parts 1 and 2 at least were removed.
"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 -d 300 --rotate 1M \
	--keep 2 -o "$TMP/rot/k" > "$TMP/keep.out" 2>&1 &
rec=$!
wait_file "$TMP/rot/k.0004.ntp"
kill -INT $rec
wait $rec
rc=$?
out=$(cat "$TMP/keep.out")
last=$(ls "$TMP/rot" | tail -1)
kept=$(ls "$TMP/rot" | tr '\n' ' ')
rep=$("$NTPROF" report "$TMP/rot" 2>&1)
summary=$(grep -o "^records: [0-9]* target" <<< "$out")
if [ $rc = 0 ] && [ "$(ls "$TMP/rot" | wc -l)" = 2 ] &&
   [[ $last =~ ^k\.([0-9]{4})\.ntp$ ]] &&
   old=$((10#${BASH_REMATCH[1]} - 2)) && [ "$old" -ge 1 ] &&
   grep -q "removed the $old oldest" <<< "$out" &&
   [ -n "$summary" ] && grep -q "^$summary" <<< "$rep" &&
   { [ "$old" = 1 ] && note="part 1 was removed" ||
     note="parts 1 to $old were removed"; } &&
   grep -q "$note" <<< "$rep"; then
	ktap_pass "--rotate 1M --keep 2: the 2 newest parts kept ($kept), the summary theirs, as report's"
else
	ktap_fail "--rotate 1M --keep 2: the 2 newest parts kept (rc $rc, $kept)"
	sed 's/^/# /' <<< "$out"
	sed 's/^/# /' <<< "$rep"
fi

# The model ends in the middle of a recording.
"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 -d 3 -o "$TMP/end.ntp" \
	> "$TMP/end.out" 2>&1 &
rec=$!
sleep 1
kill -TERM "$MODEL_PID"
wait "$MODEL_PID"
model_rc=$?
wait $rec
rc=$?
n=$(record_csv "$TMP/end.ntp" | wc -l)
if [ $rc = 0 ] && [ "$n" -gt 0 ] &&
   grep -q "process $MODEL_PID (through the agent) exited" "$TMP/end.out"; then
	ktap_pass "the program exits mid-recording: said, and its $n records kept"
else
	ktap_fail "the program exits mid-recording (rc $rc, $n records)"
	sed 's/^/# /' "$TMP/end.out"
fi

read -r _ count sum < "$TMP/model.out"
plain=$("$MODEL" run "${count:-0}" 0)
if [ "$model_rc" = 0 ] && [ "$plain" = "done $count $sum" ]; then
	ktap_pass "the model's $count commands: the same results as without the agent"
else
	ktap_fail "the model's results: '$(cat "$TMP/model.out")' with the agent, '$plain' without"
fi

# --wait-recorder: held before main until a recorder is on, then every
# command recorded; with no recorder, started when the wait is over.
"$NTPROF" run --agent "$LIB" --wait-recorder 60 -- "$MODEL" run 300 1000 \
	> "$TMP/wait.out" 2> "$TMP/wait.err" &
MODEL_PID=$!
sleep 1.5
if [ ! -s "$TMP/wait.out" ] && grep -q "sites patched" "$TMP/wait.err"; then
	"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 -o "$TMP/wait.ntp" \
		> "$TMP/wait-rec.out" 2>&1 &
	rec=$!
	wait "$MODEL_PID"
	kill -INT $rec
	wait $rec
	n=$(record_csv "$TMP/wait.ntp" | wc -l)
	if grep -q "^done 300 " "$TMP/wait.out" && [ "$n" = 300 ] &&
	   grep -q "a recorder is on after" "$TMP/wait.err"; then
		ktap_pass "run --wait-recorder: held until record is on, then all 300 commands recorded"
	else
		ktap_fail "run --wait-recorder: all 300 commands recorded ($n records)"
		sed 's/^/# /' "$TMP/wait.err" "$TMP/wait-rec.out"
	fi
else
	ktap_fail "run --wait-recorder: the program held before main"
	sed 's/^/# /' "$TMP/wait.out" "$TMP/wait.err"
fi
start=$(date +%s%N)
out=$("$NTPROF" run --agent "$LIB" --wait-recorder 1 -- "$MODEL" run 10 0 2>&1)
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if grep -q "^done 10 " <<< "$out" && [ "$ms" -ge 1000 ] &&
   grep -q "no recorder within 1 s: the program starts" <<< "$out"; then
	ktap_pass "run --wait-recorder 1 with no recorder: the program starts after 1 s"
else
	ktap_fail "run --wait-recorder 1 with no recorder: the program starts after 1 s ($ms ms)"
	sed 's/^/# /' <<< "$out"
fi
# A program recorded by its path before it starts: record finds its
# process with the agent when it comes, and its sites go in the trailer.
"$NTPROF" record --spdk-target "$MODEL" -s 1 -o "$TMP/late.ntp" \
	> "$TMP/late-rec.out" 2>&1 &
rec=$!
sleep 1
"$NTPROF" run --agent "$LIB" --wait-recorder 30 -- "$MODEL" run 300 1000 \
	> "$TMP/late-model.out" 2> "$TMP/late-model.err"
late_pid=$(sed -n 's/.*process \([0-9]*\) of .* started: through its agent$/\1/p' \
	"$TMP/late-rec.out")
sleep 1.5
kill -INT $rec
wait $rec
rc=$?
n=$(record_csv "$TMP/late.ntp" | wc -l)
note=$("$NTPROF" report "$TMP/late.ntp" 2>&1 | grep '^note: SPDK')
if [ $rc = 0 ] && [ -n "$late_pid" ] && [ "$n" = 300 ] &&
   [ "$note" = "note: SPDK in pid $late_pid through the agent (4 of 4 sites patched) ($TMP/late.ntp)" ]; then
	ktap_pass "record by path, no module: a process started later with the agent, its 300 commands, its sites in the report"
else
	ktap_fail "record by path, no module: a process started later with the agent (rc $rc, $n records, ${note:-no note})"
	sed 's/^/# /' "$TMP/late-rec.out" "$TMP/late-model.err"
fi

out=$("$NTPROF" run --wait-recorder 0 -- "$MODEL" run 1 0 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q "wait-recorder takes 1 to 3600 seconds" <<< "$out"; then
	ktap_pass "run --wait-recorder 0 is refused, nothing started"
else
	ktap_fail "run --wait-recorder 0 is refused (rc $rc)"
fi
ktap_finished
