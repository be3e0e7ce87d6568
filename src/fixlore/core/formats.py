"""Format versions of the files a run writes, and where their JSON Schemas live.

A reader checks the version before it trusts a key: run.json and digest.json carry theirs in a
`format` key, the digest pages in a generator note, every line of cases.jsonl its own `format`
key (each line is still one case), metadata.json (Datasette's) a `fixlore_format` key, and each
index folder (kb/, cases-index/) a `format` row in its kb.sqlite `meta` table. A change that
renames or drops a key, or changes a value's meaning, bumps the number; adding a key does not."""

from __future__ import annotations

RUN = "fixlore-run/1"
CASES = "fixlore-cases/1"
DIGEST = "fixlore-digest/1"
DATASETTE = "fixlore-datasette/1"
INDEX = "fixlore-index/1"

# paths inside the source tree (docs/schema), named by format
SCHEMAS = {RUN: "docs/schema/run.schema.json", CASES: "docs/schema/case-export.schema.json"}
