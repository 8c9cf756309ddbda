#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's side by side run (selftests/run_tests.sh, run_side_by_side)
# on a made-up tree of test programs: its dry run (CHECK_DRY_RUN) never
# has more CPUs taken than LAB_JOBS, never runs two programs of the
# non-lab groups at once, runs each program once, starts the longest
# programs first (the long one-guest tests before the short ones, the
# unit and build stream by its whole length), and gives the same wall
# time whatever the order in which run.sh lists the tests; bad files of
# durations get a one-line error. A real run of programs that sleep a
# fraction of a second keeps the same rules, builds the tools first,
# counts every result, and reports the CPU time each program used. No
# guest, no build: a few seconds.
#
# usage: test_schedule.sh    Prints TAP; exits 1 if any test failed.

set -u

# shellcheck source=selftests/unit/scratch.sh
. "$(dirname "${BASH_SOURCE[0]}")/scratch.sh"

# The made-up tree: run_tests.sh itself, a lab group whose run.sh lists
# the tests of the file "guests" (NAME GUESTS) and runs one by sleeping
# its time in "sleeps", a unit and a build group of such sleepers, and
# tools whose make only notes that it ran. Each program notes its start
# and end, with the CPUs it takes, in the file EVENTS.
T=$TMP/tree
export EVENTS=$TMP/events
mkdir -p "$T/selftests/integration" "$T/selftests/unit" "$T/selftests/build" \
	"$T/tools/ntprof" "$T/tools/agent" "$T/selftests/tools"
cp "$TOP/selftests/run_tests.sh" "$T/selftests/"
cat > "$T/selftests/integration/run.sh" <<'EOF'
#!/bin/bash
cd "$(dirname "$0")" || exit 1
[ "$1" != --guests ] || exec cat guests
g=$(awk -v n="$1" '$1 == n { print $2 }' guests)
[ "$g" -le "$LAB_JOBS" ] || g=$LAB_JOBS
echo "start $g integration/$1" >> "$EVENTS"
sleep "$(awk -v n="integration/$1" '$1 == n { print $2 }' ../sleeps)"
echo "end $g integration/$1" >> "$EVENTS"
echo "ok 1 $1 ran"
EOF
cat > "$TMP/sleeper" <<'EOF'
#!/bin/bash
n=$(basename "$(dirname "$0")")/$(basename "$0" .sh)
echo "start 1 $n" >> "$EVENTS"
sleep "$(awk -v n="$n" '$1 == n { print $2 }' "$(dirname "$0")/../sleeps")"
echo "end 1 $n" >> "$EVENTS"
echo "ok 1 $n ran"
EOF
for p in unit/test_u1 unit/test_u2 build/test_build; do
	cp "$TMP/sleeper" "$T/selftests/$p.sh"
done
# test_build keeps its CPU busy for a second first: the run counts it.
sed -i '2i python3 -c "import time\nend = time.process_time() + 1\nwhile time.process_time() < end: pass"' \
	"$T/selftests/build/test_build.sh"
for d in tools/ntprof tools/agent selftests/tools; do
	# shellcheck disable=SC2016 # make expands $$EVENTS.
	printf 'all libntprof-agent.so:\n\t@echo "built 0 %s" >> "$$EVENTS"\n' \
		"$d" > "$T/$d/Makefile"
done

# The tests as run.sh lists them, with their guests, and the estimates:
# the two long one-guest tests first and last in the list, as a list
# ordered by name may put them.
cat > "$T/selftests/integration/guests" <<'EOF'
test_long_a 1
test_two_a 2
test_chain 3
test_one_a 1
test_one_b 1
test_two_b 2
test_long_b 1
EOF
cat > "$T/selftests/durations" <<'EOF'
# estimates
integration/test_long_a 600
integration/test_two_a 300
integration/test_chain 250
integration/test_one_a 110
integration/test_one_b 90
integration/test_two_b 200
integration/test_long_b 500
unit/test_u1 50
unit/test_u2 40
build/test_build 150
EOF

export CHECK_ONLY="unit build integration" LAB_JOBS=2

