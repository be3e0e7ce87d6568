"""Stop `fixlore run` at chosen points of every stage, by Ctrl-C or by a kill, run the same command
again, and find what a clean run leaves: cases.jsonl, the digests, the document index (passages,
their tokens and vectors, sources, term counts, the user dictionary), the case index, the store's
rows and a run that says ok.

The points are the run's durable writes (`fixlore.edges.killpoints`): every store transaction, every
index transaction, every file moved into place, and each stage's start, listed from a clean run
of the demo world. Which of them are tried is drawn with a fixed seed (``FIXLORE_KILL_SEED``
draws another set; ``FIXLORE_KILL_POINTS=all`` tries every point, both ways: minutes), at least
one per stage, every point of the kb stage. A kill is SIGKILL to a forked copy of this process
(nothing of Python runs after it); Ctrl-C is SIGINT to this process, handled as the user's press.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from jsonschema import Draft202012Validator

from fixlore.core import formats

from fixlore.edges import killpoints
from fixlore.core.errors import Interrupted
from fixlore.pipeline import STAGE_ORDER, RunRequest, run_pipeline
from fixlore.store import Store

from conftest import fresh_stores_migrated_for_real

# the run's points include the migrations' transaction of a new store: they run for real here
pytestmark = pytest.mark.real_migrations

ROOT = Path(__file__).resolve().parents[1]
WORLD = ROOT / "worlds" / "demo"
SEED = int(os.environ.get("FIXLORE_KILL_SEED", "21"))
EVERY = os.environ.get("FIXLORE_KILL_POINTS") == "all"
# points drawn per stage besides its start (the kb stage: all of them)
DRAWN = {"harvest": 5, "funnel": 0, "link": 2, "analyse": 1, "compose": 3, "serve": 4, killpoints.OUTSIDE: 2}
OUTPUT_FILES = ("cases.jsonl", "digest.zh.md", "digest.en.md", "digest.html", "digest.json", "metadata.json")


def _run(out: Path) -> dict:
    return run_pipeline(RunRequest(world=WORLD, out=out, quiet=True))


def _index_dump(folder: Path) -> dict:
    """An index as its files hold it (read raw: opening it as a KnowledgeBase would repair it)."""
    db = sqlite3.connect(folder / "kb.sqlite")
    try:
        where = {cid: (doc, chunk) for cid, doc, chunk in db.execute("SELECT id, doc, chunk FROM chunks")}
        dump = {
            "sources": sorted(db.execute("SELECT doc, kind, sha256, size, n_chunks, origin FROM sources")),
            "chunks": sorted(db.execute("SELECT doc, chunk, kind, heading, text, vec_key FROM chunks")),
            "tokens": sorted((where[rowid], toks) for rowid, toks in db.execute("SELECT rowid, tokens FROM chunks_fts")),
            "term_df": sorted(db.execute("SELECT term, df FROM term_df")),
            "meta": sorted(db.execute("SELECT key, value FROM meta")),
        }
    finally:
        db.close()
    if (folder / "vector_ids.npy").exists() and (folder / "vectors.npy").exists():
        ids, matrix = np.load(folder / "vector_ids.npy"), np.load(folder / "vectors.npy")
    else:                                        # no vector files: no vectors (a difference, not a crash)
        ids, matrix = np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
    assert len(ids) == len(matrix)
    dump["vectors"] = {where.get(int(i), ("(no passage)", str(i))): row for i, row in zip(ids, matrix)}
    words = folder / "userdict.txt"
    dump["userdict"] = sorted(words.read_text("utf-8").splitlines()) if words.exists() else []
    return dump


class _Comparable(Store):
    """The store's rows without the bookkeeping of which run wrote a case, and when."""
    VOLATILE = {**Store.VOLATILE, "cases": {"run_id", "updated_at"}}


def _outputs(out: Path) -> dict:
    store = Store.open(f"sqlite:///{out / 'fixlore.db'}", migrate=False)
    try:
        rows = _Comparable(store.engine).canonical_dump()
    finally:
        store.close()
    info = json.loads((out / "run.json").read_text("utf-8"))
    return {"files": {name: (out / name).read_bytes() for name in OUTPUT_FILES},
            "names": sorted(str(p.relative_to(out)) for p in out.rglob("*")),
            "kb": _index_dump(out / "kb"), "cases-index": _index_dump(out / "cases-index"), "store": rows,
            "run": (info["status"], [(s["name"], s["status"]) for s in info["stages"]])}


