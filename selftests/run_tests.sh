#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: run every test program, show its TAP output, and count the
# results of all of them. A program that exits non-zero without reporting a
# failed test counts as one failure, so a crash never passes silently.
#
# CHECK_ONLY="unit build" runs a subset of the groups unit, fuzz, build,
# integration; CHECK_ONLY=debug the debug kernel's (make check-debug).
# Each program's wall time follows its output, and the summary lists the
# ten slowest: what to look at when the run nears CI's 90 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."

CHECK_ONLY=${CHECK_ONLY:-unit fuzz build integration}
passed=0
failed=0
skipped=0
failures=()
durations=()

run_program() {
	local name=$1 out rc p f s start=$SECONDS

	shift
	echo "# ---- $name"
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	echo "# $name: $((SECONDS - start)) s"
	durations+=("$((SECONDS - start)) $name")
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
	rm -f "$out"
}

# A group's tests are its test_*.sh, or, where it has a run.sh
# (integration), the names run.sh --list prints, each run by run.sh NAME.
for group in $CHECK_ONLY; do
	if [ -f selftests/"$group"/run.sh ]; then
		mapfile -t names < <(bash selftests/"$group"/run.sh --list)
		for t in "${names[@]}"; do
			run_program "$group/$t" bash selftests/"$group"/run.sh "$t"
		done
		continue
	fi
	for t in selftests/"$group"/test_*.sh; do
		[ -f "$t" ] || continue
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
