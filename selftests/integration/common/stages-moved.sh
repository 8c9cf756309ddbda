# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the configuration checkers (configs/check.sh,
# configs_faults/check.sh), on the machine that ran the lab.

# stages_moved LABEL BASE.json STEP.json: for each host group of STEP's
# report, its end to end against BASE's group of the same op and size,
# and the stages that moved by more than 5 %, as lines to print as
# diagnostics ("LABEL read 4096: end to end ...").
stages_moved() {
	jq -rn --slurpfile b "$2" --slurpfile l "$3" --arg name "$1" '
		def host_groups: [.groups[] | select(.side == "host")];
		($b[0] | host_groups) as $bg |
		$l[0] | host_groups[] | . as $g |
		($bg[] | select(.op == $g.op and .size == $g.size)) as $o |
		("\($name) \($g.op) \($g.size): end to end \($o.latency_us.mean) -> \($g.latency_us.mean) us"),
		($g.stages[] | . as $s | ($o.stages[] | select(.id == $s.id)) as $os |
		 select($os.mean_us > 0) |
		 (($s.mean_us - $os.mean_us) / $os.mean_us * 100) as $p |
		 select($p > 5 or $p < -5) |
		 "  \($s.id) \($os.mean_us) -> \($s.mean_us) us (\($p | . * 10 | round / 10) %)")'
}
