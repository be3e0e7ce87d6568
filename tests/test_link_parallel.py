"""Forked linking and export give exactly what one process gives."""

import importlib.util
import io
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from fixlore.link import LinkConfig, build_cases
from fixlore.edges.caseexport import write_cases_jsonl
from fixlore.link.export import write_cases_parallel
from fixlore.link.forked import ChunkPool, ForkedCall, can_fork, chunked
from fixlore.core.model import Case, Evidence, FixRef

pytestmark = pytest.mark.skipif(not can_fork(), reason="needs os.fork")

BENCH = Path(__file__).resolve().parents[1] / "bench" / "link.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_link", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _export(cases) -> bytes:
    buf = io.StringIO()
    write_cases_jsonl(cases, buf)
    return buf.getvalue().encode()


def test_chunk_pool_keeps_chunk_order_across_processes():
    items = list(range(1000))
    chunks = chunked(items, 3, per_worker=8, least=10)
    assert len(chunks) > 3
    out = ChunkPool(lambda chunk: [(x, os.getpid()) for x in chunk], chunks, 3).join()
    flat = [x for part in out for x, _pid in part]
    assert flat == items


def test_a_failing_child_is_reported():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        ForkedCall(lambda: 1 / 0).result()


def test_a_failing_chunk_fails_the_pool():
    chunks = [[1], [0], [2], [3]]
    with pytest.raises((RuntimeError, ZeroDivisionError)):
        ChunkPool(lambda chunk: [1 / x for x in chunk], chunks, 2).join()


def test_parallel_linking_matches_one_process_on_a_generated_corpus():
    bench = _bench()
    corpus = bench.make_corpus(1500, 1500, 3, seed=7)
    one, counts1 = build_cases(corpus, bench.SINCE, LinkConfig(workers=1))
    two, counts2 = build_cases(corpus, bench.SINCE, LinkConfig(workers=2))
    three, counts3 = build_cases(corpus, bench.SINCE, LinkConfig(workers=3))
    assert counts1.as_dict() == counts2.as_dict() == counts3.as_dict()
    assert any(c.fix for c in one) and any(c.traps for c in one)
    assert _export(one) == _export(two) == _export(three)


def test_parallel_export_writes_the_same_bytes(tmp_path):
    tz = timezone(timedelta(hours=8))
    cases = [Case(repo=f"o/r{i % 3}", number=i, title=f"问题 {i} \"quoted\"", closed_at=datetime(2026, 9, 1, tzinfo=tz),
                  fix=[FixRef(f"o/r{i % 3}", i + 1, "fix", "merged", datetime(2026, 9, 1, tzinfo=tz))],
                  evidence=[Evidence("keyword", f"!{i + 1}: 'fixes'", f"pulls/{i + 1}")], value=i / 7)
             for i in range(5000, 0, -1)]
    write_cases_jsonl(cases, tmp_path / "one.jsonl")
    write_cases_parallel(cases, tmp_path / "two.jsonl", workers=2)
    write_cases_parallel(cases, tmp_path / "three.jsonl", workers=3)
    one = (tmp_path / "one.jsonl").read_bytes()
    assert one == (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "three.jsonl").read_bytes()
    assert one.count(b"\n") == 5000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "three.jsonl", "two.jsonl"]


def test_the_index_scan_works_out_every_merged_pr_backport_shape_once():
    from fixlore.link.index import CorpusIndex
    from fixlore.link.shapes import backport_shape

    corpus = _bench().make_corpus(400, 400, 2, seed=3)
    one, two = CorpusIndex(corpus), CorpusIndex(corpus, workers=2)
    merged = {(p.repo, p.number): p for p in corpus.pulls if p.merged}
    assert merged and set(one._backport_shapes) == set(merged)
    assert one._backport_shapes == two._backport_shapes
    for key, p in merged.items():
        assert one._backport_shapes[key] == backport_shape(p.title) == two.backport_shape(p)
    assert backport_shape("[26.2.0] Fix the NPU  timeout") == backport_shape("fix the npu timeout")


def test_chunk_pool_runs_a_side_job_in_its_first_child_or_in_process():
    chunks = [[1, 2], [3], [4, 5, 6]]
    for workers in (1, 2, 3):
        pool = ChunkPool(lambda chunk: sum(chunk), chunks, workers, first=lambda: ("side", os.getpid()))
        assert pool.join() == [3, 3, 15]
        name, pid = pool.first_result
        assert name == "side" and (pid == os.getpid()) == (workers == 1)


def test_a_failing_side_job_fails_the_pool():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        ChunkPool(lambda chunk: chunk, [[1], [2]], 2, first=lambda: 1 / 0).join()
