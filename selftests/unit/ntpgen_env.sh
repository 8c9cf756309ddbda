# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the unit tests of reports of ntpgen recordings: the TAP
# header, ntprof and ntpgen built ($NTPROF, $NTPGEN), the tree's top
# ($TOP), and a temporary directory, $TMP, removed at the end unless
# KEEP_TMP is set.
# shellcheck disable=SC2034 # the variables are for the tests that source it.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$UNIT_DIR/../.." && pwd)
# shellcheck source=selftests/ktap.sh disable=SC1091
. "$UNIT_DIR/../ktap.sh"

NTPROF=$TOP/tools/ntprof/ntprof
NTPGEN=$TOP/tools/ntpgen/ntpgen

ktap_header
make -s -C "$TOP/tools/ntprof" ntprof >&2 && make -s -C "$TOP/tools/ntpgen" >&2 ||
	{ echo "Bail out! cannot build ntprof and ntpgen"; exit 1; }

TMP=$(mktemp -d) || exit 1
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT
