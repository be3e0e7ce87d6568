"""The cut of the pool: the top K, or every case whose value reaches a threshold (--value-min,
value_min in a config file or a funnel mapping), decided once in settings and disclosed."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from fixlore.cli.commands import app, main
from fixlore.core import formats
from fixlore.core.errors import ConfigError
from fixlore.core.timeutil import parse_time
from fixlore.link import LinkConfig, build_cases
from fixlore.rules.funnel import FunnelConfig
from fixlore.rules.funnel.rank import above, cut
from fixlore.settings.config import SettingFlags, settings_from
from fixlore.sources.offline import load_world, read_world_meta

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"


def test_threshold_cut_keeps_every_case_at_or_above_it():
    items = [("o/r#1", 0.9, 0, 0.0), ("o/r#2", 0.5, 3, 0.0), ("o/r#3", 0.49, 9, 0.0), ("o/r#4", 0.7, 0, 0.0)]
    assert above(items, 0.5) == ["o/r#1", "o/r#4", "o/r#2"]
    assert cut(items, 1, None) == ["o/r#1"] and cut(items, 1, 0.5) == ["o/r#1", "o/r#4", "o/r#2"]


def test_the_cut_is_decided_in_settings():
    assert settings_from({}, SettingFlags(value_min=0.4)).resolved().funnel_rules.value_min == 0.4
    from_file = settings_from({"value_min": 0.6, "rank_top_k": 10}).resolved().funnel_rules
    assert from_file.value_min == 0.6
    assert settings_from({"funnel": {"value_min": 0.3}}).resolved().funnel_rules.value_min == 0.3
    flag_k = settings_from({"value_min": 0.6}, SettingFlags(rank_top_k=5)).resolved().funnel_rules
    assert flag_k.value_min is None and flag_k.rank_top_k == 5
    assert settings_from({}).resolved().funnel_rules.value_min is None
    with pytest.raises(ConfigError, match="not both"):
        settings_from({}, SettingFlags(rank_top_k=5, value_min=0.5))
    with pytest.raises(ConfigError, match="value_min"):
        settings_from({"value_min": 1.5}).resolved()
    with pytest.raises(ConfigError, match="value_min"):
        settings_from({"value_min": "high"})
    with pytest.raises(ConfigError, match="value_min"):
        FunnelConfig.from_mapping({"value_min": True})


def test_a_threshold_run_analyses_exactly_the_cases_at_or_above_it():
    meta = read_world_meta(DEMO)
    cfg = LinkConfig(funnel=FunnelConfig(value_min=0.5))
    cases, counts = build_cases(load_world(DEMO), parse_time(meta["window"]["since"]), cfg)
    pool = [c for c in cases if c.funnel in ("selected", "rank")]
    chosen = [c for c in pool if c.provisional]
    assert chosen and len(chosen) < len(pool)
    assert all(c.value >= 0.5 for c in chosen) and all(c.value < 0.5 for c in pool if not c.provisional)
    assert all(c.value_features for c in pool)
    assert counts.as_dict()["value_min"] == 0.5 and counts.analysis_candidates == len(chosen)
    assert "value_min" not in build_cases(load_world(DEMO), parse_time(meta["window"]["since"]))[1].as_dict()


def test_the_digest_says_which_cut_chose_the_analysed_cases(tmp_path):
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["run", "--world", str(DEMO), "--out", str(out), "--value-min", "0.3", "-q"])
    assert res.exit_code == 0, res.output
    en, zh = (out / "digest.en.md").read_text(encoding="utf-8"), (out / "digest.zh.md").read_text(encoding="utf-8")
    assert "of value ≥ 0.30 were analysed" in en and "the top" not in en.split("leaves a pool of")[1][:40]
    assert "取价值 ≥ 0.30 者" in zh and "按价值取头部" not in zh
    # run.json's funnel carries the threshold; it and the cases (with value_features) match their schemas
    run = json.loads((out / "run.json").read_text("utf-8"))
    assert run["funnel"]["value_min"] == 0.3
    rows = [json.loads(line) for line in (out / "cases.jsonl").read_text("utf-8").splitlines()]
    assert any("value_features" in r for r in rows)
    for fmt, docs in ((formats.RUN, [run]), (formats.CASES, rows)):
        schema = json.loads((ROOT / formats.SCHEMAS[fmt]).read_text("utf-8"))
        assert [e.message for d in docs for e in Draft202012Validator(schema).iter_errors(d)] == []


def test_both_cuts_at_once_is_one_clear_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["run", "--world", str(DEMO), "--out", str(tmp_path / "x"), "--value-min", "0.3", "--rank-top-k", "3"])
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and "not both" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x").exists()
