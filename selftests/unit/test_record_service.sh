#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What ntprof-record@.service relies on (Documentation/packages.rst), on
# this machine with no module: 'ntprof record --rotate' of
# selftests/tools/spdk-model through its agent, stopped by SIGTERM as
# systemctl stop stops it, leaves every part whole and says each part
# closed and each part removed in one line of stderr (the journal),
# with its path and records, which the part holds; then the service's
# wrapper, tools/ntprof/systemd/ntprof-record, makes the command line
# from /etc/default/ntprof's variables (the shipped file's and others),
# moves the previous run's parts aside and keeps the earlier runs'
# newest parts, goes on without --prom when
# node_exporter's directory is missing, and refuses bad values in one
# line without starting anything.
# shellcheck source=selftests/unit/agent_env.sh
. "$(dirname "$0")/agent_env.sh"
WRAPPER=$TOP/tools/ntprof/systemd/ntprof-record
DEFAULTS=$TOP/tools/ntprof/systemd/ntprof.default

model_start

# Parts of 1 MiB, some 17,000 of the model's records each (5,000 to
# 15,000 a second): SIGTERM once part 4 is written, so that part 1 was
# removed by --keep 2 and parts 2 and 3 were closed by rotation.
mkdir "$TMP/rot"
"$NTPROF" record --spdk-target "$MODEL_PID" -s 1 --rotate 1M --keep 2 \
	-o "$TMP/rot/host.ntp" > "$TMP/rec.out" 2> "$TMP/rec.err" &
rec=$!
for _ in $(seq 300); do
	[ -e "$TMP/rot/host.0004.ntp" ] && break
	sleep 0.1
done
kill -TERM $rec
wait $rec
rc=$?
kept=$(ls "$TMP/rot" | tr '\n' ' ')
rep=$("$NTPROF" report "$TMP/rot" 2>&1)
rep_rc=$?
if [ $rc = 0 ] && [ $rep_rc = 0 ] && ! grep -q "ends early" <<< "$rep" &&
   [ "$(ls "$TMP/rot" | wc -l)" = 2 ]; then
	ktap_pass "record --rotate stopped by SIGTERM: exit 0, the parts kept ($kept) whole"
else
	ktap_fail "record --rotate stopped by SIGTERM: exit 0, the parts whole (rc $rc, report rc $rep_rc, $kept)"
	sed 's/^/# /' "$TMP/rec.err"
	sed 's/^/# /' <<< "$rep"
fi

