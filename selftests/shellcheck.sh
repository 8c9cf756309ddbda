#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make shellcheck: run ShellCheck over every shell script of the tree,
# with the project's policy in .shellcheckrc. A script is a file that git
# tracks (or would track: new files count before they are committed)
# whose name ends in .sh, or whose first line is a sh or bash shebang, so
# that a new script is checked without being listed anywhere.
#
# usage: shellcheck.sh [--list] [DIR]
# DIR is the top of a git work tree (this tree by default); --list
# prints the scripts instead of checking them. Exits 0 when ShellCheck
# finds nothing, 1 when it finds something, 2 when it cannot run.

set -uo pipefail

list=0
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
top=${1:-$(dirname "$0")/..}
cd "$top" || exit 2

# scripts: the scripts' paths, one a line, relative to the top.
scripts() {
	local f line

	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			[ -f "$f" ] && [ ! -L "$f" ] || continue
			case "$f" in
			*.sh) echo "$f"; continue ;;
			esac
			IFS= read -r line < "$f" || continue
			case "$line" in
			'#!'*/sh | '#!'*/bash | '#!'*/sh\ * | '#!'*/bash\ * | \
			'#!'*'/env sh'* | '#!'*'/env bash'*)
				echo "$f" ;;
			esac
		done
}

if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	echo "shellcheck.sh: $PWD is not a git work tree" >&2
	exit 2
fi
if [ "$list" = 1 ]; then
	scripts
	exit 0
fi
if ! command -v shellcheck > /dev/null; then
	echo "shellcheck.sh: shellcheck is not installed (selftests/lab/install-deps.sh)" >&2
	exit 2
fi
mapfile -t files < <(scripts)
if [ "${#files[@]}" -eq 0 ]; then
	echo "shellcheck.sh: no shell script found in $PWD" >&2
	exit 2
fi
# gcc's format: one line a finding, FILE:LINE:COLUMN: level: text [SCnnnn].
shellcheck -f gcc "${files[@]}"
rc=$?
[ "$rc" -le 1 ] || exit 2
echo "shellcheck: ${#files[@]} scripts, $([ "$rc" = 0 ] && echo clean || echo findings above)" >&2
exit "$rc"
