"""Template floods: many near-identical titles from one account inside the window.

Titles are compared after masking digits (so "任务-0017" and "任务-0018" are equal) and
folding case and spaces. Per author, titles are clustered greedily against cluster
representatives with rapidfuzz's normalised Levenshtein ratio; exact duplicates after
masking are grouped first, so the fuzzy pass only runs on distinct shapes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from rapidfuzz import fuzz, process

from fixlore.model import Issue

_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")


def title_shape(title: str) -> str:
    return _SPACE.sub(" ", _DIGITS.sub("0", title.casefold())).strip()


def flood_keys(issues: Iterable[Issue], min_size: int, similarity: float, min_title_len: int = 6) -> set[str]:
    """Keys of issues that belong to a flood cluster (>= min_size similar titles, one author)."""
    by_author: dict[str, list[Issue]] = defaultdict(list)
    for issue in issues:
        if issue.author:
            by_author[issue.author].append(issue)
    flooded: set[str] = set()
    for group in by_author.values():
        if len(group) < min_size:
            continue
        for cluster in _clusters(group, similarity, min_title_len):
            if len(cluster) >= min_size:
                flooded.update(i.key for i in cluster)
    return flooded


def _clusters(group: list[Issue], similarity: float, min_title_len: int) -> list[list[Issue]]:
    by_shape: dict[str, list[Issue]] = defaultdict(list)
    for issue in group:
        by_shape[title_shape(issue.title)].append(issue)
    reps: list[str] = []
    clusters: list[list[Issue]] = []
    # Largest shapes first, so a cluster's representative is its most common form.
    for shape, members in sorted(by_shape.items(), key=lambda kv: -len(kv[1])):
        if len(shape) < min_title_len:
            reps.append(shape)
            clusters.append(list(members))
            continue
        hit = process.extractOne(shape, reps, scorer=fuzz.ratio, score_cutoff=similarity) if reps else None
        if hit is not None and len(hit[0]) >= min_title_len:
            clusters[hit[2]].extend(members)
        else:
            reps.append(shape)
            clusters.append(list(members))
    return clusters
