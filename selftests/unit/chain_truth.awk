# SPDX-License-Identifier: GPL-2.0
#
# Checks 'ntprof report --csv' rows of an 'ntpgen --chain' run against
# its truth.csv: each hop row of the truth (a host record and the target
# record of the same command) must be a CSV row of that host record with
# that target record joined to it.
#
# usage: awk -F, -v from=NAME -f chain_truth.awk truth.csv rows.csv
#   from   only the hops whose host record is of this recording (e.g.
#          "host", "middle-host"); empty: every hop
# Prints "hops N right R wrong W missing M twins T twins_wrong TW dups D"
# (D: hops whose host record's key another hop has too) and
# the first wrong ones. A twin is a host record with the same identity
# (queue, command id, opcode, LBA, length) as another of its file within
# 10 ms: a write's clones on two legs sent from the same queue and tag;
# the join cannot tell them apart by identity, and they are counted
# apart (twins, twins_wrong) from the others (right, wrong).

function base(p) {
	gsub(/"/, "", p)
	sub(/.*\//, "", p)
	sub(/\.ntp$/, "", p)
	return p
}

FNR == 1 {
	nf++
	if (nf == 2)
		for (i = 1; i <= NF; i++)
			col[$i] = i
	next
}

nf == 1 && $1 == "hop" && (from == "" || $2 == from) {
	k = $2 "," $3 "," $4 "," $5
	# A key twice: the truth cannot name the record (a generator bug).
	dups += k in want
	want[k] = $6 "," $9
	nhop++
	next
}

nf == 2 && $col["role"] == "host" {
	f = base($col["file"])
	k = f "," $col["qid"] "," $col["cid"] "," $col["host_blk_start_ns"]
	if (!(k in want))
		next
	got[k] = base($col["target_file"]) "," \
		 ($col["target_recv_ns"] != "" ? $col["target_recv_ns"] : "-")
	id = f "," $col["qid"] "," $col["cid"] "," $col["opcode"] "," \
	     $col["slba"] "," $col["length"]
	ids[k] = id
	starts[id] = starts[id] " " $col["host_blk_start_ns"]
}

# Whether @k's identity has another record within 10 ms of its start.
function twin(k,    n, s, i, t) {
	split(k, kk, ",")
	t = kk[4]
	n = split(starts[ids[k]], s, " ")
	for (i = 1; i <= n; i++)
		if (s[i] != t && (s[i] - t < 1e7 && t - s[i] < 1e7))
			return 1
	return 0
}

END {
	for (k in want) {
		if (!(k in got)) {
			missing++
			if (missing <= 3)
				print "no row for " k
			continue
		}
		if (twin(k)) {
			twins++
			if (got[k] != want[k])
				twins_wrong++
			continue
		}
		if (got[k] == want[k]) {
			right++
		} else {
			wrong++
			if (wrong <= 3)
				print "wrong: " k " joined to " got[k] \
				      ", truth " want[k]
		}
	}
	printf "hops %d right %d wrong %d missing %d twins %d twins_wrong %d dups %d\n",
	       nhop, right, wrong, missing, twins, twins_wrong, dups
}
