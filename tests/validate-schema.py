#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# Validate reclaim-replay JSON documents against schema/reclaim-replay-diff.schema.json
# (JSON Schema draft 2020-12) with Debian's python3-jsonschema.
#   usage: validate-schema.py SCHEMA FILE...   exit 0 if every FILE is valid
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    for e in errors[:5]:
        print(f"{path}: {'/'.join(str(p) for p in e.path)}: {e.message}")
    bad += bool(errors)
sys.exit(1 if bad else 0)
