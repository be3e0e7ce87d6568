"""Search: BM25 and cosine candidates fused and scored, and the references a query earns above the threshold."""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Iterable, Iterator, Sequence

import numpy as np

from fixlore.core.model import KbRef
from fixlore.retrieval import scoring, vectors
from fixlore.retrieval.blas import blas_threads
from fixlore.retrieval.embed import Embedder, text_key
from fixlore.retrieval.schema import KbQuery, Passage, Progress, in_scope, prefix_range, writing
from fixlore.retrieval.terms import match_terms
from fixlore.retrieval.tokens import fts_escape

CANDIDATES = 50           # hits taken from each ranking before fusion
BM25_MEMO_ROWS = 2000     # an FTS5 expression matching at least this many passages has its ranking memoised
BM25_MEMO_SIZE = 1024     # expressions kept (the most recent)
QUERY_EMBED_CHARS = 400   # the query's vector is taken from its first characters (see _embed_query)
DOC_KINDS = ("doc", "code")
PREFER_BONUS = 0.02       # ordering bonus of the case's own repository (never counts for the threshold)
RELATIVE_CUT = 0.92       # further refs must reach this share of the first ref's score

_CHANGELOG = re.compile(r"(^|/)(release[_-]?notes?|changelog|changes|history|news)(/|\.(md|rst|txt)$)"
                        r"|(^|/)v?\d+(\.\d+)+([._-]?(rc|alpha|beta)\d*)?\.(md|rst|txt)$", re.I)


