"""Serving first-time questions faster gives the same answers (issue #26).

Each shortcut of the search path is checked against the path it replaces, on a real case index
(SQLite FTS5 file, bundled embedder): the same passages, in the same order, with the same ranks
and scores.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import httpx2 as httpx
import orjson
import pytest

from fixlore.core.model import Case
from fixlore.retrieval.base import KnowledgeBase
from fixlore.retrieval.embed import UseEmbedder

WORDS = ("npu memory kernel operator graph compile quantization scheduler device timeout deadlock tensor shape "
         "dtype overflow gradient checkpoint resume optimizer pipeline attention cache driver firmware mount "
         "量化 算子 显存 精度 调度 编译 内存 通信 超时 报错 训练 推理 模型 接口 配置 日志 节点 集群").split()


def _sentence(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))


@pytest.fixture(scope="module")
def case_index(tmp_path_factory):
    rng = random.Random(26)
    cases = [Case(repo=f"org/r{i % 7}", number=i, funnel="selected", title=_sentence(rng, 4, 12),
                  problem=_sentence(rng, 0, 20)) for i in range(1, 401)]
    kb = KnowledgeBase.open(tmp_path_factory.mktemp("fast") / "cases-index", embedder=UseEmbedder())
    kb.ingest_cases(cases)
    yield kb
    kb.close()


def _questions(n: int) -> list[str]:
    rng = random.Random(7)
    return [_sentence(rng, 2, 14) + (" RuntimeError" if i % 4 == 0 else "") for i in range(n)]


def _ranking(kb: KnowledgeBase, q: str, **kw) -> list[tuple]:
    return [(p.doc, p.chunk, p.bm25_rank, p.vector_rank, p.score, p.cosine, p.coverage)
            for p in kb.search(q, k=100, **kw)]


def test_a_kind_filter_every_passage_passes_is_not_sent_to_fts5(case_index):
    """`kind` is an UNINDEXED FTS5 column: testing it reads each matched row; a case index holds
    cases only, so kind='case' is no filter at all and is left out; another kind still filters."""
    sent: list[str] = []
    case_index.db.set_trace_callback(sent.append)
    try:
        assert case_index.search("npu memory timeout", k=5, kind="case")
        fts = [s for s in sent if "chunks_fts MATCH" in s]
        assert fts and not any("kind IN" in s for s in fts)
        sent.clear()
        assert case_index.search("npu memory timeout", k=5, kind=("doc", "code")) == []
        assert any("chunks_fts MATCH" in s and "kind IN" in s for s in sent)
    finally:
        case_index.db.set_trace_callback(None)


def test_the_same_ranking_as_with_the_kind_filter(case_index, monkeypatch):
    questions = _questions(60)
    fast = [_ranking(case_index, q, kind="case") for q in questions]
    assert sum(1 for r in fast if r) >= 55 and any(r[0][2] is not None for r in fast if r)
    # a phantom kind makes kind='case' a real filter again: the SQL of before
    monkeypatch.setattr(case_index, "_kind_counts", {**case_index._kind_counts, "doc": 0})
    assert [_ranking(case_index, q, kind="case") for q in questions] == fast


def test_passages_without_their_text_rank_and_score_as_with_it(case_index):
    """A case search reads only the passages' names and tokens (`best(with_text=False)`):
    the same passages, ranks and scores as the full read, with text and heading left empty."""
    def ranked(with_text: bool) -> list[list[tuple]]:
        return [[(p.doc, p.chunk, p.kind, p.bm25_rank, p.vector_rank, p.score, p.cosine, p.coverage, p.rrf)
                 for p in case_index.best(q, k=100, kind="case", with_text=with_text)] for q in _questions(60)]

    full = ranked(True)
    assert sum(1 for r in full if r) >= 55
    assert ranked(False) == full
    bare = case_index.best(_questions(1)[0], k=100, kind="case", with_text=False)
    assert bare and all(p.text == "" and p.heading == "" for p in bare)
    assert all(p.text for p in case_index.best(_questions(1)[0], k=100, kind="case"))


# ---------------------------------------------------------------- several serving processes

def _children(pid: int) -> list[int]:
    return [int(c) for task in Path(f"/proc/{pid}/task").iterdir() for c in (task / "children").read_text().split()]


def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        stat = Path(f"/proc/{pid}/stat")
        if not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
            return True
        time.sleep(0.1)
    return False


@contextlib.contextmanager
def _forked_server(out: Path, workers: int | None):
    from conftest import free_port
    from forked_process import ForkedFixlore

    port = free_port()
    # a process of its own forked from this one (forked_process.ForkedFixlore): what it answers and how
    # its serving processes start and stop are the test's, not a new interpreter's start
    proc = ForkedFixlore("serve", "http", "--out", str(out), "--port", str(port),
                         *(["--workers", str(workers)] if workers else []))
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, proc.stderr_text()[-2000:]
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/stats", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield proc, f"http://127.0.0.1:{port}"
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(30)
        proc.close()


@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/task").is_dir(), reason="fork and /proc needed")
def test_forked_processes_answer_as_one_process_does_and_stop_with_their_parent(demo_run):
    from fixlore.serve.knowledge import Knowledge, Locations

    with Knowledge.open(Locations.of(out=demo_run)) as k:
        questions = [c.title for c in k.cases.values() if c.funnel in ("selected", "analysis") and c.title][:12]
        keys = [c.key for c in k.cases.values() if c.funnel in ("selected", "analysis")][:6]
        expected = [k.search_cases(q, k=5) for q in questions] + [k.related_cases(key, k=5) for key in keys]
    assert len(questions) >= 6 and any(expected)
    with _forked_server(demo_run, 2) as (proc, base):
        children = _children(proc.pid)
        assert len(children) == 1
        with ThreadPoolExecutor(4) as pool:       # at once, so both processes take some
            got = list(pool.map(lambda path_params: httpx.get(base + path_params[0], params=path_params[1],
                                                               timeout=60).json(),
                                [("/api/cases/search", {"q": q, "k": 5}) for q in questions] +
                                [(f"/api/cases/{quote(key.split('#')[0])}/{key.split('#')[1]}/related", {"k": 5})
                                 for key in keys]))
        assert got == json.loads(orjson.dumps(expected))
        proc.terminate()                           # SIGTERM: the parent stops its children first
        proc.wait(30)
        assert _gone(children[0], 5)
    with _forked_server(demo_run, 2) as (proc, base):
        children = _children(proc.pid)
        proc.kill()                                # killed outright: the orphan stops itself
        proc.wait(30)
        assert _gone(children[0], 10)


def test_the_default_is_one_serving_process_per_core_this_process_may_use(monkeypatch):
    from fixlore.serve import forked

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 2, 5}, raising=False)
    assert forked.default_workers() == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {1}, raising=False)
    assert forked.default_workers() == 1
    monkeypatch.delattr(os, "fork")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert forked.default_workers() == 1


@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/task").is_dir()
                    or len(os.sched_getaffinity(0)) < 2, reason="fork, /proc and two cores needed")
def test_serve_http_forks_one_process_per_core_unless_told(demo_run):
    from fixlore.serve.shared import PREFIX

    with _forked_server(demo_run, None) as (proc, base):
        assert len(_children(proc.pid)) == len(os.sched_getaffinity(0)) - 1
        assert httpx.get(base + "/api/cases/search", params={"q": "npu memory", "k": 3}, timeout=60).status_code == 200
        shared = [p for where in (Path("/dev/shm"), Path(tempfile.gettempdir())) for p in where.glob(f"{PREFIX}{proc.pid}-*")]
        assert len(shared) == 1 and (shared[0] / "answers.sqlite").is_file()
        proc.terminate()
        proc.wait(30)
        assert not shared[0].exists()           # the parent removes the shared memo when it stops
    with _forked_server(demo_run, 1) as (proc, base):
        assert _children(proc.pid) == []


def test_a_question_one_process_answered_is_answered_from_the_shared_memo_by_another(demo_run, monkeypatch):
    """The processes of one server share their case rankings (`serve.shared`): a second process
    answers a question the first one answered without searching, with the same answer."""
    from fixlore.serve.knowledge import Knowledge, Locations
    from fixlore.serve.shared import SharedAnswers

    shared = SharedAnswers.create()
    try:
        with Knowledge.open(Locations.of(out=demo_run)) as first, Knowledge.open(Locations.of(out=demo_run)) as second:
            first.share_answers(shared)
            second.share_answers(SharedAnswers(shared.folder))         # as another process opens it
            keys = [c.key for c in first.cases.values() if c.funnel in ("selected", "analysis")][:5]
            questions = [first.cases[key].title for key in keys]
            answered = [first.search_cases(q, k=5) for q in questions] + [first.related_cases(key, k=5) for key in keys]
            assert any(answered)

            def no_search(*args, **kw):
                raise AssertionError("searched again")

            monkeypatch.setattr(second.case_index, "best", no_search)
            assert [second.search_cases(q, k=5) for q in questions] + \
                   [second.related_cases(key, k=5) for key in keys] == answered
            with pytest.raises(AssertionError, match="searched again"):
                second.search_cases("a question nobody asked before 集群", k=5)
    finally:
        shared.remove()
    assert not shared.folder.exists()


def test_a_shared_memo_left_by_a_killed_server_is_removed_by_the_next(tmp_path, monkeypatch):
    from fixlore.serve import shared as module

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(gone.stdout)
    monkeypatch.setattr(module, "SHM", tmp_path / "no-shm")           # no /dev/shm: the temporary folder
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    (tmp_path / f"{module.PREFIX}{dead}-abc").mkdir()
    (tmp_path / f"{module.PREFIX}{os.getpid()}-live").mkdir()
    made = module.SharedAnswers.create()
    assert made.folder.parent == tmp_path and made.folder.name.startswith(f"{module.PREFIX}{os.getpid()}-")
    assert not (tmp_path / f"{module.PREFIX}{dead}-abc").exists()
    assert (tmp_path / f"{module.PREFIX}{os.getpid()}-live").exists()
    made.put(("k",), [("a", 0.5)])
    assert made.get(("k",)) == [("a", 0.5)]
    made.remove()


def test_a_shared_memo_that_fails_is_a_miss_not_an_error(demo_run):
    from fixlore.serve.knowledge import Knowledge, Locations
    from fixlore.serve.shared import MISSING, SharedAnswers

    shared = SharedAnswers.create()
    with Knowledge.open(Locations.of(out=demo_run)) as k:
        k.share_answers(shared)
        title = next(c.title for c in k.cases.values() if c.funnel in ("selected", "analysis"))
        expected = k.search_cases(title, k=5)
        shared.remove()                                   # the file is gone under the server
        k.forget()
        assert shared.get(("cases", title)) is MISSING
        assert k.search_cases(title, k=5) == expected
        assert not shared.folder.exists()                 # nothing written back


def test_memoised_bm25_rankings_are_the_rankings_fts5_gives(case_index, monkeypatch):
    """An expression of common terms has its BM25 list memoised (other questions share it):
    a memo hit gives what FTS5 gives, and an ingest empties the memo."""
    from fixlore.retrieval import search

    questions = _questions(40)
    monkeypatch.setattr(search, "BM25_MEMO_ROWS", 10**9)        # nothing memoised
    case_index._reset_caches()
    computed = [_ranking(case_index, q, kind="case") for q in questions]
    assert not case_index._bm25_memo
    monkeypatch.setattr(search, "BM25_MEMO_ROWS", 1)            # everything memoised
    case_index._reset_caches()
    first = [_ranking(case_index, q, kind="case") for q in questions]
    assert case_index._bm25_memo and case_index._bm25_memo_hits < len(questions)
    again = [_ranking(case_index, q, kind="case") for q in reversed(questions)][::-1]
    assert case_index._bm25_memo_hits >= len(questions)
    assert computed == first == again
    case_index.ingest_cases([Case(repo="org/new", number=1, funnel="selected", title="kernel deadlock 集群")])
    assert not case_index._bm25_memo
    assert any(p.doc == "cases/org/new/1" and p.bm25_rank for p in case_index.search("kernel deadlock 集群", k=50))


def test_a_case_s_related_cases_cost_no_embedding_and_give_the_same_answers(demo_run, monkeypatch):
    """The run keeps each pool case's related-cases query vector in the case index: asking
    embeds nothing, the kept vector is bit for bit the one computed when asked, and the
    answers are those of the index without kept vectors."""
    import numpy as np

    from fixlore.retrieval.schema import KbQuery
    from fixlore.serve import views
    from fixlore.serve.knowledge import Knowledge, Locations

    with Knowledge.open(Locations.of(out=demo_run)) as k:
        index = k.case_index
        keys = [c.key for c in k.cases.values() if c.funnel in views.POOL_STAGES][:12]
        assert len(keys) >= 6
        encoded: list[str] = []
        encode = index.embedder.encode
        monkeypatch.setattr(index.embedder, "encode", lambda texts: encoded.extend(texts) or encode(texts))
        kept = [k.related_cases(key, k=10) for key in keys]
        assert encoded == [] and any(kept)
        for key in keys:
            query = KbQuery(text=views.related_query(k.cases[key], k._gists.get(key, {})))
            stored = index._stored_query_vector(query)
            assert stored is not None and np.array_equal(stored, index._embed_query(query))
        encoded.clear()
        k.forget()
        monkeypatch.setattr(index, "_has_query_vecs", False)       # as an index without kept vectors
        computed = [k.related_cases(key, k=10) for key in keys]
        assert len(encoded) >= len(keys)
        assert computed == kept



def test_a_query_vector_stored_after_the_kept_keys_were_read_is_used(tmp_path, monkeypatch):
    """The kept query vectors are read once into memory (a new question's is not among them);
    storing query vectors again refreshes them, so a vector kept later is used, not recomputed,
    and a kept one is the vector its query gets when computed."""
    import numpy as np

    from fixlore.core.model import Case
    from fixlore.retrieval.schema import KbQuery

    index = KnowledgeBase.open(tmp_path / "ci", embedder=UseEmbedder())
    index.ingest_cases([Case(repo="o/r", number=n, funnel="selected", title=f"kernel deadlock {n}") for n in (1, 2)])
    index.store_query_vectors(["kernel deadlock 1"])
    index.search("kernel hang", k=2, kind="case")                                # reads the kept vectors
    assert index._query_vecs is not None and index._stored_query_vector(KbQuery(text="kernel hang")) is None
    kept = index._stored_query_vector(KbQuery(text="kernel deadlock 1"))
    assert kept is not None and np.array_equal(kept, index._embed_query(KbQuery(text="kernel deadlock 1")))
    index.store_query_vectors(["kernel deadlock 1", "kernel hang"])
    encoded: list[str] = []
    encode = index.embedder.encode
    monkeypatch.setattr(index.embedder, "encode", lambda texts: encoded.extend(texts) or encode(texts))
    assert index._stored_query_vector(KbQuery(text="kernel hang")) is not None
    index.search("kernel hang", k=2, kind="case")
    assert encoded == []
    index.close()


def test_a_search_on_one_thread_gives_the_same_answers(case_index, monkeypatch):
    """`one_thread` (a server whose processes take every core): the query is embedded and the
    matrix passed over on the calling thread, no worker thread is started, the rankings are the
    same as with the second thread."""
    from fixlore.retrieval import blas, vectors

    questions = _questions(30)
    threaded = [_ranking(case_index, q, kind="case") for q in questions]
    monkeypatch.setattr(blas, "_PINNED", blas._PINNED)     # one_thread pins BLAS's threads: undone after
    monkeypatch.setattr(case_index, "_pool", None)
    monkeypatch.setattr(case_index, "_helper_thread", True)
    case_index.one_thread()
    monkeypatch.setattr(vectors, "SPLIT_MIN_ROWS", 1)            # would split even this small matrix
    case_index._reset_caches()
    alone = [_ranking(case_index, q, kind="case") for q in questions]
    assert case_index._pool is None
    assert alone == threaded


def test_pinned_blas_threads_are_not_set_again_per_search(monkeypatch):
    """`pin_blas_threads` (a server's processes, `one_thread`) sets BLAS's threads once; a search's
    `blas_threads` of that count then leaves them alone, another count still sets them."""
    from threadpoolctl import threadpool_info

    from fixlore.retrieval import blas

    def counts() -> list[int]:
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    before = counts()
    monkeypatch.setattr(blas, "_PINNED", None)
    blas.pin_blas_threads(1)
    try:
        assert counts() and set(counts()) == {1}
        real = blas._controller()
        asked: list[int] = []

        class Counting:
            def limit(self, limits: int, user_api: str):
                asked.append(limits)
                return real.limit(limits=limits, user_api=user_api)

        monkeypatch.setattr(blas, "_controller", lambda: Counting())
        with blas.blas_threads(1):
            assert set(counts()) == {1}
        with blas.blas_threads(2):
            pass
        assert asked == [2] and set(counts()) == {1}
    finally:
        monkeypatch.undo()
        blas._controller().limit(limits=max(before), user_api="blas")
