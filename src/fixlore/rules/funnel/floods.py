"""Template floods: many near-identical titles from one account inside the window.

Titles are compared after masking digits (so "任务-0017" and "任务-0018" are equal) and
folding case and spaces. Per author, two passes join titles into clusters (union-find):
  - slot pass: titles equal but for one token ("aclnnAddmm 算子 910B 精度用例补充验证" and
    "aclnnMv 算子 910B 精度用例补充验证") share a key with that token masked; the rest of
    the title must still carry at least `min_title_len` characters;
  - fuzzy pass: greedy clustering against representatives with rapidfuzz's normalised
    Levenshtein ratio (exact duplicates after masking are grouped first).
A cluster of at least `min_size` issues is a flood.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from rapidfuzz import fuzz, process

from fixlore.core.model import Issue

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
        parent = list(range(len(group)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        def union(i: int, j: int) -> None:
            parent[find(i)] = find(j)

        index = {id(issue): i for i, issue in enumerate(group)}
        for cluster in _clusters(group, similarity, min_title_len):
            for other in cluster[1:]:
                union(index[id(cluster[0])], index[id(other)])
        for members in _slot_groups(group, min_title_len):
            for other in members[1:]:
                union(index[id(members[0])], index[id(other)])
        sizes: dict[int, list[Issue]] = defaultdict(list)
        for i, issue in enumerate(group):
            sizes[find(i)].append(issue)
        for members in sizes.values():
            if len(members) >= min_size:
                flooded.update(i.key for i in members)
    return flooded


_TOKEN = re.compile(r"[a-z0-9_.]+|[^\sa-z0-9_.]+")


def _slot_groups(group: list[Issue], min_title_len: int) -> list[list[Issue]]:
    keyed: dict[str, list[Issue]] = defaultdict(list)
    for issue in group:
        parts = _TOKEN.findall(title_shape(issue.title))
        if len(parts) < 2:
            continue
        total = sum(len(p) for p in parts if p != "\x00")
        for i, part in enumerate(parts):
            # The rest of the title (every token but the masked one) must still say enough.
            if total - (len(part) if part != "\x00" else 0) >= min_title_len:
                keyed["\x01".join(parts[:i] + ["\x00"] + parts[i + 1:])].append(issue)
    return [members for members in keyed.values() if len(members) > 1]


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
