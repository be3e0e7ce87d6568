"""How lexical and vector hits are fused and scored (pure functions, no I/O).

Ordering: reciprocal rank fusion (RRF) of the BM25 ranking and the cosine ranking,
``rrf = 1/(K + bm25_rank) + 1/(K + vector_rank)`` with K = 60 (a missing rank adds 0).
RRF is robust to the two scales being incomparable, but its values say nothing about
whether a passage is relevant at all.

Score (0..1, used for thresholds): the mean of two quantities a reader can check,

    score = 0.5 * max(cosine, 0) + 0.5 * evidence

- ``cosine``: the USE cosine between the query's vector text and the passage
  (heading + start of the text);
- ``evidence``: how much rare-term evidence the passage shares with the query,
  ``E / (E + E0)`` where ``E = Σ w_t`` over the query's key terms found in the passage,
  ``w_t = idf_t · min(1 + ln tf_t, 2)`` (tf counted in the query, the root-cause text
  counting double) and ``E0 = 8`` (about three rare terms: sharing three rare terms gives
  ~0.5). It saturates instead of dividing by the query's total weight, so a long issue
  body full of log noise is not penalised, and a one-word overlap with a common term
  (idf ~2) stays near 0.2.

``coverage`` (the share of the query's key-term weight found in the passage) is reported
alongside as a diagnostic. A passage that both paraphrases the query and names several of
its rare terms scores high; a passage from the right area that shares only common words
stays low. The threshold
that turns the score into "cite it / cite nothing" is calibrated on labelled data
(`fixlore.kb.calibrate`).
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping

RRF_K = 60
W_VECTOR = 0.5
W_LEXICAL = 0.5


def rrf(bm25_rank: int | None, vector_rank: int | None, k: int = RRF_K) -> float:
    total = 0.0
    if bm25_rank is not None:
        total += 1.0 / (k + bm25_rank)
    if vector_rank is not None:
        total += 1.0 / (k + vector_rank)
    return total


def idf(df: int, n_docs: int) -> float:
    """BM25's IDF, floored at a small positive value so a term in every passage still counts a little."""
    return max(math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5)), 0.01)


EVIDENCE_E0 = 8.0


def term_weights(counts: Mapping[str, float], dfs: Mapping[str, int], n_docs: int,
                 max_terms: int) -> dict[str, float]:
    """The query's key terms: those in the corpus, weighted idf·min(1+ln tf, 2), the `max_terms` heaviest."""
    weighted = [(t, idf(dfs[t], n_docs) * min(1.0 + math.log(max(c, 1.0)), 2.0))
                for t, c in counts.items() if dfs.get(t, 0) > 0]
    weighted.sort(key=lambda tw: (-tw[1], tw[0]))
    return dict(weighted[:max_terms])


def coverage(weights: Mapping[str, float], passage_tokens: Iterable[str]) -> float:
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    present = set(passage_tokens)
    return sum(w for t, w in weights.items() if t in present) / total


def evidence(weights: Mapping[str, float], passage_tokens: Iterable[str], e0: float = EVIDENCE_E0) -> float:
    present = set(passage_tokens)
    found = sum(w for t, w in weights.items() if t in present)
    return found / (found + e0)


def combined_score(cosine: float, lexical: float) -> float:
    return W_VECTOR * max(cosine, 0.0) + W_LEXICAL * lexical
