"""Ingest: documents and cases read, cut into passages, tokenised and stored; vanished ones removed."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from fixlore.core.errors import FixloreError
from fixlore.core.model import Case
from fixlore.retrieval.cases import case_doc, case_text
from fixlore.retrieval.chunking import chunk_document, file_format, kind_of
from fixlore.retrieval.embed import Embedder, embed_text, text_key
from fixlore.retrieval.schema import IngestStats, Progress, writing
from fixlore.retrieval.tokens import Tokenizer

MAX_FILE_BYTES = 1_000_000
SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox"}


@dataclass(slots=True)
class _Source:
    doc: str
    kind: str
    fmt: str
    text: str
    sha: str
    size: int
    origin: str = ""


class IngestMixin:
    """`KnowledgeBase`'s ingest (term counts and vectors are refreshed through its other parts)."""

    db: sqlite3.Connection
    _lock: threading.RLock
    tokenizer: Tokenizer
    embedder: Embedder

    def ingest_folder(self, path: str | Path, prefix: str = "docs", progress: Progress | None = None) -> IngestStats:
        """Index every readable file under `path` as ``<prefix>/<relative path>``.

        Documents ingested earlier from the same folder and prefix whose file is gone are
        removed (other folders' documents stay). Files whose content hash is unchanged cost nothing.
        """
        root = Path(path)
        if not root.is_dir():
            raise FixloreError(f"not a folder: {root}")
        started = time.monotonic()
        stats = IngestStats()
        prefix = prefix.strip("/")
        origin = f"{root.resolve()}::{prefix}"
        known = dict(self.db.execute("SELECT doc, sha256 FROM sources WHERE kind != 'case'").fetchall())
        mine = {d for (d,) in self.db.execute("SELECT doc FROM sources WHERE origin = ?", (origin,))}
        moved: list[str] = []
        seen: set[str] = set()
        todo: list[_Source] = []
        for file in _walk(root):
            rel = file.relative_to(root).as_posix()
            doc = f"{prefix}/{rel}" if prefix else rel
            fmt = file_format(rel)
            if fmt is None:
                continue
            stats.seen += 1
            source = _read_source(file, doc, fmt)
            if source is None:
                stats.skipped += 1
                stats.skipped_files.append(doc)
                continue
            seen.add(doc)
            source.origin = origin
            if known.get(doc) == source.sha:
                stats.unchanged += 1
                if doc not in mine:
                    moved.append(doc)
                continue
            if doc in known:
                stats.updated += 1
            else:
                stats.added += 1
            todo.append(source)
        gone = sorted(mine - seen)
        stats.removed = len(gone)
        if moved:
            with self._lock, writing(self.db):
                self.db.executemany("UPDATE sources SET origin = ? WHERE doc = ?", [(origin, d) for d in moved])
        self._apply(todo, gone, stats, progress)
        stats.seconds = time.monotonic() - started
        return stats

    def ingest_cases(self, cases: Iterable[Case], progress: Progress | None = None,
                     text_of: Callable[[Case], str] | None = None, prune: bool = False) -> IngestStats:
        """Index cases as passages of kind "case": `text_of(case)`, by default title, problem,
        answer, symptom and first action. With `prune`, cases indexed before and not given now
        are removed."""
        started = time.monotonic()
        stats = IngestStats()
        known = dict(self.db.execute("SELECT doc, sha256 FROM sources WHERE kind = 'case'").fetchall())
        todo: list[_Source] = []
        given: set[str] = set()
        for case in cases:
            doc = case_doc(case)
            text = (text_of or case_text)(case)
            if not text.strip():
                continue
            stats.seen += 1
            given.add(doc)
            sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
            if known.get(doc) == sha:
                stats.unchanged += 1
                continue
            stats.updated += doc in known
            stats.added += doc not in known
            todo.append(_Source(doc=doc, kind="case", fmt="txt", text=text, sha=sha, size=len(text)))
        gone = sorted(set(known) - given) if prune else []
        stats.removed = len(gone)
        self._apply(todo, gone, stats, progress)
        stats.seconds = time.monotonic() - started
        return stats

    def _apply(self, todo: list[_Source], gone: list[str], stats: IngestStats, progress: Progress | None) -> None:
        with self._lock:
            if todo or gone:
                self._apply_locked(todo, gone, stats, progress)
            else:           # nothing changed, unless a run stopped before the vectors were written
                stats.embedded = self._heal_vectors(progress)

    def _apply_locked(self, todo: list[_Source], gone: list[str], stats: IngestStats,
                      progress: Progress | None) -> None:
        self.tokenizer.learn(s.text for s in todo if s.kind != "case")
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        # Passage-frequency changes live only as long as the transaction: a failed ingest
        # rolls back the chunks and must not leave its counts for the next one.
        delta: Counter = Counter()
        with writing(self.db):
            self._mark_vectors_stale()
            for doc in gone:
                self._delete_doc(doc, delta)
            for n, src in enumerate(todo, 1):
                self._delete_doc(src.doc, delta)
                chunks = chunk_document(src.text, src.fmt, src.doc)
                label = _path_words(src.doc)
                for ch in chunks:
                    key = text_key(self.embedder.name, embed_text(ch.heading, ch.text))
                    cur = self.db.execute(
                        "INSERT INTO chunks (doc, chunk, kind, heading, text, vec_key) VALUES (?,?,?,?,?,?)",
                        (src.doc, ch.chunk, src.kind, ch.heading, ch.text, key))
                    toks = self.tokenizer.tokens(f"{label}\n{ch.heading}\n{ch.text}")
                    self.db.execute("INSERT INTO chunks_fts (rowid, tokens, kind) VALUES (?,?,?)",
                                    (cur.lastrowid, " ".join(toks), src.kind))
                    delta.update(set(toks))
                self.db.execute("INSERT INTO sources (doc, kind, sha256, size, n_chunks, ingested_at, origin) "
                                "VALUES (?,?,?,?,?,?,?)",
                                (src.doc, src.kind, src.sha, src.size, len(chunks), now, src.origin))
                stats.chunks += len(chunks)
                if progress:
                    progress("index", n, len(todo))
            self._flush_df(delta)
        stats.embedded = self._refresh_vectors(progress)

    def _delete_doc(self, doc: str, delta: Counter) -> None:
        ids = [r[0] for r in self.db.execute("SELECT id FROM chunks WHERE doc = ?", (doc,))]
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            marks = ",".join("?" * len(part))
            for (toks,) in self.db.execute(f"SELECT tokens FROM chunks_fts WHERE rowid IN ({marks})", part):
                delta.subtract(set(toks.split()))
            self.db.execute(f"DELETE FROM chunks_fts WHERE rowid IN ({marks})", part)
        self.db.execute("DELETE FROM chunks WHERE doc = ?", (doc,))
        self.db.execute("DELETE FROM sources WHERE doc = ?", (doc,))


def _path_words(doc: str) -> str:
    """Words of a document's path (file name, folders below the repo) that help a query find it."""
    parts = doc.split("/")
    tail = parts[3:] if parts[0] in ("docs", "cases") and len(parts) > 3 else parts
    return " ".join(p.rsplit(".", 1)[0] if i == len(tail) - 1 else p for i, p in enumerate(tail))


def _walk(root: Path) -> Iterable[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            p = Path(dirpath) / name
            if p.is_file() and not p.is_symlink():
                yield p


def _read_source(file: Path, doc: str, fmt: str) -> _Source | None:
    """The file's text, or None for a binary, huge or undecodable file."""
    size = file.stat().st_size
    if size > MAX_FILE_BYTES or size == 0:
        return None
    data = file.read_bytes()
    if b"\0" in data[:8192]:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("gb18030")
        except UnicodeDecodeError:
            return None
    if text.startswith("\ufeff"):
        text = text[1:]
    return _Source(doc=doc, kind=kind_of(fmt), fmt=fmt, text=text, sha=hashlib.sha256(data).hexdigest(), size=size)
