"""The knowledge base: documents, code and cases cut into passages, searchable by words and meaning.

An index directory holds

- ``kb.sqlite``: ``sources`` (one row per ingested document, with its content hash),
  ``chunks`` (the passages), ``chunks_fts`` (an FTS5 table over the space-joined jieba
  tokens, ranked by bm25), ``vec_cache`` (every passage vector ever computed, keyed by a
  hash of the embedded text) and ``meta``;
- ``vectors.npy`` / ``vector_ids.npy``: the L2-normalised float32 matrix of the current
  passages and their chunk ids, searched by brute-force cosine with numpy;
- ``userdict.txt`` and ``jieba.cache``: jieba's user dictionary and dictionary cache;
- ``threshold.json``: the calibrated score threshold (see `fixlore.kb.calibrate`).

Open it with `KnowledgeBase.open(dir)`; the file is a plain SQLite database anyone can browse.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from fixlore.errors import FixloreError
from fixlore.kb import scoring, vectors
from fixlore.kb.blas import blas_threads
from fixlore.kb.chunking import chunk_document, file_format, kind_of
from fixlore.kb.embed import Embedder, UseEmbedder, embed_batched, embed_text, text_key
from fixlore.kb.tokens import Tokenizer, fts_escape, is_query_term
from fixlore.model import Case, KbRef

DB_NAME = "kb.sqlite"
VECTORS_NAME = "vectors.npy"
VECTOR_IDS_NAME = "vector_ids.npy"
COARSE_NAME = "vectors_coarse.npy"
PROJECTION_NAME = "projection.npy"
THRESHOLD_NAME = "threshold.json"

MAX_FILE_BYTES = 1_000_000
CANDIDATES = 50           # hits taken from each ranking before fusion
MAX_QUERY_TERMS = 32      # key terms kept from a query
QUERY_EMBED_CHARS = 400   # the query's vector is taken from its first characters (see _embed_query)
COMMON_DF = 0.01          # terms in more than this share of passages are scored but not matched
MATCH_TERMS = 10          # at most this many (the heaviest) terms go into the FTS5 expression
COMMON_BUDGET = 0.05      # a query of common terms alone matches its rarest ones up to this share of passages
DEFAULT_THRESHOLD = 0.476 # used until `calibrate` saves one (see docs/kb.md)
DOC_KINDS = ("doc", "code")
PREFER_BONUS = 0.02       # ordering bonus of the case's own repository (never counts for the threshold)
RELATIVE_CUT = 0.92       # further refs must reach this share of the first ref's score

SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (
    doc TEXT PRIMARY KEY,          -- docs/<owner>/<repo>/<path>, or cases/<owner>/<repo>/<number>
    kind TEXT NOT NULL,            -- doc | code | case
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    n_chunks INTEGER NOT NULL,
    ingested_at TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT ''  -- the folder and prefix it was ingested from ("" for cases)
);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    doc TEXT NOT NULL,
    chunk TEXT NOT NULL,           -- part0000, part0001, ...
    kind TEXT NOT NULL,
    heading TEXT NOT NULL,
    text TEXT NOT NULL,
    vec_key TEXT NOT NULL,         -- vec_cache.key of this passage's vector
    UNIQUE (doc, chunk)
);
CREATE INDEX IF NOT EXISTS chunks_by_vec ON chunks (vec_key);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    tokens, kind UNINDEXED, tokenize = "unicode61 remove_diacritics 0 tokenchars '_.-+#'"
);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab(chunks_fts, row);
CREATE TABLE IF NOT EXISTS term_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vec_cache (key TEXT PRIMARY KEY, model TEXT NOT NULL, vec BLOB NOT NULL);
"""


@dataclass(slots=True)
class Passage:
    doc: str
    chunk: str
    score: float                    # 0..1, see fixlore.kb.scoring
    text: str
    heading: str
    bm25_rank: int | None           # 1-based rank in the BM25 list, None if not in it
    vector_rank: int | None         # 1-based rank in the cosine list, None if not in it
    kind: str = "doc"
    rrf: float = 0.0
    cosine: float = 0.0
    coverage: float = 0.0           # share of the query's key-term weight found in the passage
    focus_coverage: float = 0.0     # the same for the root-cause (focus) text alone

    def to_dict(self) -> dict:
        return {"doc": self.doc, "chunk": self.chunk, "score": round(self.score, 4), "heading": self.heading,
                "text": self.text, "kind": self.kind, "bm25_rank": self.bm25_rank,
                "vector_rank": self.vector_rank, "cosine": round(self.cosine, 4),
                "coverage": round(self.coverage, 4), "focus_coverage": round(self.focus_coverage, 4)}


@dataclass(slots=True)
class KbQuery:
    """A query with its parts: `text` for words, `vector_text` for meaning, `focus` weighted double.

    `prefer` names a document prefix (e.g. the case's own repo, ``docs/Ascend/msmodeling/``)
    whose passages win ties in ordering; it never lifts a passage over the threshold.
    """
    text: str
    focus: str = ""
    vector_text: str = ""
    prefer: str = ""


@dataclass(slots=True)
class IngestStats:
    seen: int = 0
    unchanged: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    skipped: int = 0
    chunks: int = 0
    embedded: int = 0
    seconds: float = 0.0
    skipped_files: list[str] = field(default_factory=list)

    @property
    def changed(self) -> int:
        return self.added + self.updated + self.removed


@dataclass(slots=True)
class _Source:
    doc: str
    kind: str
    fmt: str
    text: str
    sha: str
    size: int
    origin: str = ""


Progress = Callable[[str, int, int], None]   # (phase, done, total)


class KnowledgeBase:
    def __init__(self, index_dir: Path, embedder: Embedder | None = None):
        self.dir = Path(index_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        # One connection, shared by the threads of a server: every use holds self._lock.
        self.db = sqlite3.connect(self.dir / DB_NAME, check_same_thread=False)
        self._lock = threading.RLock()
        self.db.executescript(_SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(sources)")}
        if "origin" not in columns:          # index files written before the column existed
            self.db.execute("ALTER TABLE sources ADD COLUMN origin TEXT NOT NULL DEFAULT ''")
        self.tokenizer = Tokenizer(self.dir)
        self.embedder: Embedder = embedder or UseEmbedder()
        self._matrix: np.ndarray | None = None
        self._ids: np.ndarray | None = None
        self._kinds: np.ndarray | None = None
        self._masks: dict[tuple[str, ...], np.ndarray] = {}
        self._coarse: np.ndarray | None = None
        self._projection: np.ndarray | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._reset_caches()
        self._check_model()
        if (self.db.execute("SELECT 1 FROM term_df LIMIT 1").fetchone() is None
                and self.db.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is not None):
            self.rebuild_term_df()

    # ------------------------------------------------------------------ open / close

    @classmethod
    def open(cls, index_dir: str | Path, embedder: Embedder | None = None, create: bool = True) -> "KnowledgeBase":
        """Open (or, with create=True, start) the index in `index_dir`."""
        if not create and not (Path(index_dir) / DB_NAME).is_file():
            raise FixloreError(f"no knowledge base in {index_dir}: build one with `fixlore kb build DOCS_DIR --index "
                               f"{index_dir}`")
        return cls(Path(index_dir), embedder)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self.db.close()

    def __enter__(self) -> "KnowledgeBase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _check_model(self) -> None:
        row = self.db.execute("SELECT value FROM meta WHERE key='model'").fetchone()
        if row is None:
            with self.db:
                self.db.execute("INSERT INTO meta VALUES ('model', ?)", (self.embedder.name,))
        elif row[0] != self.embedder.name:
            raise FixloreError(f"index {self.dir} was built with embedder {row[0]}, not {self.embedder.name}; "
                               f"rebuild it in a new directory")

    # ------------------------------------------------------------------ ingest

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
            with self._lock, self.db:
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
        if not todo and not gone:
            return
        with self._lock:
            self._apply_locked(todo, gone, stats, progress)

    def _apply_locked(self, todo: list[_Source], gone: list[str], stats: IngestStats,
                      progress: Progress | None) -> None:
        self.tokenizer.learn(s.text for s in todo if s.kind != "case")
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        # Passage-frequency changes live only as long as the transaction: a failed ingest
        # rolls back the chunks and must not leave its counts for the next one.
        delta: Counter = Counter()
        with self.db:
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
        stats.embedded = self._embed_missing(progress)
        self._rebuild_matrix()

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

    def _flush_df(self, delta: Counter) -> None:
        """Apply the passage-frequency changes of this ingest to `term_df` (what queries weigh terms by)."""
        changes = [(t, d) for t, d in delta.items() if d]
        self.db.executemany("INSERT INTO term_df (term, df) VALUES (?, ?) "
                            "ON CONFLICT(term) DO UPDATE SET df = df + excluded.df", changes)
        # only a term whose count went down can reach zero (df has no index: no table scan)
        self.db.executemany("DELETE FROM term_df WHERE term = ? AND df <= 0", [(t,) for t, d in changes if d < 0])

    def rebuild_term_df(self) -> None:
        """Recount `term_df` from the FTS vocabulary (index files from before the table, bulk loads)."""
        with self._lock, self.db:
            self.db.execute("DELETE FROM term_df")
            self.db.execute("INSERT INTO term_df (term, df) SELECT term, doc FROM chunks_vocab")
        self._reset_caches()

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
            with self.db:
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
        self._matrix = self._ids = self._kinds = None
        self._reset_caches()

    def _reset_caches(self) -> None:
        self._n_chunks: int | None = None
        self._df_cache: dict[str, int] = {}

    # ------------------------------------------------------------------ search

    def _load_vectors(self) -> None:
        if self._matrix is not None:
            return
        mpath, ipath = self.dir / VECTORS_NAME, self.dir / VECTOR_IDS_NAME
        if not mpath.exists():
            self._matrix = np.zeros((0, self.embedder.dim), dtype=np.float32)
            self._ids = np.zeros(0, dtype=np.int64)
        else:
            self._matrix = np.load(mpath)
            self._ids = np.load(ipath)
        self._coarse = self._projection = None
        cpath, ppath = self.dir / COARSE_NAME, self.dir / PROJECTION_NAME
        if cpath.exists() and ppath.exists():
            coarse = np.load(cpath)
            if len(coarse) == len(self._ids):
                self._coarse, self._projection = coarse, np.load(ppath)
        kind_of_id = dict(self.db.execute("SELECT id, kind FROM chunks").fetchall())
        self._kinds = np.array([kind_of_id.get(int(i), "") for i in self._ids], dtype=object)
        self._masks = {}

    def _kind_mask(self, kinds: tuple[str, ...]) -> np.ndarray:
        mask = self._masks.get(kinds)
        if mask is None:
            mask = self._masks[kinds] = np.isin(self._kinds, kinds)
        return mask

    def search(self, query: str | KbQuery, k: int = 10, kind: str | Sequence[str] | None = None,
               doc_prefix: str | None = None) -> list[Passage]:
        """The `k` best passages, ordered by reciprocal rank fusion; each carries a 0..1 `score`.
        `doc_prefix` keeps documents whose name starts with it (both retrievers are restricted,
        so a prefix with few documents still gets its best ones)."""
        return self._candidates(query, kind, doc_prefix)[:k]

    def best(self, query: str | KbQuery, k: int = 10, kind: str | Sequence[str] | None = None,
             doc_prefix: str | None = None) -> list[Passage]:
        """The `k` candidates of highest `score` (the 0..1 score shown and thresholded), best
        first: what a reader sees is ranked by the number printed beside it. The candidates
        are those `search` fuses (either retriever's top passages)."""
        return sorted(self._candidates(query, kind, doc_prefix), key=lambda p: (-p.score, p.doc, p.chunk))[:k]

    def _candidates(self, query: str | KbQuery, kind: str | Sequence[str] | None,
                    doc_prefix: str | None = None) -> list[Passage]:
        with self._lock:
            return self._candidates_locked(query, kind, doc_prefix)

    def _prefix_range(self, doc_prefix: str) -> tuple[str, str]:
        # names starting with the prefix sort between it and the prefix with its last character bumped
        return doc_prefix, doc_prefix[:-1] + chr(ord(doc_prefix[-1]) + 1)

    def _prefix_mask(self, doc_prefix: str) -> np.ndarray:
        key = ("doc_prefix", doc_prefix)
        mask = self._masks.get(key)
        if mask is None:
            ids = [r[0] for r in self.db.execute("SELECT id FROM chunks WHERE doc >= ? AND doc < ?",
                                                 self._prefix_range(doc_prefix))]
            mask = self._masks[key] = np.isin(self._ids, np.asarray(ids, dtype=np.int64))
        return mask

    def _candidates_locked(self, query: str | KbQuery, kind: str | Sequence[str] | None,
                           doc_prefix: str | None = None) -> list[Passage]:
        q = query if isinstance(query, KbQuery) else KbQuery(text=query)
        kinds = (kind,) if isinstance(kind, str) else (tuple(kind) if kind else None)
        if self._n_chunks is None:
            self._n_chunks = self.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        n_docs = self._n_chunks
        if n_docs == 0:
            return []
        # The query embedding runs on a worker thread while SQLite answers the BM25 side (numpy
        # and sqlite3 both release the GIL); the pass over the matrix comes after both, when
        # it can have every core.
        self._load_vectors()
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-vector")
        embed_job = self._pool.submit(self._embed_query, q)
        weights, focus_weights, dfs = self._query_terms(q, n_docs)
        floor = scoring.coverage_floor(n_docs)
        bm25_ids = self._bm25(weights, dfs, kinds, n_docs, doc_prefix)
        qvec = embed_job.result()
        vec_ids, known = self._nearest(qvec, kinds, doc_prefix)
        bm25_rank = {cid: r for r, cid in enumerate(bm25_ids, 1)}
        vec_rank = {cid: r for r, cid in enumerate(vec_ids, 1)}
        ids = list(dict.fromkeys(bm25_ids + vec_ids))
        if not ids:
            return []
        rows = self._chunk_rows(ids)
        cos_of = vectors.cosines(self._matrix, self._ids, qvec, known, ids) if qvec is not None else {}
        out: list[Passage] = []
        for cid in ids:
            row = rows.get(cid)
            if row is None:
                continue
            doc, chunk, ckind, heading, text, toks = row
            cos = cos_of.get(cid, 0.0)
            passage_tokens = set(toks.split())
            cover = scoring.coverage(weights, passage_tokens, floor=floor)
            focus_cover = cover if focus_weights is weights else \
                scoring.coverage(focus_weights, passage_tokens, floor=floor)
            br, vr = bm25_rank.get(cid), vec_rank.get(cid)
            out.append(Passage(doc=doc, chunk=chunk, score=scoring.combined_score(cos, cover, focus_cover), text=text,
                               heading=heading, bm25_rank=br, vector_rank=vr, kind=ckind,
                               rrf=scoring.rrf(br, vr), cosine=cos, coverage=cover, focus_coverage=focus_cover))
        out.sort(key=lambda p: (-p.rrf, -p.score, p.doc, p.chunk))
        return out

    def _query_terms(self, q: KbQuery, n_docs: int) -> tuple[dict[str, float], dict[str, float], dict[str, int]]:
        """Key-term weights of the whole query (focus counted double) and of the focus alone,
        and the passage frequency of every query term."""
        lines: dict[str, list[str]] = {}
        counts = self._term_counts(q.text, lines)
        focus_counts = self._term_counts(q.focus, lines) if q.focus else Counter()
        for t, c in focus_counts.items():
            counts[t] += 2.0 * c
        dfs = self._dfs(list(counts))
        weights = scoring.term_weights(counts, dfs, n_docs, MAX_QUERY_TERMS)
        if not focus_counts:
            return weights, weights, dfs
        return weights, scoring.term_weights(focus_counts, dfs, n_docs, MAX_QUERY_TERMS), dfs

    def _term_counts(self, text: str, lines: dict[str, list[str]]) -> Counter:
        """Query-term counts of `text`, cut line by line. jieba never joins words across a line
        break, so this equals cutting the whole text; a line the focus shares with the text
        (fix PR titles, maintainers' answers) is cut once per query (`lines` is the memo)."""
        counts: Counter = Counter()
        for line in text.split("\n"):
            terms = lines.get(line)
            if terms is None:
                terms = lines[line] = [t for t in self.tokenizer.tokens(line, for_query=True) if is_query_term(t)]
            counts.update(terms)
        return counts

    def _dfs(self, terms: list[str]) -> dict[str, int]:
        """Passage frequency of each term (0 when absent), cached until the next ingest."""
        cache = self._df_cache
        missing = [t for t in terms if t not in cache]
        for i in range(0, len(missing), 400):
            part = missing[i:i + 400]
            marks = ",".join("?" * len(part))
            found = dict(self.db.execute(f"SELECT term, df FROM term_df WHERE term IN ({marks})", part).fetchall())
            for t in part:
                cache[t] = found.get(t, 0)
        if len(cache) > 200_000:
            self._df_cache = cache = {t: cache[t] for t in terms}
        return {t: cache[t] for t in terms}

    def _bm25(self, weights: dict[str, float], dfs: dict[str, int], kinds: tuple[str, ...] | None,
              n_docs: int, doc_prefix: str | None = None) -> list[int]:
        if not weights:
            return []
        expr = " OR ".join(fts_escape(t) for t in match_terms(weights, dfs, n_docs))
        sql = "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?"
        args: list = [expr]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        if doc_prefix:
            sql += " AND rowid IN (SELECT id FROM chunks WHERE doc >= ? AND doc < ?)"
            args.extend(self._prefix_range(doc_prefix))
        sql += " ORDER BY bm25(chunks_fts) LIMIT ?"
        args.append(CANDIDATES)
        return [r[0] for r in self.db.execute(sql, args)]

    def _embed_query(self, q: KbQuery) -> np.ndarray | None:
        assert self._ids is not None
        if len(self._ids) == 0:
            return None
        text = q.vector_text or (q.focus + "\n" + q.text if q.focus else q.text)
        # The embedder's cost grows with the text (about 4 ms per 100 characters here) and
        # the vector sits on the latency path; a query's first lines carry its meaning.
        return self.embedder.encode([text[:QUERY_EMBED_CHARS]])[0]

    def _nearest(self, qvec: np.ndarray | None, kinds: tuple[str, ...] | None, doc_prefix: str | None = None
                 ) -> tuple[list[int], np.ndarray | None]:
        """Chunk ids of the nearest passages and the exact cosines computed on the way (one per
        matrix row, NaN where not computed; see `vectors.top_rows`)."""
        assert self._matrix is not None and self._ids is not None and self._kinds is not None
        if qvec is None:
            return [], None
        mask = self._kind_mask(kinds) if kinds else None
        if doc_prefix:
            mask = self._prefix_mask(doc_prefix) if mask is None else mask & self._prefix_mask(doc_prefix)
        # The worker thread is idle now: it takes half of the memory-bound pass (a 100k x 128
        # pass takes 7.7 ms on one core of this machine, 5.4 ms shared between two).
        helper = self._pool if (os.cpu_count() or 1) > 1 else None
        with blas_threads(1):
            rows, known = vectors.top_rows(self._matrix, qvec, CANDIDATES, mask, self._coarse, self._projection,
                                           helper=helper)
        return self._ids[rows].tolist(), known

    def _chunk_rows(self, ids: list[int]) -> dict[int, tuple]:
        out: dict[int, tuple] = {}
        for i in range(0, len(ids), 400):
            part = ids[i:i + 400]
            marks = ",".join("?" * len(part))
            for row in self.db.execute(
                    f"SELECT c.id, c.doc, c.chunk, c.kind, c.heading, c.text, f.tokens FROM chunks c "
                    f"JOIN chunks_fts f ON f.rowid = c.id WHERE c.id IN ({marks})", part):
                out[row[0]] = row[1:]
        return out

    # ------------------------------------------------------------------ refs

    def ranked_docs(self, query: str | KbQuery, kind: Sequence[str] = DOC_KINDS) -> list[Passage]:
        """Best passage of each citable document, in the order `refs_for` considers them.

        Release notes and changelogs are searchable but never cited: they say that something
        changed, not how it works, and they mention nearly every fix in passing.
        """
        q = query if isinstance(query, KbQuery) else KbQuery(text=query)
        best: dict[str, Passage] = {}
        for p in self._citable(q, kind):
            cur = best.get(p.doc)
            if cur is None or p.score > cur.score:
                best[p.doc] = p
        prefer = q.prefer

        def order(p: Passage) -> tuple:
            bonus = PREFER_BONUS if prefer and p.doc.startswith(prefer) else 0.0
            return (-(p.score + bonus), p.doc)

        return sorted(best.values(), key=order)

    def _citable(self, query: str | KbQuery, kind: Sequence[str]) -> Iterator[Passage]:
        """The search's passages without release notes and changelogs (see `ranked_docs`)."""
        return (p for p in self._candidates(query, kind) if not is_changelog(p.doc))

    def refs_for(self, query: str | KbQuery, threshold: float | None = None, per_doc: bool = True,
                 limit: int = 3, kind: Sequence[str] = DOC_KINDS, relative: float = RELATIVE_CUT) -> list[KbRef]:
        """Documents that explain the query, best passage each, only those scoring >= threshold.

        Nothing above the threshold gives ``[]``: a reference is never forced. After the
        first reference, others must also reach `relative` times its score, so a clear
        answer is not padded with its weaker neighbours.
        """
        t = self.threshold() if threshold is None else threshold
        if per_doc:
            ranked = self.ranked_docs(query, kind)
        else:
            ranked = sorted(self._citable(query, kind), key=lambda p: (-p.score, p.doc, p.chunk))
        passing = [p for p in ranked if p.score >= t]
        if not passing:
            return []
        floor = passing[0].score * relative
        return [KbRef(doc=p.doc, chunk=p.chunk, score=round(p.score, 4))
                for i, p in enumerate(passing) if i == 0 or p.score >= floor][:limit]

    # ------------------------------------------------------------------ threshold

    def threshold(self) -> float:
        path = self.dir / THRESHOLD_NAME
        if path.exists():
            return float(json.loads(path.read_text("utf-8"))["threshold"])
        return DEFAULT_THRESHOLD

    def save_threshold(self, info: dict) -> None:
        tmp = self.dir / (THRESHOLD_NAME + ".tmp")
        tmp.write_text(json.dumps(info, ensure_ascii=False, indent=2, sort_keys=True), "utf-8")
        os.replace(tmp, self.dir / THRESHOLD_NAME)

    # ------------------------------------------------------------------ stats

    def stats(self) -> dict:
        by_kind = dict(self.db.execute("SELECT kind, count(*) FROM chunks GROUP BY kind").fetchall())
        docs = dict(self.db.execute("SELECT kind, count(*) FROM sources GROUP BY kind").fetchall())
        cached = self.db.execute("SELECT count(*) FROM vec_cache").fetchone()[0]
        vec_bytes = (self.dir / VECTORS_NAME).stat().st_size if (self.dir / VECTORS_NAME).exists() else 0
        return {"index": str(self.dir), "documents": docs, "chunks": by_kind,
                "total_chunks": sum(by_kind.values()), "vectors_cached": cached,
                "vector_matrix_bytes": vec_bytes, "db_bytes": (self.dir / DB_NAME).stat().st_size,
                "model": self.embedder.name, "threshold": self.threshold(),
                "threshold_source": "calibrated" if (self.dir / THRESHOLD_NAME).exists() else "default",
                "user_words": len(self.tokenizer.userdict_path.read_text("utf-8").splitlines())
                if self.tokenizer.userdict_path.exists() else 0}




_CHANGELOG = re.compile(r"(^|/)(release[_-]?notes?|changelog|changes|history|news)(/|\.(md|rst|txt)$)"
                        r"|(^|/)v?\d+(\.\d+)+([._-]?(rc|alpha|beta)\d*)?\.(md|rst|txt)$", re.I)


def match_terms(weights: dict[str, float], dfs: dict[str, int], n_docs: int) -> list[str]:
    """The terms the FTS5 expression matches: the heaviest `MATCH_TERMS` in at most `COMMON_DF` of
    the passages (all terms still count in the score). bm25 is computed for every passage an OR
    matches, so when every term is common only the rarest ones are matched, up to `COMMON_BUDGET`
    of the passages in all (at least one term): a query of common words alone would otherwise
    rank tens of thousands of rows."""
    limit = max(COMMON_DF * n_docs, 50)
    rare = [t for t in weights if dfs.get(t, 0) <= limit][:MATCH_TERMS]
    if rare:
        return rare
    budget = max(COMMON_BUDGET * n_docs, 5000)   # small corpora: cheap anyway, left as they were
    out: list[str] = []
    total = 0
    for t in sorted(weights, key=lambda t: (dfs.get(t, 0), t))[:MATCH_TERMS]:
        if out and total + dfs.get(t, 0) > budget:
            break
        out.append(t)
        total += dfs.get(t, 0)
    return out


def is_changelog(doc: str) -> bool:
    """Release notes, changelogs, per-version notes (``26.3.0.md``)."""
    return bool(_CHANGELOG.search(doc))


def case_doc(case: Case) -> str:
    return f"cases/{case.repo}/{case.number}"


def case_text(case: Case) -> str:
    parts = [case.title, case.problem, case.answer, case.symptom, case.first_action]
    return "\n\n".join(p.strip() for p in parts if p and p.strip())


def _is_cjk(tok: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in tok)


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


def write_matrix(index_dir: Path, matrix: np.ndarray, ids: np.ndarray) -> None:
    """The vector files of an index: the matrix, its chunk ids (ascending) and, for a large
    matrix, its coarse projection (see fixlore.kb.vectors)."""
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
    tmp = path.with_name(path.name + ".tmp.npy")
    np.save(tmp, array)
    os.replace(tmp, path)
