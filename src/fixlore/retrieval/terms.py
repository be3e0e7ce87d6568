"""Term statistics: passage frequencies (`term_df`), a query's key-term weights, the terms FTS5 matches."""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter

from fixlore.retrieval import scoring
from fixlore.retrieval.schema import KbQuery, writing
from fixlore.retrieval.tokens import Tokenizer, is_query_term

MAX_QUERY_TERMS = 32      # key terms kept from a query
COMMON_DF = 0.01          # terms in more than this share of passages are scored but not matched
MATCH_TERMS = 10          # at most this many (the heaviest) terms go into the FTS5 expression
COMMON_BUDGET = 0.05      # a query of common terms alone matches its rarest ones up to this share of passages


class TermsMixin:
    """`KnowledgeBase`'s term statistics (it owns the connection, lock, tokenizer and caches)."""

    db: sqlite3.Connection
    _lock: threading.RLock
    tokenizer: Tokenizer
    _df_cache: dict[str, int]

    def _flush_df(self, delta: Counter) -> None:
        """Apply the passage-frequency changes of this ingest to `term_df` (what queries weigh terms by)."""
        changes = [(t, d) for t, d in delta.items() if d]
        self.db.executemany("INSERT INTO term_df (term, df) VALUES (?, ?) "
                            "ON CONFLICT(term) DO UPDATE SET df = df + excluded.df", changes)
        # only a term whose count went down can reach zero (df has no index: no table scan)
        self.db.executemany("DELETE FROM term_df WHERE term = ? AND df <= 0", [(t,) for t, d in changes if d < 0])

    def rebuild_term_df(self) -> None:
        """Recount `term_df` from the FTS vocabulary (index files from before the table, bulk loads)."""
        with self._lock, writing(self.db):
            self.db.execute("DELETE FROM term_df")
            self.db.execute("INSERT INTO term_df (term, df) SELECT term, doc FROM chunks_vocab")
        self._reset_caches()

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
