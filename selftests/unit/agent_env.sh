# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the unit tests that run the SPDK model under the agent
# (test_agent_record.sh, test_agent_stranger.sh, test_record_service.sh):
# the TAP header; the tool, the agent library and the model built, with
# AGENT_ENV_TOOLS' programs of selftests/tools beside the model; their
# paths ($NTPROF, $LIB, $MODEL) and the tree's top ($TOP); record_csv; and
# a temporary directory, $TMP. At the end, the processes in $MODEL_PID and
# KILL and the shell's jobs are killed and $TMP removed.
# shellcheck disable=SC2034 # the variables are for the tests that source it.

set -u
cd "$(dirname "$0")" || exit 1
# shellcheck source=selftests/ktap.sh
. ../ktap.sh

TOP=$(cd ../.. && pwd)
NTPROF=$TOP/tools/ntprof/ntprof
LIB=$TOP/tools/agent/libntprof-agent.so
MODEL=$TOP/selftests/tools/spdk-model
TMP=$(mktemp -d)
MODEL_PID=
KILL=()
# shellcheck disable=SC2016 # expanded when the trap runs.
trap 'kill -9 $MODEL_PID "${KILL[@]}" 2>/dev/null; jobs -p | xargs -r kill -9 2>/dev/null; rm -rf "$TMP"' EXIT

ktap_header
# shellcheck disable=SC2086 # a list of programs' names.
make -s -C "$TOP/tools/ntprof" ntprof >&2 &&
	make -s -C "$TOP/tools/agent" libntprof-agent.so >&2 &&
	make -s -C "$TOP/selftests/tools" spdk-model ${AGENT_ENV_TOOLS:-} >&2 ||
	{ echo "Bail out! cannot build the tool, the agent, the model${AGENT_ENV_TOOLS:+ or $AGENT_ENV_TOOLS}"; exit 1; }

# record_csv NTP: the CSV rows of a recording, no header.
record_csv() { "$NTPROF" report --csv - "$1" | tail -n +2; }

# model_start: the model under the agent in the background, its pid in
# MODEL_PID, its output in $TMP/model.out and model.err; returns once the
# agent said it patched the sites, or after 5 s.
model_start() {
	"$NTPROF" run --agent "$LIB" -- "$MODEL" run 0 20 > "$TMP/model.out" \
		2> "$TMP/model.err" &
	MODEL_PID=$!
	for _ in $(seq 50); do
		grep -q "sites patched" "$TMP/model.err" && break
		sleep 0.1
	done
}