def _same(got: dict, want: dict) -> list[str]:
    """What differs, by name (vectors compared to float tolerance: a batch of another size may
    round the last bit differently)."""
    wrong = [f"{name} differs" for name in want["files"] if got["files"][name] != want["files"][name]]
    if got["names"] != want["names"]:                # nothing missing, nothing left behind
        wrong.append(f"other files: {sorted(set(got['names']) ^ set(want['names']))}")
    for index in ("kb", "cases-index"):
        for part, value in want[index].items():
            if part == "vectors":
                have = got[index]["vectors"]
                if set(have) != set(value) or any(not np.allclose(have[k], value[k], atol=1e-5) for k in value):
                    wrong.append(f"{index} vectors differ ({len(have)} rows, want {len(value)})")
            elif got[index][part] != value:
                wrong.append(f"{index} {part} differ")
    wrong += [f"store table {t} differs" for t in want["store"] if got["store"][t] != want["store"][t]]
    if got["run"] != want["run"]:
        wrong.append(f"run.json says {got['run']}")
    return wrong


@pytest.fixture(scope="session")
def clean(tmp_path_factory):
    """A clean run's outputs and the points it passed, by stage: once per process (the shards
    below may run on several workers, each then makes its own; only this file takes it)."""
    out = tmp_path_factory.mktemp("clean") / "out"
    with killpoints.tracing() as trace:
        _run(out)
    points: dict[str, list[tuple[int, str]]] = {}
    for stage, n, what in trace:
        points.setdefault(stage, []).append((n, what))
    return _outputs(out), points


def _chosen(points: dict[str, list[tuple[int, str]]]) -> list[tuple[str, int, str, str]]:
    """(stage, n, what, how): each stage's start, its draw, every kb point; kill and Ctrl-C alternate."""
    rng = random.Random(SEED)
    picked: list[tuple[str, int, str]] = []
    for stage, listed in points.items():
        if EVERY or stage == "kb":
            take = listed
        else:
            rest = listed[1:]
            take = listed[:1] + sorted(rng.sample(rest, min(DRAWN.get(stage, 1), len(rest))))
        picked += [(stage, n, what) for n, what in take]
    hows = [killpoints.HOW[i % 2] for i in range(len(picked))]
    if not EVERY:
        rng.shuffle(hows)
        return [(s, n, w, how) for (s, n, w), how in zip(picked, hows)]
    return [(s, n, w, how) for s, n, w in picked for how in killpoints.HOW]


def _killed_at(out: Path, stage: str, n: int, run=_run) -> None:
    """A run of a forked copy of this process, SIGKILLed at the point."""
    pid = os.fork()
    if pid == 0:                                     # the child: never returns into pytest
        try:
            fresh_stores_migrated_for_real(_migrations_among_the_points(stage))
            killpoints.arm(stage, n, "kill")
            run(out)
        finally:
            os._exit(3)                              # the point was never reached
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"not killed at {stage}:{n}"


def _migrations_among_the_points(stage: str) -> bool:
    """The migrations' transaction is one of the run's own points (OUTSIDE, numbered with them): a
    run stopped at one of those migrates a new store for real, as the clean run that listed the
    points did. A stage's points are numbered on their own, so a run stopped in a stage may start
    its new store as the migrated copy (conftest), ~0.2 s of CPU less for each of ~30 runs."""
    return stage == killpoints.OUTSIDE


def _interrupted_at(out: Path, stage: str, n: int) -> None:
    killpoints.arm(stage, n, "ctrl-c")
    fresh_stores_migrated_for_real(_migrations_among_the_points(stage))
    try:
        # Interrupted while the stages run; the run's own last writes come after Ctrl-C is
        # handled (as for the user's press there), so they stop at a plain KeyboardInterrupt
        with pytest.raises((Interrupted, KeyboardInterrupt)):
            _run(out)
    finally:
        killpoints.disarm()
        fresh_stores_migrated_for_real(True)        # the file's marker again


