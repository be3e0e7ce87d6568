from datetime import datetime, timedelta, timezone

import pytest

from fixlore.settings.config import SettingFlags, load_settings
from fixlore.core.errors import ConfigError
from fixlore.pipeline import STAGE_ORDER, STAGES, RunContext, Stage, run_stages, select_stages


def test_toml_file_with_flags_on_top(tmp_path, monkeypatch):
    cfg = tmp_path / "fixlore.toml"
    cfg.write_text('platform = "github"\norgs = ["a", "b"]\nsince = "2026-09-17T00:00:00+08:00"\n'
                   'db = "sqlite:///x.db"\nlookback_days = 30\n')
    s = load_settings(cfg, SettingFlags(orgs=("c",), lookback_days=None))
    assert s.orgs == ["c"] and s.lookback_days == 30 and s.platform == "github"
    assert s.base_url == "https://api.github.com" and s.token_env == "GITHUB_TOKEN"
    assert s.since == datetime(2026, 9, 17, tzinfo=timezone(timedelta(hours=8)))
    monkeypatch.setenv("GITHUB_TOKEN", "t0k")
    assert s.token() == "t0k" and "t0k" not in str(s.public())


def test_yaml_file_and_defaults(tmp_path):
    cfg = tmp_path / "fixlore.yaml"
    cfg.write_text("orgs: [cann, Ascend]\nwindow: {since: '2026-09-17'}\nrank_top_k: 63\n")
    s = load_settings(cfg)
    assert s.platform == "gitcode" and s.base_url == "https://api.gitcode.com/api/v5"
    assert s.token_env == "GITCODE_TOKEN" and s.rank_top_k == 63 and s.lookback_days == 60


@pytest.mark.parametrize("text, word", [("platform = 'gitlab'", "platform"), ("colour = 1", "unknown setting"),
                                        ("since = 'yesterday'", "since"), ("lookback_days = 'x'", "lookback_days"),
                                        ("orgs = [", "not valid TOML"), ("link_workers = 0", "link_workers")])
def test_config_errors_name_the_problem(tmp_path, text, word):
    cfg = tmp_path / "c.toml"
    cfg.write_text(text + "\n")
    with pytest.raises(ConfigError, match=word):
        load_settings(cfg)


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "nope.toml")


def test_stages_run_in_order_and_are_timed(tmp_path):
    seen = []
    stages = [Stage("one", lambda ctx: seen.append("one") or {"n": 1}), Stage("two", lambda ctx: seen.append("two"))]
    ctx = RunContext(store=None, settings=None, out_dir=tmp_path, since=datetime.now(timezone.utc))
    info = run_stages(ctx, stages)
    assert seen == ["one", "two"] and list(info["stage_seconds"]) == ["one", "two"]
    assert ctx.results["one"] == {"n": 1} and info["stages"][1]["summary"] == {}
    found, absent = select_stages(["harvest", "no_such_stage"])
    assert [s.name for s in found] == ["harvest"] and absent == ["no_such_stage"]


def test_the_pipeline_is_an_explicit_list_of_importable_stages():
    from fixlore.harvest import stage as harvest
    from fixlore.serve import stage as serve

    assert STAGE_ORDER == ("harvest", "funnel", "link", "kb", "analyse", "compose", "serve")
    assert STAGES[0].run is harvest.run and STAGES[-1].run is serve.run
    assert select_stages(None) == (list(STAGES), [])
    found, _ = select_stages(["link", "funnel"])           # the order asked for
    assert [s.name for s in found] == ["link", "funnel"]


def test_a_series_edition_puts_its_stage_between_link_and_kb():
    from fixlore.series import stage as series
    from fixlore.series.publish import SERIES_STAGES, series_stages

    stages = series_stages()
    assert [s.name for s in stages] == SERIES_STAGES and stages[3].run is series.run


def test_link_workers_reach_the_link_stage(tmp_path):
    from fixlore.link.stage import link_config

    cfg = tmp_path / "c.toml"
    cfg.write_text("link_workers = 2\n")
    assert link_config(load_settings(cfg)).workers == 2
    assert link_config(load_settings(None)).workers == 1
