"""docs/schema: the JSON Schemas of the case export and run.json describe what a demo run writes,
and every file the run writes names its format version."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from fixlore.core import formats
from fixlore.core.enums import Platform
from fixlore.core.model import DROP_REASONS, EVIDENCE_KINDS, FUNNEL_STAGES, TIMINGS, TRAPS

from conftest import fixlore_here

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
pytestmark = pytest.mark.skipif(not DEMO.is_dir(), reason="demo world missing")


def _validator(fmt: str) -> Draft202012Validator:
    schema = json.loads((ROOT / formats.SCHEMAS[fmt]).read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture(scope="module")
def run_dir(demo_run) -> Path:
    return demo_run


def _errors(v: Draft202012Validator, doc) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(doc)]


def test_the_demo_runs_case_export_matches_its_schema(run_dir):
    v = _validator(formats.CASES)
    lines = (run_dir / "cases.jsonl").read_text("utf-8").splitlines()
    assert len(lines) > 20
    for line in lines:
        row = json.loads(line)
        assert _errors(v, row) == [], row["number"]
    digest = json.loads((run_dir / "digest.json").read_text("utf-8"))
    assert digest["cases"] and all(_errors(v, c) == [] for c in digest["cases"])   # the digest's cases too


def test_the_demo_runs_record_matches_its_schema(run_dir):
    run = json.loads((run_dir / "run.json").read_text("utf-8"))
    assert _errors(_validator(formats.RUN), run) == []
    assert run["format"] == formats.RUN


def test_every_file_the_run_writes_names_its_format(run_dir):
    run = json.loads((run_dir / "run.json").read_text("utf-8"))
    written = {"run.json", "cases.jsonl", "digest.zh.md", "digest.en.md", "digest.html", "digest.json"}
    assert written <= {p.name for p in run_dir.iterdir()}
    assert run["formats"] == {"run.json": formats.RUN, "cases.jsonl": formats.CASES,
                              **{n: formats.DIGEST for n in written - {"run.json", "cases.jsonl"}}}
    assert json.loads((run_dir / "digest.json").read_text("utf-8"))["format"] == formats.DIGEST
    assert f'<meta name="generator" content="fixlore {formats.DIGEST}">' in (run_dir / "digest.html").read_text("utf-8")
    for lang in ("zh", "en"):
        assert (run_dir / f"digest.{lang}.md").read_text("utf-8").startswith(f"<!-- {formats.DIGEST} -->\n# ")


def test_the_case_export_and_run_json_write_the_same_digest_again(run_dir, tmp_path):
    again = tmp_path / "again"
    proc = fixlore_here("digest", "--cases", str(run_dir / "cases.jsonl"), "--run", str(run_dir / "run.json"),
                        "--out", str(again), env={"NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    for name in ("digest.zh.md", "digest.en.md", "digest.html", "digest.json"):
        assert (again / name).read_bytes() == (run_dir / name).read_bytes(), name


def test_the_schemas_reject_what_readers_could_not_trust(run_dir):
    v = _validator(formats.CASES)
    row = json.loads((run_dir / "cases.jsonl").read_text("utf-8").splitlines()[1])
    for path, value in ((("funnel",), "maybe"), (("timing",), "soon"), (("traps",), ["gremlins"]),
                        (("number",), "31"), (("closed_at",), "yesterday"), (("fix",), [{"repo": "o/r"}])):
        bad = copy.deepcopy(row)
        bad[path[0]] = value
        assert _errors(v, bad), path
    missing = {k: val for k, val in row.items() if k != "lag_s"}
    assert _errors(v, missing)
    run = json.loads((run_dir / "run.json").read_text("utf-8"))
    assert _errors(_validator(formats.RUN), {**run, "format": "fixlore-run/2"})


def test_schema_vocabularies_are_the_models():
    s = json.loads((ROOT / formats.SCHEMAS[formats.CASES]).read_text("utf-8"))["properties"]
    assert s["funnel"]["enum"] == list(FUNNEL_STAGES) and s["timing"]["enum"] == list(TIMINGS)
    assert s["traps"]["items"]["enum"] == list(TRAPS) and s["drop_reason"]["enum"] == ["", *DROP_REASONS]
    assert s["evidence"]["items"]["properties"]["kind"]["enum"] == list(EVIDENCE_KINDS)
    run = json.loads((ROOT / formats.SCHEMAS[formats.RUN]).read_text("utf-8"))["properties"]
    assert run["platform"]["enum"] == list(Platform)