def test_every_stage_has_points_and_at_least_thirty_are_tried(clean):
    _, points = clean
    assert set(STAGE_ORDER) | {killpoints.OUTSIDE} == set(points)
    chosen = _chosen(points)
    assert len(chosen) >= 30
    assert {s for s, *_ in chosen} == set(points)
    assert {how for *_, how in chosen} == set(killpoints.HOW)
    kb_files = {what for s, _, what, _ in chosen if s == "kb"}
    assert {"kb.sqlite", "file vectors.npy"} <= kb_files     # after the passages, before their vectors


# every point both ways (~540 runs) outlasts the suite's 600 s per test; the timeout's own
# exception, raised inside a store transaction, would be read as the run's failure
#
# The chosen points are tried in SHARDS parts (every SHARDS-th point from the shard's own on): each
# part is a unit of its own for the parallel run (tests/conftest.py: SPREAD), so the ~70 runs are
# shared by the workers instead of setting the length of the whole suite on one.
SHARDS = 4


@pytest.mark.timeout(7200 if EVERY else 600)
@pytest.mark.parametrize("shard", range(SHARDS))
def test_a_run_stopped_anywhere_then_rerun_leaves_what_a_clean_run_leaves(clean, tmp_path, shard):
    want, points = clean
    failures = []
    for k, (stage, n, what, how) in list(enumerate(_chosen(points)))[shard::SHARDS]:
        out = tmp_path / f"p{k}"
        (_killed_at if how == "kill" else _interrupted_at)(out, stage, n)
        try:
            _run(out)                                # the same command again
            wrong = _same(_outputs(out), want)
        except Exception as exc:                     # noqa: BLE001 -- named below, with the other points
            wrong = [f"the rerun raised {type(exc).__name__}: {exc}"]
        if wrong:
            failures.append(f"{how} at {stage}:{n} ({what}): {'; '.join(wrong)}")
        shutil.rmtree(out)
    assert not failures, "\n".join(failures)


def _docs(folder: Path) -> Path:
    folder.mkdir()
    (folder / "guide.md").write_text("# Install\n\nSet ASCEND_HOME before running npu-smi.\n\n# Errors\n\n"
                                     "EZ9999 means the device ran out of memory: lower the batch size.\n", "utf-8")
    (folder / "faq.md").write_text("# FAQ\n\nHCCL timeout: raise HCCL_CONNECT_TIMEOUT to 1800.\n", "utf-8")
    return folder


def _vector_rows(index: Path) -> int:
    return len(np.load(index / "vector_ids.npy"))


def test_passages_without_their_vectors_are_repaired_by_the_next_ingest_or_search(tmp_path):
    from fixlore.retrieval.base import KbQuery, KnowledgeBase

    docs, index = _docs(tmp_path / "docs"), tmp_path / "kb"
    with KnowledgeBase.open(index) as kb:
        kb.ingest_folder(docs)
        want = _vector_rows(index)
        with sqlite3.connect(index / "kb.sqlite") as db:      # a kill after the passages' transaction
            db.execute("UPDATE meta SET value = 'stale' WHERE key = 'vectors'")
        (index / "vectors.npy").unlink()
        (index / "vector_ids.npy").unlink()
        assert want > 0
    with KnowledgeBase.open(index) as kb:
        again = kb.ingest_folder(docs)
        assert again.unchanged == 2 and again.changed == 0       # nothing new to read, and yet
    assert _vector_rows(index) == want                            # the vectors are back
    # an index written before the mark existed, its vector files lost: a search repairs it
    with sqlite3.connect(index / "kb.sqlite") as db:
        db.execute("DELETE FROM meta WHERE key = 'vectors'")
    (index / "vector_ids.npy").unlink()
    with KnowledgeBase.open(index) as kb:
        hits = kb.search(KbQuery(text="EZ9999 out of memory"), k=3)
    assert hits and hits[0].doc.endswith("guide.md")
    assert _vector_rows(index) == want


