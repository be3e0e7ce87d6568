"""Shared fixtures: synthetic worlds, a real PostgreSQL server, database URLs for both dialects, the
replay server for a module's REPLAY_WORLD, the demo world's run (once a session), servers on loopback."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest


def _build_click_commands_once() -> None:
    """typer builds its click command tree from the functions' signatures on every call of the app
    (and `fixlore.cli.commands.main` walks it once more for empty values): about 13 ms each time,
    once a process for a user, twice per in-process command in a test (~1,000 of them). The tree
    of one Typer object is the same every time (no test registers commands), and click keeps no
    state between invocations in it, so this process builds it once per Typer object."""
    import weakref

    import typer.main

    build = typer.main.get_command
    built: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def get_command(typer_instance):
        if typer_instance not in built:
            built[typer_instance] = build(typer_instance)
        return built[typer_instance]

    typer.main.get_command = get_command


_build_click_commands_once()


# ---------------------------------------------------------------------------
# A new SQLite store starts as a copy of one migrated once per process: running the alembic
# migrations costs ~0.2 s of CPU for each new store, and hundreds of tests make one (every run,
# every Store.open of a fresh file). The copy is the file those migrations leave (the same tables,
# views, triggers and alembic_version). A test that must see the migrations themselves run (their
# transaction, its kill point, an error they raise) is marked `real_migrations`; PostgreSQL, an
# existing file, or a file the copy cannot be written to (the error is then the migrations' own)
# always migrate for real.

_REAL_MIGRATIONS = [False]            # set for the running test by pytest_runtest_setup below
_TEMPLATE: list[Path] = []


_TEMPLATE_LOCK = threading.Lock()


def fresh_stores_migrated_for_real(real: bool) -> None:
    """For the rest of the running test: a new store migrates for real (True) or starts as the
    migrated copy (False), whatever the test's marker says."""
    _REAL_MIGRATIONS[0] = real


def _template_store(real_migrate) -> Path:
    with _TEMPLATE_LOCK:                                # threads of one test may open stores at once
        if not _TEMPLATE:
            import atexit

            from fixlore.store import Store

            folder = Path(tempfile.mkdtemp(prefix="fixlore-template-"))
            atexit.register(shutil.rmtree, folder, True)
            store = Store.open(str(folder / "template.db"), migrate=False)    # as a run opens it: WAL
            try:
                real_migrate(store)
            finally:
                store.close()                           # the last connection checkpoints the WAL
            assert not (folder / "template.db-wal").exists() or not (folder / "template.db-wal").stat().st_size
            _TEMPLATE.append(folder / "template.db")
        return _TEMPLATE[0]


def _migrate_from_a_template() -> None:
    from fixlore.store.store import Store

    real_migrate = Store.migrate

    def migrate(self) -> None:
        url = self.engine.url
        path = url.database if self.engine.dialect.name == "sqlite" else None
        if _REAL_MIGRATIONS[0] or not path or path == ":memory:" or url.query:
            return real_migrate(self)
        target = Path(path)
        if target.exists() or Path(f"{path}-wal").exists():
            return real_migrate(self)
        # copied beside it, then linked into place: the file appears whole or not at all (two
        # stores opening the same new file at once: the second finds the first's copy, complete)
        part = target.with_name(f"{target.name}.template{os.getpid()}-{threading.get_ident()}")
        try:
            shutil.copyfile(_template_store(real_migrate), part)
            os.link(part, target)
        except OSError:
            return real_migrate(self)
        finally:
            with contextlib.suppress(OSError):
                part.unlink()
        return None

    Store.migrate = migrate


_migrate_from_a_template()


