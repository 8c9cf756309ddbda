#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Strangers beside root's recorder, on this machine, with no module: the
# recorder's checks of an agent's memory (Documentation/security.rst).
# selftests/tools/spdk-model runs under 'ntprof run' as root, started
# after 18 processes of uid 65534 (selftests/tools/agent-stranger): one
# that maps the model's binary and holds an empty memfd named
# "ntprof-agent", and 17 that run the binary itself with a memfd of that
# name open: empty, unsealed, a page short, another uid's, on for a
# recorder forever, never published, one whose ring head keeps moving,
# and ten more empty ones. 'record --spdk-target BIN' and '--spdk-target
# PID' must not crash nor hang, must skip each fake with one line naming
# it and why, must keep root's process in a table the strangers could
# fill, and must record that process whole, each record under the pid
# the recorder knows it by (the model runs in a pid namespace of its
# own, where its agent is pid 1). Then the recorders among
# themselves: a recorder stopped (SIGSTOP) until the agent turned itself
# off, whose records are left in the rings, and resumed while another
# records: the new one reads none of the old one's records, and the old
# one does not take the agent back. Last, 'ntprof run --print-env' onto
# a symbolic link, and which agent library an installed tool takes.
AGENT_ENV_TOOLS=agent-stranger
# shellcheck source=selftests/unit/agent_env.sh
. "$(dirname "$0")/agent_env.sh"
STRANGER=$TOP/selftests/tools/agent-stranger
chmod 755 "$TMP"
if ! setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	echo "1..0 # SKIP needs root and setpriv (uid 65534's processes)"
	exit 0
fi

# A command, not a function: $! is then the stranger's own pid.
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# The strangers first: their pids come first in /proc.
"${NOBODY[@]}" "$STRANGER" map "$MODEL" > "$TMP/map.out" &
MAPPER=$!
KILL+=("$MAPPER")
declare -A S
for kind in empty unsealed size on nomagic mover; do
	"${NOBODY[@]}" "$STRANGER" $kind "$MODEL" run 0 100000 > /dev/null &
	S[$kind]=$!
	KILL+=($!)
done
"$STRANGER" uid "$MODEL" run 0 100000 > /dev/null &
S[uid]=$!
KILL+=($!)
for _ in $(seq 10); do
	"${NOBODY[@]}" "$STRANGER" empty "$MODEL" run 0 100000 > /dev/null &
	KILL+=($!)
done
for _ in $(seq 50); do
	[ -s "$TMP/map.out" ] && break
	sleep 0.1
done
# Root's model in a pid namespace of its own, as in a container: its
# agent knows itself as pid 1, the recorder knows it by this one's pid.
unshare --pid --fork "$NTPROF" run --agent "$LIB" -- "$MODEL" run 0 20 \
	> /dev/null 2> "$TMP/model.err" &
KILL+=($!)
for _ in $(seq 50); do
	grep -q "sites patched" "$TMP/model.err" && break
	sleep 0.1
done
MODEL_PID=$(pgrep -P "${KILL[-1]}")
KILL+=("$MODEL_PID")
# Killed by their pids (KILL), not as jobs: no word from the shell.
disown -a
grep -q "4 of 4 sites patched" "$TMP/model.err" && [ -n "$MODEL_PID" ] ||
	{ echo "Bail out! the model's agent did not start"; exit 1; }

# want_skip OUT KIND REASON: OUT says once that KIND's process is skipped, why.
want_skip() {
	[ "$(grep -c "process ${S[$2]}: .*skipped, not recorded" <<< "$1")" = 1 ] &&
		grep -q "process ${S[$2]}: $3.*skipped, not recorded" <<< "$1"
}

start=$(date +%s)
out=$(timeout 60 "$NTPROF" record --spdk-target "$MODEL" -s 1 -d 2 \
	-o "$TMP/path.ntp" 2>&1)
rc=$?
secs=$(( $(date +%s) - start ))
if [ $rc = 0 ] && [ $secs -le 10 ]; then
	ktap_pass "record BIN beside 18 strangers: ends by itself, exit 0 ($secs s)"
else
	ktap_fail "record BIN beside 18 strangers: ends by itself, exit 0 (rc $rc, $secs s)"
fi
sed 's/^/# /' <<< "$out"
ok=1
for k in "empty:its \"ntprof-agent\" memfd is not sealed against shrinking and growing" \
	 "unsealed:its \"ntprof-agent\" memfd is not sealed against shrinking and growing" \
	 "size:its \"ntprof-agent\" memfd is [0-9]* bytes, not an agent's" \
	 "uid:its \"ntprof-agent\" memfd is uid 0's, not the process's (uid 65534)" \
	 "on:its agent is on for another recorder" \
	 "nomagic:its agent is still starting"; do
	want_skip "$out" "${k%%:*}" "${k#*:}" || { ok=0; ktap_diag "no line for ${k%%:*}"; }
done
if [ $ok = 1 ]; then
	ktap_pass "each fake skipped with one line naming it and why"
else
	ktap_fail "each fake skipped with one line naming it and why"
fi
if grep -q "SPDK pid $MODEL_PID through the agent" <<< "$out" &&
   ! grep -q "pid $MAPPER\b\|process $MAPPER\b" <<< "$out" &&
   grep -q "2 more processes of $MODEL left out (16 at most; root's and this user's first)" <<< "$out"; then
	ktap_pass "root's process in the table before 17 strangers that run the binary; the mere mapper not a process of it"
else
	ktap_fail "root's process in the table before 17 strangers that run the binary; the mere mapper not a process of it"
