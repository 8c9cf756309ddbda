# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The control-path events of a faults step (Documentation/stages.rst,
# "Control-path events"), sourced by check.sh: check_events STEP
# JSON TEXT, with the step's report --json and text of its host's and
# target's recordings:
#   - a reset (reset, retry): the step's controller has a reset that
#     ended live, its duration more than 0, and no loss;
#   - a reconnect: a loss of the step's controller that ended live, as
#     long as the kernel's own log says the outage was (from "starting
#     error recovery" to "Successfully reconnected", in the step's
#     $step-dmesg.txt) within 10 %, and no shorter than half the time
#     the target kept the subsystem off its port ($step-away.txt, its
#     seconds). The host's outage starts only when it notices the loss,
#     which on a loaded machine has come 0.85 s after the port went, so
#     it may be shorter than the port's absence; it ends at the first
#     reconnect attempt after the port is back that succeeds, which on
#     a loaded machine has taken 2 s more over RDMA, so the kernel's log
#     bounds it, not the port. Its connect attempts number the kernel
#     log's "Failed reconnect attempt" lines plus the one that succeeded,
#     each within the loss, the last one's result live; a reset's is
#     one attempt, live;
#   - a reset or a reconnect: the target's recording has a controller
#     freed (the old one's) and one created (the new one's);
#   - the text's events section and JSON's "events" agree, line by line,
#     with each episode's count of attempts;
#   - the host's record --prom file counts the episodes that JSON's
#     "events" lists, per controller and event, with their summed
#     durations, the open ones and the events lost
#     (selftests/prom-events-check.sh).

