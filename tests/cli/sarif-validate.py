#!/usr/bin/python3
"""Validates SARIF files against the official SARIF 2.1.0 JSON schema, with the
format checker on (`format: uri` and `uri-reference` really checked).

Usage: sarif-validate.py FILE...   (exit 0: all valid; 1: a file is invalid; 2: the
validator itself cannot check formats, or the schema file is not the pinned one)

Uses Debian's python3-jsonschema (Draft 4, as the schema declares) with
python3-rfc3987, which the `uri` format checker needs: without it jsonschema accepts
any string as a URI, so the script first proves that the checker rejects a bad URI."""
import copy
import hashlib
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema", "sarif-schema-2.1.0.json")
# oasis-tcs/sarif-spec, commit e058381, sarif-2.1/schema/sarif-schema-2.1.0.json
# (the errata01 OASIS Standard schema); see schema/README.md.
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"


def main(paths):
    try:
        import jsonschema
    except ImportError:
        print("sarif-validate: python3-jsonschema is missing (scripts/install-deps.sh installs it)")
        return 2
    raw = open(SCHEMA, "rb").read()
    if hashlib.sha256(raw).hexdigest() != SCHEMA_SHA256:
        print(f"sarif-validate: {SCHEMA} is not the pinned official schema (sha256 differs)")
        return 2
    schema = json.loads(raw)
    checker = jsonschema.FormatChecker()
    validator = jsonschema.Draft4Validator(schema, format_checker=checker)
    # The format checker must reject what GitHub rejects: a helpUri that is no URI.
    probe = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t", "rules": [
        {"id": "r", "helpUri": "HIP guide: https://example.com/x"}]}}}]}
    if validator.is_valid(probe):
        print("sarif-validate: the format checker accepts a bad URI (install python3-rfc3987)")
        return 2
    good = copy.deepcopy(probe)
    good["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "https://example.com/x"
    if not validator.is_valid(good):
        print("sarif-validate: the validator rejects a valid log: " +
              "; ".join(e.message for e in validator.iter_errors(good)))
        return 2
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:20]:
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"{path}: /{where}: {e.message}")
        if errors:
            bad += 1
        else:
            print(f"{path}: valid SARIF 2.1.0")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
