"""Sentence vectors kept between runs (retrieval/vector_cache.py): a second run embeds nothing and
writes what the first wrote; the cache is off on request, keyed by model and thread count, bounded,
and a cache that cannot be written costs nothing but time."""

from __future__ import annotations

import filecmp
import sqlite3
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest

from fixlore.retrieval import embed, vector_cache
from fixlore.retrieval.embed import UseEmbedder

from conftest import fixlore_here

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ["HCCL 建链超时，8 卡训练拉起失败", "npu-smi info shows no device after reboot", "EZ9999 aicore error"]


@pytest.fixture
def fresh_process(monkeypatch):
    """As a new process starts: no memo, no model loaded."""
    monkeypatch.setattr(embed, "_MEMO", OrderedDict())
    monkeypatch.setattr(embed, "_MODELS", {})


def no_model(monkeypatch):
    def refuse(threads):
        raise AssertionError("the model was loaded")
    monkeypatch.setattr(embed, "_shared_model", refuse)


def rows_in(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM vectors").fetchone()[0]


def test_vectors_come_back_from_the_cache_bit_for_bit_without_the_model(tmp_path, monkeypatch, fresh_process):
    cache = tmp_path / "vectors.sqlite"
    monkeypatch.setenv(vector_cache.ENV, str(cache))
    first = UseEmbedder().encode(TEXTS)
    assert rows_in(cache) == len(TEXTS)
    monkeypatch.setattr(embed, "_MEMO", OrderedDict())         # a new process
    monkeypatch.setattr(embed, "_MODELS", {})
    no_model(monkeypatch)
    again = UseEmbedder().encode(list(reversed(TEXTS)))
    assert again.tobytes() == first[::-1].tobytes()


def test_the_key_holds_the_thread_count_and_off_writes_nothing(tmp_path, monkeypatch, fresh_process):
    cache = tmp_path / "vectors.sqlite"
    monkeypatch.setenv(vector_cache.ENV, str(cache))
    UseEmbedder(threads=1).encode(TEXTS[:1])
    assert vector_cache.lookup(embed.MODEL_NAME, 2, TEXTS[:1], embed.DIM) == {}
    assert set(vector_cache.lookup(embed.MODEL_NAME, 1, TEXTS, embed.DIM)) == {TEXTS[0]}

    monkeypatch.setenv(vector_cache.ENV, "off")
    UseEmbedder().encode(TEXTS[1:])
    monkeypatch.setenv(vector_cache.ENV, str(cache))
    assert rows_in(cache) == 1
    assert vector_cache.cache_path() == cache


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch, fresh_process):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(vector_cache.ENV, str(blocker / "vectors.sqlite"))
    rows = UseEmbedder().encode(TEXTS)
    assert rows.shape == (3, embed.DIM) and np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"this is not a database" * 100)
    monkeypatch.setenv(vector_cache.ENV, str(corrupt))
    monkeypatch.setattr(embed, "_MEMO", OrderedDict())
    assert UseEmbedder().encode(TEXTS).tobytes() == rows.tobytes()


def test_the_cache_keeps_the_newest_rows_only(tmp_path, monkeypatch):
    cache = tmp_path / "vectors.sqlite"
    monkeypatch.setenv(vector_cache.ENV, str(cache))
    monkeypatch.setattr(vector_cache, "MAX_ROWS", 4)
    monkeypatch.setattr(vector_cache, "_PRUNE_EVERY", 1)
    for n in range(6):
        vector_cache.store("m", 1, [f"text {n}"], np.full((1, 8), n, dtype=np.float32))
    kept = vector_cache.lookup("m", 1, [f"text {n}" for n in range(6)], 8)
    assert sorted(kept) == [f"text {n}" for n in range(2, 6)]
    assert kept["text 5"].tolist() == [5.0] * 8


def test_a_second_run_embeds_nothing_and_writes_the_same_files(tmp_path, monkeypatch, fresh_process):
    monkeypatch.setenv(vector_cache.ENV, str(tmp_path / "vectors.sqlite"))
    world = str(ROOT / "worlds" / "demo")
    first = fixlore_here("run", "--world", world, "--out", str(tmp_path / "one"), "-q")
    assert first.returncode == 0, first.stderr
    monkeypatch.setattr(embed, "_MEMO", OrderedDict())
    monkeypatch.setattr(embed, "_MODELS", {})
    no_model(monkeypatch)
    second = fixlore_here("run", "--world", world, "--out", str(tmp_path / "two"), "-q")
    assert second.returncode == 0, second.stderr
    for name in ("cases.jsonl", "digest.zh.md", "digest.en.md"):
        assert filecmp.cmp(tmp_path / "one" / name, tmp_path / "two" / name, shallow=False), name


def test_a_write_reads_the_newest_row_from_an_index_not_every_row(tmp_path, monkeypatch):
    """`written` sits behind a 2 KB vector: without its index each write scanned the whole cache
    (~135 ms at MAX_ROWS, bench/embed_cache.py)."""
    cache = tmp_path / "vectors.sqlite"
    monkeypatch.setenv(vector_cache.ENV, str(cache))
    vector_cache.store("m", 1, ["a", "b"], np.ones((2, 8), dtype=np.float32))
    with sqlite3.connect(cache) as db:
        for sql in ("SELECT coalesce(max(written), 0) + 1 FROM vectors",
                    "SELECT written FROM vectors ORDER BY written DESC LIMIT 1 OFFSET 5"):
            plan = " ".join(row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + sql))
            assert "INDEX vectors_written" in plan, (sql, plan)


def test_a_served_question_neither_reads_nor_writes_the_disk_cache(tmp_path, monkeypatch, demo_run, fresh_process):
    from fixlore.serve.knowledge import Knowledge, Locations

    cache = tmp_path / "vectors.sqlite"
    monkeypatch.setenv(vector_cache.ENV, str(cache))
    UseEmbedder().encode(TEXTS[:1])                   # a run's passage, kept
    read = []
    real_lookup = vector_cache.lookup
    monkeypatch.setattr(vector_cache, "lookup", lambda *a, **kw: read.append(a) or real_lookup(*a, **kw))
    with Knowledge.open(Locations.of(out=demo_run)) as knowledge:
        knowledge.search_cases("a question nobody asked before: 第一次 出现 的 超时")
        knowledge.search_docs("another new question about HCCL 建链")
    assert rows_in(cache) == 1 and read == []


def test_a_lookup_writes_nothing_to_a_cache_made_before_the_index(tmp_path, monkeypatch):
    """A reader of an older cache (a read-only home) must not need to create the writers' index."""
    cache = tmp_path / "vectors.sqlite"
    monkeypatch.setenv(vector_cache.ENV, str(cache))
    key = vector_cache.vector_key("m", 1, "old text")
    with sqlite3.connect(cache) as db:
        db.execute("CREATE TABLE vectors (key BLOB PRIMARY KEY, vec BLOB NOT NULL, written INTEGER NOT NULL)")
        db.execute("INSERT INTO vectors VALUES (?, ?, 1)", (key, np.ones(8, dtype=np.float32).tobytes()))
    assert list(vector_cache.lookup("m", 1, ["old text"], 8)) == ["old text"]
    with sqlite3.connect(cache) as db:
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'vectors_written'"
                          ).fetchone()[0] == 0
