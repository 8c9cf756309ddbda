# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The netlink fuzzer on one guest: nlfuzz sends NLFUZZ_COUNT (50000)
# messages to the ntprof family, shaped by its YAML spec (/lab/ntprof.yaml):
# well-formed, mutated, with bad headers, dumps abandoned, start and stop
# raced from 4 processes. Its uprobe sites name only a scratch copy of a
# binary that nobody runs. Then the module still works: no session is
# left, ntprof status answers, a recording of fio's reads has each of them
# once, and it unloads. lab_scenario checks the kernel log. The seed is
# in the pass line; NLFUZZ_SEED and NLFUZZ_COUNT are for runs by hand.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
# shellcheck source=selftests/integration/common/guest/records.sh
. /lab/tests/records.sh
# shellcheck source=selftests/integration/common/guest/kmemleak.sh
. /lab/tests/kmemleak.sh
KTAP_PREFIX="nlfuzz: "
spec=/lab/ntprof.yaml
scratch=/tmp/nlfuzz.bin
count=${NLFUZZ_COUNT:-50000}
seed=${NLFUZZ_SEED:-$(date +%s)}

ktap_header
kmemleak_scan boot
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }

if nlfuzz --check "$spec" > /tmp/check.out 2>&1; then
	ktap_pass "the spec's ids are the uapi header's: $(tail -n 1 /tmp/check.out | sed 's/^nlfuzz: //')"
else
	ktap_fail "the spec's ids are the uapi header's"
	sed 's/^/# /' /tmp/check.out
fi

# Mode 644, one link: nlfuzz refuses anything else, and nothing runs it.
cp /usr/bin/dash "$scratch" && chmod 644 "$scratch"
start=$(date +%s)
nlfuzz "$spec" "$count" "$seed" "$scratch" > /tmp/nlfuzz.out 2> /tmp/nlfuzz.err
rc=$?
secs=$(( $(date +%s) - start ))
line=$(grep -E '^nlfuzz: [0-9]+ messages sent' /tmp/nlfuzz.out)
sent=$(echo "$line" | awk '{ print $2 }')
sed 's/^/# /' /tmp/nlfuzz.err
if [ $rc -eq 0 ] && [ -n "$line" ] && [ "${sent:-0}" -ge "$count" ]; then
	ktap_pass "nlfuzz, seed $seed, in $secs s: ${line#nlfuzz: }"
else
	ktap_fail "nlfuzz, seed $seed, in $secs s, exit $rc: ${line:-no summary}"
	sed 's/^/# /' /tmp/nlfuzz.out | tail -n 20
fi

status_ok() {
	ntprof status > /tmp/status.out 2>&1 &&
		grep -Eq '^ntprof module .*, idle, kernel ' /tmp/status.out ||
		{ cat /tmp/status.out; return 1; }
}
ktap_check "ntprof status answers: idle, no session left" status_ok

rm -f /tmp/after.ntp /tmp/after.csv
ntprof record -r host -t tcp -s 1 -o /tmp/after.ntp > /tmp/after.out 2>&1 &
rec=$!
wait_line /tmp/after.out 'profiling as host' 60 || sed 's/^/# /' /tmp/after.out
r=$(fio_count "$NTPROF_LAB_TCP_DEV" randread 4k 2)
reads=${r% *}
kill -INT $rec
wait $rec
rc=$?
ntprof report --csv /tmp/after.csv /tmp/after.ntp > /tmp/report.out 2>&1 ||
	sed 's/^/# /' /tmp/report.out | tail -n 5
got=$(awk -F, 'NR > 1 && $6 == 2' /tmp/after.csv 2> /dev/null | wc -l)
if [ $rc -eq 0 ] && [ "${reads:-0}" -gt 0 ] && [ "$got" -eq "$reads" ]; then
	ktap_pass "after the fuzzing, record has each of fio's $reads reads once"
else
	ktap_fail "after the fuzzing, record has each of fio's ${reads:-?} reads once (got $got, record exit $rc)"
	sed 's/^/# /' /tmp/after.out | tail -n 10
fi
ktap_check "rmmod ntprof" rmmod ntprof
kmemleak_scan nlfuzz
ktap_finished
