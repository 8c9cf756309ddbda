#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Documentation/*.rst as a reader gets them: each one builds with
# docutils (Debian's python3-docutils) without a warning, so a table cut
# out of shape or a broken reference fails here, not in a reader's hands.
# Prints TAP; exits 1 if any test failed.

set -u

UNIT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DOC_DIR=$(cd "$UNIT_DIR/../../Documentation" && pwd)
. "$UNIT_DIR/../ktap.sh"
# Debian's python3 (the one python3-docutils installs into), whatever
# python3 comes first in PATH.
PYTHON=${DOCS_PYTHON:-/usr/bin/python3}

ktap_header
if ! "$PYTHON" -c 'import docutils.core' 2> /dev/null; then
	ktap_skip_missing "Documentation/*.rst build without a warning" \
		"python3-docutils (selftests/lab/install-deps.sh installs it)"
	ktap_finished
	exit
fi
for f in "$DOC_DIR"/*.rst; do
	name=Documentation/$(basename "$f")
	if out=$("$PYTHON" - "$f" 2>&1 <<'PY'
import sys
import docutils.core
with open(sys.argv[1], encoding="utf-8") as src:
    docutils.core.publish_string(src.read(), source_path=sys.argv[1],
        writer_name="null",
        settings_overrides={"halt_level": 2, "report_level": 2})
PY
	); then
		ktap_pass "$name builds without a warning"
	else
		ktap_fail "$name builds without a warning"
		tail -n 5 <<< "$out" | sed 's/^/# /'
	fi
done
echo "1..$KTAP_COUNT"
[ "$KTAP_FAILED" -eq 0 ]
