"""Format versions of the files a run writes, and where their JSON Schemas live.

A reader checks the version before it trusts a key: run.json and digest.json carry theirs in a
`format` key, the digest pages in a generator note; cases.jsonl stays a plain line-per-case
file (every line a case, nothing else, so line readers keep working) and its version is the one
run.json lists under `formats`. A change that renames or drops a key, or changes a value's
meaning, bumps the number; adding a key does not."""

from __future__ import annotations

RUN = "fixlore-run/1"
CASES = "fixlore-cases/1"
DIGEST = "fixlore-digest/1"

# paths inside the source tree (docs/schema), named by format
SCHEMAS = {RUN: "docs/schema/run.schema.json", CASES: "docs/schema/case-export.schema.json"}
