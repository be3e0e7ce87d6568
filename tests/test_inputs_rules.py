"""The input rules every command shares: the URL redaction rule, strict user times, empty
option values, the README's exit-code table (checked against the code both ways), a base
URL's userinfo never standing in for the token, and run.json naming a run that exits 6."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fixlore.core import errors
from fixlore.cli.commands import empty_value, main
from fixlore.core.errors import EXIT_CODES
from fixlore.edges.inputs import redact_url, redact_urls
from fixlore.core.timeutil import parse_user_time

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("url,shown", [
    ("https://u:pw@api.gitcode.com/api/v5", "https://api.gitcode.com/api/v5"),
    ("https://api.gitcode.com/api/v5?access_token=abc&state=all", "https://api.gitcode.com/api/v5?access_token=***&state=all"),
    ("http://h/x?private_token=1&author=bob&api_key=2&sig=3&design=4&Token=5",
     "http://h/x?private_token=***&author=bob&api_key=***&sig=***&design=4&Token=***"),
    ("http://h/x?client_secret=s;key=k", "http://h/x?client_secret=***;key=***"),
    ("http://u:pw@[::1", "http://[::1"),
    ("postgresql+psycopg://fixlore:pw@db:5432/fixlore", "postgresql+psycopg://db:5432/fixlore"),
    ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
])
def test_redact_url(url, shown):
    assert redact_url(url) == shown


def test_redact_urls_in_a_line():
    line = "GET http://u:hunter2@h/api?access_token=tok9 failed; see https://h/doc?page=2"
    assert redact_urls(line) == "GET http://h/api?access_token=*** failed; see https://h/doc?page=2"


@pytest.mark.parametrize("text,expected", [
    ("2026-09-17", "2026-09-17T00:00:00+00:00"),                  # zone decided by the caller
    ("2026-09-17T08:30", "2026-09-17T08:30:00+00:00"),
    ("2026-09-17T00:00:00+08:00", "2026-09-17T00:00:00+08:00"),
    ("2026-09-17T00:00:00Z", "2026-09-17T00:00:00+00:00"),
    ("2026-09-17T00:00:00.250-05:00", "2026-09-17T00:00:00.250000-05:00"),
    ("2026-09-17T00:00+14:00", "2026-09-17T00:00:00+14:00"),
])
def test_user_times_accepted(text, expected):
    assert parse_user_time(text).isoformat() == expected


@pytest.mark.parametrize("text,reason", [
    ("", "empty"), ("  ", "empty"), ("2026-09-19Tjunk", "ISO"), ("2026-09-19T25:00", "ISO"),
    ("2026-09-19T00:00+99:99", "ISO"), ("2026-09-19T00:00+15:00", "14:00"), ("2026-02-30", "ISO"),
    ("1800-01-01", "out of range"), ("2999-01-01", "out of range"), ("yesterday", "ISO"), ("17/09/2026", "ISO"),
])
def test_user_times_refused(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse_user_time(text)


@pytest.mark.parametrize("argv,found", [
    (["run", "--out", ""], "--out"), (["run", "--out="], "--out"), (["run", "--world", "w", "--since", " "], "--since"),
    (["kb", "search", ""], "QUERY"), (["kb", "search", "x", "-k", ""], "-k"), (["cases", "status", "  "], "KEY"),
    (["-v", "run", "--world", "w", "--out", "o"], None), (["series", "create", "s", "--tagline", ""], None),
    (["run", "--naive", "--out", "o"], None), (["explain", "--", ""], None),
])
def test_empty_values_are_found(argv, found):
    assert empty_value(argv) == found


def _readme_exit_table() -> dict[int, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("#### Exit codes", 1)[1].split("\n#", 1)[0]
    return {int(code): what for code, what in re.findall(r"^\| (\d+) \| (.+?) \|$", section, re.M)}


def test_the_readme_exit_code_table_is_the_code():
    assert _readme_exit_table() == EXIT_CODES                   # same codes, same words, nothing extra
    assert list(_readme_exit_table()) == list(EXIT_CODES)       # same order
    classes = [errors.FixloreError, errors.ConfigError, errors.NotFoundError, errors.SourceError, errors.StoreError,
               errors.Interrupted]
    for cls in classes:
        assert cls.exit_code in EXIT_CODES, cls
    assert errors.EXIT_SOME_UNREADABLE in EXIT_CODES


def test_a_base_url_userinfo_never_replaces_the_token(make_world, tmp_path, monkeypatch, capsys):
    from fixlore.replay.server import ReplayServer

    world = make_world(repos=1, closed_in_window=3, other_updated=0, old_issues=0)
    monkeypatch.setenv("GITCODE_TOKEN", "the-right-token")
    out = tmp_path / "o"
    with ReplayServer(world, token="the-right-token") as srv:
        base = srv.base_url.replace("http://", "http://someone:wrong-password@")
        with pytest.raises(SystemExit) as exit_info:
            main(["harvest", "--platform", "gitcode", "--org", "acme", "--since", "2026-09-17T00:00:00+08:00",
                  "--base-url", base, "--out", str(out), "--no-rate-limit", "-q"])
        assert srv.stats()["total"] > 0
    err = capsys.readouterr().err
    # the server accepts only the token: the run succeeded on it, not on the URL's password
    assert exit_info.value.code in (None, 0), err
    assert err.count("user:password@ in base_url is ignored") == 1 and "wrong-password" not in err
    assert (out / "fixlore.db").is_file() and not (tmp_path / "fixlore.db").exists()


def test_a_run_that_exits_6_says_partial(make_world, tmp_path, monkeypatch, capsys):
    from fixlore.store import Store

    world = make_world(repos=3, closed_in_window=6, other_updated=1, old_issues=1)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--world", str(world), "--out", str(out), "--quirks", "module_closed_late", "-q",
              "--stage", "harvest"])
    assert exit_info.value.code == errors.EXIT_SOME_UNREADABLE, capsys.readouterr().err
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "partial"
    store = Store.open(f"sqlite:///{out / 'fixlore.db'}")
    try:
        import sqlalchemy as sa

        from fixlore.store import schema as t

        with store.engine.connect() as conn:
            assert conn.execute(sa.select(t.runs.c.status)).scalar_one() == "partial"
    finally:
        store.close()


def test_harvest_keeps_its_store_where_out_or_the_config_says(make_world, tmp_path, monkeypatch, capsys):
    from fixlore.replay.server import ReplayServer

    world = make_world(repos=1, closed_in_window=2, other_updated=0, old_issues=0)
    monkeypatch.setenv("GITCODE_TOKEN", "t0ken")
    monkeypatch.chdir(tmp_path)
    with ReplayServer(world) as srv:
        cfg = tmp_path / "h.toml"
        cfg.write_text(f'platform = "gitcode"\norgs = ["acme"]\nsince = "2026-09-17"\nbase_url = "{srv.base_url}"\n'
                       f'db = "sqlite:///{tmp_path / "kept.db"}"\nrate_limit = false\n')
        with pytest.raises(SystemExit) as exit_info:
            main(["harvest", "--config", str(cfg), "-q"])
        assert exit_info.value.code in (None, 0), capsys.readouterr().err
        cfg.write_text(cfg.read_text().replace(f'db = "sqlite:///{tmp_path / "kept.db"}"\n', ""))
        with pytest.raises(SystemExit) as exit_info:
            main(["harvest", "--config", str(cfg), "-q"])          # no --out, no --db, none in the file
        assert exit_info.value.code == 2 and "--out DIR" in capsys.readouterr().err
    assert (tmp_path / "kept.db").is_file() and not (tmp_path / "fixlore.db").exists()


def test_a_log_line_never_shows_a_url_secret(tmp_path):
    import logging

    from fixlore.edges import logs
    log_file = tmp_path / "run.log"
    logs.configure(0, log_file)
    try:
        logging.getLogger("fixlore.test").warning("GET %s failed", "https://u:hunter2@h/api?access_token=tok9&page=2")
    finally:
        logs.configure(0, None)
    text = log_file.read_text()
    assert "GET https://h/api?access_token=***&page=2 failed" in text and "hunter2" not in text and "tok9" not in text


def test_a_yaml_file_is_parsed_once_per_text_and_each_caller_gets_its_own_copy(tmp_path, monkeypatch):
    """edges.inputs.safe_load_yaml: the same text is not parsed again; an edited file is, however
    quickly it was rewritten (same size, same second); errors are raised every time."""
    import yaml

    from fixlore.core.errors import ConfigError
    from fixlore.edges import inputs

    parsed = []
    real = yaml.safe_load
    monkeypatch.setattr(inputs, "_YAML_MEMO", inputs.OrderedDict())
    monkeypatch.setattr(inputs.yaml, "safe_load", lambda text: parsed.append(text) or real(text))
    f = tmp_path / "truth.yaml"
    f.write_text("window:\n  since: 2026-09-17\n  repos: [a, b]\n", "utf-8")
    first = inputs.load_yaml_mapping(f, "truth file")
    first["window"]["repos"].append("changed by its caller")
    again = inputs.load_yaml_mapping(f, "truth file")
    assert len(parsed) == 1 and again == {"window": {"since": real("d: 2026-09-17")["d"], "repos": ["a", "b"]}}
    f.write_text("window:\n  since: 2026-09-18\n  repos: [a, b]\n", "utf-8")      # same size
    assert inputs.load_yaml_mapping(f, "truth file")["window"]["since"].day == 18 and len(parsed) == 2
    f.write_text("window: [unclosed\n", "utf-8")
    for _ in range(2):
        with pytest.raises(ConfigError, match="not valid YAML"):
            inputs.load_yaml_mapping(f, "truth file")
    assert len(parsed) == 4
