"""The knowledge base: documents, code and cases cut into passages, searchable by words and meaning.

An index directory holds

- ``kb.sqlite``: ``sources`` (one row per ingested document, with its content hash),
  ``chunks`` (the passages), ``chunks_fts`` (an FTS5 table over the space-joined jieba
  tokens, ranked by bm25), ``vec_cache`` (every passage vector ever computed, keyed by a
  hash of the embedded text), ``query_vecs`` (vectors of queries the index will be asked:
  a case index keeps each case's related-cases query, `search.store_query_vectors`) and ``meta``;
- ``vectors.npy`` / ``vector_ids.npy``: the L2-normalised float32 matrix of the current
  passages and their chunk ids, searched by brute-force cosine with numpy;
- ``userdict.txt`` and ``jieba.cache``: jieba's user dictionary and dictionary cache;
- ``threshold.json``: the calibrated score threshold (see `fixlore.kb.calibrate`).

Open it with `KnowledgeBase.open(dir)`; the file is a plain SQLite database anyone can browse.

`KnowledgeBase` lives here; its methods live with their concern: `retrieval/schema.py` (file
names, tables, records), `retrieval/ingest.py` (reading and storing passages),
`retrieval/terms.py` (term statistics), `retrieval/matrix.py` (passage vectors),
`retrieval/search.py` (retrieval, fusion, references), `retrieval/thresholds.py` and
`retrieval/cases.py` (a case as a document). The names other code imports
from here stay importable from here.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from fixlore.core import formats
from fixlore.core.errors import FixloreError
from fixlore.retrieval.blas import pin_blas_threads
from fixlore.retrieval.cases import case_doc, case_text
from fixlore.retrieval.embed import Embedder, UseEmbedder
from fixlore.retrieval.ingest import MAX_FILE_BYTES, SKIP_DIRS, IngestMixin
from fixlore.retrieval.matrix import MatrixMixin, write_matrix
from fixlore.retrieval.schema import (COARSE_NAME, DB_NAME, PROJECTION_NAME, SCHEMA, THRESHOLD_NAME, VECTOR_IDS_NAME,
                               VECTORS_NAME, IngestStats, KbQuery, Passage, Progress, writing)
from fixlore.retrieval.search import (CANDIDATES, DOC_KINDS, PREFER_BONUS, QUERY_EMBED_CHARS, RELATIVE_CUT, SearchMixin,
                               is_changelog)
from fixlore.retrieval.terms import COMMON_BUDGET, COMMON_DF, MATCH_TERMS, MAX_QUERY_TERMS, TermsMixin, match_terms
from fixlore.retrieval.thresholds import DEFAULT_THRESHOLD, ThresholdMixin
from fixlore.retrieval.tokens import Tokenizer

__all__ = ["CANDIDATES", "COARSE_NAME", "COMMON_BUDGET", "COMMON_DF", "DB_NAME", "DEFAULT_THRESHOLD", "DOC_KINDS",
           "IngestStats", "KbQuery", "KnowledgeBase", "MATCH_TERMS", "MAX_FILE_BYTES", "MAX_QUERY_TERMS",
           "PREFER_BONUS", "PROJECTION_NAME", "Passage", "Progress", "QUERY_EMBED_CHARS", "RELATIVE_CUT",
           "SKIP_DIRS", "THRESHOLD_NAME", "VECTORS_NAME", "VECTOR_IDS_NAME", "case_doc", "case_text",
           "is_changelog", "match_terms", "write_matrix"]


class KnowledgeBase(IngestMixin, TermsMixin, MatrixMixin, SearchMixin, ThresholdMixin):
    """One index directory, open: its connection, tokenizer, embedder and loaded vectors; the
    methods come from the parts named in the module docstring."""

    def __init__(self, index_dir: Path, embedder: Embedder | None = None):
        self.dir = Path(index_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        # One connection, shared by the threads of a server: every use holds self._lock.
        self.db = sqlite3.connect(self.dir / DB_NAME, check_same_thread=False)
        self._lock = threading.RLock()
        self.db.executescript(SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(sources)")}
        if "origin" not in columns:          # index files written before the column existed
            self.db.execute("ALTER TABLE sources ADD COLUMN origin TEXT NOT NULL DEFAULT ''")
        self.tokenizer = Tokenizer(self.dir)
        self.embedder: Embedder = embedder or UseEmbedder()
        self._matrix: np.ndarray | None = None
        self._ids: np.ndarray | None = None
        self._kinds: np.ndarray | None = None
        self._names: dict[int, tuple[str, str, str]] | None = None
        self._tokens: dict[int, str] | None = None
        self._masks: dict[tuple[str, ...], np.ndarray] = {}
        self._coarse: np.ndarray | None = None
        self._projection: np.ndarray | None = None
        self._pool: ThreadPoolExecutor | None = None
        # whether a search may use a second thread (the query's embedding beside the BM25 side,
        # half of a large matrix pass); off where processes already take every core (`one_thread`)
        self._helper_thread = True
        self._reset_caches()
        self._check_format()
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

    def warm(self) -> None:
        """Load what every search needs (vectors, the embedding model, the tokenizer's
        dictionary, the passage counts) without starting a thread, so that processes forked
        after this share it instead of each loading its own (`fixlore.serve.forked`)."""
        with self._lock:
            self._load_vectors()
            if self._has_query_vecs:
                self._kept_query_vectors()
            self.embedder.encode(["warm"])
            self.tokenizer.tokens("warm", for_query=True)
            self._kind_counts = dict(self.db.execute("SELECT kind, count(*) FROM chunks GROUP BY kind").fetchall())
            self._n_chunks = sum(self._kind_counts.values())

    def one_thread(self) -> None:
        """Searches run on the calling thread alone: where a server's processes already use
        every core, a second thread per search only adds hand-overs (35k cases: about 0.5 ms
        CPU per new question). The answers are the same (each row's product is computed alike).
        BLAS is set to one thread for the process too (`blas.pin_blas_threads`), so a search no
        longer sets it twice per question."""
        self._helper_thread = False
        pin_blas_threads(1)

    def after_fork(self) -> None:
        """In a forked child: a connection of its own (SQLite's cannot cross a fork), a fresh
        lock, and no worker thread (the parent's did not come along)."""
        self._inherited = self.db      # kept, never closed here: its file handles are the parent's too
        self.db = sqlite3.connect(self.dir / DB_NAME, check_same_thread=False)
        self._lock = threading.RLock()
        self._pool = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self.db.close()

    def __enter__(self) -> "KnowledgeBase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _check_format(self) -> None:
        """The index's format, in its meta table: stamped on a new index and on one written before
        the stamp existed (that layout is the first format); another format is refused."""
        row = self.db.execute("SELECT value FROM meta WHERE key='format'").fetchone()
        if row is None:
            with writing(self.db):
                self.db.execute("INSERT INTO meta VALUES ('format', ?)", (formats.INDEX,))
        elif row[0] != formats.INDEX:
            raise FixloreError(f"index {self.dir} is {row[0]}; this fixlore reads {formats.INDEX}: "
                               f"rebuild it in a new directory")

    def _check_model(self) -> None:
        row = self.db.execute("SELECT value FROM meta WHERE key='model'").fetchone()
        if row is None:
            with writing(self.db):
                self.db.execute("INSERT INTO meta VALUES ('model', ?)", (self.embedder.name,))
        elif row[0] != self.embedder.name:
            raise FixloreError(f"index {self.dir} was built with embedder {row[0]}, not {self.embedder.name}; "
                               f"rebuild it in a new directory")

    def _reset_caches(self) -> None:
        self._n_chunks: int | None = None
        self._kind_counts: dict[str, int] = {}      # passages by kind, counted with _n_chunks
        self._bm25_memo: OrderedDict[tuple, tuple[int, ...]] = OrderedDict()   # see search._bm25
        self._bm25_memo_hits = 0
        self._df_cache: dict[str, int] = {}
        # whether any query vector is kept (search.store_query_vectors): no lookup per query when none is
        self._has_query_vecs = self.db.execute("SELECT 1 FROM query_vecs LIMIT 1").fetchone() is not None
        self._query_vecs: tuple[dict[str, int], np.ndarray] | None = None   # them, read at the first query that could have one

    # ------------------------------------------------------------------ stats

    def stats(self) -> dict:
        by_kind = dict(self.db.execute("SELECT kind, count(*) FROM chunks GROUP BY kind").fetchall())
        docs = dict(self.db.execute("SELECT kind, count(*) FROM sources GROUP BY kind").fetchall())
        cached = self.db.execute("SELECT count(*) FROM vec_cache").fetchone()[0]
        vec_bytes = (self.dir / VECTORS_NAME).stat().st_size if (self.dir / VECTORS_NAME).exists() else 0
        return {"index": str(self.dir), "documents": docs, "chunks": by_kind,
                "total_chunks": sum(by_kind.values()), "vectors_cached": cached,
                "vector_matrix_bytes": vec_bytes, "db_bytes": (self.dir / DB_NAME).stat().st_size,
                "format": formats.INDEX, "model": self.embedder.name, "threshold": self.threshold(),
                "threshold_source": "calibrated" if (self.dir / THRESHOLD_NAME).exists() else "default",
                "user_words": len(self.tokenizer.userdict_path.read_text("utf-8").splitlines())
                if self.tokenizer.userdict_path.exists() else 0}
