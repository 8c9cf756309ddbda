# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The check of prom_fleet/test.sh, on the machine that ran the lab:
# sourced by lab_check with the run's share, where prom-fleet-host.sh and
# prom-fleet-target.sh left host/ntprof.prom, target/ntprof.prom, host.ntp
# and target.ntp.
#
# On loopback: one prometheus-node-exporter per side on a textfile
# directory of its own, and a prometheus server that scrapes both every
# second with Documentation/prometheus/ntprof.rules.yml. A recording's
# file no longer grows once it ended, and rate() over it is 0: the files
# are first served with every value 0 (the recorders' start), then as
# recorded, so that the counters grow once and the rate5m rules have a
# window as well as the total ones. Every stage's mean must be within 2 %
# of ntprof report --json of the two recordings (prom-fleet.py). The
# servers are this script's: stopped by PID on its exit, each bounded.
share=$1
ntprof=$TOP_DIR/tools/ntprof/ntprof
rules=$TOP_DIR/Documentation/prometheus/ntprof.rules.yml
query=$TOP_DIR/selftests/integration/prom_fleet/prom-fleet.py
work=$(mktemp -d "${TMPDIR:-/tmp}/ntprof-prom-fleet.XXXXXX")
pids=()

# Stops the servers: SIGTERM, 10 s to go, then SIGKILL.
prom_stop() {
	local pid

	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null
	done
	for pid in "${pids[@]}"; do
		for _ in $(seq 1 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	pids=()
	rm -rf "$work"
}
trap prom_stop EXIT

# N free TCP ports on loopback, as the kernel hands them out.
free_ports() {
	python3 -c '
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$1"
}

# The file with every sample's value 0, its comments as they are.
zeroed() {
	sed -E '/^#/! s/ [^ ]+$/ 0/' "$1"
}

# serve SIDE: FILE into the side's textfile directory, whole (rename).
serve() {
	cp "$2" "$work/$1/ntprof.prom.new" &&
	mv "$work/$1/ntprof.prom.new" "$work/$1/ntprof.prom"
}

prom_servers() {
	local ports
	read -r -a ports <<< "$(free_ports 3)"
	url=http://127.0.0.1:${ports[2]}
	for side in host target; do
		mkdir -p "$work/$side"
		zeroed "$share/$side/ntprof.prom" > "$work/$side/ntprof.prom"
	done
	prometheus-node-exporter --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$work/host" \
		--web.listen-address="127.0.0.1:${ports[0]}" > "$work/ne-host.log" 2>&1 &
	pids+=($!)
	prometheus-node-exporter --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$work/target" \
		--web.listen-address="127.0.0.1:${ports[1]}" > "$work/ne-target.log" 2>&1 &
	pids+=($!)
	cat > "$work/prometheus.yml" <<-EOC
	global:
	  scrape_interval: 1s
	  evaluation_interval: 1s
	rule_files:
	  - $rules
	scrape_configs:
	  - job_name: ntprof
	    static_configs:
	      - targets: ['127.0.0.1:${ports[0]}', '127.0.0.1:${ports[1]}']
	EOC
	prometheus --config.file="$work/prometheus.yml" \
		--storage.tsdb.path="$work/tsdb" \
		--web.listen-address="127.0.0.1:${ports[2]}" > "$work/prometheus.log" 2>&1 &
	pids+=($!)
}

# A line of prom-fleet.py: PASS/FAIL as TAP, notes as diagnostics.
prom_tap() {
	local verdict text

	while read -r verdict text; do
		case $verdict in
		PASS) ktap_pass "$text" ;;
		FAIL) ktap_fail "$text" ;;
		*) ktap_diag "$verdict $text" ;;
		esac
	done
}

prom_fleet() {
	local f failed=$KTAP_FAILED

	for f in host/ntprof.prom target/ntprof.prom host.ntp target.ntp; do
		[ -s "$share/$f" ] || { ktap_fail "the run left $f"; return 1; }
	done
	for f in prometheus prometheus-node-exporter promtool; do
		command -v $f > /dev/null ||
			{ ktap_fail "$f is installed (selftests/lab/install-deps.sh)"; return 1; }
	done
	if "$ntprof" report --json "$share/host.ntp" "$share/target.ntp" \
		> "$work/report.json" 2> "$work/report.err"; then
		ktap_pass "ntprof report --json host.ntp target.ntp"
	else
		ktap_fail "ntprof report --json host.ntp target.ntp"
		sed 's/^/# /' "$work/report.err"
		return 1
	fi
	for f in host target; do
		promtool check metrics < "$share/$f/ntprof.prom" > "$work/check.out" 2>&1 &&
			ktap_pass "promtool check metrics accepts the $f's file" ||
			{ ktap_fail "promtool check metrics accepts the $f's file"; sed 's/^/# /' "$work/check.out"; }
	done
	prom_servers
	# Both sides' zeroed series scraped, a few times.
	prom_tap < <(python3 "$query" wait "$url" 'up{job="ntprof"} == 1' 2 60)
	prom_tap < <(python3 "$query" wait "$url" 'ntprof_group_commands_total' 2 60)
	sleep 3
	serve host "$share/host/ntprof.prom"
	serve target "$share/target/ntprof.prom"
	# Six stages' means, of one subsystem and host, in both windows.
	prom_tap < <(python3 "$query" wait "$url" 'ntprof:stage_mean_seconds:total' 6 60)
	prom_tap < <(python3 "$query" wait "$url" 'ntprof:stage_mean_seconds:rate5m' 6 60)
	prom_tap < <(python3 "$query" compare "$url" "$work/report.json")
	if [ "$KTAP_FAILED" -gt "$failed" ]; then
		ktap_diag "prometheus' log:"
		tail -n 20 "$work/prometheus.log" | sed 's/^/# /'
	fi
}

prom_fleet
prom_stop
trap - EXIT
