"""Passage vectors: embedding what is missing, the matrix files on disk, and the row masks searches use."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import numpy as np

from fixlore.edges.atomicfile import replacing
from fixlore.retrieval import vectors
from fixlore.retrieval.embed import Embedder, embed_batched, embed_text
from fixlore.retrieval.schema import (COARSE_NAME, PROJECTION_NAME, VECTOR_IDS_NAME, VECTORS_CURRENT, VECTORS_KEY,
                                      VECTORS_NAME, VECTORS_STALE, Progress, prefix_range, writing)

TOKENS_IN_MEMORY = 32_000_000   # characters of passage tokens kept in memory at most (see _passage_tokens)


class MatrixMixin:
    """`KnowledgeBase`'s vectors (it owns the connection, the embedder and the loaded matrix)."""

    dir: Path
    db: sqlite3.Connection
    _lock: threading.RLock
    embedder: Embedder
    _matrix: np.ndarray | None
    _ids: np.ndarray | None
    _kinds: np.ndarray | None
    _names: dict[int, tuple[str, str, str]] | None     # chunk id -> (doc, chunk, kind), loaded with the vectors
    _tokens: dict[int, str] | None                     # chunk id -> its FTS tokens, likewise (small indexes)
    _masks: dict[tuple[str, ...], np.ndarray]
    _coarse: np.ndarray | None
    _projection: np.ndarray | None

    def _mark_vectors_stale(self) -> None:
        """Inside the transaction that changes the passages (see schema.VECTORS_KEY)."""
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (VECTORS_KEY, VECTORS_STALE))

    def _vectors_current(self) -> bool:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (VECTORS_KEY,)).fetchone()
        if row is None:     # an index from before the mark: current only if it has no passages
            return self.db.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None
        return row[0] == VECTORS_CURRENT and (self.dir / VECTORS_NAME).exists() and (self.dir / VECTOR_IDS_NAME).exists()

    def _refresh_vectors(self, progress: Progress | None) -> int:
        """Embed the passages that have no vector, write the vector files, then mark them current;
        returns how many passages were embedded."""
        embedded = self._embed_missing(progress)
        self._rebuild_matrix()
        with writing(self.db):
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (VECTORS_KEY, VECTORS_CURRENT))
        return embedded

    def _heal_vectors(self, progress: Progress | None) -> int:
        """The vector files again when a run stopped between the passages and their vectors."""
        return 0 if self._vectors_current() else self._refresh_vectors(progress)

    def _embed_missing(self, progress: Progress | None) -> int:
        rows = self.db.execute(
            "SELECT c.vec_key, c.heading, c.text FROM chunks c "
            "LEFT JOIN vec_cache v ON v.key = c.vec_key WHERE v.key IS NULL GROUP BY c.vec_key").fetchall()
        if not rows:
            return 0
        texts = [embed_text(h, t) for _, h, t in rows]
        done = 0
        batch = 64
        for start in range(0, len(rows), batch):
            part = rows[start:start + batch]
            vecs = embed_batched(self.embedder, texts[start:start + batch], batch=batch)
            with writing(self.db):
                self.db.executemany("INSERT OR REPLACE INTO vec_cache VALUES (?,?,?)",
                                    [(k, self.embedder.name, v.astype(np.float32).tobytes())
                                     for (k, _, _), v in zip(part, vecs)])
            done += len(part)
            if progress:
                progress("embed", done, len(rows))
        return len(rows)

    def _rebuild_matrix(self) -> None:
        rows = self.db.execute(
            "SELECT c.id, v.vec FROM chunks c JOIN vec_cache v ON v.key = c.vec_key ORDER BY c.id").fetchall()
        dim = self.embedder.dim
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        matrix = np.zeros((len(rows), dim), dtype=np.float32)
        for i, (_, blob) in enumerate(rows):
            matrix[i] = np.frombuffer(blob, dtype=np.float32)
        write_matrix(self.dir, matrix, ids)
        self._matrix = self._ids = self._kinds = self._names = self._tokens = None
        self._reset_caches()

    def _load_vectors(self) -> None:
        if self._matrix is not None:
            return
        with self._lock:
            self._heal_vectors(None)
            mpath, ipath = self.dir / VECTORS_NAME, self.dir / VECTOR_IDS_NAME
            if not mpath.exists():
                self._matrix = np.zeros((0, self.embedder.dim), dtype=np.float32)
                self._ids = np.zeros(0, dtype=np.int64)
            else:
                self._matrix, self._ids = np.load(mpath), np.load(ipath)
            passages = self.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
            if len(self._ids) != passages or len(self._matrix) != len(self._ids):
                self._refresh_vectors(None)     # files that do not match the passages: written again
                self._matrix, self._ids = np.load(mpath), np.load(ipath)
        self._coarse = self._projection = None
        cpath, ppath = self.dir / COARSE_NAME, self.dir / PROJECTION_NAME
        if cpath.exists() and ppath.exists():
            coarse = np.load(cpath)
            if len(coarse) == len(self._ids):
                self._coarse, self._projection = coarse, np.load(ppath)
        self._names = {cid: (doc, chunk, kind) for cid, doc, chunk, kind in
                       self.db.execute("SELECT id, doc, chunk, kind FROM chunks")}
        self._tokens = self._passage_tokens()
        self._kinds = np.array([self._names.get(int(i), ("", "", ""))[2] for i in self._ids], dtype=object)
        self._masks = {}

    def _passage_tokens(self) -> dict[int, str] | None:
        """Every passage's FTS tokens (what a search's coverage reads for each hit), when they come
        to at most `TOKENS_IN_MEMORY` characters; None for a larger index (read per search).
        A case index's are short (35k cases: 1.8M characters)."""
        out: dict[int, str] = {}
        size = 0
        for cid, toks in self.db.execute("SELECT rowid, tokens FROM chunks_fts"):
            size += len(toks)
            if size > TOKENS_IN_MEMORY:
                return None
            out[cid] = toks
        return out

    def _kind_mask(self, kinds: tuple[str, ...]) -> np.ndarray:
        mask = self._masks.get(kinds)
        if mask is None:
            mask = self._masks[kinds] = np.isin(self._kinds, kinds)
        return mask

    def _prefix_mask(self, doc_prefix: str) -> np.ndarray:
        key = ("doc_prefix", doc_prefix)
        mask = self._masks.get(key)
        if mask is None:
            ids = [r[0] for r in self.db.execute("SELECT id FROM chunks WHERE doc >= ? AND doc < ?",
                                                 prefix_range(doc_prefix))]
            mask = self._masks[key] = np.isin(self._ids, np.asarray(ids, dtype=np.int64))
        return mask


def write_matrix(index_dir: Path, matrix: np.ndarray, ids: np.ndarray) -> None:
    """The vector files of an index: the matrix, its chunk ids (ascending) and, for a large
    matrix, its coarse projection (see fixlore.retrieval.vectors)."""
    _save_npy(index_dir / VECTORS_NAME, matrix.astype(np.float32, copy=False))
    _save_npy(index_dir / VECTOR_IDS_NAME, ids)
    if len(matrix) >= vectors.COARSE_MIN_ROWS:
        projection = vectors.fit_projection(matrix)
        _save_npy(index_dir / PROJECTION_NAME, projection)
        _save_npy(index_dir / COARSE_NAME, np.ascontiguousarray(matrix @ projection))
    else:
        for name in (COARSE_NAME, PROJECTION_NAME):
            (index_dir / name).unlink(missing_ok=True)


def _save_npy(path: Path, array: np.ndarray) -> None:
    with replacing(path) as fh:
        np.save(fh, array)