def pytest_configure(config):
    """Ctrl-C as a terminal delivers it, and one cache of sentence vectors for the whole run.

    The tests of Ctrl-C need Python's own SIGINT handler: a runner that starts the suite in the
    background (a non-interactive shell's `&`, nohup) hands it SIGINT ignored, which the workers
    and every process a test starts would inherit (and fixlore, rightly, keeps an ignored SIGINT
    ignored). Here in the controller and each worker alike.

    One cache of sentence vectors for the whole test run (retrieval/vector_cache.py), shared by
    the workers and the processes tests start: a text embedded once (a world's documents, its
    cases) is not embedded again by the next test that runs that world. Fresh for each run, never
    the user's own cache. The workers inherit it from the controller's environment."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if os.environ.get("FIXLORE_VECTOR_CACHE") is None and not hasattr(config, "workerinput"):
        import atexit

        folder = tempfile.mkdtemp(prefix="fixlore-vectors-")
        atexit.register(shutil.rmtree, folder, True)
        os.environ["FIXLORE_VECTOR_CACHE"] = os.path.join(folder, "vectors.sqlite")


_FROZEN_AT: set[str] = set()              # the test files whose first test froze what was alive


def _freeze_the_living() -> None:
    """What is alive now is moved out of the garbage collector's reach (gc.freeze): its full
    collections no longer walk it again and again, and a forked copy of this process (the kill
    tests) does not copy its pages by touching their headers. Garbage is collected first, and an
    object freed by its count later is freed all the same: only a cycle alive now and dropped
    later is kept (a module fixture's world, say: kept until the worker ends)."""
    import gc

    gc.collect()
    gc.freeze()


def pytest_collection_finish(session):
    """Once collected (the imported modules, the collected tests: alive all run long); and at the
    start of each test file below (what its predecessors loaded for good: models, dictionaries,
    session fixtures; once a file: a worker may take turns between the tests of several files).
    Measured 2026-12-08 on the 2-core machine, one process, CPU-s inside the collector:
    test_kill_points 2.66 -> 1.38, test_harvest_strict 2.65 -> 1.65; six warm demo runs in
    one process 4.45 -> 4.1 CPU-s in all. Module totals vary by +-10 s under the other helpers'
    load, more than this saves: the collector's own time is the figure."""
    _freeze_the_living()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before any fixture of the test is made (a session fixture it starts runs as the test does)."""
    _REAL_MIGRATIONS[0] = item.get_closest_marker("real_migrations") is not None
    if item.nodeid.split("::", 1)[0] not in _FROZEN_AT:     # a file's first test (pytest_collection_finish)
        _FROZEN_AT.add(item.nodeid.split("::", 1)[0])
        _freeze_the_living()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------
# Parallel runs (pytest-xdist, `./dev test`): with --dist loadfile a file is one worker's unit;
# files that read the same session fixture's world run are one unit together, so it is made once.

# Files whose tests are each a unit of their own, so that the workers share them: long files whose
# tests share no module fixture (test_kill_points' one session fixture, its clean run, is cheap
# beside its four shards of stopped runs). Measured with --durations (junit times, one process
# under load): harvest_strict 164 s, kill_points 151 s, run_cli 82 s, worlds_small 44 s,
# harvest 42 s, secrets_in_urls 39 s, harvest_concurrent 31 s.
SPREAD = {"tests/test_kill_points.py", "tests/test_harvest_strict.py", "tests/test_run_cli.py",
          "tests/test_worlds_small.py", "tests/test_harvest.py", "tests/test_secrets_in_urls.py",
          "tests/test_harvest_concurrent.py"}

# Files that read the same session fixture's run go to one worker. (Sharing sentence vectors needs
# no such grouping: the run's vector cache, see pytest_configure, serves every worker.)
RUN_TOGETHER = {"tests/test_hostile_terminal.py": "tests/test_hostile_world.py",
                "tests/test_series_ascend.py": "tests/test_series_history.py",       # ascend_series_16/17
                "tests/test_series_overrides.py": "tests/test_series_history.py"}

# demo_run's readers (every test file naming it): one unit, so the demo world is run once, not
# once on each worker that drew one of them (three times with 3 workers: setups of 42 s in
# bad_inputs, 21 s in harvest_adapts, 17 s in serve, junit times under a load of ~8 on 2 cores).
# The unit's junit time went 422 s -> 336 s, beside ~800-900 s per worker; handed out second
# (LONGEST_FIRST).
DEMO_RUN_READERS = sorted(f"tests/{p.name}" for p in Path(__file__).resolve().parent.glob("test_*.py")
                          if "demo_run" in p.read_text("utf-8"))       # 14 files, 2026-12-07
RUN_TOGETHER.update({name: "tests/test_bad_inputs.py" for name in DEMO_RUN_READERS})


# The scheduler hands units out in collection order; a long unit handed out last keeps one worker
# busy while the others idle. These go first (the longest units first, as measured with junit times
# of a one-process run: the Ascend series unit ~117 s, then the spread files and single files of
# 25-45 s); the order of the tests inside a file is kept.
LONGEST_FIRST = ("tests/test_series_history.py", "tests/test_series_ascend.py", "tests/test_series_overrides.py",
                 "tests/test_bad_inputs.py", "tests/test_serve_fast.py",
                 "tests/test_acceptance_ascend.py", "tests/test_kb_world.py",
                 "tests/test_kill_points.py",
                 "tests/test_hostile_world.py", "tests/test_hostile_terminal.py", "tests/test_metamorphic_worlds.py",
                 "tests/test_editorial_gate.py", "tests/test_harvest_strict.py",
                 "tests/test_run_cli.py", "tests/test_serve.py", "tests/test_digest.py", "tests/test_series.py")


def pytest_collection_modifyitems(config, items):
    if not hasattr(config, "workerinput"):              # one process: the order as collected
        return
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Together(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            if scope in SPREAD:
                return nodeid
            return RUN_TOGETHER.get(scope, scope)

    return Together(config, log)


# ---------------------------------------------------------------------------
# Worlds


@pytest.fixture
def make_world(tmp_path):
    """Write a synthetic world (fixlore.sources.synthetic) into a fresh folder; kwargs shape it."""
    from fixlore.sources.synthetic import WorldShape, write_world

    def make(name: str = "world", **shape) -> Path:
        return write_world(tmp_path / name, WorldShape(**shape))

    return make


@pytest.fixture(scope="session")
def shared_world(tmp_path_factory):
    """make_world for tests that only read the world (serve it, harvest it, load it): one folder
    per name and shape for the whole session, written once (a world of a few hundred issues costs
    ~0.1 s of CPU to write; test_harvest_strict asks for the same shape up to nine times)."""
    from fixlore.sources.synthetic import WorldShape, write_world

    made: dict[tuple, Path] = {}

    def make(name: str = "world", **shape) -> Path:
        key = (name, tuple(sorted(shape.items())))
        if key not in made:
            made[key] = write_world(tmp_path_factory.mktemp("shared-world") / name, WorldShape(**shape))
        return made[key]

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
    # --no-sync: a throwaway cluster need not wait for its files to reach the disk (initdb 5.5 s -> 1.1 s
    # on this project's busy disk, 2026-12-07; the server runs with fsync=off as it is)
    subprocess.run(_as_postgres([str(bindir / "initdb"), "--no-sync", "-D", str(data), "-U", "postgres",
                                 "--auth=trust", "-E", "UTF8", "--locale=C"]), check=True, capture_output=True)
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



# ---------------------------------------------------------------------------
# The replay server, for a test module that names its world as REPLAY_WORLD (a world folder)


@pytest.fixture(scope="module")
def replay_world_path(request) -> Path:
    path = getattr(request.module, "REPLAY_WORLD", None)
    assert path is not None, f"{request.module.__name__} uses the replay fixtures but sets no REPLAY_WORLD"
    return Path(path)


@pytest.fixture(scope="module")
def replay_server(replay_world_path):
    """The module's world served over loopback for the module's tests."""
    from fixlore.replay.server import ReplayServer

    with ReplayServer(replay_world_path) as srv:
        yield srv


@pytest.fixture(scope="module")
def replay_client(replay_server):
    import httpx2

    with httpx2.Client(base_url=replay_server.base_url, timeout=10) as c:
        yield c


@pytest.fixture(scope="module")
def replay_world(replay_world_path):
    """The same world read from disk, to compute what the server should answer."""
    from fixlore.replay.world import World

    return World(replay_world_path)



# ---------------------------------------------------------------------------
# The demo world's run, and servers started as their own process


DEMO_WORLD = Path(__file__).resolve().parents[1] / "worlds" / "demo"


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory) -> Path:
    """`fixlore run` of the demo world, once per session: the folder is read, never written, by
    the tests that take it (copy it to add to it)."""
    if not DEMO_WORLD.is_dir():
        pytest.skip("demo world missing")
    out = tmp_path_factory.mktemp("demo-run")
    proc = fixlore_here("run", "--world", str(DEMO_WORLD), "--out", str(out), env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    return out


ASCEND_WORLD = Path(__file__).resolve().parents[1] / "worlds" / "ascend-2026-09"
ASCEND_FOCUS = ("Ascend/mind-cluster", "Ascend/MindIE-LLM")


def _fixlore_json(*args: str) -> dict:
    import json

    proc = fixlore_here(*args)
    assert proc.returncode == 0, (args, proc.stderr[-2000:])
    return json.loads(proc.stdout) if proc.stdout.lstrip().startswith("{") else {}


@pytest.fixture(scope="session")
def ascend_series_16(tmp_path_factory) -> dict:
    """The Ascend series as the seed frames it, edition 16 published as of 09-19 (refused on an
    editorial finding, as a publish is by default: it has none), once a session: test_series_ascend, test_series_history and
    test_series_overrides each start from it (an Ascend publish is the suite's costliest step; the
    scheduler keeps the three on one worker). The folder is read, never written: copy it
    (`series_copy`) to publish more."""
    if not (ASCEND_WORLD / "world.yaml").is_file():
        pytest.skip("ascend world not generated")
    out = tmp_path_factory.mktemp("ascend-16") / "out"
    _fixlore_json("series", "create", "ascend", "--title", "昇腾开源仓Issue分析解答-Ascend精选",
                  "--tagline", "一句话让Agent变成昇腾专家，昇腾任务轻松搞定。", "--agent-label", "评测入口：请按这个开源仓接入昇腾图谱",
                  "--agent-pointer", "https://gitcode.com/agent0/kg-tools", "--org", "cann", "--org", "Ascend",
                  "--org-out", "mindspore", "--since", "2026-09-17T00:00:00+08:00", "--first-number", "16",
                  "--out", str(out))
    first = _fixlore_json("series", "publish", "ascend", "--world", str(ASCEND_WORLD), "--as-of",
                          "2026-09-19T00:00:00+08:00", "--out", str(out))
    return {"out": out, "first": first}


@pytest.fixture(scope="session")
def ascend_series_17(ascend_series_16, tmp_path_factory) -> dict:
    """ascend_series_16 and then special edition 17 on two repositories as of 09-20;
    read, never written, as ascend_series_16."""
    out = series_copy(ascend_series_16["out"], tmp_path_factory.mktemp("ascend-17") / "out")
    special = _fixlore_json("series", "publish", "ascend", "--world", str(ASCEND_WORLD), "--as-of",
                            "2026-09-20T00:00:00+08:00", "--repo", ASCEND_FOCUS[0], "--repo", ASCEND_FOCUS[1],
                            "--out", str(out))
    return {"out": out, "first": ascend_series_16["first"], "special": special}


def series_copy(out: Path, to: Path) -> Path:
    """A series folder (its store, indexes and editions) copied to publish more in."""
    shutil.copytree(out, to)
    return to


HOSTILE_WORLDGEN = Path(__file__).resolve().parents[1] / "worldgen" / "hostile.py"


@pytest.fixture(scope="session")
def hostile_world(tmp_path_factory) -> Path:
    """worldgen/hostile.py's world (NUL and control characters, bidi overrides, a 1 MB body,
    markup, javascript: links), written once a session."""
    import runpy

    target = tmp_path_factory.mktemp("hostile") / "world"
    counts = runpy.run_path(str(HOSTILE_WORLDGEN))["write"](target)
    assert counts["big"] == 1 and counts["issues"] > 5 and counts["pulls"] > 5
    return target


@pytest.fixture(scope="session")
def hostile_sqlite_run(hostile_world, tmp_path_factory) -> Path:
    """`fixlore run -q` of the hostile world into SQLite, once a session (test_hostile_world and
    test_hostile_terminal read it; the scheduler below keeps the two on one worker)."""
    out = tmp_path_factory.mktemp("hostile-sqlite") / "out"
    proc = fixlore_here("run", "--world", str(hostile_world), "--out", str(out), "-q")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return out


def fixlore_here(*args: str, env: dict[str, str | None] | None = None) -> subprocess.CompletedProcess:
    """`fixlore ARGS` run in this process through the same `main` (its exit codes and one-line
    errors), stdout and stderr captured as text, `env` set for the call only (None unsets).

    For tests of what a command does, not of its process: a new one spends seconds importing and
    loading jieba's dictionary and the sentence model before the command starts. A test of a
    kill, a signal, the environment read at import or the interpreter's start keeps a process."""
    import logging

    from click.testing import CliRunner

    from fixlore.cli.commands import main

    logger = logging.getLogger("fixlore")           # main configures it to write to the captured stderr
    kept = (list(logger.handlers), logger.level, logger.propagate)
    code: int = 0
    with CliRunner().isolation(env=env) as (out, err, _):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for handler in list(logger.handlers):
                logger.removeHandler(handler)
                handler.close()
            for handler in kept[0]:
                logger.addHandler(handler)
            logger.setLevel(kept[1])
            logger.propagate = kept[2]
        stdout, stderr = out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8", "replace")
    return subprocess.CompletedProcess(["fixlore", *args], code, stdout, stderr)