# check_events FILE: the events of FILE ("start CPUS NAME", "end CPUS
# NAME", in the order they happened) never take more than LAB_JOBS CPUs,
# a lab test's CPUs counted by its guests in the file "guests", whatever
# CPUS says, never run two programs of the unit and build groups at once,
# and start and end each program once; prints what is wrong.
check_events() {
	awk -v jobs="$LAB_JOBS" '
		FNR == NR { cpus["integration/" $1] = $2 < jobs ? $2 : jobs; next }
		$1 == "start" {
			used += ($3 in cpus) ? cpus[$3] : 1
			if (used > jobs) print "over " jobs " CPUs at the start of " $3
			if ($3 !~ /^integration\//) {
				if (stream++) print $3 " started beside another non-lab program"
			}
			if (started[$3]++) print $3 " started twice"
		}
		$1 == "end" {
			used -= ($3 in cpus) ? cpus[$3] : 1
			if ($3 !~ /^integration\//) stream--
			if (!started[$3] || ended[$3]++) print $3 " ended without a start"
		}
		END {
			for (n in started)
				if (!ended[n]) print n " never ended"
			if (length(started) != 10) print length(started) " programs of 10 ran"
		}' "$T/selftests/integration/guests" "$1"
}

# dry_run [FILE]: the dry run's output, with FILE's durations (the
# estimates by default); its events, without the "# dry-run: " in front
# and the clock, go to TMP/dry.events, and the clock of each start to
# TMP/dry.starts, "NAME TIME" a line.
dry_run() {
	local out

	out=$(CHECK_DRY_RUN=${1:-selftests/durations} bash "$T/selftests/run_tests.sh" 2>&1)
	printf '%s\n' "$out"
	printf '%s\n' "$out" | sed -n 's/^# dry-run: [0-9]* \(start\|end\) /\1 /p' |
		grep -v ' tools$' > "$TMP/dry.events"
	printf '%s\n' "$out" | awk '$3 ~ /^[0-9]+$/ && $4 == "start" { print $6, $3 }' \
		> "$TMP/dry.starts"
}

out=$(dry_run)
total=$(printf '%s\n' "$out" | sed -n 's/^# dry-run: \([0-9]*\) s in all.*/\1/p')
bad=$(check_events "$TMP/dry.events")
if [ -n "$total" ] && [ -z "$bad" ]; then
	ktap_pass "dry run: never more than LAB_JOBS CPUs, one non-lab program at a time, each program once ($total s)"
else
	ktap_fail "dry run: never more than LAB_JOBS CPUs, one non-lab program at a time, each program once"
	printf '%s\n' "$bad" "$out" | sed 's/^/# /'
fi

# Both long one-guest tests first, at once: the stream of unit and build
# (240 s in all) is shorter than either, so it starts when the shorter
# ends, beside the short one-guest tests; the two-guest tests last, as
# the one-CPU programs run out. 1540 s, 20 more than the 1520 s of CPUs
# never idle. Started in the list's order as they fit, the tests would
# take 1690 s: the second long one would start when the first is nearly
# done.
starts=$(awk '$1 != "tools" { printf "%s%s=%s", sep, $1, $2; sep = " " }' "$TMP/dry.starts")
want="integration/test_long_a=0 integration/test_long_b=0 build/test_build=500"
want="$want integration/test_one_a=600 unit/test_u1=650 integration/test_one_b=700"
want="$want unit/test_u2=710 integration/test_two_a=790 integration/test_chain=1090"
want="$want integration/test_two_b=1340"
if [ "$starts" = "$want" ] && [ "$total" = 1540 ]; then
	ktap_pass "dry run: the longest programs start first, the stream by its whole length; 1540 s in all"
else
	ktap_fail "dry run: the longest programs start first, the stream by its whole length; 1540 s in all (${total:-none})"
	ktap_diag "started: $starts"
	ktap_diag "wanted:  $want"
fi

# On 4 CPUs the same rules, the chain taking 3, and the stream's next
# program waits for the one before, however long the rest of the stream.
out=$(LAB_JOBS=4 dry_run)
bad=$(LAB_JOBS=4 check_events "$TMP/dry.events")
if [ -z "$bad" ] && printf '%s\n' "$out" | grep -qx '# dry-run: [0-9]* start 3 integration/test_chain'; then
	ktap_pass "dry run on 4 CPUs: the same rules, the chain taking 3"
else
	ktap_fail "dry run on 4 CPUs: the same rules, the chain taking 3"
	printf '%s\n' "$bad" "$out" | sed 's/^/# /'
fi

# The same tests listed in another order: the same timeline.
cp "$T/selftests/integration/guests" "$TMP/guests"
tac "$TMP/guests" > "$T/selftests/integration/guests"
out2=$(dry_run)
cp "$TMP/guests" "$T/selftests/integration/guests"
if [ "$(printf '%s\n' "$out2" | tail -n 1)" = "# dry-run: $total s in all, 40 CPU-seconds idle" ] &&
   [ "$(grep -v '^tools ' "$TMP/dry.starts" | sort)" = "$(tr ' =' '\n ' <<< "$want" | sort)" ]; then
	ktap_pass "dry run: the order of run.sh's list changes nothing"
else
	ktap_fail "dry run: the order of run.sh's list changes nothing"
	printf '%s\n' "$out2" | sed 's/^/# /'
fi

# Durations that differ from the estimates: the estimates order the
# programs, the dry run's file times them, a program it lacks takes its
# estimate, and the tools' line comes first.
printf 'tools 30\nintegration/test_long_a 100\n' > "$TMP/actual"
out=$(dry_run "$TMP/actual")
if printf '%s\n' "$out" | grep -qx '# dry-run: 30 end 2 tools' &&
   printf '%s\n' "$out" | grep -qx '# dry-run: 130 end 1 integration/test_long_a' &&
   printf '%s\n' "$out" | grep -qx '# dry-run: 530 end 1 integration/test_long_b' &&
   [ -z "$(check_events "$TMP/dry.events")" ]; then
	ktap_pass "dry run: CHECK_DRY_RUN's durations time the programs, the estimates order them"
else
	ktap_fail "dry run: CHECK_DRY_RUN's durations time the programs, the estimates order them"
	printf '%s\n' "$out" | sed 's/^/# /'
fi

# A program without an estimate is taken as 60 s, and the run says so.
grep -v test_one_b "$T/selftests/durations" > "$TMP/durations"
out=$(CHECK_DURATIONS=$TMP/durations CHECK_DRY_RUN=$TMP/durations \
	bash "$T/selftests/run_tests.sh" 2>&1)
if printf '%s\n' "$out" | grep -q "^# not in $TMP/durations, taken as 60 s: integration/test_one_b$" &&
   printf '%s\n' "$out" | grep -qE '^# dry-run: ([0-9]+) end 1 integration/test_one_b$' &&
   [ "$(printf '%s\n' "$out" | awk '$6 == "integration/test_one_b" { t[$4] = $3 } END { print t["end"] - t["start"] }')" = 60 ]; then
	ktap_pass "a program without an estimate is taken as 60 s, and the run names it"
else
	ktap_fail "a program without an estimate is taken as 60 s, and the run names it"
	printf '%s\n' "$out" | sed 's/^/# /'
fi

# Bad files of durations: one line that names the file, and a failure.
printf 'integration/test_one_a ten\n' > "$TMP/bad"
for f in "$TMP/bad" "$TMP/missing"; do
	out=$(CHECK_DRY_RUN=$f bash "$T/selftests/run_tests.sh" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	   [[ $out == "run_tests.sh: $f: "* ]]; then
		ktap_pass "a bad CHECK_DRY_RUN file ($(basename "$f")) gets a one-line error"
	else
		ktap_fail "a bad CHECK_DRY_RUN file ($(basename "$f")) gets a one-line error (exit $rc)"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done

# A real run, each program a sleep of a tenth of its estimate's seconds
# in hundreds (0.1 s a 100 s): the same rules, the tools built before
# anything starts, every result counted and shown in CHECK_ONLY's order.
awk '!/^#/ { print $1, $2 / 1000 }' "$T/selftests/durations" > "$T/selftests/sleeps"
: > "$EVENTS"
out=$(bash "$T/selftests/run_tests.sh" 2>&1)
rc=$?
bad=$(grep -v '^built ' "$EVENTS" | check_events /dev/stdin)
order=$(printf '%s\n' "$out" | sed -n 's/^# ---- //p' | tr '\n' ' ')
want="unit/test_u1 unit/test_u2 build/test_build integration/test_long_a"
want="$want integration/test_two_a integration/test_chain integration/test_one_a"
want="$want integration/test_one_b integration/test_two_b integration/test_long_b summary "
if [ "$rc" = 0 ] && [ -z "$bad" ] &&
   [ "$(head -n 3 "$EVENTS" | cut -d' ' -f1 | sort -u)" = built ] &&
   [ "$order" = "$want" ] &&
   printf '%s\n' "$out" | grep -qx '10 passed, 0 failed, 0 skipped'; then
	ktap_pass "a real run: the same rules, the tools first, 10 results in CHECK_ONLY's order"
else
	ktap_fail "a real run: the same rules, the tools first, 10 results in CHECK_ONLY's order (exit $rc)"
	printf '%s\n' "$bad" "$order" | sed 's/^/# /'
	sed 's/^/# events: /' "$EVENTS"
	printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
fi

# The CPU time of each program, which the run reports beside what its
# CPUs gave it: test_build's busy second, the sleepers' nothing.
cpu=$(printf '%s\n' "$out" | sed -n 's/^# \([a-z]*\/test_[a-z0-9_]*\): used \([0-9?]*\) of the [0-9]* CPU-seconds it was given$/\1 \2/p' |
	sort -k2,2n -k1,1 | tr '\n' ' ')
if [[ $cpu =~ ^((integration|unit)/test_[a-z0-9_]+\ 0\ ){9}build/test_build\ [1-9][0-9]*\ $ ]] &&
   printf '%s\n' "$out" | grep -qE '^# the programs used [1-9][0-9]* of the [0-9]+ CPU-seconds given them$'; then
	ktap_pass "a real run reports the CPU time each program used, and the sum"
else
	ktap_fail "a real run reports the CPU time each program used, and the sum"
	ktap_diag "$cpu"
fi
ktap_finished
