"""Choose the score threshold that turns ranked documents into "cite this" or "cite nothing".

Labelled data is a list of ``(query, expected)`` where `expected` is the document (or a set
of acceptable documents) that should be cited first, or None when no document explains
the query. For a threshold t, `refs_for` cites the first document in its order whose best
passage scores >= t. A decision is correct when

- a document is expected and the first one cited is one of the expected documents, or
- none is expected and nothing scores >= t.

`calibrate` ranks every query once, sweeps t over the midpoints between the observed
scores and keeps the t with the most correct decisions (ties: the middle of the best
run, so the threshold sits as far as possible from the nearest decisions that would flip).
It saves the threshold with the index (``threshold.json``: value, data set, counts), where
`KnowledgeBase.threshold()` picks it up as the default.

A threshold fitted and measured on the same rows flatters itself; `cross_validate` fits on
one part and measures on the other (k folds, a fixed seed) and reports the held-out figures.
The worlds' ``truth.yaml`` entries (``kb_refs: [docs/...]`` or ``[]``) are the labelled
data; see docs/kb.md for the figures.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Iterable, Sequence

from fixlore.retrieval.base import KbQuery, KnowledgeBase

Labelled = tuple["str | KbQuery", "str | Sequence[str] | None"]


@dataclass(slots=True)
class Ranked:
    """One labelled query, ranked once: (doc, score) in refs_for's order, and the expected docs."""
    docs: list[tuple[str, float]]
    expected: frozenset[str]          # empty: nothing should be cited
    label: str = ""


def rank_labelled(kb: KnowledgeBase, labelled: Iterable[Labelled]) -> list[Ranked]:
    out: list[Ranked] = []
    for query, expected in labelled:
        if expected is None:
            exp: frozenset[str] = frozenset()
        elif isinstance(expected, str):
            exp = frozenset([expected])
        else:
            exp = frozenset(expected)
        docs = [(p.doc, p.score) for p in kb.ranked_docs(query)]
        label = query if isinstance(query, str) else query.text[:80]
        out.append(Ranked(docs=docs, expected=exp, label=label))
    return out


def first_cited(r: Ranked, threshold: float) -> str | None:
    for doc, score in r.docs:
        if score >= threshold:
            return doc
    return None


def is_correct(r: Ranked, threshold: float) -> bool:
    cited = first_cited(r, threshold)
    return cited is None if not r.expected else cited in r.expected


def evaluate(rows: Sequence[Ranked], threshold: float) -> dict:
    """Counts of correct decisions at `threshold`, split by whether a document was expected."""
    with_doc = [r for r in rows if r.expected]
    without = [r for r in rows if not r.expected]
    right_first = sum(is_correct(r, threshold) for r in with_doc)
    none_ok = sum(is_correct(r, threshold) for r in without)
    wrong_doc = sum(1 for r in with_doc if (c := first_cited(r, threshold)) is not None and c not in r.expected)
    return {"threshold": round(threshold, 4), "total": len(rows), "correct": right_first + none_ok,
            "with_doc": len(with_doc), "right_doc_first": right_first, "wrong_doc_cited": wrong_doc,
            "without_doc": len(without), "none_when_none": none_ok}


def best_threshold(rows: Sequence[Ranked]) -> float:
    """The threshold with the most correct decisions (the middle of the best run on ties)."""
    scores = sorted({round(s, 6) for r in rows for _, s in r.docs})
    if not scores:
        return 0.5
    cuts = [scores[0] - 0.01] + [(a + b) / 2 for a, b in zip(scores, scores[1:])] + [scores[-1] + 0.01]
    results = [sum(is_correct(r, t) for r in rows) for t in cuts]
    top = max(results)
    # The longest run of consecutive cuts reaching the top; its middle cut.
    best_run: tuple[int, int] = (0, 0)
    start = None
    for i, v in enumerate(results + [-1]):
        if v == top and start is None:
            start = i
        elif v != top and start is not None:
            if i - start > best_run[1] - best_run[0]:
                best_run = (start, i)
            start = None
    lo, hi = best_run
    return round((cuts[lo] + cuts[hi - 1]) / 2, 4)


def calibrate(kb: KnowledgeBase, labelled: Sequence[Labelled], source: str = "", save: bool = True) -> float:
    """Fit the threshold on `labelled`, save it with the index (unless save=False), return it."""
    rows = rank_labelled(kb, labelled)
    t = best_threshold(rows)
    if save:
        info = evaluate(rows, t)
        info.update({"source": source, "calibrated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                     "method": "max correct decisions over midpoints of observed scores"})
        kb.save_threshold(info)
    return t


def cross_validate(rows: Sequence[Ranked], folds: int = 2, seed: int = 0, repeats: int = 5) -> dict:
    """Fit on k-1 folds, measure on the held-out fold; summed over folds, averaged over repeats."""
    rng = random.Random(seed)
    totals = {"correct": 0, "total": 0, "right_doc_first": 0, "with_doc": 0, "none_when_none": 0, "without_doc": 0}
    thresholds: list[float] = []
    for _ in range(repeats):
        order = list(range(len(rows)))
        rng.shuffle(order)
        for k in range(folds):
            held = [rows[i] for j, i in enumerate(order) if j % folds == k]
            fit = [rows[i] for j, i in enumerate(order) if j % folds != k]
            t = best_threshold(fit)
            thresholds.append(t)
            res = evaluate(held, t)
            for key in totals:
                totals[key] += res[key]
    out = {k: round(v / repeats, 2) for k, v in totals.items()}
    out.update({"folds": folds, "repeats": repeats, "thresholds": sorted(thresholds)})
    return out
