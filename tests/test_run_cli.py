"""`fixlore run` / `fixlore harvest` as a user runs them: subprocesses, exit codes, one-line errors, no secrets.
What a run writes (run.json, the store) is checked on the command run in this process
(conftest.fixlore_here: the same `main`, exit codes and output, without a new interpreter's
seconds of imports and model loading); what a user's terminal or shell sees stays a process,
forked warm from this one (forked_process.fixlore_forked: its file descriptors and exit status, the
environment given to it). A new interpreter's own start (nothing on stderr before the one line)
is test_bad_inputs' SUBPROCESS rows' to show; the process killed mid-harvest here is one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fixlore.replay.server import ReplayServer
from fixlore.store import Store

from conftest import fixlore_here, free_port
from forked_process import fixlore_forked

SECRET = "gct-VERY-SECRET-token-4242"
SINCE = "2026-09-17T00:00:00+08:00"


def fixlore(*args: str, env_extra: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return fixlore_forked(*args, env=env_extra, timeout=timeout)


def assert_one_line_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode != 0
    err = proc.stderr.strip()
    assert "Traceback" not in err and "Traceback" not in proc.stdout
    assert len(err.splitlines()) == 1, err
    for word in words:
        assert word in err, err


def test_run_on_a_world_writes_run_json(make_world, tmp_path):
    world = make_world(repos=3, closed_in_window=20, other_updated=5, old_issues=5)
    out = tmp_path / "out"
    proc = fixlore_here("run", "--world", str(world), "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["platform"] == "gitcode" and info["orgs"] == ["acme", "beta"]
    assert info["window"]["since"] == SINCE and info["world"] == str(world)
    assert info["requests"]["total"] == sum(info["requests"]["by_endpoint"].values()) > 0
    assert info["requests"]["total"] == info["server"]["total"]
    assert set(info["stage_seconds"]) >= {"harvest"} and info["funnel"].get("pool", 0) > 0
    assert info["status"] == "ok"
    store = Store.open(f"sqlite:///{out / 'fixlore.db'}")
    assert store.count("issues") == 25


def test_token_never_reaches_logs_store_or_run_json(make_world, tmp_path):
    world = make_world(repos=2, closed_in_window=12, other_updated=3, old_issues=3)
    out, db = tmp_path / "out", tmp_path / "secret.db"
    with ReplayServer(world, token=SECRET) as srv:
        proc = fixlore("run", "--platform", "gitcode", "--base-url", srv.base_url, "--org", "acme", "--org", "beta",
                       "--since", SINCE, "--out", str(out), "--db", f"sqlite:///{db}", "--no-rate-limit",
                       env_extra={"GITCODE_TOKEN": SECRET})
        assert srv.stats()["by_status"].get("401", 0) == 0
    assert proc.returncode == 0, proc.stderr
    assert SECRET not in proc.stdout + proc.stderr
    for path in [out / "run.json", *tmp_path.glob("secret.db*")]:
        assert SECRET.encode() not in path.read_bytes(), path
    assert json.loads((out / "run.json").read_text())["requests"]["total"] > 0


def test_bad_token_is_a_one_line_error(make_world, tmp_path):
    world = make_world(repos=2, closed_in_window=5, other_updated=1, old_issues=1)
    wrong = "wrong-" + SECRET
    with ReplayServer(world, token=SECRET) as srv:
        proc = fixlore("run", "--platform", "gitcode", "--base-url", srv.base_url, "--org", "acme", "--since", SINCE,
                       "--out", str(tmp_path / "out"), "--db", f"sqlite:///{tmp_path / 'b.db'}", "--no-rate-limit",
                       env_extra={"GITCODE_TOKEN": wrong})
    assert_one_line_error(proc, "token")
    assert wrong not in proc.stderr + proc.stdout
    assert wrong not in (tmp_path / "out" / "run.json").read_text()


def test_unknown_org_is_a_one_line_error(make_world, tmp_path):
    world = make_world(repos=2, closed_in_window=5, other_updated=1, old_issues=1)
    with ReplayServer(world) as srv:
        proc = fixlore("harvest", "--platform", "gitcode", "--base-url", srv.base_url, "--org", "no-such-org",
                       "--since", SINCE, "--db", f"sqlite:///{tmp_path / 'u.db'}", "--no-rate-limit", "-q",
                       env_extra={"GITCODE_TOKEN": SECRET})       # (without one, a warning line comes first)
    assert_one_line_error(proc, "unknown organisation", "no-such-org")


def test_unreachable_host_is_a_one_line_error(tmp_path):
    url = f"http://127.0.0.1:{free_port()}/api/v5"
    proc = fixlore("run", "--platform", "gitcode", "--base-url", url, "--org", "acme", "--since", SINCE,
                   "--out", str(tmp_path / "out"), "--db", f"sqlite:///{tmp_path / 'x.db'}", "--max-attempts", "2",
                   "--no-rate-limit", env_extra={"GITCODE_TOKEN": SECRET})
    assert_one_line_error(proc, "cannot reach", "127.0.0.1")
    assert SECRET not in proc.stderr


def test_bad_config_is_a_one_line_error(tmp_path):
    cfg = tmp_path / "fixlore.toml"
    cfg.write_text('platform = "gitlab"\norgs = ["x"]\nsince = "2026-09-17"\n')
    proc = fixlore("harvest", "--config", str(cfg), "-q")
    assert_one_line_error(proc, "platform")
    proc = fixlore("run", "--world", str(tmp_path / "missing"), "--out", str(tmp_path / "o"))
    assert_one_line_error(proc, "world")


def test_sigkill_mid_harvest_then_rerun_ends_identical(make_world, tmp_path):
    world = make_world(repos=5, closed_in_window=60, other_updated=10, old_issues=10, seed=5)
    clean_db, killed_db = tmp_path / "clean.db", tmp_path / "killed.db"
    args = ["harvest", "--platform", "gitcode", "--org", "acme", "--org", "beta", "--since", SINCE, "-q"]
    with ReplayServer(world) as srv:
        proc = fixlore(*args, "--base-url", srv.base_url, "--db", f"sqlite:///{clean_db}", "--no-rate-limit")
        assert proc.returncode == 0, proc.stderr
        total_clean = srv.stats()["total"]
        srv.reset_stats()
        code = "import sys; from fixlore.cli.commands import main; sys.argv[0] = 'fixlore'; main()"
        # Paced by the client-side limiter (50 per 60 s / 30) so the kill lands mid-way.
        child = subprocess.Popen([sys.executable, "-c", code, *args, "--base-url", srv.base_url,
                                  "--db", f"sqlite:///{killed_db}", "--rate-limit", "--time-scale", "30"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while srv.stats()["total"] < total_clean // 2 and time.time() < deadline and child.poll() is None:
            time.sleep(0.05)
        assert child.poll() is None, "the harvest finished before it could be killed"
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        proc = fixlore(*args, "--base-url", srv.base_url, "--db", f"sqlite:///{killed_db}", "--no-rate-limit")
        assert proc.returncode == 0, proc.stderr
    assert Store.open(f"sqlite:///{killed_db}").canonical_dump() == Store.open(f"sqlite:///{clean_db}").canonical_dump()


@pytest.mark.postgres
def test_run_with_a_postgresql_store(make_world, tmp_path, postgres_url):
    world = make_world(repos=2, closed_in_window=15, other_updated=3, old_issues=3)
    proc = fixlore_here("run", "--world", str(world), "--out", str(tmp_path / "out"), "--db", postgres_url, "--quiet")
    assert proc.returncode == 0, proc.stderr
    store = Store.open(postgres_url)
    assert store.count("issues") == 18 and store.count("runs") == 1
    info = json.loads((tmp_path / "out" / "run.json").read_text())
    assert info["settings"]["db"].startswith("postgresql+psycopg://")
