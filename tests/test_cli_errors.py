"""Every bad input the CLI meets, table-driven: one line on stderr naming the input, no traceback,
the documented exit code, and nothing created (no empty store, no folder)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from fixlore.cli.commands import EPILOG, main
from fixlore.core.errors import EXIT_CODES

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
SINCE = "2026-09-17T00:00:00+08:00"
LIVE = ["run", "--platform", "gitcode", "--org", "acme", "--since", SINCE]


def _files(tmp: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(tmp)): (p.read_bytes() if p.is_file() else None) for p in sorted(tmp.rglob("*"))}


def _prepare(tmp: Path) -> None:
    """The inputs the cases point at, written before the snapshot of what exists."""
    (tmp / "afile").write_text("not a folder\n")
    (tmp / "binary.toml").write_bytes(bytes(range(256)) * 4)
    (tmp / "binary.yaml").write_bytes(b"platform: gitcode\x00\xff\xfe")
    (tmp / "latin1.yaml").write_bytes("orgs: [caf\xe9]\n".encode("latin-1"))
    (tmp / "bad.toml").write_text('platform = "gitcode\n')
    (tmp / "rate.toml").write_text('rate_limit = "no"\n')
    (tmp / "topk.toml").write_text('rank_top_k = "many"\n')
    (tmp / "topk_bool.yaml").write_text("rank_top_k: true\n")
    (tmp / "unknown.toml").write_text('colour = "blue"\n')
    (tmp / "list.yaml").write_text("- a\n- b\n")
    (tmp / "since.toml").write_text('since = "last tuesday"\n')
    (tmp / "tokenval.toml").write_text('token_env = "gct-abc def"\n')
    for name, world_yaml, truth_yaml in (("badworld", "platform: [gitcode\n", None),
                                         ("listworld", "- gitcode\n", None),
                                         ("badtruth", (DEMO / "world.yaml").read_text(), "window: {since: 2026\n  x"),
                                         ("bintruth", (DEMO / "world.yaml").read_text(), None)):
        (tmp / name).mkdir()
        (tmp / name / "world.yaml").write_text(world_yaml)
        if truth_yaml is not None:
            (tmp / name / "truth.yaml").write_text(truth_yaml)
    (tmp / "bintruth" / "truth.yaml").write_bytes(b"\x00\x01\x02 binary")
    (tmp / "noworld").mkdir()
    (tmp / "truth_rows.yaml").write_text("issues:\n  - {title: no repo}\n")
    (tmp / "cases_text.jsonl").write_text("this is not json\n")
    (tmp / "cases_empty.jsonl").write_text("")
    (tmp / "cases_bin.jsonl").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xd8")


# (id, argv with {tmp}, exit code, words the line must hold)
CASES = [
    ("url-bracket", [*LIVE, "--out", "{tmp}/o", "--base-url", "http://[::1"], 2, ["base_url", "malformed"]),
    ("url-no-host", [*LIVE, "--out", "{tmp}/o", "--base-url", "http://"], 2, ["base_url", "no host"]),
    ("url-scheme", [*LIVE, "--out", "{tmp}/o", "--base-url", "ftp://example.org"], 2, ["http://"]),
    ("url-port", [*LIVE, "--out", "{tmp}/o", "--base-url", "http://example.org:99999/api"], 2, ["malformed"]),
    ("url-password-malformed", [*LIVE, "--out", "{tmp}/o", "--base-url", "http://u:hunter2@[::1"], 2,
     ["malformed", "http://[::1"]),
    ("db-mysql", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--db", "mysql://u:hunter2@h/db"], 2,
     ["unsupported database", "mysql://h/db"]),
    ("db-garbage", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--db", "garbage"], 2, ["'garbage'", "not a URL"]),
    ("db-missing-folder", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--db", "sqlite:///{tmp}/no/such/x.db"],
     2, ["does not exist"]),
    ("db-is-folder", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--db", "sqlite:///{tmp}/noworld"], 2,
     ["is a folder"]),
    ("out-is-file", ["run", "--world", str(DEMO), "--out", "{tmp}/afile"], 2, ["afile", "is a file"]),
    ("out-under-file", ["run", "--world", str(DEMO), "--out", "{tmp}/afile/sub"], 2, ["afile", "is a file"]),
    ("config-binary-toml", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/binary.toml"], 2,
     ["binary.toml", "binary"]),
    ("config-binary-yaml", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/binary.yaml"], 2,
     ["binary.yaml"]),
    ("config-latin1", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/latin1.yaml"], 2,
     ["latin1.yaml", "UTF-8"]),
    ("config-bad-toml", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/bad.toml"], 2,
     ["bad.toml", "TOML"]),
    ("config-missing", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/none.toml"], 2,
     ["none.toml", "not found"]),
    ("config-rate-limit-no", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/rate.toml"], 2,
     ["rate_limit", "true or false"]),
    ("config-top-k-word", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/topk.toml"], 2,
     ["rank_top_k", "whole number"]),
    ("config-top-k-bool", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/topk_bool.yaml"], 2,
     ["rank_top_k"]),
    ("config-unknown-key", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/unknown.toml"], 2,
     ["colour"]),
    ("config-not-mapping", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/list.yaml"], 2,
     ["mapping"]),
    ("config-since", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/since.toml"], 2,
     ["since", "last tuesday"]),
    ("config-token-value", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--config", "{tmp}/tokenval.toml"], 2,
     ["token_env"]),
    ("world-bad-yaml", ["run", "--world", "{tmp}/badworld", "--out", "{tmp}/o"], 2, ["world.yaml", "YAML"]),
    ("world-not-mapping", ["run", "--world", "{tmp}/listworld", "--out", "{tmp}/o"], 2, ["world.yaml", "mapping"]),
    ("world-missing", ["run", "--world", "{tmp}/noworld", "--out", "{tmp}/o"], 2, ["noworld", "world.yaml"]),
    ("truth-bad-yaml", ["run", "--world", "{tmp}/badtruth", "--out", "{tmp}/o"], 2, ["truth.yaml", "YAML"]),
    ("truth-binary", ["run", "--world", "{tmp}/bintruth", "--out", "{tmp}/o"], 2, ["truth.yaml", "binary"]),
    ("since-flag", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--since", "yesterday"], 2, ["--since"]),
    ("unknown-option", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--colour"], 2, ["--colour", "--help"]),
    ("bad-int-flag", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--rank-top-k", "many"], 2, ["--rank-top-k"]),
    ("negative-top-k", ["run", "--world", str(DEMO), "--out", "{tmp}/o", "--rank-top-k", "-3"], 2, ["rank_top_k"]),
    ("platform", [*LIVE[:1], "--platform", "gitlab", "--org", "x", "--since", SINCE, "--out", "{tmp}/o"], 2,
     ["platform", "gitlab"]),
    ("no-source", ["run", "--out", "{tmp}/o"], 2, ["--world"]),
    ("export-missing-store", ["export", "cases", "--db", "sqlite:///{tmp}/missing.db"], 2, ["no store", "missing.db"]),
    ("explain-missing-store", ["explain", "a/b#1", "--db", "sqlite:///{tmp}/missing.db"], 2, ["no store"]),
    ("explain-bad-key", ["explain", "not-a-key", "--cases", "{tmp}/cases_text.jsonl"], 2, ["OWNER/REPO#N"]),
    ("score-truth-bad", ["score", "--truth", "{tmp}/badtruth/truth.yaml", "--cases", "{tmp}/cases_text.jsonl"], 2,
     ["truth.yaml", "YAML"]),
    ("score-truth-binary", ["score", "--truth", "{tmp}/bintruth/truth.yaml", "--cases", "{tmp}/cases_text.jsonl"], 2,
     ["binary"]),
    ("score-truth-rows", ["score", "--truth", "{tmp}/truth_rows.yaml", "--cases", "{tmp}/cases_text.jsonl"], 2,
     ["truth_rows.yaml", "repo and number"]),
    ("score-cases-binary", ["score", "--truth", str(DEMO / "truth.yaml"), "--cases", "{tmp}/cases_bin.jsonl"], 2,
     ["cases_bin.jsonl"]),
    ("score-cases-text", ["score", "--truth", str(DEMO / "truth.yaml"), "--cases", "{tmp}/cases_text.jsonl"], 2,
     ["cases_text.jsonl:1"]),
    ("serve-missing-store", ["cases", "search", "x", "--db", "sqlite:///{tmp}/missing.db", "--case-index", "{tmp}/ci"],
     2, ["no store"]),
    ("replay-bad-world", ["replay", "{tmp}/badworld"], 2, ["world.yaml", "YAML"]),
    ("kb-build-no-folder", ["kb", "build", "{tmp}/nodocs", "--index", "{tmp}/kbindex"], 2, ["nodocs", "not a folder"]),
    ("digest-run-binary", ["digest", "--cases", "{tmp}/cases_empty.jsonl", "--run", "{tmp}/binary.toml", "--out",
                           "{tmp}/dg"], 2, ["binary.toml"]),
    ("cases-out-is-file", ["cases", "search", "x", "--out", "{tmp}/afile"], 2, ["afile", "not a folder"]),
    ("explain-out-missing", ["explain", "a/b#1", "--out", "{tmp}/nosuchrun"], 2, ["nosuchrun"]),
    ("score-nothing", ["score", "--truth", str(DEMO / "truth.yaml")], 2, ["--cases", "--out"]),
    ("export-config-binary", ["export", "cases", "--world", str(DEMO), "--config", "{tmp}/binary.yaml"], 2,
     ["binary.yaml"]),
    ("export-to-folder", ["export", "cases", "--world", str(DEMO), "--to", "{tmp}/noworld"], 2, ["--to", "folder"]),
    ("log-file-folder", ["--log-file", "{tmp}/no/such/log.txt", "run", "--world", str(DEMO), "--out", "{tmp}/o"], 2,
     ["--log-file"]),
]


@pytest.mark.parametrize("case_id,argv,code,words", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_creates_nothing(case_id, argv, code, words, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for var in ("FIXLORE_OUT", "FIXLORE_DB", "FIXLORE_CONFIG", "FIXLORE_LOG_FILE", "FIXLORE_VERBOSE"):
        monkeypatch.delenv(var, raising=False)
    _prepare(tmp_path)
    before = _files(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    out, err = capsys.readouterr()
    assert exit_info.value.code == code, err
    assert code in EXIT_CODES
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err + out
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert "hunter2" not in err
    assert _files(tmp_path) == before, "the failed command created or changed files"


def test_exit_codes_are_documented_in_help_and_readme(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code, what in EXIT_CODES.items():
        assert f"{code} {what}" in text
        assert re.search(rf"^\| {code} \| {re.escape(what)} \|$", readme, re.M), code
    assert "Exit codes" in EPILOG


def test_unreachable_host_gives_up_within_seconds(tmp_path, capsys, monkeypatch):
    from conftest import free_port

    monkeypatch.setenv("GITCODE_TOKEN", "t0ken")      # else the missing-token warning is a line of its own

    start = time.monotonic()
    with pytest.raises(SystemExit) as exit_info:
        main([*LIVE, "--base-url", f"http://127.0.0.1:{free_port()}/api/v5", "--out", str(tmp_path / "o"),
              "--no-rate-limit"])
    seconds = time.monotonic() - start
    err = capsys.readouterr().err
    assert exit_info.value.code == 4 and "cannot reach 127.0.0.1" in err and len(err.strip().splitlines()) == 1
    assert seconds < 20, seconds


def test_a_missing_token_is_said_as_such(make_world, tmp_path, capsys, monkeypatch):
    from fixlore.replay.server import ReplayServer

    monkeypatch.delenv("GITCODE_TOKEN", raising=False)
    world = make_world(repos=1, closed_in_window=2, other_updated=0, old_issues=0)
    with ReplayServer(world, token="the-right-token") as srv:
        with pytest.raises(SystemExit) as exit_info:
            main([*LIVE, "--base-url", srv.base_url, "--out", str(tmp_path / "o"), "--no-rate-limit", "-q"])
        err = capsys.readouterr().err
        assert exit_info.value.code == 4 and "none is set" in err and "$GITCODE_TOKEN" in err, err
        monkeypatch.setenv("GITCODE_TOKEN", "a-wrong-token")
        with pytest.raises(SystemExit) as exit_info:
            main([*LIVE, "--base-url", srv.base_url, "--out", str(tmp_path / "o2"), "--no-rate-limit", "-q"])
        err = capsys.readouterr().err
        assert exit_info.value.code == 4 and "refused the API token" in err and "none is set" not in err, err
        assert "a-wrong-token" not in err


def test_version_and_short_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0 and re.match(r"fixlore \S+", capsys.readouterr().out)
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "-h"])
    assert exit_info.value.code == 0 and "--out" in capsys.readouterr().out


def test_env_var_is_used_when_the_flag_is_absent(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FIXLORE_DB", "mysql://h/db")
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--world", str(DEMO), "--out", str(tmp_path / "o")])
    assert exit_info.value.code == 2 and "mysql://h/db" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_bug_is_one_line_with_exit_70_and_its_traceback_only_with_verbose(tmp_path, monkeypatch, capsys):
    import fixlore.evaluate.score as score_module

    def broken(*_args, **_kwargs):
        raise RuntimeError("something inside went wrong")

    monkeypatch.setattr(score_module, "score", broken)
    cases = tmp_path / "cases.jsonl"
    cases.write_text("")
    argv = ["score", "--truth", str(DEMO / "truth.yaml"), "--cases", str(cases)]
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 70 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "something inside went wrong" in err and "--verbose" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["--verbose", *argv])
    err = capsys.readouterr().err
    assert exit_info.value.code == 70 and "Traceback" in err and err.strip().splitlines()[-1].startswith("error: ")