class SearchMixin:
    """`KnowledgeBase`'s search (term statistics, vectors and the threshold come from its other parts)."""

    db: sqlite3.Connection
    _lock: threading.RLock
    embedder: Embedder
    _matrix: np.ndarray | None
    _ids: np.ndarray | None
    _kinds: np.ndarray | None
    _names: dict[int, tuple[str, str, str]] | None
    _tokens: dict[int, str] | None
    _coarse: np.ndarray | None
    _projection: np.ndarray | None
    _pool: ThreadPoolExecutor | None
    _n_chunks: int | None
    _kind_counts: dict[str, int]
    _bm25_memo: OrderedDict[tuple, tuple[int, ...]]
    _bm25_memo_hits: int
    _has_query_vecs: bool
    _helper_thread: bool
    _query_vecs: tuple[dict[str, int], np.ndarray] | None

    def search(self, query: str | KbQuery, k: int = 10, kind: str | Sequence[str] | None = None,
               doc_prefix: str | None = None) -> list[Passage]:
        """The `k` best passages, ordered by reciprocal rank fusion; each carries a 0..1 `score`.
        `doc_prefix` keeps documents whose name starts with it (both retrievers are restricted,
        so a prefix with few documents still gets its best ones)."""
        return self._candidates(query, kind, doc_prefix)[:k]

    def best(self, query: str | KbQuery, k: int = 10, kind: str | Sequence[str] | None = None,
             doc_prefix: str | None = None, with_text: bool = True) -> list[Passage]:
        """The `k` candidates of highest `score` (the 0..1 score shown and thresholded), best
        first: what a reader sees is ranked by the number printed beside it. The candidates
        are those `search` fuses (either retriever's top passages). Without `with_text`, the
        passages' `text` and `heading` are left empty (a caller that ranks documents by their
        passages' scores does not read them, and they are most of what a search reads)."""
        # (doc, chunk) names one passage: this order is total, whatever order the candidates come in
        return sorted(self._candidates(query, kind, doc_prefix, with_text, fused=False),
                      key=lambda p: (-p.score, p.doc, p.chunk))[:k]

    def _candidates(self, query: str | KbQuery, kind: str | Sequence[str] | None,
                    doc_prefix: str | None = None, with_text: bool = True, fused: bool = True) -> list[Passage]:
        with self._lock:
            return self._candidates_locked(query, kind, doc_prefix, with_text, fused)

    def _candidates_locked(self, query: str | KbQuery, kind: str | Sequence[str] | None,
                           doc_prefix: str | None = None, with_text: bool = True, fused: bool = True
                           ) -> list[Passage]:
        """The fused candidates, in fusion order (`fused`; else in no particular order, for a
        caller that sorts them its own way)."""
        q = query if isinstance(query, KbQuery) else KbQuery(text=query)
        kinds = (kind,) if isinstance(kind, str) else (tuple(kind) if kind else None)
        if self._n_chunks is None:
            self._kind_counts = dict(self.db.execute("SELECT kind, count(*) FROM chunks GROUP BY kind").fetchall())
            self._n_chunks = sum(self._kind_counts.values())
        n_docs = self._n_chunks
        if n_docs == 0:
            return []
        # The query embedding runs on a worker thread while SQLite answers the BM25 side (numpy
        # and sqlite3 both release the GIL); the pass over the matrix comes after both, when
        # it can have every core.
        self._load_vectors()
        if self._pool is None and self._helper_thread:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-vector")
        stored = self._stored_query_vector(q)
        embed_job = None
        if stored is None and self._helper_thread:
            embed_job = self._pool.submit(self._embed_query, q)
        elif stored is None:
            stored = self._embed_query(q)
        weights, focus_weights, dfs = self._query_terms(q, n_docs)
        floor = scoring.coverage_floor(n_docs)
        bm25_ids = self._bm25(weights, dfs, kinds, n_docs, doc_prefix)
        qvec = stored if embed_job is None else embed_job.result()
        vec_ids, known = self._nearest(qvec, kinds, doc_prefix)
        bm25_rank = {cid: r for r, cid in enumerate(bm25_ids, 1)}
        vec_rank = {cid: r for r, cid in enumerate(vec_ids, 1)}
        ids = list(dict.fromkeys(bm25_ids + vec_ids))
        if not ids:
            return []
        rows = self._chunk_rows(ids) if with_text else self._chunk_tokens(ids)
        cos_of = vectors.cosines(self._matrix, self._ids, qvec, known, ids) if qvec is not None else {}
        cover_of = scoring.coverer(weights, scoring.coverage_total(weights, floor))
        focus_of = None if focus_weights is weights else \
            scoring.coverer(focus_weights, scoring.coverage_total(focus_weights, floor))
        combined, rrf = scoring.combined_score, scoring.rrf
        out: list[Passage] = []
        for cid in ids:
            row = rows.get(cid)
            if row is None:
                continue
            doc, chunk, ckind, heading, text, toks = row
            cos = cos_of.get(cid, 0.0)
            passage_tokens = set(toks.split())
            cover = cover_of(passage_tokens)
            focus_cover = cover if focus_of is None else focus_of(passage_tokens)
            br, vr = bm25_rank.get(cid), vec_rank.get(cid)
            out.append(Passage(doc, chunk, combined(cos, cover, focus_cover), text, heading, br, vr, ckind,
                               rrf(br, vr), cos, cover, focus_cover))
        if fused:
            out.sort(key=lambda p: (-p.rrf, -p.score, p.doc, p.chunk))
        return out

    def _bm25(self, weights: dict[str, float], dfs: dict[str, int], kinds: tuple[str, ...] | None,
              n_docs: int, doc_prefix: str | None = None) -> list[int]:
        if not weights:
            return []
        terms = match_terms(weights, dfs, n_docs)
        expr = " OR ".join(fts_escape(t) for t in terms)
        # FTS5 computes bm25 for every passage an OR matches, so an expression of common terms
        # costs in proportion to their passages; its ranking depends on the expression, the
        # filters and the index only (not on the rest of the question), and common terms come
        # back in question after question: such rankings are memoised until the index changes.
        memo_key = (expr, kinds, doc_prefix) if sum(dfs.get(t, 0) for t in terms) >= BM25_MEMO_ROWS else None
        if memo_key is not None and memo_key in self._bm25_memo:
            self._bm25_memo.move_to_end(memo_key)
            self._bm25_memo_hits += 1
            return list(self._bm25_memo[memo_key])
        ids = self._bm25_query(expr, kinds, doc_prefix)
        if memo_key is not None:
            self._bm25_memo[memo_key] = tuple(ids)
            if len(self._bm25_memo) > BM25_MEMO_SIZE:
                self._bm25_memo.popitem(last=False)
        return ids

    def _bm25_query(self, expr: str, kinds: tuple[str, ...] | None, doc_prefix: str | None) -> list[int]:
        sql = "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?"
        args: list = [expr]
        # `kind` is an UNINDEXED column: testing it reads every matched row's stored tokens, which
        # cost more than the ranking itself (a case index holds cases only). A filter every
        # passage passes keeps the same rows in the same order, so it is left out.
        if kinds and not set(self._kind_counts) <= set(kinds):
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        if doc_prefix:
            sql += " AND rowid IN (SELECT id FROM chunks WHERE doc >= ? AND doc < ?)"
            args.extend(prefix_range(doc_prefix))
        sql += " ORDER BY bm25(chunks_fts) LIMIT ?"
        args.append(CANDIDATES)
        return [r[0] for r in self.db.execute(sql, args)]

    def _embed_query(self, q: KbQuery) -> np.ndarray | None:
        assert self._ids is not None
        if len(self._ids) == 0:
            return None
        return self.embedder.encode([vector_text(q)])[0]

    def _query_key(self, text: str) -> str:
        return text_key(self.embedder.name, text)

    def _stored_query_vector(self, q: KbQuery) -> np.ndarray | None:
        """The query's vector when the index keeps it (`store_query_vectors`), else None."""
        if not self._has_query_vecs or self._ids is None or len(self._ids) == 0:
            return None
        rows, matrix = self._kept_query_vectors()
        row = rows.get(self._query_key(vector_text(q)))
        return None if row is None else matrix[row]

    def _kept_query_vectors(self) -> tuple[dict[str, int], np.ndarray]:
        """The kept query vectors, read once into one matrix (key -> row): a server answers a
        case's related cases from memory instead of reading a 2 KB row from SQLite (35k cases:
        ~0.7 ms of page reads per first-time lookup, bench/serve.py); the matrix is the size of
        the case index's own (one row per case). Dropped when they are stored again or the index
        changes; `warm` loads it before a server forks, so its processes share it."""
        if self._query_vecs is None:
            found = self.db.execute("SELECT key, vec FROM query_vecs").fetchall()
            matrix = np.empty((len(found), self.embedder.dim), dtype=np.float32)
            rows: dict[str, int] = {}
            for i, (key, blob) in enumerate(found):
                matrix[i] = np.frombuffer(blob, dtype=np.float32)
                rows[key] = i
            matrix.setflags(write=False)
            self._query_vecs = (rows, matrix)
        return self._query_vecs

    def store_query_vectors(self, queries: Iterable[str], progress: Progress | None = None) -> int:
        """Keep the vectors of the queries this index will be asked (a case's related-cases
        query), so that asking costs no embedding; kept vectors of queries not given are
        dropped. Returns how many were embedded (a query kept before costs nothing).

        Each query is embedded alone, exactly as `_embed_query` does when asked: a batch of
        texts rounds differently in the last bits, and an answer must not depend on whether
        its vector was kept."""
        wanted: dict[str, str] = {}
        for query in queries:
            text = vector_text(KbQuery(text=query))
            wanted.setdefault(self._query_key(text), text)
        with self._lock:
            kept = {r[0] for r in self.db.execute("SELECT key FROM query_vecs")}
            todo = [(key, text) for key, text in wanted.items() if key not in kept]
            with writing(self.db):
                self.db.executemany("DELETE FROM query_vecs WHERE key = ?", [(key,) for key in kept - wanted.keys()])
            for start in range(0, len(todo), 256):
                part = todo[start:start + 256]
                rows = [(key, self.embedder.encode([text])[0].astype(np.float32).tobytes()) for key, text in part]
                with writing(self.db):
                    self.db.executemany("INSERT OR REPLACE INTO query_vecs VALUES (?, ?)", rows)
                if progress:
                    progress("query vectors", start + len(part), len(todo))
            self._has_query_vecs = bool(wanted)
            self._query_vecs = None
        return len(todo)

    def _nearest(self, qvec: np.ndarray | None, kinds: tuple[str, ...] | None, doc_prefix: str | None = None
                 ) -> tuple[list[int], np.ndarray | None]:
        """Chunk ids of the nearest passages and the exact cosines computed on the way (one per
        matrix row, NaN where not computed; see `vectors.top_rows`)."""
        assert self._matrix is not None and self._ids is not None and self._kinds is not None
        if qvec is None:
            return [], None
        # as in _bm25_query: a kind filter every passage passes is no filter
        mask = self._kind_mask(kinds) if kinds and not set(self._kind_counts) <= set(kinds) else None
        if doc_prefix:
            mask = self._prefix_mask(doc_prefix) if mask is None else mask & self._prefix_mask(doc_prefix)
        # The worker thread is idle now: it takes half of the memory-bound pass (a 100k x 128
        # pass takes 7.7 ms on one core of this machine, 5.4 ms shared between two).
        helper = self._pool if self._helper_thread and (os.cpu_count() or 1) > 1 else None
        with blas_threads(1):
            rows, known = vectors.top_rows(self._matrix, qvec, CANDIDATES, mask, self._coarse, self._projection,
                                           helper=helper)
        return self._ids[rows].tolist(), known

    def _chunk_tokens(self, ids: list[int]) -> dict[int, tuple]:
        """`_chunk_rows` without heading and text (empty): the names come from memory
        (`_names`, loaded with the vectors), the tokens too when the index is small enough
        (`_tokens`), else from the FTS table alone."""
        assert self._names is not None
        out: dict[int, tuple] = {}
        if self._tokens is not None:
            names, tokens = self._names, self._tokens
            return {cid: (*names[cid], "", "", tokens[cid]) for cid in ids if cid in names and cid in tokens}
        for i in range(0, len(ids), 400):
            part = ids[i:i + 400]
            for cid, toks in self.db.execute(
                    f"SELECT rowid, tokens FROM chunks_fts WHERE rowid IN ({','.join('?' * len(part))})", part):
                name = self._names.get(cid)
                if name is not None:
                    out[cid] = (*name, "", "", toks)
        return out

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
        changed, not how it works, and they mention nearly every fix in passing. With a
        `scope_repo`, only documents `in_scope` for it are considered.
        """
        q = query if isinstance(query, KbQuery) else KbQuery(text=query)
        best: dict[str, Passage] = {}
        for p in self._citable(q, kind):
            if q.scope_repo and not in_scope(p.doc, q.scope_repo, q.scope_owners):
                continue
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
        return refs_above(ranked, t, limit, relative)


def vector_text(q: KbQuery) -> str:
    """The text a query's vector is taken from: its first `QUERY_EMBED_CHARS` characters. The
    embedder's cost grows with the text and the vector sits on the latency path; a query's
    first lines carry its meaning."""
    text = q.vector_text or (q.focus + "\n" + q.text if q.focus else q.text)
    return text[:QUERY_EMBED_CHARS]


def refs_above(ranked: Sequence[Passage], threshold: float, limit: int = 3,
               relative: float = RELATIVE_CUT) -> list[KbRef]:
    """`refs_for`'s cut of an already ranked list (`ranked_docs`'s order): those scoring >=
    `threshold`, after the first only those within `relative` of its score, at most `limit`.
    A caller that reads the ranking for more than the cut ranks once and cuts here."""
    passing = [p for p in ranked if p.score >= threshold]
    if not passing:
        return []
    floor = passing[0].score * relative
    return [KbRef(doc=p.doc, chunk=p.chunk, score=round(p.score, 4))
            for i, p in enumerate(passing) if i == 0 or p.score >= floor][:limit]


def is_changelog(doc: str) -> bool:
    """Release notes, changelogs, per-version notes (``26.3.0.md``)."""
    return bool(_CHANGELOG.search(doc))
