#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The JSON schemas of the --json outputs, Documentation/schemas/*.json,
# and their validator, selftests/json-check.py (python3-jsonschema):
#   - each file is a valid JSON Schema 2020-12, and a broken one is refused;
#   - each schema name the tool prints has its file, whose "schema" is it;
#   - a report and a compare of ntpgen's recordings are valid, and each
#     kind of drift from them (a wrong type, an unknown member, a missing
#     one, an id out of its enum, a null where there is always a number, a
#     member given twice, NaN) fails, naming where.
# test_ntpgen.sh validates every JSON of its cases and views.
#
# usage: test_schemas.sh
# Prints TAP; exits 1 if any test failed.

# shellcheck source=selftests/unit/ntpgen_env.sh disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/ntpgen_env.sh"
SCHEMAS=$TOP/Documentation/schemas
CHECK=$TOP/selftests/json-check.py
REPORT=$SCHEMAS/ntprof-report-1.json
COMPARE=$SCHEMAS/ntprof-compare-2.json

if ! python3 -c 'from jsonschema import Draft202012Validator' 2> /dev/null; then
	ktap_skip_missing "the JSON schemas" \
		"python3-jsonschema (selftests/lab/install-deps.sh installs it)"
	ktap_finished
	exit
fi

t_schemas_valid() {
	local f n=0

	for f in "$SCHEMAS"/*.json; do
		python3 "$CHECK" --schema "$f" || return 1
		n=$((n + 1))
	done
	echo "$n schemas"
	[ "$n" -ge 2 ]
}

# A schema with a type that does not exist, one of another draft: refused.
t_schema_broken() {
	jq '.properties.sample.type = "count"' "$REPORT" > "$TMP/broken.json" &&
		! python3 "$CHECK" --schema "$TMP/broken.json" &&
		jq '."$schema" = "http://json-schema.org/draft-07/schema#"' \
			"$REPORT" > "$TMP/draft7.json" &&
		! python3 "$CHECK" --schema "$TMP/draft7.json" &&
		! python3 "$CHECK" "$TMP/broken.json" "$REPORT"
}

# Each "ntprof-NAME/V" the tool's sources define has
# Documentation/schemas/ntprof-NAME-V.json, whose "schema" is that name;
# and each file is one of them.
t_schema_names() {
	local names name file n=0

	names=$(grep -rhoE '#define NTPROF_[A-Z_]+_SCHEMA[[:space:]]+"[^"]+"' \
		"$TOP/tools/ntprof" | sed -E 's/.*"([^"]+)"/\1/' | sort -u)
	[ -n "$names" ] || { echo "no schema name in the sources"; return 1; }
	for name in $names; do
		file=$SCHEMAS/${name//\//-}.json
		[ -f "$file" ] || { echo "$name: no $file"; return 1; }
		[ "$(jq -r '.properties.schema.const' "$file")" = "$name" ] ||
			{ echo "$file: its schema is not $name"; return 1; }
		n=$((n + 1))
	done
	[ "$(find "$SCHEMAS" -name '*.json' | wc -l)" = "$n" ] ||
		{ echo "a file in $SCHEMAS names no schema of the tool"; return 1; }
}

# The documents the drifts below start from, valid.
t_valid() {
	"$NTPGEN" -n 3000 --seed 41 "$TMP/b-h.ntp" "$TMP/b-t.ntp" > /dev/null &&
		"$NTPGEN" -n 3000 --storage-us 200 --seed 42 \
			"$TMP/l-h.ntp" "$TMP/l-t.ntp" > /dev/null || return 1
	"$NTPROF" report --json --tail --hist --timeline 0.001 --by op,queue \
		"$TMP/b-h.ntp" "$TMP/b-t.ntp" > "$TMP/report.json" &&
		"$NTPROF" compare --json --detail "$TMP/b-h.ntp,$TMP/b-t.ntp" \
			"$TMP/l-h.ntp,$TMP/l-t.ntp" > "$TMP/compare.json" &&
		python3 "$CHECK" "$REPORT" "$TMP/report.json" &&
		python3 "$CHECK" "$COMPARE" "$TMP/compare.json" &&
		! python3 "$CHECK" "$COMPARE" "$TMP/report.json" > /dev/null
}

# drift SCHEMA DOC WHERE JQ: DOC changed by JQ must fail against SCHEMA,
# with WHERE (a JSONPath) in the error.
drift() {
	local schema=$1 doc=$2 where=$3 out

	jq "$4" "$doc" > "$TMP/drift.json" || return 1
	if out=$(python3 "$CHECK" "$schema" "$TMP/drift.json"); then
		echo "valid after $4"
		return 1
	fi
	echo "$out"
	grep -qF "at $where:" <<< "$out"
}

# drift_text SCHEMA DOC SED WORD: DOC changed as text by SED (what jq
# cannot write) must fail, with WORD in the error.
drift_text() {
	local out

	sed "$3" "$2" > "$TMP/drift.json" || return 1
	cmp -s "$2" "$TMP/drift.json" && { echo "sed $3 changed nothing"; return 1; }
	out=$(python3 "$CHECK" "$1" "$TMP/drift.json") && { echo "valid after $3"; return 1; }
	echo "$out"
	grep -q "$4" <<< "$out"
}

t_usage() {
	python3 "$CHECK" "$REPORT" 2> /dev/null
	[ $? = 2 ]
}

ktap_check "every schema file is a valid JSON Schema 2020-12" t_schemas_valid
ktap_check "a broken schema, or one of another draft, is refused" t_schema_broken
ktap_check "each schema name of the tool has its file, and no file more" t_schema_names
if ktap_check "report and compare --json are valid, each against its own alone" t_valid; then
	R=$TMP/report.json
	C=$TMP/compare.json
	ktap_check "drift: a count as a string" \
		drift "$REPORT" "$R" '$.groups[0].n' '.groups[0].n |= tostring'
	ktap_check "drift: an unknown member of a stage" \
		drift "$REPORT" "$R" '$.groups[0].stages[0]' '.groups[0].stages[0].p42 = 1'
	ktap_check "drift: an unknown member at the top" \
		drift "$REPORT" "$R" '$' '.extra = {}'
	ktap_check "drift: a member missing" \
		drift "$REPORT" "$R" '$.records' 'del(.records.matched)'
	ktap_check "drift: a stage id out of the enum" \
		drift "$REPORT" "$R" '$.groups[0].stages[1].id' '.groups[0].stages[1].id = "driver"'
	ktap_check "drift: a component id out of the enum" \
		drift "$REPORT" "$R" '$.groups[0].components[0].id' '.groups[0].components[0].id = "wire"'
	ktap_check "drift: a kind out of the enum" \
		drift "$REPORT" "$R" '$.groups[0].kind' '.groups[0].kind = "both"'
	ktap_check "drift: another schema name" \
		drift "$REPORT" "$R" '$.schema' '.schema = "ntprof-report/2"'
	ktap_check "drift: a view's member of the wrong type" \
		drift "$REPORT" "$R" '$.histograms.groups[0].buckets[0].count' '.histograms.groups[0].buckets[0].count = 1.5'
	ktap_check "drift: a timeline's stage that does not exist" \
		drift "$REPORT" "$R" '$.timeline.groups[0].slices[0].stages_us' '.timeline.groups[0].slices[0].stages_us.wire = 1'
	ktap_check "drift: a null where there is always a number (a tail's threshold)" \
		drift "$REPORT" "$R" '$.tail.groups[0].threshold_us' '.tail.groups[0].threshold_us = null'
	ktap_check "drift: --by's queue negative" \
		drift "$REPORT" "$R" '$.groups[0].queue' '.groups[0].queue = -1'
	ktap_check "drift: compare's largest change null" \
		drift "$COMPARE" "$C" '$.groups[0].largest' '.groups[0].largest.delta_us = null'
	ktap_check "drift: compare --detail's component in a stage that does not exist" \
		drift "$COMPARE" "$C" '$.groups[0].components[0].stage' '.groups[0].components[0].stage = "wire"'
	ktap_check "drift: an unknown member of a compare row" \
		drift "$COMPARE" "$C" '$.groups[0].stages[0]' '.groups[0].stages[0].p42 = 1'
	ktap_check "drift: compare without its end_to_end row" \
		drift "$COMPARE" "$C" '$.groups[0].stages' '.groups[0].stages |= map(select(.id != "end_to_end"))'
	ktap_check "drift: compare's side out of the enum" \
		drift "$COMPARE" "$C" '$.groups[0].side' '.groups[0].side = "both"'
	ktap_check "drift: a member given twice" \
		drift_text "$REPORT" "$R" '0,/"sample": /s//"sample": 1,\n  "sample": /' "given twice"
	ktap_check "drift: NaN in place of null" \
		drift_text "$REPORT" "$R" '0,/"duration_s": [0-9.]*/s//"duration_s": NaN/' "NaN is not JSON"
fi
ktap_check "json-check.py without a file is a usage error (2)" t_usage

ktap_finished
