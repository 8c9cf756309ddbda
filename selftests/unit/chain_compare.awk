# SPDX-License-Identifier: GPL-2.0
#
# Compares the report's trees (chain_trees, directories taken off the
# paths) with the truth's (chain_trees.awk), line by line: both are in
# the origin file's order, one line a command.
#
# usage: awk -v got=GOT.txt -f chain_compare.awk WANT.txt
# Prints "trees N same S unlinked U wrong W": S exactly the truth's; U
# only short of nodes the truth has (a downstream command the report did
# not link: it counts those as ambiguous), W with a node or a target
# record the truth does not have, or lines missing on either side. The
# first few that differ follow.

function nodes(line, set,    n, i, a) {
	gsub(/\*/, "", line)
	n = split(line, a, " ")
	for (i = 1; i <= n; i++)
		set[a[i]] = 1
	return n
}

{
	trees++
	if ((getline g < got) <= 0) {
		wrong++
		next
	}
	if (g == $0) {
		same++
		next
	}
	delete w
	delete h
	nodes($0, w)
	nodes(g, h)
	extra = 0
	for (k in h)
		if (!(k in w))
			extra = 1
	if (extra)
		wrong++
	else
		unlinked++
	if (shown++ < 3)
		printf "truth:  %s\nreport: %s\n", $0, g
}

END {
	while ((getline g < got) > 0)
		wrong++
	printf "trees %d same %d unlinked %d wrong %d\n", trees, same,
	       unlinked, wrong
}
