#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: run every test program, show its TAP output, and count the
# results of all of them. A program that exits non-zero without reporting a
# failed test counts as one failure, so a crash never passes silently.
#
# CHECK_ONLY="unit build" runs a subset of the groups unit, fuzz, build,
# integration; CHECK_ONLY=debug the debug kernel's (make check-debug).
# CHECK_STRICT=1, as make check sets it, fails a check that a test skipped
# for a tool that is not installed (count()).
# CHECK_TESTS="test_a test_b" runs only the tests of these names (a
# test_*.sh without its .sh, an integration test as run.sh --list names it).
# CHECK_STRICT=1, as make check sets it: an integration test that finds a
# program it needs missing fails instead of skipping (Documentation/lab.rst).
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
# The estimates of the programs' wall times, in seconds, by which the side
# by side run starts them (run_side_by_side); a program that the file does
# not list is taken as DEFAULT_ESTIMATE.
CHECK_DURATIONS=${CHECK_DURATIONS:-selftests/durations}
DEFAULT_ESTIMATE=60
# CHECK_DRY_RUN=FILE runs nothing: it prints the timeline of the side by
# side run as if each program took the seconds that FILE gives it (in
# CHECK_DURATIONS' format; a program FILE does not list takes its
# estimate), and the wall time of the whole.
CHECK_DRY_RUN=${CHECK_DRY_RUN:-}
# The groups whose programs may run beside lab tests: they boot no guest
# and write nothing that a lab run reads once the tools are built (build's
# test_build rebuilds the tools in a copy of the tree). The others run
# alone: debug's tests boot guests of their own.
BESIDE_LAB="unit fuzz build"
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
# Under CHECK_STRICT=1 (make check), a check skipped because a tool is
# not installed ("# SKIP not installed: ...") counts as a failure.
count() {
	local name=$1 out=$2 rc=$3 p f s m=

	durations+=("$4 $name")
	# Guest output carries a "[guest] " prefix.
	p=$(sed -E 's/^\[[a-z]+\] //' "$out" | grep -cE '^ok [0-9]+' || true)
	s=$(sed -E 's/^\[[a-z]+\] //' "$out" | grep -cE '^ok [0-9]+ .*# SKIP' || true)
	f=$(sed -E 's/^\[[a-z]+\] //' "$out" | grep -E '^not ok [0-9]+' || true)
	[ "${CHECK_STRICT:-0}" != 1 ] || m=$(sed -E 's/^\[[a-z]+\] //' "$out" |
		grep -E '^ok [0-9]+ .*# SKIP not installed: ' || true)
	if [ -n "$m" ]; then
		p=$((p - $(echo "$m" | wc -l)))
		s=$((s - $(echo "$m" | wc -l)))
		f=$(printf '%s\n%s' "$f" "$m" | sed '/^$/d')
	fi
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

# programs: the programs of every group, in CHECK_ONLY's order, one a
# line: GROUP NAME GUESTS, and then the command. A lab group's tests come
# in its list's order (run.sh --guests), GUESTS the number of guests each
# boots at once. Another group's test_*.sh have GUESTS 0.
programs() {
	local group t n g

	for group in $CHECK_ONLY; do
		if [ -f selftests/"$group"/run.sh ]; then
			bash selftests/"$group"/run.sh --guests |
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
# TCG), all LAB_JOBS where it has more guests. The programs outside a lab
# group run one after another, as one stream: each takes one CPU, or all
# LAB_JOBS outside BESIDE_LAB, and those that run alone come first. The
# tools that the lab runs and the unit tests both build are built before
# anything starts, with every CPU, so that each later make of them writes
# nothing. Then, each time a program ends, the longest programs that fit
# in the CPUs left start, by their estimates (CHECK_DURATIONS): a lab test
# by its own, the stream's next program by the whole rest of the stream,
# which can only run as one chain. A program that does not fit lets
# shorter ones start in its place, so no CPU waits idle for it: on 2 CPUs
# the tests of two guests run last, one after another, once the one-CPU
# programs are done. Each program runs in a session of its own, so that
# an interrupted make check stops it whole. Its output goes to a file,
# printed whole with its wall time when it and every program before it
# in CHECK_ONLY's order have ended. CHECK_DRY_RUN runs nothing and prints
# the timeline instead.
run_side_by_side() {
	local dir i n pid rc g free=$LAB_JOBS shown=0 now=0 idle=0
	local group cmd names=() cmds=() cost=() est=() missing=()
	local alone=() beside=() lab=() stream=() started=() running=()
	local ends=() s_on=0 s_next=0 s_left=0 used=0 given=0
	local -A table=() actual=()

	# A table that cannot be read changes the order, not the results:
	# the run goes on, with the table's failure counted.
	if ! read_durations "$CHECK_DURATIONS" table; then
		[ -z "$CHECK_DRY_RUN" ] || return 1
		failed=$((failed + 1))
		failures+=("run_tests.sh: cannot read $CHECK_DURATIONS")
	fi
	if [ -n "$CHECK_DRY_RUN" ]; then
		read_durations "$CHECK_DRY_RUN" actual || return 1
	fi
	while read -r group n g cmd; do
		i=${#names[@]}
		names+=("$group/$n")
		cmds+=("$cmd")
		est+=("${table[$group/$n]:-$DEFAULT_ESTIMATE}")
		[ -n "${table[$group/$n]:-}" ] || missing+=("$group/$n")
		if [ -f selftests/"$group"/run.sh ]; then
			cost+=("$((g > LAB_JOBS ? LAB_JOBS : g < 1 ? 1 : g))")
			lab+=("$i")
		elif [[ " $BESIDE_LAB " == *" $group "* ]]; then
			cost+=(1)
			beside+=("$i")
		else
			cost+=("$LAB_JOBS")
			alone+=("$i")
		fi
	done < <(programs)
	if [ ${#lab[@]} -eq 0 ] && [ -z "$CHECK_DRY_RUN" ]; then
		run_serial
		return
	fi
	[ ${#missing[@]} -eq 0 ] ||
		echo "# not in $CHECK_DURATIONS, taken as $DEFAULT_ESTIMATE s: ${missing[*]}"
	mapfile -t lab < <(longest_first "${lab[@]}")
	mapfile -t beside < <(longest_first "${beside[@]}")
	stream=("${alone[@]}" "${beside[@]}")
	for i in "${stream[@]}"; do
		s_left=$((s_left + est[i]))
	done
	dir=$(mktemp -d)
	# shellcheck disable=SC2064 # the directory is this call's.
	trap "stop_sessions; rm -rf '$dir'; exit 130" INT TERM
	if [ -n "$CHECK_DRY_RUN" ]; then
		echo "# dry-run: 0 start $LAB_JOBS tools"
		now=${actual[tools]:-0}
		idle=0
		echo "# dry-run: $now end $LAB_JOBS tools"
	else
		now=$SECONDS
		flock . make -s -j"$LAB_JOBS" -C tools/ntprof >&2
		flock . make -s -j"$LAB_JOBS" -C tools/agent libntprof-agent.so >&2
		flock . make -s -j"$LAB_JOBS" -C selftests/tools >&2
		echo "# the tools built in $((SECONDS - now)) s"
		now=$SECONDS
	fi
	while [ "$shown" -lt ${#names[@]} ]; do
		start_longest
		while [ "$shown" -lt ${#names[@]} ] && [ -f "$dir/$shown.rc" ]; do
			[ -n "$CHECK_DRY_RUN" ] || show_program "$shown"
			shown=$((shown + 1))
		done
		[ "$shown" -lt ${#names[@]} ] || break
		if [ -n "$CHECK_DRY_RUN" ]; then
			dry_wait
			rc=0
		else
			pid=
			wait -n -p pid
			rc=$?
			# Not a program's: the list's process substitution, say.
			if [ -z "$pid" ] || [ -z "${running[pid]:-}" ]; then
				continue
			fi
			idle=$((idle + free * (SECONDS - now)))
			now=$SECONDS
			i=${running[pid]}
			unset "running[pid]"
		fi
		echo "$rc" > "$dir/$i.rc"
		free=$((free + cost[i]))
		[ -f selftests/"${names[i]%%/*}"/run.sh ] || s_on=0
	done
	trap - INT TERM
	rm -rf "$dir"
	if [ -n "$CHECK_DRY_RUN" ]; then
		echo "# dry-run: $now s in all, $idle CPU-seconds idle"
	else
		echo "# side by side on $LAB_JOBS CPUs: $idle CPU-seconds left to no program;"
		echo "# the programs used $used of the $given CPU-seconds given them"
	fi
}

# read_durations FILE ARRAY: the seconds of each program that FILE lists,
# "GROUP/NAME SECONDS" a line (# begins a comment), into the associative
# ARRAY; FILE's "tools" line is the time that the tools take to build.
read_durations() {
	local -n into=$2
	local name secs rest

	if [ ! -f "$1" ]; then
		echo "run_tests.sh: $1: no such file of durations" >&2
		return 1
	fi
	while read -r name secs rest; do
		case "$name" in '' | '#'*) continue ;; esac
		if ! [[ $secs =~ ^[0-9]+$ ]] || [ -n "$rest" ]; then
			echo "run_tests.sh: $1: not \"GROUP/NAME SECONDS\": $name $secs $rest" >&2
			return 1
		fi
		# shellcheck disable=SC2034 # a name for the caller's array.
		into["$name"]=$secs
	done < "$1"
}

# longest_first I...: the programs I of run_side_by_side, one a line, by
# their estimates, the longest first, those of equal estimates in their
# order.
longest_first() {
	local i

	for i in "$@"; do
		echo "${est[i]} $i"
	done | sort -s -k1,1nr | cut -d' ' -f2
}

# start_longest: start the programs of run_side_by_side that fit in the
# CPUs left, the longest first: a lab test by its estimate, the stream's
# next program, if none of the stream runs, by the rest of the stream's,
# and a program that runs alone before anything else.
start_longest() {
	local i pick prio

	while :; do
		pick=-1 prio=-1
		if [ "$s_on" = 0 ] && [ "$s_next" -lt ${#stream[@]} ] &&
		   [ "${cost[stream[s_next]]}" -le "$free" ]; then
			pick=${stream[s_next]} prio=$s_left
			[ "$s_next" -ge ${#alone[@]} ] || prio=$((1 << 62))
		fi
		for i in "${lab[@]}"; do
			if [ -z "${started[i]:-}" ] && [ "${cost[i]}" -le "$free" ]; then
				[ "${est[i]}" -le "$prio" ] || pick=$i
				break
			fi
		done
		[ "$pick" -ge 0 ] || return 0
		if [ -f selftests/"${names[pick]%%/*}"/run.sh ]; then
			started[pick]=1
		else
			s_on=1
			s_next=$((s_next + 1))
			s_left=$((s_left - est[pick]))
		fi
		start_program "$pick"
	done
}

# start_program I: start program I of run_side_by_side in the background,
# in a session of its own, its output in DIR/I.out, its wall time in
# DIR/I.time, the user and system CPU time of it and of the processes it
# waited for (QEMU's too) in DIR/I.cpu; take its CPUs. A dry run only notes when it will end.
start_program() {
	if [ -n "$CHECK_DRY_RUN" ]; then
		echo "# dry-run: $now start ${cost[$1]} ${names[$1]}"
		ends[$1]=$((now + ${actual[${names[$1]}]:-${est[$1]}}))
		running[$1]=$1
		free=$((free - cost[$1]))
		return
	fi
	# shellcheck disable=SC2016 # the program's shell expands them.
	setsid bash -c 'start=$SECONDS TIMEFORMAT="%U %S"
		{ time $2 > "$1.out" 2>&1; } 2> "$1.cpu"
		rc=$?
		echo $((SECONDS - start)) > "$1.time"
		exit $rc' program "$dir/$1" "${cmds[$1]}" < /dev/null &
	running[$!]=$1
	idle=$((idle + free * (SECONDS - now)))
	now=$SECONDS
	free=$((free - cost[$1]))
}

# dry_wait: the end of the dry run's running program that ends first
# (the first in CHECK_ONLY's order among those that end at once): its
# index in i, the clock at its end.
dry_wait() {
	local j

	i=
	for j in "${!running[@]}"; do
		[ -n "$i" ] && [ "${ends[j]}" -ge "${ends[i]}" ] || i=$j
	done
	idle=$((idle + free * (ends[i] - now)))
	now=${ends[i]}
	unset "running[i]"
	echo "${actual[${names[i]}]:-${est[i]}}" > "$dir/$i.time"
	echo "# dry-run: $now end ${cost[i]} ${names[i]}"
}

# show_program I: print program I's output, its wall time and the CPU
# time it used of what its CPUs gave it over that time, and count it.
show_program() {
	local n=${names[$1]} t c

	t=$(cat "$dir/$1.time" 2>/dev/null || echo 0)
	c=$(awk '{ printf "%.0f", $1 + $2 }' "$dir/$1.cpu" 2>/dev/null)
	echo "# ---- $n"
	cat "$dir/$1.out"
	echo "# $n: $t s"
	echo "# $n: used ${c:-?} of the $((t * cost[$1])) CPU-seconds it was given"
	used=$((used + ${c:-0}))
	given=$((given + t * cost[$1]))
	count "$n" "$dir/$1.out" "$(cat "$dir/$1.rc")" "$t"
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
if [ -n "$CHECK_DRY_RUN" ]; then
	run_side_by_side
	exit
elif [ -n "$lab_group" ] && [ "$LAB_JOBS" -gt 1 ]; then
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
