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
