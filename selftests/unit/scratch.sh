# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced first by a unit test in shell that works in a scratch
# directory: it sets UNIT_DIR (this folder) and TOP (the tree's top),
# sources ktap.sh, prints the TAP header, and makes $TMP, which goes when
# the test exits. (scratch.h is the C tests' counterpart.)
# shellcheck disable=SC2034 # the variables are for the test that sources it.

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$UNIT_DIR/../.." && pwd)
# shellcheck source=selftests/ktap.sh
. "$UNIT_DIR/../ktap.sh"

ktap_header
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