fi
record_csv "$TMP/path.ntp" > "$TMP/path.csv"
n=$(wc -l < "$TMP/path.csv")
"$MODEL" list 2000000 > "$TMP/list"
bad=$(awk -F, 'NR == FNR { want[NR - 1] = $0; next }
	{
		i = $8 / 1000
		split(want[i], w, " ")
		if ($4 != w[1] || $5 != w[2] || $6 != w[3] || $7 != w[4] ||
		    $8 != w[5] || $9 != w[6] || $29 == "" || $32 == "" ||
		    $35 == "" || $29 > $32 || $32 > $35) { print "bad: " $0; exit }
	}' "$TMP/list" "$TMP/path.csv")
groups=$("$NTPROF" report --by pid "$TMP/path.ntp" 2>&1 | grep '^== ')
if [ "$n" -gt 500 ] && [ -z "$bad" ] && [ -n "$groups" ] &&
   ! grep -qv " pid $MODEL_PID" <<< "$groups"; then
	ktap_pass "root's process recorded whole: $n records, each a command it ran, each its pid's here (not its namespace's 1)"
else
	ktap_fail "root's process recorded whole ($n records)"
	ktap_diag "$bad"
	sed 's/^/# /' <<< "$groups"
fi

out=$(timeout 30 "$NTPROF" record --spdk-target "${S[empty]}" -d 1 \
	-o "$TMP/pid.ntp" 2>&1)
rc=$?
if [ $rc = 1 ] && [ ! -e "$TMP/pid.ntp" ] &&
   [ "$(grep -c "process ${S[empty]}: its \"ntprof-agent\" memfd is not sealed" <<< "$out")" = 1 ]; then
	ktap_pass "record PID of a fake: refused with one line naming it and why, no crash"
else
	ktap_fail "record PID of a fake: refused with one line naming it and why (rc $rc)"
	sed 's/^/# /' <<< "$out"
fi
out=$(timeout 30 "$NTPROF" probe --spdk-target "${S[uid]}" 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q "load: no, process ${S[uid]}: its \"ntprof-agent\" memfd is uid 0's" <<< "$out"; then
	ktap_pass "probe PID of a fake: load no, and why"
else
	ktap_fail "probe PID of a fake: load no, and why (rc $rc)"
	sed 's/^/# /' <<< "$out"
fi
start=$(date +%s)
out=$(timeout 30 "$NTPROF" record --spdk-target "${S[mover]}" -d 2 \
	-o "$TMP/mover.ntp" 2>&1)
rc=$?
secs=$(( $(date +%s) - start ))
if [ $rc = 0 ] && [ $secs -le 8 ]; then
	ktap_pass "record PID of a fake whose ring head keeps moving: ends after its 2 s ($secs s)"
else
	ktap_fail "record PID of a fake whose ring head keeps moving: ends after its 2 s (rc $rc, $secs s)"
	sed 's/^/# /' <<< "$out"
fi
kill -9 "${KILL[@]:0:18}" 2>/dev/null

# A recorder of writes stopped until the agent turns itself off, its
# records left in the rings; one of reads after it; the first resumed.
"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 --op write -o "$TMP/a.ntp" \
	> "$TMP/a.out" 2>&1 &
a=$!
sleep 1.5
kill -STOP $a
# The heartbeat's 5 s, and the hits that see it.
sleep 6
"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 --op read -d 2 \
	-o "$TMP/b.ntp" > "$TMP/b.out" 2>&1 &
b=$!
# A resumed once the second has the agent on.
for _ in $(seq 100); do
	grep -q "through the agent" "$TMP/b.out" && break
	sleep 0.05
done
sleep 0.3
kill -CONT $a
wait $b
brc=$?
kill -INT $a
wait $a
arc=$?
record_csv "$TMP/b.ntp" > "$TMP/b.csv"
n=$(wc -l < "$TMP/b.csv")
writes=$(awk -F, '$6 == 1' "$TMP/b.csv" | wc -l)
if [ $brc = 0 ] && [ "$n" -gt 100 ] && [ "$writes" = 0 ]; then
	ktap_pass "a recorder after a stopped one: its $n reads only, none of the writes left in the rings, none after the first resumed"
else
	ktap_fail "a recorder after a stopped one: reads only (rc $brc, $n records, $writes writes)"
	sed 's/^/# /' "$TMP/b.out"
fi
if [ $arc = 0 ] && grep -q "the agent of process $MODEL_PID was taken over by another recorder" "$TMP/a.out" &&
   ! grep -q "it is on again" "$TMP/a.out"; then
	ktap_pass "the stopped recorder, resumed: says the agent was taken over, and leaves it"
else
	ktap_fail "the stopped recorder, resumed: says the agent was taken over, and leaves it (rc $arc)"
	sed 's/^/# /' "$TMP/a.out"
fi
kill -9 "$MODEL_PID" 2>/dev/null

# --print-env: never through a symbolic link; a file is replaced whole.
ln -s "$TMP/victim" "$TMP/link"
out=$("$NTPROF" run --print-env "$TMP/link" -- "$MODEL" 2>&1)
rc=$?
if [ $rc = 1 ] && [ ! -e "$TMP/victim" ] && [ -L "$TMP/link" ] &&
   grep -q "is a symbolic link: not followed" <<< "$out"; then
	ktap_pass "run --print-env onto a symbolic link: refused, nothing written through it"
else
	ktap_fail "run --print-env onto a symbolic link: refused (rc $rc)"
	sed 's/^/# /' <<< "$out"
fi
echo old > "$TMP/env"
out=$("$NTPROF" run --print-env "$TMP/env" -- "$MODEL" 2>&1)
rc=$?
if [ $rc = 0 ] && grep -q "^LD_PRELOAD=$LIB$" <<< "$out" &&
   grep -q "^NTPROF_AGENT_SITES=$TMP/env$" <<< "$out" &&
   grep -q "^site " "$TMP/env" && ! grep -q old "$TMP/env" &&
   ! compgen -G "$TMP/*ntprof-sites*" > /dev/null &&
   ! compgen -G "$TMP/.*ntprof-sites*" > /dev/null; then
	ktap_pass "run --print-env onto a file: replaced whole; from the build tree, the library built beside the tool"
else
	ktap_fail "run --print-env onto a file: replaced whole (rc $rc)"
	sed 's/^/# /' <<< "$out"
fi
# An installed tool (no main.c beside it) with a library beside it.
mkdir -p "$TMP/inst/sbin" "$TMP/inst/agent"
cp "$NTPROF" "$TMP/inst/sbin/ntprof"
cp "$LIB" "$TMP/inst/agent/libntprof-agent.so"
out=$("$TMP/inst/sbin/ntprof" run --print-env "$TMP/env2" -- "$MODEL" 2>&1)
if ! grep -q "$TMP/inst/agent" <<< "$out" &&
   grep -q "/lib/ntprof/libntprof-agent.so" <<< "$out"; then
	ktap_pass "an installed tool takes the installed agent library, not one beside it"
else
	ktap_fail "an installed tool takes the installed agent library, not one beside it"
	sed 's/^/# /' <<< "$out"
fi
ktap_finished