@contextlib.contextmanager
def served_process(cmd: list[str], port: int, ready: str | None = None, timeout: float = 60, **popen):
    """Run `cmd` (a server listening on loopback `port`) while the block runs; yields its base URL
    once it answers: `ready` a path that must answer 200, or None for the port accepting
    connections. A server that exits first fails with the end of its stderr."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **popen)
    try:
        yield _answering(proc, lambda: proc.stderr.read().decode(errors="replace"), port, ready, timeout, cmd[2:4])
    finally:
        proc.terminate()
        proc.wait(30)


@contextlib.contextmanager
def served_fixlore(args: list[str], port: int, ready: str | None = None, timeout: float = 60):
    """served_process of `fixlore ARGS` as a process forked from this one (ForkedFixlore): for a
    test of what the server answers and how its processes behave, not of a new interpreter's start."""
    from forked_process import ForkedFixlore

    proc = ForkedFixlore(*args)
    try:
        yield _answering(proc, lambda: proc.stderr_text(), port, ready, timeout, args[:2])
    finally:
        proc.terminate()
        proc.wait(30)
        proc.close()


def _answering(proc, stderr, port: int, ready: str | None, timeout: float, what) -> str:
    """The base URL once the server `proc` answers (see served_process)."""
    import httpx2

    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, stderr()[-2000:]
        if ready is None:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return base
        else:
            try:
                if httpx2.get(base + ready, timeout=2).status_code == 200:
                    return base
            except httpx2.HTTPError:
                pass
        assert time.monotonic() < deadline, f"{what} did not start within {timeout:g} s"
        time.sleep(0.2)


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


@contextlib.contextmanager
def clean_and_faulty_sources(world: Path, faults: str):
    """(clean, faulty): one platform source over the world served as it is and one over the same world
    served with `faults`, each on its own loopback replay server, one try per request."""
    from fixlore.replay.server import ReplayServer
    from fixlore.sources import make_source
    from fixlore.sources.http import ApiClient

    with ReplayServer(world) as clean_srv, ReplayServer(world, faults=faults) as srv:
        platform = clean_srv.platform
        with ApiClient(clean_srv.base_url, platform, rate_limit=False, max_attempts=1) as c1, \
                ApiClient(srv.base_url, platform, rate_limit=False, max_attempts=1) as c2:
            yield make_source(platform, c1), make_source(platform, c2)
