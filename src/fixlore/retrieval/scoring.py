"""How lexical and vector hits are fused and scored (pure functions, no I/O).

Ordering: reciprocal rank fusion (RRF) of the BM25 ranking and the cosine ranking,
``rrf = 1/(K + bm25_rank) + 1/(K + vector_rank)`` with K = 60 (a missing rank adds 0).
RRF is robust to the two scales being incomparable, but its values say nothing about
whether a passage is relevant at all.

Score (0..1, used for thresholds): the mean of three quantities a reader can check,

    score = (max(cosine, 0) + coverage + focus_coverage) / 3

- ``cosine``: the USE cosine between the query's vector text and the passage
  (heading + start of the text): does the passage talk about the same thing?
- ``coverage``: the share of the query's key-term weight that the passage contains,
  ``Σ_{t in passage} w_t / max(Σ_t w_t, floor)``. Key terms are the query's 32 heaviest
  tokens that occur somewhere in the corpus, ``w_t = idf_t · min(1 + ln tf_t, 2)`` (tf
  counted in the query, the root-cause text counting double). The floor, ``3 · ln N``
  for N passages (about three rare terms), keeps a query that shares only one common
  word with the corpus from reaching full coverage by having nothing else to cover.
- ``focus_coverage``: the same share for the query's *focus* alone, i.e. the root-cause
  side of a case (the answer, the fix PR titles, the maintainers' first comments). For a
  plain query without a focus it equals ``coverage``.

A passage that paraphrases the query and also names most of its distinctive terms (the
root cause's identifiers, error strings, parameter names) scores high; a passage on the
same topic that shares the topic's words but not the mechanism's stays lower. The
threshold that turns the score into "cite it / cite nothing" is calibrated on labelled
data (`fixlore.kb.calibrate`); docs/kb.md has the figures.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Mapping

RRF_K = 60


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


def term_weights(counts: Mapping[str, float], dfs: Mapping[str, int], n_docs: int,
                 max_terms: int) -> dict[str, float]:
    """The query's key terms: those in the corpus, weighted idf·min(1+ln tf, 2), the `max_terms` heaviest."""
    weighted = [(t, idf(dfs[t], n_docs) * min(1.0 + math.log(max(c, 1.0)), 2.0))
                for t, c in counts.items() if dfs.get(t, 0) > 0]
    weighted.sort(key=lambda tw: (-tw[1], tw[0]))
    return dict(weighted[:max_terms])


def coverage_floor(n_passages: int) -> float:
    return 3.0 * math.log(max(n_passages, 2))


def coverage(weights: Mapping[str, float], passage_tokens: Iterable[str], floor: float = 0.0) -> float:
    return covered(weights, passage_tokens, coverage_total(weights, floor))


def coverage_total(weights: Mapping[str, float], floor: float = 0.0) -> float:
    """What `coverage` divides by: the query's key-term weight, at least `floor` (the same for
    every passage of a query, so a search computes it once)."""
    return max(sum(weights.values()), floor)


def covered(weights: Mapping[str, float], passage_tokens: Iterable[str], total: float) -> float:
    """`coverage` with its denominator given (`coverage_total`)."""
    present = passage_tokens if isinstance(passage_tokens, (set, frozenset)) else set(passage_tokens)
    return coverer(weights, total)(present)


def coverer(weights: Mapping[str, float], total: float) -> Callable[[set[str] | frozenset[str]], float]:
    """`covered` for one query and many passages: the function of a passage's token set (a
    search scores a hundred passages with the same weights; summed in the weights' order, so
    every passage gets the very number `covered` gives)."""
    if total <= 0:
        return lambda present: 0.0
    items = tuple(weights.items())
    return lambda present: sum([w for t, w in items if t in present]) / total


def combined_score(cosine: float, cover: float, focus_cover: float) -> float:
    return (max(cosine, 0.0) + cover + focus_cover) / 3.0
