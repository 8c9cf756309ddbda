# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The agent and uprobes at once, on one guest with the module loaded:
# two processes of /lab/bin/spdk-model (nvmf_tgt's command path under
# SPDK's names), one started with 'ntprof run' (the agent), one without.
# A recording of the program's path takes the first through its agent
# and the second through uprobes; the module keeps its breakpoints out
# of the agent's process, whose patched entries an int3 would break:
# both processes run on and give the results they give without ntprof.
# Then a recording of the agent's PID alone, and, the module unloaded,
# one more through the agent.
# shellcheck source=selftests/ktap.sh
. /lab/ktap.sh
KTAP_PREFIX="agent: "
model=/lab/bin/spdk-model
ktap_header
modprobe ntprof || { ktap_fail "modprobe ntprof"; ktap_finished; exit 1; }

ntprof run -- $model run 0 400 > /tmp/agent.out 2> /tmp/agent.err &
agent=$!
$model run 0 400 > /tmp/plain.out &
plain=$!
sleep 1
ktap_check "ntprof run: the agent patched the model's 4 sites" \
	grep -q "ntprof-agent: 4 of 4 sites patched" /tmp/agent.err

out=$(ntprof probe --spdk-target $model 2>&1)
if echo "$out" | grep -q "process $agent: agent, 4 of 4 sites patched" &&
   echo "$out" | grep -q "process $plain: uprobes" &&
   echo "$out" | grep -q "load: ok"; then
	ktap_pass "probe: one process through its agent, the other through uprobes"
else
	ktap_fail "probe: one process through its agent, the other through uprobes"
	echo "$out" | sed 's/^/# /'
fi

out=$(ntprof record --spdk-target $model -s 1 -d 3 -o /tmp/both.ntp 2>&1)
rc=$?
ntprof report --by pid /tmp/both.ntp > /tmp/both.txt 2>&1
if [ $rc = 0 ] &&
   echo "$out" | grep -q "pid $agent through the agent, pid $plain through uprobes" &&
   grep -q "pid $agent" /tmp/both.txt && grep -q "pid $plain" /tmp/both.txt &&
   grep -q "SPDK in pid $agent through the agent (4 of 4 sites patched), the others through uprobes" /tmp/both.txt; then
	ktap_pass "record of the program: each process's commands, one through the agent, one through uprobes"
else
	ktap_fail "record of the program: each process's commands (rc $rc)"
	echo "$out" | sed 's/^/# /'
	sed 's/^/# /' /tmp/both.txt | head -40
fi
# An int3 over a patched entry would have killed the agent's process.
if kill -0 $agent 2>/dev/null && kill -0 $plain 2>/dev/null; then
	ktap_pass "both processes ran on through the recording"
else
	ktap_fail "both processes ran on through the recording"
fi

out=$(ntprof record --spdk-target $agent -s 1 -d 2 -o /tmp/pid.ntp 2>&1)
rc=$?
if [ $rc = 0 ] && echo "$out" | grep -q "SPDK pid $agent through the agent" &&
   ntprof report --by pid /tmp/pid.ntp 2>&1 | grep -q "pid $agent" &&
   ! ntprof report --by pid /tmp/pid.ntp 2>&1 | grep -q "pid $plain"; then
	ktap_pass "record of the agent's PID: its commands alone, no session of the module's"
else
	ktap_fail "record of the agent's PID (rc $rc)"
	echo "$out" | sed 's/^/# /'
fi

rmmod ntprof
out=$(ntprof record --spdk-target $agent -s 1 -d 1 -o /tmp/nomod.ntp 2>&1)
rc=$?
if [ $rc = 0 ] && echo "$out" | grep -qE "^ntprof: [1-9][0-9]* records written"; then
	ktap_pass "the module unloaded: the agent's process is still recorded"
else
	ktap_fail "the module unloaded: the agent's process is still recorded (rc $rc)"
	echo "$out" | sed 's/^/# /'
fi

kill -TERM $agent $plain
wait $agent
wait $plain
for p in agent plain; do
	read -r _ count sum < /tmp/$p.out
	want=$($model run "${count:-0}" 0)
	if [ "$want" = "done $count $sum" ]; then
		ktap_pass "the $p process's $count commands gave the results they give without ntprof"
	else
		ktap_fail "the $p process's results: '$(cat /tmp/$p.out)', without ntprof '$want'"
	fi
done
ktap_finished