# events_text TEXT: "TIME CONTROLLER TYPE DURATION ATTEMPTS" per
# episode of the events section, the duration "-" without one, the
# attempts 0 without an attempts line under it.
events_text() {
	awk 'function out() { if (ep != "") print ep, att; ep = "" }
	     /^events \(control path/ { on = 1; getline; next }
	     on && /^  *[0-9.-]+  (nvme|cntlid=)/ { out(); ep = $1 " " $2 " " $3 " " $4; att = 0; next }
	     on && ep != "" && /^  +[0-9]+ attempts?:/ { att = $1; next }
	     on { out(); on = 0 }
	     END { out() }' "$1"
}

events_json() {
	jq -r '(.events // [])[] | "\(.start_s | tostring) \(.controller) \(.type) \(.duration_s // "-") \(.attempt_count // 0)"' "$1" |
		awk '{ printf "%.6f %s %s %s %s\n", $1, $2, $3, ($4 == "-" ? "-" : sprintf("%.6f", $4)), $5 }'
}

# attempts_ok JSON CTRL TYPE N: the last episode of TYPE of CTRL that
# ended live made N connect attempts, each within it, the last live and
# every other failed.
attempts_ok() {
	jq -e --arg c "$2" --arg t "$3" --argjson n "$4" '
		[(.events // [])[] | select(.controller == $c and .type == $t and .end == "live")] | last |
		. as $e | .attempt_count == $n and (.attempts | length) == $n and
		all(.attempts[]; .start_s >= $e.start_s and .start_s <= $e.start_s + $e.duration_s) and
		(.attempts | last | .result) == "live" and
		all(.attempts[:-1][]; .result == "failed")' "$1" > /dev/null
}

# dmesg_outage DMESG CTRL: seconds from the last "starting error
# recovery" of CTRL to the "Successfully reconnected" after it, and the
# failed attempts between; nothing if there is no such pair.
dmesg_outage() {
	awk -v c="$2:" '
		$0 ~ c && /starting error recovery/ { t = substr($1, 2) + 0; if ($1 == "[") t = $2 + 0; fail = 0; on = 1 }
		on && $0 ~ c && /Failed reconnect attempt/ { fail++ }
		on && $0 ~ c && /Successfully reconnected/ {
			e = substr($1, 2) + 0; if ($1 == "[") e = $2 + 0
			span = e - t; n = fail; on = 0; have = 1 }
		END { if (have) printf "%.6f %d\n", span, n }' "$1"
}

# shellcheck disable=SC2154 # share is the checker's, which sources it.
check_events() {
	local step=$1 json=$2 text=$3 f ctrl got want span fails away

	f=$(step_fault "$step")
	ctrl=$(awk -v s="$step" '$1 == s { print $2 }' "$share/faults-host.txt" | tail -n 1)
	got=$(events_text "$text")
	want=$(events_json "$json")
	if [ "$got" = "$want" ]; then
		ktap_pass "$step: the report's events section and its JSON agree ($(echo "$want" | grep -c nvme) events)"
	else
		ktap_fail "$step: the report's events section and its JSON agree"
		diff <(echo "$got") <(echo "$want") | sed 's/^/# /'
	fi
	if [ ! -f "$share/$step-host.prom" ]; then
		ktap_fail "$step: the host's record --prom file"
	elif got=$(bash "$TOP_DIR/selftests/prom-events-check.sh" "$json" "$share/$step-host.prom" 2>&1); then
		ktap_pass "$step: record --prom's control-path counters are the report's: $got"
	else
		ktap_fail "$step: record --prom's control-path counters are the report's"
		echo "$got" | sed 's/^/# /'
	fi
	case $f in
	reset|retry|reconnect)
		got=$(jq -r '[(.events // [])[] | select(.type == "nvmet-ctrl")] |
			"\(map(select(.before_start == false)) | length) \(map(select(.end == "freed")) | length)"' "$json")
		# shellcheck disable=SC2086,SC2046 # the words of a line.
		set -- $got
		[ "${1:-0}" -ge 1 ] && [ "${2:-0}" -ge 1 ] &&
			ktap_pass "$step: the target's events: $2 controllers freed, $1 created" ||
			ktap_fail "$step: the target's events: a controller freed and one created ($(jq -c '[(.events // [])[] | select(.type == "nvmet-ctrl")]' "$json"))"
		;;
	esac
	case $f in
	reset|retry)
		got=$(jq -r --arg c "$ctrl" '[(.events // [])[] | select(.controller == $c)] |
			"\(map(select(.type == "reset" and .end == "live" and .duration_s > 0)) | length) \(map(select(.type == "loss")) | length) \(map(.duration_s) | map(tostring) | join(","))"' "$json")
		# shellcheck disable=SC2086,SC2046 # the words of a line.
		set -- $got
		[ "${1:-0}" -ge 1 ] && [ "$2" = 0 ] &&
			ktap_pass "$step: $ctrl's reset in the events, resetting to live in ${3:-?} s, no loss" ||
			ktap_fail "$step: $ctrl's reset in the events, resetting to live (resets ${1:-?}, losses ${2:-?}: $(jq -c '.events' "$json"))"
		attempts_ok "$json" "$ctrl" reset 1 &&
			ktap_pass "$step: $ctrl's reset made one connect attempt, live" ||
			ktap_fail "$step: $ctrl's reset made one connect attempt, live ($(jq -c '.events' "$json"))"
		;;
	reconnect)
		got=$(jq -r --arg c "$ctrl" '[(.events // [])[] | select(.controller == $c and .type == "loss" and .end == "live")] | last | .duration_s // empty' "$json")
		# shellcheck disable=SC2086,SC2046 # the words of a line.
		set -- $(dmesg_outage "$share/$step-dmesg.txt" "$ctrl")
		span=$1 fails=$2
		away=$(cat "$share/$step-away.txt" 2>/dev/null)
		if [ -n "$got" ] && [ -n "$span" ] && [ -n "$away" ] &&
		   awk -v g="$got" -v s="$span" -v a="$away" 'BEGIN {
			d = g - s; if (d < 0) d = -d
			exit !(d <= 0.1 * s && g >= 0.5 * a) }'; then
			ktap_pass "$step: $ctrl's loss in the events, $got s to live: the kernel log's outage $span s (within 10 %), the port away $away s (at least half of it)"
		else
			ktap_fail "$step: $ctrl's loss in the events within 10 % of the kernel log's outage, and at least half the port's absence (events ${got:-none} s, log ${span:-none} s, port away ${away:-?} s: $(jq -c '.events' "$json"))"
		fi
		if [ -n "$fails" ] && attempts_ok "$json" "$ctrl" loss $((fails + 1)); then
			ktap_pass "$step: $ctrl's loss made $((fails + 1)) connect attempts in the events: the kernel log's $fails failed and the one that reconnected"
		else
			ktap_fail "$step: $ctrl's loss made the kernel log's failed reconnect attempts (${fails:-none}) plus one in the events ($(jq -c '.events' "$json"))"
		fi
		;;
	esac
}
