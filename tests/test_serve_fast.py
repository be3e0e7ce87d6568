"""Serving first-time questions faster gives the same answers (issue #26).

Each shortcut of the search path is checked against the path it replaces, on a real case index
(SQLite FTS5 file, bundled embedder): the same passages, in the same order, with the same ranks
and scores.
"""

from __future__ import annotations

import random

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
