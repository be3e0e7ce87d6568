"""One precedence rule for settings: flags over the config file over the world's own settings
over the defaults; and every value in a config file checked, never guessed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fixlore.settings.config import SettingFlags, load_settings
from fixlore.core.errors import ConfigError
from fixlore.pipeline import RunRequest, plan_run, run_pipeline

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"          # world.yaml: rank_top_k 12, orgs demo-ai and demo-infra


@pytest.mark.parametrize("config_text, flags, expected_top_k, expected_orgs", [
    (None, {}, 12, ["demo-ai", "demo-infra"]),                       # the world's own
    ("rank_top_k = 3\n", {}, 3, ["demo-ai", "demo-infra"]),           # the file over the world
    ("rank_top_k = 3\norgs = ['demo-ai']\n", {}, 3, ["demo-ai"]),
    ("rank_top_k = 3\n", {"rank_top_k": 5}, 5, ["demo-ai", "demo-infra"]),   # the flag over the file
    (None, {"rank_top_k": 0, "orgs": ["demo-infra"]}, 0, ["demo-infra"]),
])
def test_flags_over_config_over_world(tmp_path, config_text, flags, expected_top_k, expected_orgs):
    config = None
    if config_text is not None:
        config = tmp_path / "fixlore.toml"
        config.write_text(config_text)
    settings = plan_run(RunRequest(world=DEMO, out=tmp_path / "out", settings=SettingFlags(**flags), config=config))
    assert settings.rank_top_k == expected_top_k and settings.orgs == expected_orgs
    assert settings.db == f"sqlite:///{(tmp_path / 'out' / 'fixlore.db').resolve()}"
    assert not (tmp_path / "out").exists()        # planning creates nothing


def test_config_db_beats_the_run_folder_default_and_the_flag_beats_both(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(f"db: sqlite:///{tmp_path}/from-config.db\nrate_limit: true\n")
    settings = plan_run(RunRequest(world=DEMO, out=tmp_path / "out", config=config))
    assert settings.db.endswith("from-config.db") and settings.rate_limit is True
    settings = plan_run(RunRequest(world=DEMO, out=tmp_path / "out", settings=SettingFlags(db=f"sqlite:///{tmp_path}/flag.db"),
                                   config=config))
    assert settings.db.endswith("flag.db")


def test_the_config_top_k_reaches_the_funnel_of_a_world_run(tmp_path):
    config = tmp_path / "fixlore.toml"
    config.write_text("rank_top_k = 3\n")
    info = run_pipeline(RunRequest(world=DEMO, out=tmp_path / "out", config=config,
                                   stage_names=("harvest", "funnel", "link")))
    assert info["funnel"]["analysis_candidates"] == 3
    assert json.loads((tmp_path / "out" / "run.json").read_text())["settings"]["rank_top_k"] == 3


@pytest.mark.parametrize("text, word", [
    ('rate_limit = "no"', "rate_limit"), ('rate_limit = "false"', "rate_limit"), ("rate_limit = 0", "rate_limit"),
    ('rank_top_k = "many"', "rank_top_k"), ("rank_top_k = 2.5", "rank_top_k"), ("lookback_days = true", "lookback_days"),
    ("max_attempts = 0", "max_attempts"), ("read_timeout = 0", "read_timeout"), ('read_timeout = "slow"', "read_timeout"),
    ("orgs = [['nested']]", "orgs"), ("orgs = ['a/b']", "orgs"), ("funnel = 3", "funnel"),
    ('token_env = "gct-secret value"', "token_env"), ('base_url = "http://"', "base_url"),
    ('db = "garbage"', "database"), ('db = "mysql://h/db"', "unsupported"),
])
def test_invalid_config_values_are_errors(tmp_path, text, word):
    cfg = tmp_path / "c.toml"
    cfg.write_text(text + "\n")
    with pytest.raises(ConfigError, match=word):
        load_settings(cfg)


def test_valid_values_of_every_type_are_read(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("rate_limit: no\nrank_top_k: '7'\nread_timeout: 5\norgs: cann\n"
                   "db: postgres://u@h/db\nfunnel: {noise_min_group: 4}\n")
    s = load_settings(cfg)
    assert s.rate_limit is False and s.rank_top_k == 7 and s.read_timeout == 5.0 and s.orgs == ["cann"]
    assert s.db == "postgresql+psycopg://u@h/db" and s.funnel == {"noise_min_group": 4}
