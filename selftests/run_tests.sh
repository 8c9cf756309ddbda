#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: run every test program, show its TAP output, and count the
# results of all of them. A program that exits non-zero without reporting a
# failed test counts as one failure, so a crash never passes silently.
#
# CHECK_ONLY="unit build" runs a subset of the groups unit, fuzz, build,
# integration; CHECK_ONLY=debug the debug kernel's (make check-debug).
# CHECK_TESTS="test_a test_b" runs only the tests of these names (a
# test_*.sh without its .sh, an integration test as run.sh --list names it).
# Each program's wall time follows its output, and the summary lists the
# ten slowest: what to look at when the run nears CI's 90 minutes.
#
# The lab's tests (a group with a run.sh) run side by side, as many at
# once as their guests fit in LAB_JOBS, by default the number of CPUs:
# a guest under TCG runs in one thread of QEMU, so two one-guest tests
# share a 2-CPU machine, and a test of two or three guests runs alone.
# Their order is run.sh --guests's, the tests of fewer guests first; each
# test's output is printed whole when it and those before it have ended.
# LAB_JOBS=1 runs them one after another in the table's order, their
# output as it comes (Documentation/lab.rst, "The tests").
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

CHECK_ONLY=${CHECK_ONLY:-unit fuzz build integration}
CHECK_TESTS=${CHECK_TESTS:-}
LAB_JOBS=${LAB_JOBS:-$(nproc)}
passed=0
failed=0
skipped=0
failures=()
durations=()

# wanted NAME: whether CHECK_TESTS lets test NAME run.
wanted() {
	[ -z "$CHECK_TESTS" ] || [[ " $CHECK_TESTS " == *" $1 "* ]]
}

# count NAME OUT RC SECONDS: add the results of program NAME, whose output
# is in the file OUT and which exited with RC after SECONDS, to the sums.
count() {
	local name=$1 out=$2 rc=$3 p f s

	durations+=("$4 $name")
	# Guest output carries a "[guest] " prefix.
	p=$(sed -E 's/^\[[a-z]+\] //' "$out" | grep -cE '^ok [0-9]+' || true)
	s=$(sed -E 's/^\[[a-z]+\] //' "$out" | grep -cE '^ok [0-9]+ .*# SKIP' || true)
	f=$(sed -E 's/^\[[a-z]+\] //' "$out" | grep -E '^not ok [0-9]+' || true)
	passed=$((passed + p - s))
	skipped=$((skipped + s))
	if [ -n "$f" ]; then
		failed=$((failed + $(echo "$f" | wc -l)))
		while read -r line; do failures+=("$name: $line"); done <<< "$f"
	elif [ "$rc" -ne 0 ]; then
		failed=$((failed + 1))
		failures+=("$name: exited with status $rc")
	fi
}

# run_program NAME COMMAND...: run a program, its output as it comes.
run_program() {
	local name=$1 out rc start=$SECONDS

	shift
	echo "# ---- $name"
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	echo "# $name: $((SECONDS - start)) s"
	count "$name" "$out" "$rc" "$((SECONDS - start))"
	rm -f "$out"
}

# run_lab_group GROUP: GROUP's tests (run.sh --guests: NAME GUESTS), each
# started in run.sh --guests's order, the tests of fewer guests first,
# as soon as its guests fit in the LAB_JOBS not taken (a test of more
# guests than LAB_JOBS takes them all). Each runs in a session of its
# own, so that an interrupted make check can stop it whole. A test's
# output goes to a file, printed with its wall time when the test and
# all those before it have ended.
run_lab_group() {
	local group=$1 dir i n g pid rc free=$LAB_JOBS next=0 shown=0
	local names=() cost=() running=()

	while read -r n g; do
		wanted "$n" || continue
		names+=("$n")
		cost+=("$((g > LAB_JOBS ? LAB_JOBS : g < 1 ? 1 : g))")
	done < <(bash selftests/"$group"/run.sh --guests | sort -s -n -k2,2)
	dir=$(mktemp -d)
	# shellcheck disable=SC2064 # the directory is this call's.
	trap "lab_group_stop; rm -rf '$dir'; exit 130" INT TERM
	while [ "$shown" -lt ${#names[@]} ]; do
		while [ "$next" -lt ${#names[@]} ] && [ "${cost[next]}" -le "$free" ]; do
			# shellcheck disable=SC2016 # the job's shell expands them.
			setsid bash -c 'start=$SECONDS
				bash "$1" "$2" > "$3.out" 2>&1
				rc=$?
				echo $((SECONDS - start)) > "$3.time"
				exit $rc' lab-job selftests/"$group"/run.sh 				"${names[next]}" "$dir/$next" < /dev/null &
			running[$!]=$next
			free=$((free - cost[next]))
			next=$((next + 1))
		done
		while [ "$shown" -lt "$next" ] && [ -f "$dir/$shown.rc" ]; do
			i=$shown
			n=$group/${names[i]}
			echo "# ---- $n"
			cat "$dir/$i.out"
			echo "# $n: $(cat "$dir/$i.time" 2>/dev/null || echo 0) s"
			count "$n" "$dir/$i.out" "$(cat "$dir/$i.rc")" \
				"$(cat "$dir/$i.time" 2>/dev/null || echo 0)"
			shown=$((shown + 1))
		done
		[ "$shown" -lt ${#names[@]} ] || break
		pid=
		wait -n -p pid
		rc=$?
		[ -n "$pid" ] || continue
		i=${running[pid]}
		unset "running[pid]"
		echo "$rc" > "$dir/$i.rc"
		free=$((free + cost[i]))
	done
	trap - INT TERM
	rm -rf "$dir"
}

# lab_group_stop: end the sessions of the lab tests still running.
lab_group_stop() {
	local pid

	for pid in "${!running[@]}"; do
		kill -TERM -- "-$pid" 2>/dev/null
	done
}

# A group's tests are its test_*.sh, or, where it has a run.sh
# (integration), the names run.sh --list prints, each run by run.sh NAME.
for group in $CHECK_ONLY; do
	if [ -f selftests/"$group"/run.sh ] && [ "$LAB_JOBS" -gt 1 ]; then
		run_lab_group "$group"
		continue
	fi
	if [ -f selftests/"$group"/run.sh ]; then
		mapfile -t names < <(bash selftests/"$group"/run.sh --list)
		for t in "${names[@]}"; do
			wanted "$t" || continue
			run_program "$group/$t" bash selftests/"$group"/run.sh "$t"
		done
		continue
	fi
	for t in selftests/"$group"/test_*.sh; do
		[ -f "$t" ] || continue
		wanted "$(basename "$t" .sh)" || continue
		run_program "$group/$(basename "$t" .sh)" bash "$t"
	done
done

echo "# ---- summary"
echo "# $SECONDS s in all; the slowest:"
[ ${#durations[@]} -eq 0 ] || printf '%s\n' "${durations[@]}" | sort -rn |
	head -n 10 | awk '{ printf "#   %5d s  %s\n", $1, $2 }'
for f in "${failures[@]}"; do
	echo "# FAILED $f"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