def test_a_file_is_whole_or_as_it_was_and_a_dead_writers_temporary_goes(tmp_path):
    import subprocess
    import sys

    from fixlore.edges.atomicfile import replacing, write_atomic

    target = write_atomic(tmp_path / "run.json", "before\n")
    with pytest.raises(KeyboardInterrupt):
        with replacing(target) as fh:
            fh.write(b"half of it")
            raise KeyboardInterrupt
    assert target.read_text() == "before\n" and sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    orphan = tmp_path / f"run.json.tmp{int(dead.stdout)}"          # a killed writer's
    live = tmp_path / f"run.json.tmp{os.getppid()}"                # a writer still at work
    orphan.write_text("half")
    live.write_text("half")
    write_atomic(target, "after\n")
    assert target.read_text() == "after\n"
    assert not orphan.exists() and live.exists()


def test_the_command_stopped_by_its_environment_says_so_and_the_rerun_heals(clean, tmp_path):
    """The hook as a user's shell arms it: Ctrl-C in the kb stage once its passages are stored."""
    import subprocess
    import sys

    want, points = clean
    stored = [n for n, what in points["kb"] if what == "kb.sqlite"][2]    # model, passages, then: this
    out = tmp_path / "out"
    env = {**os.environ, killpoints.ENV: f"kb:{stored}:ctrl-c"}
    done = subprocess.run([sys.executable, "-m", "fixlore", "run", "--world", str(WORLD), "--out", str(out), "-q"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().startswith("interrupted, ") and len(done.stderr.strip().splitlines()) == 1
    record = json.loads((out / "run.json").read_text("utf-8"))
    assert record["status"] == "interrupted"
    schema = json.loads((ROOT / formats.SCHEMAS[formats.RUN]).read_text("utf-8"))
    assert [e.message for e in Draft202012Validator(schema).iter_errors(record)] == []
    _run(out)
    assert _same(_outputs(out), want) == []


def _series_store(out: Path) -> None:
    from fixlore.series.model import Series
    from fixlore.store.ledger import Ledger

    out.mkdir(parents=True)
    store = Store.open(f"sqlite:///{out / 'fixlore.db'}")
    try:
        Ledger(store).save_series(Series.from_dict({"name": "demo", "title": "演示", "top_k": 5,
                                                    "since": "2026-09-17T00:00:00+08:00"}).to_dict())
    finally:
        store.close()


def _publish(out: Path) -> dict:
    from datetime import datetime, timedelta, timezone

    from fixlore.series.publish import publish_edition

    return publish_edition("demo", out=out, world=WORLD, as_of=datetime(2026, 9, 18, 15, tzinfo=timezone(timedelta(hours=8))))


def _editions(out: Path) -> tuple[list[int], dict[str, bytes]]:
    from fixlore.store.ledger import Ledger

    store = Store.open(f"sqlite:///{out / 'fixlore.db'}", migrate=False)
    try:
        numbers = [e["number"] for e in Ledger(store).editions("demo")]
    finally:
        store.close()
    folders = sorted((out / "editions").glob("demo-*"))
    return numbers, {f"{d.name}/{p.name}": p.read_bytes() for d in folders for p in sorted(d.iterdir())}


def test_a_series_edition_stopped_while_it_is_written_is_published_once_by_the_rerun(tmp_path):
    """The ledger's record of an edition is its completion mark: written after its files."""
    clean = tmp_path / "clean"
    _series_store(clean)
    with killpoints.tracing() as trace:
        _publish(clean)
    want = _editions(clean)
    assert want[0] == [1] and want[1]
    after_run = [n for stage, n, what in trace if stage == killpoints.OUTSIDE
                 and n > max(m for s, m, w in trace if s == killpoints.OUTSIDE and w == "file run.json")]
    files = [n for stage, n, what in trace if n in after_run and what.startswith("file ")]
    record = next(n for n in after_run if n > files[-1])
    for k, (n, how) in enumerate([(files[0], "kill"), (files[2], "ctrl-c"), (record, "kill")]):
        out = tmp_path / f"s{k}"
        _series_store(out)
        if how == "kill":
            _killed_at(out, killpoints.OUTSIDE, n, run=_publish)
        else:
            killpoints.arm(killpoints.OUTSIDE, n, how)
            try:
                with pytest.raises(KeyboardInterrupt):
                    _publish(out)
            finally:
                killpoints.disarm()
        _publish(out)                                # the same command again
        assert _editions(out) == want, f"{how} at {killpoints.OUTSIDE}:{n}"
