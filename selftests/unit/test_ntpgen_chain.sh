#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ntpgen --chain against its own truth, through 'ntprof report': a chain
# (origin host -> middle, nvmet over md raid1 -> two replicas, each
# machine on its own clock) with splits, resync and superblock writes and
# a slow leg is read by report without an error; each hop's joins are
# the truth's, record by record: the origin's host records with the
# middle's target records, in the whole chain's report, and the middle's
# host records with the replicas' target records (a write's clones on two
# legs share queue, command id and LBA: they must still be joined each to
# its own leg's replica); each origin command's tree as the report's
# chain analysis follows it (chain_trees.c) is the truth's: every record
# of every hop, every link (splits' parts too) and the critical path; the
# middle's own commands are counted without upstream; at -s 8 every
# machine picks the same commands by the chain rule (the downstream
# commands of every sampled command and no others), which the hop rule
# (--no-chain-rule) does not, and every tree is whole; the slow leg is
# the writes' critical leg; reads go to one leg, the least busy or in
# turn; both legs' replicas on one machine (two subsystems) are told
# apart; a chain of three hops is read and followed
# too; bad options are refused with one line.
#
# usage: test_ntpgen_chain.sh    Prints TAP; exits 1 if any test failed.

# Each test is "checks && ... || { diag; return 1; }".
# shellcheck disable=SC2015

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
TRUTH_AWK=$UNIT_DIR/chain_truth.awk
TREES=$UNIT_DIR/chain_trees
make -s -C "$UNIT_DIR" chain_trees >&2 ||
	{ echo "Bail out! cannot build chain_trees"; exit 1; }
# md's data offset of the chains here (ntpgen's default).
OFF=4096

# chain DIR ARGS...: an ntpgen chain in $TMP/DIR; a failure is a Bail out.
chain() {
	local d=$TMP/$1

	shift
	"$NTPGEN" --quiet --chain "$@" "$d" ||
		{ echo "Bail out! ntpgen --chain $* failed"; exit 1; }
}

# csv OUT FILE...: report --csv of FILE... into OUT; its exit status.
csv() {
	local out=$1

	shift
	"$NTPROF" report --csv "$out" "$@" > /dev/null 2> "$out.err" ||
		{ echo "ntprof report exited $?: $(head -n 3 "$out.err")"; return 1; }
}

# hops_right DIR FROM CSV: every hop of the truth from recording FROM is
# a row of CSV with its target record; prints the counts.
hops_right() {
	local r

	r=$(awk -F, -v from="$2" -f "$TRUTH_AWK" "$TMP/$1/truth.csv" "$3")
	echo "$2: $r"
	awk '/^hops / { exit !($2 > 0 && $6 == 0 && $8 == 0 && $12 == 0 &&
			       $14 == 0 && $4 + $10 == $2) }' <<< "$r"
}

# trees_right DIR: each origin command's tree as the report's chain
# analysis follows it (chain_trees) is the truth's: the same records at
# every hop, the same links, the same critical path.
trees_right() {
	local d=$TMP/$1 r

	awk -F, -f "$UNIT_DIR/chain_trees.awk" "$d/truth.csv" > "$d/want.txt" &&
		"$TREES" "$d"/*.ntp > "$d/got.raw" 2> "$d/got.err" ||
		{ echo "chain_trees failed: $(cat "$d/got.err")"; return 1; }
	sed 's#[^ :>]*/##g' "$d/got.raw" > "$d/got.txt"
	r=$(awk -v got="$d/got.txt" -f "$UNIT_DIR/chain_compare.awk" "$d/want.txt")
	echo "$1: $r"
	awk '/^trees / { exit !($2 > 0 && $2 == $4) }' <<< "$r"
}

# A span of 1 TiB: two commands in flight on the same LBAs, which the
# report rightly leaves unlinked (ambiguous), are then unlikely.
chain a -n 20000 --split-pct 20 --unlinked-pct 2 --slow-leg 1:200 --seed 3 \
	--span 1T

t_files() {
	local f

	for f in host middle-target middle-host leg0-target leg1-target; do
		[ -s "$TMP/a/$f.ntp" ] || { echo "no $f.ntp"; return 1; }
	done
	[ "$(head -n 1 "$TMP/a/truth.csv")" = \
	  "kind,from,from_qid,from_cid,from_ts,to,to_qid,to_cid,to_ts,leg,part,parts,critical,what,from_idx,to_idx" ] &&
		grep -q '^link,.*,[0-3],4,[01],write,[0-9]*,[0-9]*$' "$TMP/a/truth.csv" &&
		grep -q '^unlinked,middle-host,.*,resync,[0-9]*,$' "$TMP/a/truth.csv" &&
		grep -q '^unlinked,middle-host,.*,superblock,[0-9]*,$' "$TMP/a/truth.csv" ||
		{ echo "truth.csv lacks its header, splits or unlinked rows"; return 1; }
}
ktap_check "chain: the five recordings and a truth with splits and unlinked commands" t_files

