# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the tests of reports of ntpgen recordings cut by
# selftests/tools/ntpsplit (test_parts.sh, test_stream.sh): the TAP
# header, the three programs built (ntpgen_env.sh, and ntpsplit), and a
# temporary directory, $TMP, with the host's and the target's
# recordings' paths, $H and $T.
# shellcheck disable=SC2034 # the variables are for the tests that source it.

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
SPLIT=$TOP/selftests/tools/ntpsplit
make -s -C "$TOP/selftests/tools" ntpsplit >&2 ||
	{ echo "Bail out! cannot build ntpsplit"; exit 1; }

H=$TMP/host.ntp
T=$TMP/target.ntp

# ntpgen_cases FN: FN NAME ARGS... for each ntpgen case these tests go
# through: both transports, drifting clocks, reused identities, sampling
# and failures, losses on each side, stale stamps, wrong start stamps,
# files cut short, a slow-down, recordings that outlast their commands
# (the target's the longest), the host's aborted attempts.
ntpgen_cases() {
	"$1" "tcp" -t tcp --seed 1
	"$1" "rdma" -t rdma --seed 2
	"$1" "theta +3 s, drift +200 ppm" -t tcp --theta 3s --drift 200 \
		-q 1 -d 8 --gap-us 500 --seed 3
	"$1" "theta -3 s, drift -200 ppm" -t rdma --theta -3s --drift -200 \
		-q 1 -d 8 --gap-us 500 --seed 4
	"$1" "cids reused, small LBA span" --no-genctr --span 1M -q 2 -d 64 \
		--seed 5
	"$1" "1 in 10 sampled, failed commands" -s 10 --failed-pct 0.2 \
		--seed 6
	"$1" "commands missing on one side" --no-target-pct 10 \
		--no-host-pct 5 --seed 7
	"$1" "other stage means" -t rdma --host-blk-us 2 --host-drv-us 15 \
		--network-us 7 --target-drv-us 30 --storage-us 400 \
		--jitter 0.5 --seed 8
	"$1" "stale receive stamps" -t tcp --stale-recv-pct 0.5 --seed 9
	"$1" "headers' clocks 2 s off" --real-skew 2s --seed 10
	"$1" "cut short" --no-trailer --seed 11
	"$1" "a slow-down mid-run" --gap-us 200 --slow-from 0.05:300 --seed 12
	"$1" "recordings outlasting the run, aborted commands" --linger 1s \
		--aborted-pct 2 --seed 19
}
