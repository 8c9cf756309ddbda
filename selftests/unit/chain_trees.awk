# SPDX-License-Identifier: GPL-2.0
#
# The trees of an 'ntpgen --chain' run's truth.csv, one line per origin
# command in the origin file's order, as chain_trees (the report's chain
# analysis, ntprof_chain_cmd_print()) prints them with the directories
# taken off its paths:
#   1:host.ntp#7>middle-target.ntp#7* 2:middle-host.ntp#9>leg1-target.ntp#4*
# each node "HOP:HOST#I>TARGET#J" ("-" for no target record), children
# after their parent in the order of their first points, a "*" after
# each node on the critical path (the origin's, then at each middle the
# downstream command that completed last).
#
# usage: awk -F, -f chain_trees.awk truth.csv
#
# ntpgen writes an origin command's rows together: its subtree's rows
# (each downstream command's hop and, below a middle, its links), its
# own hop, then its links. A tree is printed at the first row past its
# links, and forgotten: the memory is one tree's.

# The children of upstream record @t at hop @hop, on the critical path
# if @crit.
function children(t, hop, crit,    n, i, j, k, tmp, s, d, tgt) {
	n = nl[t]
	for (i = 1; i <= n; i++)
		ord[i] = i
	# Insertion sort by the downstream record's first point.
	for (i = 2; i <= n; i++) {
		tmp = ord[i]
		for (j = i - 1; j >= 1 && lts[t, ord[j]] + 0 > lts[t, tmp] + 0; j--)
			ord[j + 1] = ord[j]
		ord[j + 1] = tmp
	}
	for (i = 1; i <= n; i++)
		k[i] = ord[i]
	s = ""
	for (i = 1; i <= n; i++) {
		d = ld[t, k[i]]
		tgt = (d in hopto) ? hopto[d] : "-"
		s = s " " hop ":" d ">" tgt (crit && lcrit[t, k[i]] ? "*" : "")
		if (tgt in nl)
			s = s children(tgt, hop + 1, crit && lcrit[t, k[i]])
	}
	return s
}

function flush() {
	if (origin == "")
		return
	print "1:" origin ">" hopto[origin] "*" children(hopto[origin], 2, 1)
	origin = ""
	delete hopto
	delete nl
	delete ld
	delete lts
	delete lcrit
}

FNR == 1 { next }

# Past the origin's links: its tree is whole.
origin != "" && !($1 == "link" && $2 ".ntp#" $15 == hopto[origin]) {
	flush()
}

$1 == "hop" {
	h = $2 ".ntp#" $15
	if ($2 == "host")
		origin = h
	hopto[h] = $16 == "" ? "-" : $6 ".ntp#" $16
	next
}

$1 == "link" {
	t = $2 ".ntp#" $15
	n = ++nl[t]
	ld[t, n] = $6 ".ntp#" $16
	lts[t, n] = $9
	lcrit[t, n] = $13
}

END { flush() }
