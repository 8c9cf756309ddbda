#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzzes the .ntp reader (tools/ntprof/lib/ntp/ntp_read*.c) with libFuzzer, ASan and
# UBSan for FUZZ_TIME seconds (default 30), starting from the files that
# selftests/unit/test_ntp and test_ntp2 make (--seeds): good, cut
# short and damaged in every way they check, of format 1.x and 2.0 (its
# compact records). Runs from any directory.
# Prints TAP: one test, with the crash report and the input that caused
# it when there is one (the input is also kept, and its path printed).
# Exits 1 on a crash, a leak, a hang, a huge allocation or a failed build.
#
# Needs clang and its libFuzzer runtime; on Debian 12:
#   apt-get install clang libclang-rt-14-dev zlib1g-dev
# CLANG=clang-14 picks a compiler; FUZZ_TIME=300 fuzzes longer.

set -u

FUZZ_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOOL_DIR=$(cd "$FUZZ_DIR/../../tools/ntprof" && pwd)
NTP_DIR=$TOOL_DIR/lib/ntp
INCLUDE_DIR=$(cd "$FUZZ_DIR/../../include" && pwd)
UNIT_DIR=$(cd "$FUZZ_DIR/../unit" && pwd)
FUZZ_TIME=${FUZZ_TIME:-30}
CLANG=${CLANG:-$(command -v clang || command -v clang-14)}
DESC="fuzz .ntp reader for $FUZZ_TIME s without a crash"

work=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-fuzz.XXXXXX") || exit 1
keep=
trap '[ -n "$keep" ] || rm -rf "$work"' EXIT

echo "TAP version 13"
echo "1..1"

# not_ok FILE: the failure, with the lines of FILE as TAP comments.
not_ok() {
	echo "not ok 1 - $DESC"
	sed 's/^/# /' "$1"
	exit 1
}

if [ -z "$CLANG" ]; then
	echo "clang not found: apt-get install clang libclang-rt-14-dev" \
		> "$work/why"
	not_ok "$work/why"
fi

# Warnings are shown, as the tool's build would; the build stops only on
# errors. The reader is built for fuzzing (CRC checks relaxed); the unit
# tests that write the seeds, normally.
cflags=(-std=gnu11 -Wall -Wextra "-I$INCLUDE_DIR" "-I$TOOL_DIR/lib")
# The reader, and what of lib/common it calls: the escaping of the
# strings it loads.
reader=("$NTP_DIR"/*.c "$TOOL_DIR/lib/common/escape.c")
if ! "$CLANG" "${cflags[@]}" -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all \
		-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
		-o "$work/fuzz_ntp" "$FUZZ_DIR/fuzz_ntp.c" "${reader[@]}" \
		-lisal -lz > "$work/build.log" 2>&1 ||
   ! "$CLANG" "${cflags[@]}" -O1 -o "$work/test_ntp" "$UNIT_DIR/test_ntp.c" \
		"$UNIT_DIR/ntp_v1.c" "$UNIT_DIR/ntp_damaged.c" \
		"$UNIT_DIR/ntp_test.c" "${reader[@]}" -lisal -lz \
		>> "$work/build.log" 2>&1 ||
   ! "$CLANG" "${cflags[@]}" -O1 -o "$work/test_ntp2" "$UNIT_DIR/test_ntp2.c" \
		"$UNIT_DIR/ntp_test.c" "${reader[@]}" -lisal -lz \
		>> "$work/build.log" 2>&1 ||
   ! mkdir "$work/corpus"; then
	{
		echo "cannot build the fuzzer or the unit tests with $CLANG" \
		     "(Debian: apt-get install clang libclang-rt-14-dev zlib1g-dev libisal-dev)"
		tail -n 30 "$work/build.log"
	} > "$work/why"
	not_ok "$work/why"
fi
# The unit tests' own failures are the unit group's to report.
"$work/test_ntp" --seeds "$work/corpus" > "$work/seeds.log" 2>&1
"$work/test_ntp2" --seeds "$work/corpus" >> "$work/seeds.log" 2>&1
if [ -z "$(ls "$work/corpus")" ]; then
	{
		echo "test_ntp and test_ntp2 --seeds wrote no seeds"
		tail -n 30 "$work/seeds.log"
	} > "$work/why"
	not_ok "$work/why"
fi
if grep -q 'warning:' "$work/build.log"; then
	grep -A3 'warning:' "$work/build.log" | sed 's/^/# /'
fi

# Inputs are at most 8 KiB, so any allocation of 64 MiB is a cap that
# failed; a single input running 10 s is a loop that does not end.
(cd "$work" && ./fuzz_ntp -max_total_time="$FUZZ_TIME" -max_len=8192 \
	-timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=64 \
	-artifact_prefix="$work/" -print_final_stats=1 corpus) \
	> "$work/fuzz.log" 2>&1
rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz.log")
cov=$(grep -Eo 'cov: [0-9]+' "$work/fuzz.log" | tail -n 1)
if [ "$rc" -ne 0 ]; then
	keep=1
	{
		echo "libFuzzer exited with status $rc; kept in $work"
		grep -E -B2 -A40 '^==[0-9]+==|runtime error|ERROR: libFuzzer' \
			"$work/fuzz.log" | head -n 80
		for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* \
			 "$work"/oom-* "$work"/slow-unit-*; do
			[ -f "$f" ] || continue
			echo "input: $f ($(stat -c %s "$f") bytes); reproduce with"
			echo "  $work/fuzz_ntp $f"
			[ "$(stat -c %s "$f")" -le 4096 ] && base64 -w 76 "$f"
		done
	} > "$work/why"
	not_ok "$work/why"
fi
echo "ok 1 - $DESC"
echo "# ${runs:-?} runs, ${speed:-?} exec/s, ${cov:-cov: ?} edges"
