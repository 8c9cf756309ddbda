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
# With a lab group (one with a run.sh: integration) and LAB_JOBS above 1,
# the programs run side by side on LAB_JOBS CPUs, by default all of them
# (run_side_by_side); LAB_JOBS=1 runs them one after another, their output
# as it comes (Documentation/lab.rst, "The tests").
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

CHECK_ONLY=${CHECK_ONLY:-unit fuzz build integration}
CHECK_TESTS=${CHECK_TESTS:-}
LAB_JOBS=${LAB_JOBS:-$(nproc)}
# The groups whose programs may run beside lab tests: they boot no guest
# and write nothing that a lab run reads once the tools are built. The
# others run alone: build's test_build cleans and rebuilds the tools that a
# lab run copies into its guests, and debug's tests boot guests of their own.
BESIDE_LAB="unit fuzz"
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

# programs [sorted]: the programs of every group, in CHECK_ONLY's order,
# one a line: GROUP NAME GUESTS, and then the command. A lab group's
# tests come in the order of its run.sh --guests, GUESTS the number of
# guests each boots at once; sorted, by that number, fewer first, that
# order among equals. Another group's test_*.sh have GUESTS 0.
programs() {
	local group t n g order=cat

	[ "${1:-}" != sorted ] || order="sort -s -n -k2,2"
	for group in $CHECK_ONLY; do
		if [ -f selftests/"$group"/run.sh ]; then
			bash selftests/"$group"/run.sh --guests | $order |
				while read -r n g; do
					wanted "$n" || continue
					echo "$group $n $g bash selftests/$group/run.sh $n"
				done
			continue
		fi
		for t in selftests/"$group"/test_*.sh; do
			[ -f "$t" ] || continue
			n=$(basename "$t" .sh)
			wanted "$n" || continue
			echo "$group $n 0 bash $t"
		done
	done
}

# run_serial: every program, one after another, its output as it comes.
# The list is read whole first: the programs keep make check's stdin.
run_serial() {
	local line group n g cmd list

	mapfile -t list < <(programs)
	for line in "${list[@]}"; do
		read -r group n g cmd <<< "$line"
		# shellcheck disable=SC2086 # the command is words without quotes.
		run_program "$group/$n" $cmd
	done
}

# run_side_by_side: every program, side by side on LAB_JOBS CPUs. A lab
# test takes a CPU for each guest (each runs in one thread of QEMU under
# TCG), all LAB_JOBS where it has more guests; any other program takes
# one, or all LAB_JOBS outside BESIDE_LAB. The programs outside a lab
# group run one after another, those that run alone first (nothing else
# runs yet, so nothing waits for them), each as soon as it fits; the lab
# tests start in their order as soon as theirs fit in what is left.
# Each program runs in a session of its own, so that an interrupted make
# check stops it whole. Its output goes to a file, printed whole with its
# wall time when it and every program before it in CHECK_ONLY's order
# have ended.
run_side_by_side() {
	local dir i n pid rc g free=$LAB_JOBS shown=0 serial_on=0 built=0
	local group cmd names=() cmds=() cost=() alone=() beside=() lab=()
	local serial=() running=() s_next=0 l_next=0

	while read -r group n g cmd; do
		i=${#names[@]}
		names+=("$group/$n")
		cmds+=("$cmd")
		if [ -f selftests/"$group"/run.sh ]; then
			cost+=("$((g > LAB_JOBS ? LAB_JOBS : g < 1 ? 1 : g))")
			lab+=("$i")
		else
			if [[ " $BESIDE_LAB " == *" $group "* ]]; then
				cost+=(1)
				beside+=("$i")
			else
				cost+=("$LAB_JOBS")
				alone+=("$i")
			fi
		fi
	done < <(programs sorted)
	if [ ${#lab[@]} -eq 0 ]; then
		run_serial
		return
	fi
	serial=("${alone[@]}" "${beside[@]}")
	dir=$(mktemp -d)
	# shellcheck disable=SC2064 # the directory is this call's.
	trap "stop_sessions; rm -rf '$dir'; exit 130" INT TERM
	while [ "$shown" -lt ${#names[@]} ]; do
		# The programs that run alone are done and nothing runs: build
		# the tools that the lab runs and the unit tests both build, so
		# that each later make of them writes nothing.
		if [ "$built" = 0 ] && [ "$free" -eq "$LAB_JOBS" ] &&
		   [ "$s_next" -ge ${#alone[@]} ]; then
			flock . make -s -C tools/ntprof >&2
			flock . make -s -C tools/agent libntprof-agent.so >&2
			flock . make -s -C selftests/tools >&2
			built=1
		fi
		if [ "$serial_on" = 0 ] && [ "$s_next" -lt ${#serial[@]} ] &&
		   [ "${cost[serial[s_next]]}" -le "$free" ]; then
			start_program "${serial[s_next]}"
			serial_on=1
			s_next=$((s_next + 1))
		fi
		while [ "$built" = 1 ] && [ "$l_next" -lt ${#lab[@]} ] &&
		      [ "${cost[lab[l_next]]}" -le "$free" ]; do
			start_program "${lab[l_next]}"
			l_next=$((l_next + 1))
		done
		while [ "$shown" -lt ${#names[@]} ] && [ -f "$dir/$shown.rc" ]; do
			n=${names[shown]}
			echo "# ---- $n"
			cat "$dir/$shown.out"
			echo "# $n: $(cat "$dir/$shown.time" 2>/dev/null || echo 0) s"
			count "$n" "$dir/$shown.out" "$(cat "$dir/$shown.rc")" \
				"$(cat "$dir/$shown.time" 2>/dev/null || echo 0)"
			shown=$((shown + 1))
		done
		[ "$shown" -lt ${#names[@]} ] || break
		pid=
		wait -n -p pid
		rc=$?
		# Not a program's: the list's process substitution, say.
		if [ -z "$pid" ] || [ -z "${running[pid]:-}" ]; then
			continue
		fi
		i=${running[pid]}
		unset "running[pid]"
		echo "$rc" > "$dir/$i.rc"
		free=$((free + cost[i]))
		[ -f selftests/"${names[i]%%/*}"/run.sh ] || serial_on=0
	done
	trap - INT TERM
	rm -rf "$dir"
}

# start_program I: start program I of run_side_by_side in the background,
# in a session of its own, its output in DIR/I.out, its wall time in
# DIR/I.time; take its CPUs.
start_program() {
	# shellcheck disable=SC2016 # the program's shell expands them.
	setsid bash -c 'start=$SECONDS
		$2 > "$1.out" 2>&1
		rc=$?
		echo $((SECONDS - start)) > "$1.time"
		exit $rc' program "$dir/$1" "${cmds[$1]}" < /dev/null &
	running[$!]=$1
	free=$((free - cost[$1]))
}

# stop_sessions: end the sessions of the programs still running.
stop_sessions() {
	local pid

	for pid in "${!running[@]}"; do
		kill -TERM -- "-$pid" 2>/dev/null
	done
}

lab_group=
for group in $CHECK_ONLY; do
	[ ! -f selftests/"$group"/run.sh ] || lab_group=$group
done
if [ -n "$lab_group" ] && [ "$LAB_JOBS" -gt 1 ]; then
	run_side_by_side
else
	run_serial
fi

echo "# ---- summary"
echo "# $SECONDS s in all; the slowest:"
[ ${#durations[@]} -eq 0 ] || printf '%s\n' "${durations[@]}" | sort -rn |
	head -n 10 | awk '{ printf "#   %5d s  %s\n", $1, $2 }'
for f in "${failures[@]}"; do
	echo "# FAILED $f"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
