#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Validate JSON documents against a JSON Schema 2020-12 file, and check
the numbers of ntprof's report --json that the lab's checkers judge.

usage: json-check.py SCHEMA FILE...
       json-check.py --schema SCHEMA...
       json-check.py CHECK REPORT [OPTIONS]  (CHECK: json-check.py -h)

The first form checks each FILE (- for standard input) against SCHEMA,
one of Documentation/schemas/*.json; the second checks that each SCHEMA
is itself a valid 2020-12 schema. A FILE must be strict JSON: a member
given twice, NaN or Infinity is an error, as the schema cannot see them.
Every error is printed as FILE: at PATH: MESSAGE, PATH in JSONPath
($.groups[0].stages[2].mean_us). Exits 0 when all are valid, 1 when one
is not, 2 on a usage error or without python3-jsonschema (Debian 12's
4.10 is enough).

The third form runs one of the checks of report_checks.py on the report
--json REPORT: each prints what it found, exits 0 when the report passes
it, 1 when it does not, 2 on a usage error or a file that is not JSON.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_checks  # noqa: E402 pylint: disable=wrong-import-position

MAX_ERRORS = 10


def path_of(error):
    """The JSONPath of the error's instance."""
    p = "$"
    for k in error.absolute_path:
        p += "[%d]" % k if isinstance(k, int) else "." + str(k)
    return p


def no_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise ValueError("member %r given twice" % k)
        seen[k] = v
    return seen


def not_json(name):
    raise ValueError("%s is not JSON" % name)


def load(path, strict):
    f = sys.stdin if path == "-" else open(path, encoding="utf-8")
    try:
        if strict:
            return json.load(f, object_pairs_hook=no_duplicates,
                             parse_constant=not_json)
        return json.load(f)
    finally:
        if f is not sys.stdin:
            f.close()


def check_schemas(paths):
    Draft202012Validator = validator_class()
    bad = 0
    for p in paths:
        try:
            s = load(p, False)
            if s.get("$schema") != \
                    "https://json-schema.org/draft/2020-12/schema":
                raise ValueError("$schema is not 2020-12's")
            Draft202012Validator.check_schema(s)
        except Exception as e:  # pylint: disable=broad-except
            print("%s: not a valid 2020-12 schema: %s" %
                  (p, str(e).splitlines()[0]))
            bad = 1
    return bad


def check_files(schema_path, paths):
    Draft202012Validator = validator_class()
    try:
        schema = load(schema_path, False)
        Draft202012Validator.check_schema(schema)
    except Exception as e:  # pylint: disable=broad-except
        print("%s: not a valid schema: %s" %
              (schema_path, str(e).splitlines()[0]))
        return 2
    validator = Draft202012Validator(schema)
    bad = 0
    for p in paths:
        try:
            doc = load(p, True)
        except (OSError, ValueError) as e:
            print("%s: %s" % (p, e))
            bad = 1
            continue
        errors = sorted(validator.iter_errors(doc),
                        key=lambda e: [str(k) for k in e.absolute_path])
        for e in errors[:MAX_ERRORS]:
            print("%s: at %s: %s" % (p, path_of(e), e.message))
        if len(errors) > MAX_ERRORS:
            print("%s: and %d more errors" % (p, len(errors) - MAX_ERRORS))
        if errors:
            bad = 1
    return bad


def validator_class():
    """Draft202012Validator, imported only for the schema forms."""
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        sys.stderr.write("json-check.py: no module jsonschema "
                         "(apt-get install python3-jsonschema)\n")
        sys.exit(2)
    return Draft202012Validator


def main(argv):
    if argv and argv[0] in report_checks.CHECKS or argv[:1] in (["-h"], ["--help"]):
        return report_checks.main(argv)
    if len(argv) >= 2 and argv[0] == "--schema":
        return check_schemas(argv[1:])
    if len(argv) < 2 or argv[0].startswith("-") and argv[0] != "-":
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    return check_files(argv[0], argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
