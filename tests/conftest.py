"""Shared fixtures: synthetic worlds, a real PostgreSQL server, database URLs for both dialects."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------
# Worlds


@pytest.fixture
def make_world(tmp_path):
    """Write a synthetic world (fixlore.sources.synthetic) into a fresh folder; kwargs shape it."""
    from fixlore.sources.synthetic import WorldShape, write_world

    def make(name: str = "world", **shape) -> Path:
        return write_world(tmp_path / name, WorldShape(**shape))

    return make


# ---------------------------------------------------------------------------
# PostgreSQL: a real server started from Debian's binaries for the whole session


def _pg_bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    runner = shutil.which("runuser")
    return [runner, "-u", "postgres", "--", *cmd] if runner else ["su", "postgres", "-c", " ".join(cmd)]


@pytest.fixture(scope="session")
def postgres_server():
    """(host, port) of a throwaway PostgreSQL server; skips when the binaries are missing."""
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL binaries missing (/usr/lib/postgresql/*/bin); `apt-get install postgresql`")
    if os.geteuid() == 0:
        try:
            import pwd
            pw = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root but there is no `postgres` user to run the server as")
    # Not under pytest's tmp dir: that one is private to root and the server runs as `postgres`.
    base = Path(tempfile.mkdtemp(prefix="fixlore-pg-"))
    data = base / "data"
    if os.geteuid() == 0:
        os.chown(base, pw.pw_uid, pw.pw_gid)
    port = free_port()
    log = base / "server.log"
    subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                 "-E", "UTF8", "--locale=C"]), check=True, capture_output=True)
    opts = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(log),
                                 "-w", "start"]), check=True, capture_output=True)
    try:
        yield ("127.0.0.1", port)
    finally:
        subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server):
    """A fresh, empty database on the session server, as a SQLAlchemy URL."""
    import psycopg

    host, port = postgres_server
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(host=host, port=port, user="postgres", dbname="postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql+psycopg://postgres@{host}:{port}/{name}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    """The same test on a real SQLite file and on a real PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return request.getfixturevalue("postgres_url")


@contextlib.contextmanager
def served_app(app):
    """An ASGI app served by uvicorn on a free loopback port while the block runs; yields its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
