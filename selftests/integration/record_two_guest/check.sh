# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The check of record --prom's file, on the machine that ran the lab: run
# by lab_check with the run's share (record-two-host.sh wrote host.prom).
# promtool, of Debian's prometheus package, is the judge of the format.
share=$1
if ! command -v promtool > /dev/null; then
	ktap_fail "promtool is installed (selftests/lab/install-deps.sh)"
elif promtool check metrics < "$share/host.prom" > "$share/promtool.out" 2>&1; then
	ktap_pass "promtool check metrics accepts record --prom's file"
else
	ktap_fail "promtool check metrics accepts record --prom's file"
	sed 's/^/# /' "$share/promtool.out"
fi
