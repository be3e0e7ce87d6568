"""Ctrl-C and kill during `fixlore run`: the user is told what was spent and how to resume, the run
is marked interrupted, a killed run is marked died by the next one, and the rerun completes."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time

import sqlalchemy as sa

from fixlore.replay.server import ReplayServer
from fixlore.store import Store
from fixlore.store import schema as t

from forked_process import ForkedFixlore, fixlore_forked

SINCE = "2026-09-17T00:00:00+08:00"


def _statuses(db: str) -> tuple[list[str], list[str]]:
    store = Store.open(db)
    try:
        with store.engine.connect() as conn:
            runs = [r.status for r in conn.execute(sa.select(t.runs.c.status).order_by(t.runs.c.id))]
            harvests = [r.status for r in conn.execute(sa.select(t.harvest_runs.c.status).order_by(t.harvest_runs.c.id))]
    finally:
        store.close()
    return runs, harvests


# a token, so that stderr holds only what the test reads (no missing-token warning)
TOKEN = {"GITCODE_TOKEN": "t0ken"}


def _start_paced_run(srv: ReplayServer, out, db: str) -> ForkedFixlore:
    # Paced by the client-side limiter (50 per 60 s / 30) so the signal lands mid-harvest. A process
    # of its own forked warm from this one (forked_process.ForkedFixlore): the signal and what the process
    # then writes and exits with are the test's; a new interpreter's start is test_bad_inputs'.
    return ForkedFixlore("run", "--platform", "gitcode", "--org", "acme", "--org", "beta",
                         "--since", SINCE, "--base-url", srv.base_url, "--out", str(out), "--db", db,
                         "--rate-limit", "--time-scale", "30", "-q", env=TOKEN)


def _resume(srv: ReplayServer, out, db: str) -> subprocess.CompletedProcess:
    """The same run again, unpaced: what the user types after an interruption (a process of its
    own, forked warm from this one: forked_process.fixlore_forked)."""
    return fixlore_forked("run", "--platform", "gitcode", "--org", "acme", "--org", "beta",
                          "--since", SINCE, "--base-url", srv.base_url, "--out", str(out), "--db", db,
                          "--no-rate-limit", "-q", "--stage", "harvest", timeout=300, env=TOKEN)


def _wait_for_requests(srv: ReplayServer, child: ForkedFixlore, n: int) -> None:
    deadline = time.time() + 120
    while srv.stats()["total"] < n and time.time() < deadline and child.poll() is None:
        time.sleep(0.05)
    assert child.poll() is None, "the run finished before the signal"


def test_ctrl_c_says_what_was_spent_and_marks_the_run_interrupted(make_world, tmp_path):
    world = make_world(repos=5, closed_in_window=60, other_updated=10, old_issues=10, seed=7)
    out, db = tmp_path / "out", f"sqlite:///{tmp_path / 'i.db'}"
    with ReplayServer(world) as srv:
        child = _start_paced_run(srv, out, db)
        _wait_for_requests(srv, child, 40)
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=60)
        spent = srv.stats()["total"]
        assert child.returncode == 130, stderr
        assert "Traceback" not in stderr + stdout
        lines = stderr.strip().splitlines()
        assert len(lines) == 1, stderr
        n = int(lines[0].split("interrupted, ", 1)[1].split(" ")[0])
        assert lines[0] == f"interrupted, {n} requests spent, rerun the same command to resume"
        # the server may have counted a request whose answer the client never read: the signal
        # landed while it was in flight (the harvest asks one request at a time)
        assert 40 - 1 <= n <= spent
        info = json.loads((out / "run.json").read_text())
        assert info["status"] == "interrupted" and info["requests"]["total"] == n
        assert _statuses(db) == (["interrupted"], ["interrupted"])
        # the same command resumes and completes
        proc = _resume(srv, out, db)
        assert proc.returncode == 0, proc.stderr
    assert _statuses(db) == (["interrupted", "ok"], ["interrupted", "done"])


def test_a_killed_run_is_marked_died_by_the_next(make_world, tmp_path):
    world = make_world(repos=4, closed_in_window=40, other_updated=5, old_issues=5, seed=8)
    out, db = tmp_path / "out", f"sqlite:///{tmp_path / 'k.db'}"
    with ReplayServer(world) as srv:
        child = _start_paced_run(srv, out, db)
        _wait_for_requests(srv, child, 30)
        os.kill(child.pid, signal.SIGKILL)
        child.communicate(timeout=30)
        assert _statuses(db) == (["running"], ["running"])
        proc = _resume(srv, out, db)
        assert proc.returncode == 0, proc.stderr
    assert _statuses(db) == (["died", "ok"], ["died", "done"])
    assert json.loads((out / "run.json").read_text())["abandoned_runs"] == 2


def test_a_run_still_going_is_not_marked_died(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'live.db'}")
    try:
        run_id = store.start_run({"what": "this process, still running"})
        with store.engine.begin() as conn:      # a run of this machine whose process is alive (the test runner's parent)
            conn.execute(sa.update(t.runs).where(t.runs.c.id == run_id).values(
                info={"owner": {"host": socket.gethostname(), "pid": os.getppid()}}))
        other = store.start_run({})
        with store.engine.begin() as conn:      # a run of another machine: cannot be checked, left alone
            conn.execute(sa.update(t.runs).where(t.runs.c.id == other).values(
                info={"owner": {"host": "elsewhere.example", "pid": 1}}))
        assert store.mark_abandoned_runs() == 0
        with store.engine.connect() as conn:
            assert {r.status for r in conn.execute(sa.select(t.runs.c.status))} == {"running"}
    finally:
        store.close()
