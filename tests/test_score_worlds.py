"""`fixlore score` per world (and per truth split): one report a world, a summary row each."""

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from fixlore.cli.commands import app
from fixlore.core.errors import FixloreError
from fixlore.evaluate.score import split_truth

ROOT = Path(__file__).resolve().parents[1] / "worlds"


def test_one_report_per_world():
    res = CliRunner().invoke(app, ["score", "--world", str(ROOT / "demo"), "--world", str(ROOT / "github-mini"),
                                   "--json"])
    assert res.exit_code == 0, res.output
    reports = json.loads(res.output)
    assert set(reports) == {"demo", "github-mini"}
    assert reports["demo"]["keys"] == len(yaml.safe_load((ROOT / "demo" / "truth.yaml").read_text())["issues"])
    table = CliRunner().invoke(app, ["score", "--world", str(ROOT / "demo"), "--world", str(ROOT / "github-mini"),
                                     "--show", "0"])
    assert table.exit_code == 0 and "per world" in table.output and "github-mini" in table.output


def test_split_keeps_only_its_rows(tmp_path):
    truth = {"a/b#1": {"funnel": "rank", "split": "tune"}, "a/b#2": {"funnel": "rank", "split": "heldout"},
             "a/b#3": {"funnel": "rank"}}
    assert set(split_truth(truth, "tune")) == {"a/b#1"}
    assert split_truth(truth, None) is truth
    with pytest.raises(FixloreError):
        split_truth(truth, "nope")


def test_world_and_cases_are_exclusive():
    res = CliRunner().invoke(app, ["score", "--world", str(ROOT / "demo"), "--cases", "x.jsonl"])
    assert res.exit_code != 0 and "not both" in str(res.exception)


def test_splits_print_one_row_per_world_split_and_linker():
    res = CliRunner().invoke(app, ["score", "--world", str(ROOT / "github-mini"), "--world", str(ROOT / "pytest-threads"),
                                   "--splits", "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    keys = {(r["world"], r["split"], r["linker"]) for r in rows}
    assert keys == {("github-mini", "all", "fixlore"), ("github-mini", "all", "keyword"),
                    ("pytest-threads", "heldout", "fixlore"), ("pytest-threads", "heldout", "keyword"),
                    ("pytest-threads", "tune", "fixlore"), ("pytest-threads", "tune", "keyword")}
    truth = yaml.safe_load((ROOT / "pytest-threads" / "truth.yaml").read_text())["issues"]
    held = [r for r in rows if r["world"] == "pytest-threads" and r["split"] == "heldout"]
    assert all(r["keys"] == sum(e["split"] == "heldout" for e in truth) for r in held)


def test_keyword_baseline_misses_what_only_other_evidence_shows():
    """github-mini#100 is fixed by a PR that names it without a keyword, #104 only through a comment:
    the keyword baseline links neither, the linker links both, so the baseline's fix recall is lower."""
    from fixlore.evaluate.baseline import keyword_cases
    from fixlore.link.cli import load_or_build_cases
    from fixlore.sources.offline import load_world

    world = ROOT / "github-mini"
    linked = load_or_build_cases(world=world)
    base = {c.key: c for c in keyword_cases(load_world(world), linked)}
    mine = {c.key: c for c in linked}
    assert [f.number for f in mine["minilab/widgets#100"].fix] and not base["minilab/widgets#100"].fix
    assert [f.number for f in mine["minilab/widgets#104"].fix] and not base["minilab/widgets#104"].fix
    assert [f.number for f in base["minilab/widgets#96"].fix] == [97]
    assert base["minilab/widgets#96"].timing == "same_second" and base["minilab/widgets#96"].traps == []


def test_splits_need_a_world():
    res = CliRunner().invoke(app, ["score", "--splits"])
    assert res.exit_code != 0 and "needs --world" in str(res.exception)
