# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the recorder's lab tests: fio jobs that report how many
# commands they issued, and checks over the test client's printed records
# (tab-separated: role transport qid cid opcode nsid slba length flags
# status, then one column per point of enum ntprof_point).

# fio_count DEV RW BS SECONDS: run fio, print "reads writes" it completed.
fio_count() {
	local out

	out=$(fio --name=rec --filename="$1" --rw="$2" --bs="$3" --direct=1 \
		--ioengine=libaio --iodepth=4 --size=256m --runtime="$4" \
		--time_based --output-format=json 2>/dev/null) || return 1
	echo "$out" | awk '/"read" : \{/ { s = "r" } /"write" : \{/ { s = "w" }
		/"total_ios"/ { gsub(/[^0-9]/, "", $3); n[s] += $3; s = "" }
		END { printf "%d %d\n", n["r"], n["w"] }'
}

# Host points in path order, as column numbers (points start at column 11).
# SEND_DONE is left out: an RDMA SEND may complete after the response.
HOST_ORDER="11 12 13 14 15 17 18 19 20 21"
TARGET_ORDER="22 23 24 25 26 27 28 29 30 31"

# out_of_order FILE ROLE: print the records whose points go backwards.
out_of_order() {
	local order=$HOST_ORDER role=1

	[ "$2" = target ] && { order=$TARGET_ORDER; role=2; }
	awk -F'\t' -v order="$order" -v role=$role '
		$1 == role {
			n = split(order, col, " "); last = 0
			for (i = 1; i <= n; i++) {
				t = $(col[i]); if (t == 0) continue
				if (t < last) { print; break }
				last = t
			}
		}' "$1"
}

# count_op FILE OPCODE: records of one NVMe opcode (1 write, 2 read).
count_op() {
	awk -F'\t' -v op="$2" '$5 == op { n++ } END { print n + 0 }' "$1"
}

# identities FILE: the sorted identities (qid cid opcode nsid slba length).
identities() {
	awk -F'\t' '{ print $3, $4, $5, $6, $7, $8 }' "$1" | sort
}

# wait_flag NAME: until the other guest's flag file is in the share (5 min).
wait_flag() {
	local i=0

	while [ ! -e "$NTPROF_LAB_SHARE/$1" ]; do
		[ $i -ge 3000 ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}
