"""A password planted in the base URL (and the database URL) is found nowhere a run writes:
the store, run.json, the log file, the digests, the indexes, stdout or stderr.

The run is a process of its own (what reaches its file descriptors is read, whatever wrote it),
forked warm from this one (forked_process.fixlore_forked): the password is given on the command line,
nothing of it is read when an interpreter starts."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from fixlore.replay.server import ReplayServer
from fixlore.store import Store

from forked_process import fixlore_forked

SINCE = "2026-09-17T00:00:00+08:00"
PLANTED = "PlantedPassw0rd-7731"


def _bytes_everywhere(folder: Path) -> list[tuple[Path, bytes]]:
    return [(p, p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()]


def _run(srv: ReplayServer, out: Path, db: str, log: Path, *extra: str) -> subprocess.CompletedProcess:
    base = srv.base_url.replace("http://", f"http://harvester:{PLANTED}@")
    return fixlore_forked("-vv", "--log-file", str(log), "run", "--platform", "gitcode",
                          "--org", "acme", "--org", "beta", "--since", SINCE, "--base-url", base, "--out", str(out),
                          "--db", db, "--no-rate-limit", "--time-scale", "20", *extra,   # retries wait 1/20
                          timeout=600)


@pytest.mark.parametrize("faults", ["", "500:0.04"])
def test_planted_password_in_the_base_url_is_written_nowhere(make_world, tmp_path, faults):
    world = make_world(repos=3, closed_in_window=20, other_updated=4, old_issues=4, seed=3)
    out, log = tmp_path / "out", tmp_path / "run.log"
    with ReplayServer(world, faults=faults or None, fault_seed=2) as srv:
        proc = _run(srv, out, f"sqlite:///{out / 'fixlore.db'}", log)
    assert proc.returncode == 0, proc.stderr
    assert (out / "digest.html").is_file() and (out / "fixlore.db").is_file() and log.stat().st_size > 0
    if faults:
        assert "retrying" in log.read_text()          # the retry messages reach the configured log
    assert PLANTED not in proc.stdout + proc.stderr
    for path, data in [*_bytes_everywhere(out), (log, log.read_bytes())]:
        assert PLANTED.encode() not in data, path
    assert "harvester:" not in (out / "run.json").read_text()


@pytest.mark.postgres
def test_planted_password_in_a_postgresql_url_is_written_nowhere(make_world, tmp_path, postgres_url):
    world = make_world(repos=2, closed_in_window=10, other_updated=2, old_issues=2, seed=4)
    # The test server trusts local connections, so a password in the URL is accepted and ignored.
    scheme, rest = postgres_url.split("://", 1)
    userinfo, host = rest.split("@", 1) if "@" in rest else ("postgres", rest)
    db = f"{scheme}://{userinfo.split(':')[0]}:{PLANTED}@{host}"
    out, log = tmp_path / "out", tmp_path / "run.log"
    with ReplayServer(world) as srv:
        proc = _run(srv, out, db, log, "--stage", "harvest", "--stage", "funnel", "--stage", "link")
    assert proc.returncode == 0, proc.stderr
    assert PLANTED not in proc.stdout + proc.stderr
    for path, data in [*_bytes_everywhere(out), (log, log.read_bytes())]:
        assert PLANTED.encode() not in data, path
    store = Store.open(postgres_url)
    try:
        dump = repr(store.canonical_dump())
        with store.engine.connect() as conn:
            import sqlalchemy as sa

            from fixlore.store import schema as t

            runs = repr(conn.execute(sa.select(t.runs)).all()) + repr(conn.execute(sa.select(t.harvest_runs)).all())
    finally:
        store.close()
    assert PLANTED not in dump and PLANTED not in runs