# closed_ok: one "part N closed" line for each part from 1 to the last,
# in order, each naming its path; for the parts on disk, its records
# are the part's.
closed_ok() {
	local last n path records want line

	last=$(ls "$TMP/rot" | sed -n 's/^host\.\([0-9]*\)\.ntp$/\1/p' | tail -1)
	[ -n "$last" ] || return 1
	[ "$(grep -c " closed, " "$TMP/rec.err")" = $((10#$last)) ] || return 1
	for n in $(seq 1 $((10#$last))); do
		path=$TMP/rot/host.$(printf %04d "$n").ntp
		line=$(grep "^ntprof: record: part $n closed, $path: " "$TMP/rec.err") ||
			{ echo "no line for part $n"; return 1; }
		# A journal line: no line break within it.
		[ "$(wc -l <<< "$line")" = 1 ] || return 1
		[[ $line =~ :\ ([0-9]+)\ records,\ ([0-9]+)\ dropped,\ ([0-9]+)\ evicted\;\ the\ session\ so\ far:\ [0-9]+\ dropped,\ [0-9]+\ evicted$ ]] ||
			{ echo "part $n: $line"; return 1; }
		records=${BASH_REMATCH[1]}
		[ -e "$path" ] || continue
		want=$("$NTPROF" report --csv - "$path" | tail -n +2 | wc -l)
		[ "$records" = "$want" ] ||
			{ echo "part $n: $records records said, $want in the file"; return 1; }
	done
}
if out=$(closed_ok); then
	ktap_pass "stderr: one line per part closed, its path and its records (the file's), its losses and the session's"
else
	ktap_fail "stderr: one line per part closed, its path and its records"
	ktap_diag "$out"
	sed 's/^/# /' "$TMP/rec.err"
fi
if grep -q "^ntprof: record: part 1 removed, $TMP/rot/host.0001.ntp (--keep 2)$" \
	"$TMP/rec.err" && [ ! -e "$TMP/rot/host.0001.ntp" ]; then
	ktap_pass "stderr: a line for each part --keep removed"
else
	ktap_fail "stderr: a line for each part --keep removed"
	sed 's/^/# /' "$TMP/rec.err"
fi
{ kill -9 "$MODEL_PID"; wait "$MODEL_PID"; } 2>/dev/null
MODEL_PID=

# The wrapper, with a tool that prints its arguments one a line.
cat > "$TMP/fake-ntprof" <<'EOF'
#!/bin/sh
for a; do echo "$a"; done
EOF
chmod +x "$TMP/fake-ntprof"
mkdir -p "$TMP/var" "$TMP/prom"
# wrap ROLE VAR=VALUE...: the wrapper under the environment systemd
# gives it (EnvironmentFile= sets variables, no shell), its arguments
# joined by spaces.
wrap() {
	local role=$1

	shift
	env -i PATH="$PATH" NTPROF="$TMP/fake-ntprof" "$@" \
		sh "$WRAPPER" "$role" 2>&1 | tr '\n' ' '
}
# The shipped file's assignments, as systemd reads them, with the
# directories of this test.
mapfile -t vars < <(grep -E '^[A-Z_]+=' "$DEFAULTS" |
	sed -e "s|^NTPROF_DIR=.*|NTPROF_DIR=$TMP/var|" \
	    -e "s|^NTPROF_PROM_DIR=.*|NTPROF_PROM_DIR=$TMP/prom|")
out=$(wrap host "${vars[@]}")
want="record -r host -s 100 -t tcp,rdma --rotate 256M --keep 16 -o $TMP/var/host.ntp --stages-only --prom $TMP/prom/ntprof-host.prom "
if [ "$out" = "$want" ] && [ ${#vars[@]} -ge 8 ]; then
	ktap_pass "ntprof-record host with the shipped /etc/default/ntprof: the record command it promises"
else
	ktap_fail "ntprof-record host with the shipped /etc/default/ntprof"
	ktap_diag "got:  $out"
	ktap_diag "want: $want"
fi
out=$(wrap target NTPROF_DIR="$TMP/var" NTPROF_SAMPLE=10 NTPROF_TRANSPORTS=rdma \
	NTPROF_STAGES_ONLY=no NTPROF_ROTATE=1G NTPROF_KEEP=4 NTPROF_PROM_DIR= \
	NTPROF_OPTS="--op read,write  --min-size 4K *")
want="record -r target -s 10 -t rdma --rotate 1G --keep 4 -o $TMP/var/target.ntp --op read,write --min-size 4K * "
if [ "$out" = "$want" ]; then
	ktap_pass "ntprof-record target: every variable taken, no --prom when empty, NTPROF_OPTS split into words, no file name expansion"
else
	ktap_fail "ntprof-record target: every variable taken"
	ktap_diag "got:  $out"
	ktap_diag "want: $want"
fi

# No node_exporter: its directory missing, the recording goes on
# without --prom, and says so.
out=$(wrap host NTPROF_DIR="$TMP/var" NTPROF_PROM_DIR="$TMP/none")
want="ntprof-record: NTPROF_PROM_DIR $TMP/none is not a directory: recording without --prom (install prometheus-node-exporter, or empty NTPROF_PROM_DIR in /etc/default/ntprof) record -r host -s 100 -t tcp,rdma --rotate 256M --keep 16 -o $TMP/var/host.ntp --stages-only "
if [ "$out" = "$want" ]; then
	ktap_pass "ntprof-record: NTPROF_PROM_DIR missing: a line saying so, and the recording without --prom"
else
	ktap_fail "ntprof-record: NTPROF_PROM_DIR missing: a line saying so, and the recording without --prom"
	ktap_diag "got:  $out"
	ktap_diag "want: $want"
fi

# Restarts: the run before's parts go to DIR/ROLE.previous/TIME/, the
# other role's stay; the earlier runs together keep their NTPROF_KEEP
# newest parts. With --keep 4, a long run of 5 parts (its oldest goes
# at once), then a run that failed after 1 part: the long run loses its
# 2 oldest in all.
touch "$TMP/var/host.0001.ntp" "$TMP/var/host.0002.ntp" "$TMP/var/host.0003.ntp" \
	"$TMP/var/host.0004.ntp" "$TMP/var/host.0005.ntp" "$TMP/var/target.0001.ntp"
out1=$(wrap host NTPROF_DIR="$TMP/var" NTPROF_PROM_DIR= NTPROF_KEEP=4)
long=$(ls "$TMP/var/host.previous")
touch "$TMP/var/host.0001.ntp"
out2=$(wrap host NTPROF_DIR="$TMP/var" NTPROF_PROM_DIR= NTPROF_KEEP=4)
short=$(find "$TMP/var/host.previous" -mindepth 1 -maxdepth 1 -printf '%f\n' |
	LC_ALL=C sort | grep -vx "$long")
kept=$(cd "$TMP/var/host.previous" && find . -type f | LC_ALL=C sort | tr '\n' ' ')
if grep -q "ntprof-record: the previous run's 5 parts moved to $TMP/var/host.previous/$long" <<< "$out1" &&
   grep -q "ntprof-record: $TMP/var/host.previous/$long/host.0001.ntp removed: the earlier runs keep 4 parts" <<< "$out1" &&
   [[ $long < $short ]] &&
   grep -q "ntprof-record: the previous run's 1 parts moved to $TMP/var/host.previous/$short" <<< "$out2" &&
   grep -q "ntprof-record: $TMP/var/host.previous/$long/host.0002.ntp removed: the earlier runs keep 4 parts" <<< "$out2" &&
   [ "$kept" = "./$long/host.0003.ntp ./$long/host.0004.ntp ./$long/host.0005.ntp ./$short/host.0001.ntp " ] &&
   [ "$(ls "$TMP/var" | tr '\n' ' ')" = "host.previous target.0001.ntp " ]; then
	ktap_pass "ntprof-record: a restart moves the run's parts to DIR/host.previous/TIME; the earlier runs keep the newest NTPROF_KEEP parts; @target's stay"
else
	ktap_fail "ntprof-record: a restart moves the run's parts to DIR/host.previous/TIME"
	ktap_diag "$out1"
	ktap_diag "$out2"
	ktap_diag "kept: $kept"
	ls -R "$TMP/var" | sed 's/^/# /'
fi
rm -rf "$TMP/var/host.previous" "$TMP/var/target.0001.ntp"

# refused VAR=VALUE... -- WORDS: one line naming the problem, exit 2,
# the tool not started.
refused() {
	local role=$1 words=$2 out rc

	shift 2
	# An empty role is no argument at all.
	# shellcheck disable=SC2086
	out=$(env -i PATH="$PATH" NTPROF="$TMP/fake-ntprof" "$@" \
		sh "$WRAPPER" $role 2>&1)
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <<< "$out")" = 1 ] &&
		grep -q "^ntprof-record: .*$words" <<< "$out" &&
		! grep -q "^record$" <<< "$out"
}
ok=1
refused middle "the instance is the role, host or target" || ok=0
refused "" "usage: ntprof-record host|target" || ok=0
refused host "NTPROF_STAGES_ONLY is yes or no, not 'maybe'" \
	NTPROF_DIR="$TMP/var" NTPROF_STAGES_ONLY=maybe || ok=0
refused host "NTPROF_DIR is an absolute path, not 'var'" NTPROF_DIR=var || ok=0
refused host "NTPROF_DIR $TMP/none is not a directory" NTPROF_DIR="$TMP/none" || ok=0
refused host "NTPROF_PROM_DIR is an absolute path, not 'prom'" \
	NTPROF_DIR="$TMP/var" NTPROF_PROM_DIR=prom || ok=0
refused host "NTPROF_KEEP is a number of parts, not '4x'" \
	NTPROF_DIR="$TMP/var" NTPROF_KEEP=4x || ok=0
# Nothing moved by a start refused.
touch "$TMP/var/host.0001.ntp"
refused host "NTPROF_PROM_DIR is an absolute path" NTPROF_DIR="$TMP/var" \
	NTPROF_PROM_DIR=prom || ok=0
[ -e "$TMP/var/host.0001.ntp" ] && [ ! -e "$TMP/var/host.previous" ] || ok=0
if [ $ok = 1 ]; then
	ktap_pass "ntprof-record: a bad role or value refused in one line, nothing started"
else
	ktap_fail "ntprof-record: a bad role or value refused in one line, nothing started"
fi
ktap_finished
