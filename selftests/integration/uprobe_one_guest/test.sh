#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # run.sh reads KERNELS and TOPOLOGY here.
# Userspace sites (uprobes) on one guest, kernel KERNEL (6.1's uprobe API
# predates 6.12's): a program of the tests' own, its offsets taken here
# with nm and readelf.
KERNELS="6.1 6.12"
TOPOLOGY=one
# nm and readelf: uprobe-sites.sh takes the sites' offsets with them.
requires() {
	require_program nm binutils
	require_program readelf binutils
}

. "$(dirname "$0")/../common/lib.sh"
scenario_start "$@"
. ./uprobe-sites.sh
script=$(mktemp "${TMPDIR:-/tmp}/ntprof-uprobe-host.XXXXXX")
trap 'rm -f "$script"' EXIT
uprobe_host_script guest/uprobe-host.sh "$script" || { echo "not ok 1 - uprobe-target's offsets"; exit 1; }
lab_scenario "uprobe-$KERNEL" "$script" guest/uprobe-target.sh