t_reads() {
	"$NTPROF" report "$TMP/a" > "$TMP/a.txt" 2> "$TMP/a.err" ||
		{ echo "report exited $?: $(cat "$TMP/a.err")"; return 1; }
	grep -q 'ntpgen-middle' "$TMP/a.txt" ||
		{ echo "no middle in the report"; return 1; }
}
ktap_check "chain: report reads the chain's directory without an error" t_reads

# Hop 1 in the whole chain's report: the origin's records are joined to
# the middle's target records, none to a replica's. Over 1 GiB of LBAs
# some origin commands share a replica's identity (its LBA minus md's
# offset being another command's); over 128 MiB more often.
chain b -n 20000 --seed 3 --span 128M
t_hop1() {
	csv "$TMP/a1.csv" "$TMP/a" && hops_right a host "$TMP/a1.csv" &&
		csv "$TMP/b1.csv" "$TMP/b" && hops_right b host "$TMP/b1.csv"
}
ktap_check "chain: hop 1 (origin host -> middle target) joined as the truth says" t_hop1

# Hop 2 as a plain hop: the middle's host side with the replicas.
t_hop2() {
	csv "$TMP/a2.csv" "$TMP/a/middle-host.ntp" "$TMP/a/leg0-target.ntp" \
		"$TMP/a/leg1-target.ntp" &&
		hops_right a middle-host "$TMP/a2.csv"
}
ktap_check "chain: hop 2 (middle host -> each leg's replica) joined as the truth says" t_hop2

t_trees() {
	trees_right a
}
ktap_check "chain: every origin command's tree (records, links, critical leg) is the truth's" t_trees

# The middle's own commands (resync, superblock): no upstream, counted.
t_unlinked() {
	local want got amb

	"$NTPROF" report --json "$TMP/a" > "$TMP/a.json" 2> "$TMP/a.err" ||
		{ echo "report --json exited $?: $(cat "$TMP/a.err")"; return 1; }
	want=$(grep -c '^unlinked,' "$TMP/a/truth.csv")
	got=$(sed -n 's/^ *"no_upstream": \([0-9]*\),*$/\1/p' "$TMP/a.json")
	amb=$(sed -n 's/^ *"ambiguous": \([0-9]*\),*$/\1/p' "$TMP/a.json")
	echo "no upstream: $got, truth $want; ambiguous $amb"
	[ "$want" -gt 0 ] && [ "$got" = "$want" ] && [ "$amb" = 0 ]
}
ktap_check "chain: the middle's resync and superblock writes counted without upstream" t_unlinked

# Both legs' replicas on one machine, as the lab has them: one target
# recording of two subsystems, to which the middle sends a write's two
# clones with the same queue, command id and LBA; only the subsystem
# tells which replica record is whose.
chain one -n 20000 --one-replica --span 1T --seed 11
t_one_replica() {
	[ -s "$TMP/one/replicas-target.ntp" ] ||
		{ echo "no replicas-target.ntp"; return 1; }
	csv "$TMP/one2.csv" "$TMP/one/middle-host.ntp" \
		"$TMP/one/replicas-target.ntp" &&
		hops_right one middle-host "$TMP/one2.csv" && trees_right one
}
ktap_check "chain: both replicas on one machine, each clone joined to its own subsystem's record" t_one_replica

# The slow leg (1, 200 us more) completes last for the writes.
t_critical() {
	awk -F, '$1 == "link" && $14 == "write" && $13 == 1 {
		n++; slow += $10 == 1 }
	END { printf "%d of %d writes critical on the slow leg\n", slow, n
	      exit !(n > 1000 && slow >= 0.99 * n) }' "$TMP/a/truth.csv"
}
ktap_check "chain: the slow leg is the writes' critical leg" t_critical

