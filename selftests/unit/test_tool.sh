#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a user checks of the ntprof tool on a machine without the module:
# its messages and exit codes, help, version, man page and completion.
#
# usage: test_tool.sh [PATH/TO/ntprof]
# Without a path (as selftests/run_tests.sh runs it), builds and tests the
# in-tree tools/ntprof/ntprof. Prints TAP; exits 1 if any test failed.

# Each test is "checks && ... || { diag; return 1; }": the diagnosis is
# meant to run when any check fails.
# shellcheck disable=SC2015

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOOL_DIR=$UNIT_DIR/../../tools/ntprof
if [ $# -gt 0 ]; then
	NTPROF=$1
else
	NTPROF=$TOOL_DIR/ntprof
	make -s -C "$TOOL_DIR" ntprof >&2 ||
		{ echo "Bail out! cannot build $NTPROF"; exit 1; }
fi
MAN_PAGE=$TOOL_DIR/man/ntprof.8
COMPLETION=$TOOL_DIR/completion/ntprof.bash

# Every subcommand; t_command_list fails when ntprof --help disagrees, so a
# new one cannot slip past the --help, man page and completion tests.
COMMANDS=(status probe record report compare run version help)

TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT

# run ARGS...: runs ntprof, leaving $rc, $out and $err.
run() {
	"$NTPROF" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	out=$(<"$TMP/out")
	err=$(<"$TMP/err")
}

# diag: why a test failed, as TAP comments.
diag() {
	printf '%s\n' "rc=$rc" "stdout: $out" "stderr: $err" | sed 's/^/# /'
}

t_status_without_module() {
	desc="status without the module: one clear line on stderr, nothing on stdout, exit 1"
	# Where the module is loaded this message cannot appear.
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	run status
	[ "$rc" = 1 ] && [ -z "$out" ] &&
		[ "$err" = "ntprof: the ntprof module is not loaded (modprobe ntprof)" ] ||
		{ diag; return 1; }
}

# The message conn.c prints for every command when the family is absent.
NOT_LOADED="ntprof: the ntprof module is not loaded (modprobe ntprof)"

t_probe_without_module() {
	desc="probe without the module: one clear line on stderr, nothing on stdout, exit 1"
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	run probe -r host -t tcp
	[ "$rc" = 1 ] && [ -z "$out" ] && [ "$err" = "$NOT_LOADED" ] ||
		{ diag; return 1; }
}

t_record_without_module() {
	desc="record without the module: one clear line, exit 1, no file left behind"
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	run record -r target -t rdma -s 100 -i 1 -d 1 -o "$TMP/r.ntp"
	[ "$rc" = 1 ] && [ -z "$out" ] && [ "$err" = "$NOT_LOADED" ] &&
		[ ! -e "$TMP/r.ntp" ] || { diag; return 1; }
}

# usage_fails CMD MESSAGE ARGS...: ntprof CMD ARGS is a usage error that
# says MESSAGE (a glob) in its first line, names 'ntprof CMD --help' in
# its second, prints nothing on stdout, exits 1, and never reaches netlink
# (no "not loaded", no file created).
usage_fails() {
	local cmd=$1 msg=$2 first

	shift 2
	rm -f "$TMP/x.ntp"
	run "$cmd" "$@"
	first=${err%%$'\n'*}
	[ "$rc" = 1 ] && [ -z "$out" ] && [[ $first == "ntprof: $cmd: "$msg ]] &&
		[ "${err#*$'\n'}" = "Try 'ntprof $cmd --help'." ] &&
		[ ! -e "$TMP/x.ntp" ] ||
		{ echo "# ntprof $cmd $*"; diag; return 1; }
}

t_record_missing_options() {
	desc="record without -r or -o: each named, exit 1"
	usage_fails record "*-r host or -r target*" -t tcp -o "$TMP/x.ntp" &&
	usage_fails record "*-o FILE.ntp*" -r host -t tcp
}

t_record_transports() {
	desc="record without -t, or with -t tcp,rdma, passes the option checks (every transport)"
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	run record -r host -o "$TMP/x.ntp"
	[ "$rc" = 1 ] && [ "$err" = "$NOT_LOADED" ] || { diag; return 1; }
	run record -r target -t rdma,tcp -o "$TMP/x.ntp"
	[ "$rc" = 1 ] && [ "$err" = "$NOT_LOADED" ] && [ ! -e "$TMP/x.ntp" ] ||
		{ diag; return 1; }
}

t_record_bad_role_transport() {
	desc="record -r bogus, -t fc: the value named, exit 1"
	usage_fails record "*-r*'bogus'*" -r bogus -t tcp -o "$TMP/x.ntp" &&
	usage_fails record "*-t*'fc'*" -r host -t fc -o "$TMP/x.ntp" &&
	usage_fails record "*-t*'TCP'*" -r host -t TCP -o "$TMP/x.ntp" &&
	usage_fails record "*-t*'tcp,fc'*" -r host -t tcp,fc -o "$TMP/x.ntp" &&
	usage_fails record "*-t*'tcp,'*" -r host -t tcp, -o "$TMP/x.ntp"
}

t_record_bad_sample() {
	desc="record -s 0, 2000000, 1.5, x: outside 1..1000000, exit 1"
	local s

	for s in 0 2000000 1.5 x -1 ""; do
		usage_fails record "-s takes a whole number from 1 to 1000000, not '$s'" \
			-r host -t tcp -s "$s" -o "$TMP/x.ntp" || return 1
	done
}

t_record_rotate_options() {
	desc="record --keep without --rotate, --rotate under 1M or not a size, --keep 1: each named, exit 1"
	usage_fails record "--keep N counts the parts of --rotate SIZE: give both" \
		-r host -o "$TMP/x.ntp" --keep 3 &&
	usage_fails record "--rotate 1023K is too small: a part holds at least 1M*" \
		-r host -o "$TMP/x.ntp" --rotate 1023K &&
	usage_fails record "--rotate takes a size in bytes (64M, 1G), not '1x'" \
		-r host -o "$TMP/x.ntp" --rotate 1x &&
	usage_fails record "--keep takes a number of parts from 2 *, not '1'" \
		-r host -o "$TMP/x.ntp" --rotate 1M --keep 1 &&
	usage_fails record "--keep takes a number of parts from 2 *, not 'x'" \
		-r host -o "$TMP/x.ntp" --rotate 1G --keep x
}

t_record_rotate_passes() {
	desc="record --rotate 1M --keep 2 passes the option checks; no part left behind"
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	run record -r host --rotate 1M --keep 2 -o "$TMP/x.ntp"
	[ "$rc" = 1 ] && [ "$err" = "$NOT_LOADED" ] &&
		[ ! -e "$TMP/x.0001.ntp" ] || { diag; return 1; }
}

t_record_sample_bounds() {
	desc="record -s 1 and -s 1000000 pass the option checks"
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	local s

	for s in 1 1000000; do
		run record -r host -t tcp -s "$s" -o "$TMP/x.ntp"
		[ "$rc" = 1 ] && [ "$err" = "$NOT_LOADED" ] ||
			{ echo "# -s $s"; diag; return 1; }
	done
}

t_record_bad_times() {
	desc="record -i 0, -i 1.5, -d 0, -d -1, -d x: exit 1"
	usage_fails record "-i takes a whole number of seconds*'0'" \
		-r host -t tcp -i 0 -o "$TMP/x.ntp" &&
	usage_fails record "-i takes a whole number of seconds*'1.5'" \
		-r host -t tcp -i 1.5 -o "$TMP/x.ntp" &&
	usage_fails record "-d takes a positive number of seconds*'0'" \
		-r host -t tcp -d 0 -o "$TMP/x.ntp" &&
	usage_fails record "-d takes a positive number of seconds*'-1'" \
		-r host -t tcp -d -1 -o "$TMP/x.ntp" &&
	usage_fails record "-d takes a positive number of seconds*'x'" \
		-r host -t tcp -d x -o "$TMP/x.ntp"
}

t_record_bad_filters() {
	desc="record --op, --min-size, --max-size, --dev with bad values: exit 1"
	usage_fails record "--op takes read, write, other*'bogus'" \
		-r host -t tcp --op bogus -o "$TMP/x.ntp" &&
	usage_fails record "--op takes*'read,'" \
		-r host -t tcp --op read, -o "$TMP/x.ntp" &&
	usage_fails record "--min-size takes a size*'4X'" \
		-r host -t tcp --min-size 4X -o "$TMP/x.ntp" &&
	usage_fails record "--max-size takes a size*'4G'" \
		-r host -t tcp --max-size 4G -o "$TMP/x.ntp" &&
	usage_fails record "--min-size (8192 bytes) is above --max-size (4096 bytes)" \
		-r host -t tcp --min-size 8K --max-size 4KiB -o "$TMP/x.ntp" &&
	usage_fails record "--dev: no block device 'ntprof-no-such-disk'" \
		-r host -t tcp --dev ntprof-no-such-disk -o "$TMP/x.ntp" &&
	usage_fails record "--dev: '0:0' is not a device number" \
		-r host -t tcp --dev 0:0 -o "$TMP/x.ntp" &&
	usage_fails record "--dev is for host recordings*" \
		-r target -t tcp --dev 259:0 -o "$TMP/x.ntp"
}

t_record_good_filters() {
	desc="record with good filters passes the option checks"
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	run record -r host -t rdma --op read,write --min-size 512 --max-size 1M \
		--dev 259:0 -i 10 -d 0.5 -o "$TMP/x.ntp"
	[ "$rc" = 1 ] && [ "$err" = "$NOT_LOADED" ] || { diag; return 1; }
}

t_record_chain_errors() {
	desc="record --chain=x, =-1, =, a value after a space, =md for a target, with --spdk-target: each named, exit 1"
	local v

	for v in x -1 "" 4K 1.5; do
		usage_fails record "--chain takes a whole number of LBAs or md (--chain=4096, --chain=md), not '$v'" \
			-r host --chain="$v" -o "$TMP/x.ntp" ||
			return 1
	done
	usage_fails record "--chain takes its value after '=': write --chain=33024" \
		-r host --chain 33024 -o "$TMP/x.ntp" &&
	usage_fails record "--chain takes its value after '=': write --chain=md" \
		-r host --chain md -o "$TMP/x.ntp" &&
	usage_fails record "--chain=md is for the host side of the machine that runs md: give a target its offset as --chain=OFFSET" \
		-r target --chain=md -o "$TMP/x.ntp" &&
	usage_fails record "--chain is for the kernel's hooks: SPDK's sites sample by the hop rule" \
		--spdk-target /bin/true --chain -o "$TMP/x.ntp"
}

t_record_chain_md_none() {
	desc="record --chain=md on a machine without md raid1 of NVMe members: named, exit 1"
	compgen -G "/sys/block/md*/md/dev-nvme*" > /dev/null &&
		{ skip="this machine has md arrays of NVMe members"; return 0; }
	usage_fails record "--chain=md: no md array with NVMe members here (/sys/block/md*/md/dev-nvme*)" \
		-r host --chain=md -o "$TMP/x.ntp"
}

t_record_chain_passes() {
	desc="record --chain, --chain=0, --chain=264192 pass the option checks"
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	local v

	for v in "--chain" "--chain=0" "--chain=264192"; do
		run record -r target -s 100 "$v" -o "$TMP/x.ntp"
		[ "$rc" = 1 ] && [ "$err" = "$NOT_LOADED" ] ||
			{ echo "# $v"; diag; return 1; }
	done
}

t_record_middle_errors() {
	desc="record -r host,target without --chain, with --spdk-target, --rotate, --dev: each named, exit 1"
	usage_fails record "-r host,target records a chain's middle: give --chain (--chain=md on an md raid1)" \
		-r host,target -o "$TMP/x.ntp" &&
	usage_fails record "-r host,target records the kernel's two sides: not with --spdk-target or --spdk-host" \
		-r host,target --chain --spdk-target /bin/true -o "$TMP/x.ntp" &&
	usage_fails record "-r host,target writes one file per role: not with --rotate" \
		-r target,host --chain --rotate 1G -o "$TMP/x.ntp" &&
	usage_fails record "-r host,target records every device of both sides: not with --dev" \
		-r host,target --chain --dev "$(awk 'NR == 1 { print $1 ":" $2 }' /proc/diskstats)" \
		-o "$TMP/x.ntp"
}

t_record_middle_passes() {
	desc="record -r host,target --chain=4096 --prom passes the option checks: one message without the module, no file left"
	[ -d /sys/module/ntprof ] && { skip="the ntprof module is loaded"; return 0; }
	run record -r host,target -s 100 --chain=4096 -o "$TMP/m.ntp" \
		--prom "$TMP/m.prom"
	[ "$rc" = 1 ] && [ "$err" = "$NOT_LOADED" ] &&
		[ ! -e "$TMP/m-host.ntp" ] && [ ! -e "$TMP/m-target.ntp" ] &&
		[ ! -e "$TMP/m.prom" ] || { diag; return 1; }
}

t_record_unknown_option() {
	desc="record --bogus, -x, an extra argument, -o without a value: named, exit 1"
	usage_fails record "unknown option '--bogus'" \
		-r host -t tcp -o "$TMP/x.ntp" --bogus &&
	usage_fails record "unknown option '-x'" -r host -t tcp -x &&
	usage_fails record "unexpected argument 'extra'" \
		-r host -t tcp -o "$TMP/x.ntp" extra &&
	usage_fails record "option '-o' needs a value" -r host -t tcp -o
}

t_probe_options() {
	desc="probe without -r, or with bad -r or -t, or an argument: exit 1"
	usage_fails probe "*-r host or -r target*" -t tcp &&
	usage_fails probe "*-t*'rdma,,tcp'*" -r target -t rdma,,tcp &&
	usage_fails probe "*-t*'fc'*" -r host -t fc &&
	usage_fails probe "*-r*'initiator'*" -r initiator -t tcp &&
	usage_fails probe "unexpected argument 'extra'" -r host -t tcp extra &&
	usage_fails probe "unknown option '--bogus'" -r host -t tcp --bogus
}

t_unknown_command() {
	desc="an unknown command is named in the error, exit 1"
	run bogus
	[ "$rc" = 1 ] && [ -z "$out" ] && [[ $err == *"'bogus'"* ]] ||
		{ diag; return 1; }
}

t_unknown_global_option() {
	desc="an unknown global option is named in the error, exit 1"
	run --bogus-option
	[ "$rc" = 1 ] && [ -z "$out" ] && [[ $err == *"'--bogus-option'"* ]] ||
		{ diag; return 1; }
}

t_status_unknown_option() {
	desc="status --bogus-option: named in the error before any netlink, exit 1"
	run status --bogus-option
	[ "$rc" = 1 ] && [ -z "$out" ] &&
		[[ $err == "ntprof: status: "*"'--bogus-option'"* ]] &&
		[[ $err != *"not loaded"* ]] ||
		{ diag; return 1; }
}

t_status_unknown_short_option() {
	desc="status -x: named in the error, exit 1"
	run status -x
	[ "$rc" = 1 ] && [[ $err == *"'-x'"* ]] || { diag; return 1; }
}

t_status_extra_argument() {
	desc="status with an argument it does not take: named in the error, exit 1"
	run status extra
	[ "$rc" = 1 ] && [[ $err == *"'extra'"* ]] || { diag; return 1; }
}

t_no_arguments() {
	desc="no command: the usage on stderr, nothing on stdout, exit 1"
	run
	[ "$rc" = 1 ] && [ -z "$out" ] && [[ $err == usage:* ]] ||
		{ diag; return 1; }
}

t_command_list() {
	desc="ntprof --help lists exactly: ${COMMANDS[*]}"
	local listed

	run --help
	# The indented words between "commands:" and the next blank line.
	listed=$(printf '%s\n' "$out" |
		 sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' |
		 xargs)
	[ "$rc" = 0 ] && [ "$listed" = "${COMMANDS[*]}" ] ||
		{ echo "# listed: $listed"; diag; return 1; }
}

# help_test ARGS...: ARGS must print help with examples on stdout, exit 0.
help_test() {
	run "$@"
	[ "$rc" = 0 ] && [ -z "$err" ] && [[ $out == usage:* ]] &&
		[[ $out == *$'\nexamples:\n'* ]] || { diag; return 1; }
}

t_help_global() {
	desc="ntprof --help: usage and examples on stdout, exit 0"
	help_test --help
}

t_help_global_short() {
	desc="ntprof -h: usage and examples on stdout, exit 0"
	help_test -h
}

t_help_each_command() {
	desc="<command> --help and -h: usage and examples on stdout, exit 0, for each command"
	local c

	for c in "${COMMANDS[@]}"; do
		help_test "$c" --help || { echo "# $c --help"; return 1; }
		help_test "$c" -h || { echo "# $c -h"; return 1; }
	done
}

t_help_command() {
	desc="ntprof help <command> prints what <command> --help does"
	local c want

	for c in "${COMMANDS[@]}"; do
		run "$c" --help
		want=$out
		run help "$c"
		[ "$rc" = 0 ] && [ -n "$out" ] && [ "$out" = "$want" ] ||
			{ echo "# help $c"; diag; return 1; }
	done
}

t_help_unknown_command() {
	desc="ntprof help bogus: named in the error, exit 1"
	run help bogus
	[ "$rc" = 1 ] && [[ $err == *"'bogus'"* ]] || { diag; return 1; }
}

t_version() {
	desc="ntprof version prints one line: ntprof <VERSION> [(git <commit>)]"
	local release

	release=$(<"$UNIT_DIR/../../VERSION")
	run version
	[ "$rc" = 0 ] && [ -z "$err" ] &&
		[[ $out =~ ^ntprof\ ${release//./\\.}(\ \(git\ [0-9a-zA-Z][0-9a-zA-Z.+_-]*\))?$ ]] ||
		{ echo "# want: ntprof $release [(git COMMIT)]"; diag; return 1; }
}

t_version_option() {
	desc="ntprof --version prints the same as ntprof version"
	local want

	run version
	want=$out
	run --version
	[ "$rc" = 0 ] && [ -n "$out" ] && [ "$out" = "$want" ] ||
		{ diag; return 1; }
}

t_write_error() {
	desc="output that cannot be written is an error, exit 1"
	[ -w /dev/full ] || { skip="no /dev/full"; return 0; }
	"$NTPROF" --help >/dev/full 2>"$TMP/err"
	rc=$?
	out=
	err=$(<"$TMP/err")
	[ "$rc" = 1 ] && [ -n "$err" ] || { diag; return 1; }
}

t_man_groff() {
	desc="the man page renders without warnings (groff -man -ww -z)"
	command -v groff >/dev/null ||
		{ skip="not installed: groff (groff-base)"; return 0; }
	err=$(groff -man -ww -z "$MAN_PAGE" 2>&1)
	rc=$?
	out=
	[ "$rc" = 0 ] && [ -z "$err" ] || { diag; return 1; }
}

t_man_man() {
	desc="the man page renders without warnings (man --warnings -l)"
	command -v man >/dev/null ||
		{ skip="not installed: man (man-db)"; return 0; }
	err=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$MAN_PAGE" 2>&1 >/dev/null)
	rc=$?
	out=
	[ "$rc" = 0 ] && [ -z "$err" ] || { diag; return 1; }
}

t_man_commands() {
	desc="the man page documents every command"
	local c

	for c in "${COMMANDS[@]}"; do
		grep -Eq "^\.BR? $c( |\$)" "$MAN_PAGE" ||
			{ echo "# no '.B $c' in $MAN_PAGE"; return 1; }
	done
}

# complete WORDS...: the completions bash offers for the last word.
complete_words() {
	bash -c '
		source "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_ntprof
		echo "${COMPREPLY[*]}"
	' complete "$COMPLETION" "$@"
}

t_completion() {
	desc="bash completion offers the commands and their options"
	local got

	got=$(complete_words ntprof st)
	[ "$got" = status ] || { echo "# 'ntprof st': $got"; return 1; }
	got=$(complete_words ntprof "")
	[ "$got" = "${COMMANDS[*]}" ] || { echo "# 'ntprof ': $got"; return 1; }
	got=$(complete_words ntprof --v)
	[ "$got" = --version ] || { echo "# 'ntprof --v': $got"; return 1; }
	got=$(complete_words ntprof status --h)
	[ "$got" = --help ] || { echo "# 'ntprof status --h': $got"; return 1; }
	got=$(complete_words ntprof help v)
	[ "$got" = version ] || { echo "# 'ntprof help v': $got"; return 1; }
	got=$(complete_words ntprof p)
	[ "$got" = probe ] || { echo "# 'ntprof p': $got"; return 1; }
	got=$(complete_words ntprof record -r "")
	[ "$got" = "host target host,target" ] || { echo "# 'ntprof record -r ': $got"; return 1; }
	got=$(complete_words ntprof probe -r "")
	[ "$got" = "host target" ] || { echo "# 'ntprof probe -r ': $got"; return 1; }
	got=$(complete_words ntprof probe --transport "")
	[ "$got" = "tcp rdma tcp,rdma" ] || { echo "# 'ntprof probe --transport ': $got"; return 1; }
	got=$(complete_words ntprof record --op "")
	[ "$got" = "read write other" ] || { echo "# 'ntprof record --op ': $got"; return 1; }
	got=$(complete_words ntprof record --max)
	[ "$got" = --max-size ] || { echo "# 'ntprof record --max': $got"; return 1; }
	got=$(complete_words ntprof record --ch)
	[ "$got" = --chain ] || { echo "# 'ntprof record --ch': $got"; return 1; }
	got=$(complete_words ntprof record --chain =)
	[ "$got" = md ] || { echo "# 'ntprof record --chain=': $got"; return 1; }
	got=$(complete_words ntprof record --chain = m)
	[ "$got" = md ] || { echo "# 'ntprof record --chain=m': $got"; return 1; }
	got=$(complete_words ntprof probe -)
	[ "$got" = "-r -t -h --role --transport --spdk-target --spdk-host --help" ] ||
		{ echo "# 'ntprof probe -': $got"; return 1; }
}

t_completion_outputs() {
	desc="bash completion offers no .ntp file after --html, --csv, --by, --timeline, --hist=, --tail="
	local got words

	mkdir -p "$TMP/c/dir" && touch "$TMP/c/run.ntp" "$TMP/c/page.html" || return 1
	for words in "report --html" "report --csv" "compare --html" \
		     "report --by" "report --timeline" "report --hist =" \
		     "report --hist" "report --tail =" "report --tail"; do
		# shellcheck disable=SC2086
		got=$(cd "$TMP/c" && complete_words ntprof $words "")
		case $words in
		"report --hist"|"report --tail")
			# A word after a space is a file: there, recordings.
			[[ $got == *run.ntp* ]] ;;
		*)
			[[ $got != *.ntp* ]] ;;
		esac || { echo "# 'ntprof $words ': $got"; return 1; }
	done
	got=$(cd "$TMP/c" && complete_words ntprof report --html "")
	[ "$got" = "dir page.html" ] || { echo "# 'report --html ': $got"; return 1; }
	got=$(complete_words ntprof report --by op,s)
	[ "$got" = op,size ] || { echo "# 'report --by op,s': $got"; return 1; }
	got=$(complete_words ntprof report --hist = stor)
	[ "$got" = "storage storage_target_block_layer storage_drive" ] ||
		{ echo "# 'report --hist=stor': $got"; return 1; }
}

t_help_options() {
	desc="probe, record, report and compare --help describe each of their options"
	local o

	run probe --help
	for o in --role --transport --spdk-target --spdk-host --help; do
		[[ $out == *"$o"* ]] || { echo "# probe: $o"; return 1; }
	done
	run record --help
	for o in --role --transport --output --sample --interval --duration \
		 --dev --op --min-size --max-size --spdk-target --spdk-host \
		 --prom --stages-only --chain --help; do
		[[ $out == *"$o"* ]] || { echo "# record: $o"; return 1; }
	done
	run report --help
	for o in --detail --json --csv --html --hist --tail --by --timeline \
		 --help; do
		[[ $out == *"$o"* ]] || { echo "# report: $o"; return 1; }
	done
	run compare --help
	for o in --detail --json --html --match --help; do
		[[ $out == *"$o"* ]] || { echo "# compare: $o"; return 1; }
	done
}

t_man_options() {
	desc="the man page documents the options of probe, record, report and compare"
	local o pat

	for o in role transport output sample interval duration dev op \
		 min-size max-size spdk-target spdk-host prom stages-only chain \
		 detail json csv hist tail by timeline html match; do
		# ".BR \-r ", " \-\-role" in roff, which escapes each hyphen.
		pat=${o//-/'[\]-'}
		grep -q -- "^\.BR\? .*[\\]-[\\]-$pat\b" "$MAN_PAGE" ||
			{ echo "# no --$o in $MAN_PAGE"; return 1; }
	done
}

t_report_usage() {
	desc="report without a file, with an unknown option: usage errors, exit 1"
	usage_fails report "no recording given" &&
	usage_fails report "unknown option '--bogus'" --bogus x.ntp &&
	usage_fails report "unknown option '-x'" -x x.ntp
}

t_compare_usage() {
	desc="compare with one run or three: usage errors, exit 1"
	usage_fails compare "needs two runs, BASE and LOAD" a.ntp &&
	usage_fails compare "unexpected argument 'c.ntp'" a.ntp b.ntp c.ntp &&
	usage_fails compare "an empty file name in a list of recordings" \
		a.ntp, b.ntp
}

t_run_usage() {
	desc="run without a program, with a bad option or transport: usage errors, exit 1"
	usage_fails run "which program?*" &&
	usage_fails run "which program?*" -t tcp &&
	usage_fails run "unknown option '--bogus'" --bogus -- /bin/true &&
	usage_fails run "-t takes tcp or rdma" -t tcp,rdma -- /bin/true
}

t_run_host_by_args() {
	desc="run -- PROGRAM -r 'trtype:RDMA ...' without -r, -t: resolved as a host over RDMA"
	# The tool has neither side's sites: the missing one named is the
	# host's of the transport its arguments name, not the target's.
	run run --agent /dev/null -- "$NTPROF" -r 'trtype:RDMA adrfam:IPv4 traddr:10.0.0.1'
	[ "$rc" = 1 ] && [ -z "$out" ] &&
		[[ $err == *"the required site nvme_rdma_qpair_submit_request is missing"* ]] ||
		{ diag; return 1; }
	run run -r host --agent /dev/null -- "$NTPROF" -r 'trtype=tcp traddr=10.0.0.1'
	[ "$rc" = 1 ] &&
		[[ $err == *"the required site nvme_tcp_qpair_submit_request is missing"* ]] ||
		{ diag; return 1; }
	run run -r host --agent /dev/null -- "$NTPROF"
	[ "$rc" = 1 ] && [[ $err == *"give -t tcp or -t rdma"* ]] ||
		{ diag; return 1; }
}

t_run_not_spdk() {
	desc="run of a program that is not SPDK, or not there: one line why, nothing started, exit 1"
	run run -- "$TMP/no-such-program"
	[ "$rc" = 1 ] && [ -z "$out" ] &&
		[ "$err" = "ntprof: run: $TMP/no-such-program: No such file or directory" ] ||
		{ diag; return 1; }
	run run --agent "$TMP/no-such-lib.so" -- "$NTPROF"
	[ "$rc" = 1 ] && [[ $err == *"the agent's library $TMP/no-such-lib.so: No such file or directory" ]] ||
		{ diag; return 1; }
	# The tool itself has DWARF but no SPDK function: named, not started.
	run run --agent /dev/null -- "$NTPROF" version
	[ "$rc" = 1 ] && [ -z "$out" ] &&
		[[ $err == *"the required site spdk_nvmf_request_exec is missing in this binary"* ]] ||
		{ diag; return 1; }
}

t_report_missing_file() {
	desc="report of a file that is not there: one line naming it, exit 1"
	run report "$TMP/none.ntp"
	[ "$rc" = 1 ] && [ -z "$out" ] && [[ $err == "ntprof: report: $TMP/none.ntp: "* ]] &&
		[ "$(echo "$err" | wc -l)" = 1 ] || { diag; return 1; }
}

t_report_not_a_recording() {
	desc="report and compare of a text file: one line naming it, exit 1"
	echo "not a recording" > "$TMP/text.ntp"
	run report "$TMP/text.ntp"
	[ "$rc" = 1 ] && [ -z "$out" ] && [[ $err == "ntprof: report: $TMP/text.ntp: "* ]] &&
		[ "$(echo "$err" | wc -l)" = 1 ] || { diag; return 1; }
	run compare "$TMP/text.ntp" "$TMP/text.ntp"
	[ "$rc" = 1 ] && [ -z "$out" ] && [[ $err == "ntprof: compare: $TMP/text.ntp: "* ]] ||
		{ diag; return 1; }
}

t_report_same_file_twice() {
	desc="report of one file given twice: refused, exit 1"
	echo "not a recording" > "$TMP/twice.ntp"
	run report "$TMP/twice.ntp" "$TMP/twice.ntp"
	[ "$rc" = 1 ] && [ "$err" = "ntprof: report: $TMP/twice.ntp is given twice" ] ||
		{ diag; return 1; }
}

t_report_optional_spaced() {
	desc="report --tail 99, --hist storage (a space for '='): 'write --tail=99', exit 1"
	usage_fails report "--tail takes its value after '=': write --tail=99" \
		--tail 99 "$TMP/none.ntp" &&
	usage_fails report "--hist takes its value after '=': write --hist=storage" \
		--hist storage "$TMP/none.ntp" || return 1
	# A file after the option is a file: --tail's default, then the file.
	run report --tail "$TMP/none.ntp"
	[ "$rc" = 1 ] && [[ $err == "ntprof: report: $TMP/none.ntp: "* ]] ||
		{ diag; return 1; }
}

# The t_* functions, in the order they are written.
tests=$(sed -n 's/^\(t_[a-z_]*\)() {$/\1/p' "${BASH_SOURCE[0]}")
echo "TAP version 13"
echo "1..$(echo "$tests" | wc -l)"
n=0
failed=0
for t in $tests; do
	n=$((n + 1))
	desc=$t
	skip=
	if $t; then
		echo "ok $n - $desc${skip:+ # SKIP $skip}"
	else
		echo "not ok $n - $desc"
		failed=$((failed + 1))
	fi
done
echo "test_tool: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