# Reads go to one leg: least-busy (md on SSDs) sends most to the fast
# leg; alternate, as many to each.
chain alt -n 5000 --slow-leg 1:200 --read-policy alternate --seed 9
reads_per_leg() {
	awk -F, '$1 == "link" && $14 == "read" { n[$10]++ }
		END { print n[0] + 0, n[1] + 0 }' "$TMP/$1/truth.csv"
}
t_reads_legs() {
	local a b c d

	read -r a b <<< "$(reads_per_leg a)"
	read -r c d <<< "$(reads_per_leg alt)"
	echo "least-busy: $a on leg 0, $b on the slow leg 1; alternate: $c and $d"
	[ "$a" -gt $((2 * b)) ] && [ "$c" -gt 0 ] &&
		[ $((c - d)) -le 1 ] && [ $((d - c)) -le 1 ]
}
ktap_check "chain: reads to one leg, least-busy or alternate" t_reads_legs

# volumes CSV OFFSET: the commands of CSV's host rows as "op lba nlb" in
# the volume's LBAs (OFFSET taken out), one a line, sorted and unique;
# fails if a host row has no target record.
volumes() {
	awk -F, -v off="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["role"] == "host" {
			if ($col["target_file"] == "") { bad++; next }
			print $col["opcode"], $col["slba"] - off, $col["length"] }
		END { if (bad) { print bad " host rows without a target record" > "/dev/stderr"; exit 1 } }' "$1" |
		sort -u
}

# same_sample DIR: at -s 8, the origin's sampled commands are exactly
# those whose downstream commands the middle and the replicas recorded.
same_sample() {
	local d=$TMP/$1

	csv "$d/h1.csv" "$d/host.ntp" "$d/middle-target.ntp" &&
		csv "$d/h2.csv" "$d/middle-host.ntp" "$d/leg0-target.ntp" \
			"$d/leg1-target.ntp" || return 1
	volumes "$d/h1.csv" 0 > "$d/up" && volumes "$d/h2.csv" "$OFF" > "$d/down" ||
		return 1
	echo "$1: $(wc -l < "$d/up") commands upstream, $(wc -l < "$d/down") downstream," \
	     "$(comm -3 "$d/up" "$d/down" | wc -l) on one side only"
	[ -s "$d/up" ] && cmp -s "$d/up" "$d/down"
}

chain s8 -n 40000 -s 8 --seed 5 --span 1T
chain s8hop -n 40000 -s 8 --seed 5 --span 1T --no-chain-rule
t_sample() {
	same_sample s8 && trees_right s8 || return 1
	# The hop rule, on each hop's own identity, must not pass the check.
	if same_sample s8hop; then
		echo "the hop rule's files passed the chain rule's check"
		return 1
	fi
}
ktap_check "chain: at -s 8 every machine picks the same commands by the chain rule" t_sample

chain h3 -n 5000 --hops 3 --seed 7 --span 1T --split-pct 20
t_hops3() {
	local f

	for f in leg0-host leg0.0-target leg0.1-target; do
		[ -s "$TMP/h3/$f.ntp" ] || { echo "no $f.ntp"; return 1; }
	done
	csv "$TMP/h3a.csv" "$TMP/h3" && hops_right h3 host "$TMP/h3a.csv" &&
		csv "$TMP/h3b.csv" "$TMP/h3/leg0-host.ntp" \
			"$TMP/h3/leg0.0-target.ntp" "$TMP/h3/leg0.1-target.ntp" &&
		hops_right h3 leg0-host "$TMP/h3b.csv" && trees_right h3
}
ktap_check "chain: three hops (leg 0 a middle itself) read and joined as the truth says" t_hops3

# refused ARGS... WORDS: ntpgen ARGS exits 2 with one line of error
# naming WORDS, and writes nothing.
refused() {
	local words=${*: -1} out

	out=$("$NTPGEN" --quiet "${@:1:$#-1}" 2>&1 >/dev/null)
	[ $? = 2 ] && grep -q -- "$words" <<< "$out" ||
		{ echo "ntpgen ${*:1:$#-1}: '$out'"; return 1; }
}
t_refused() {
	refused --chain "$TMP/x" "$TMP/y" "one directory expected" &&
		refused --chain --paths 2 "$TMP/x" "not with --target-sample" &&
		refused --chain --legs 2 --slow-leg 2:10 "$TMP/x" "leg 2 of 2" &&
		refused --chain --hops 4 "$TMP/x" "--hops: '4'" &&
		refused --chain --read-policy random "$TMP/x" "least-busy or alternate" &&
		refused --chain --hops 3 --one-replica "$TMP/x" "not with --hops 3" &&
		[ ! -e "$TMP/x" ]
}
ktap_check "chain: bad options refused with one line, nothing written" t_refused

ktap_finished
