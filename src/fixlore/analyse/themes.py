"""Group kept cases into labelled themes, per repository, by keyword (and optionally embedding)
similarity: average-link agglomerative clustering with a similarity floor. A label the analyst
already proposed (e.g. the LLM's) counts as a strong bond between cases sharing it."""

from __future__ import annotations

import math
import re
from collections import Counter

from fixlore.core.model import Case
from fixlore.rules.topics import prose, topic_words

SIMILARITY_FLOOR = 0.18     # below this two groups stay apart
CROSS_REPO_FACTOR = 0.8    # the same words in another repo are slightly weaker evidence of one mechanism


DOC_WORDS = ("readme", "docs/", "doc ", "docs ", "文档", "资料", "示例", "样例", "contributing", "docstring",
             "guide", "教程", "手册", ".md")
SLIP_WORDS = ("typo", "拼写", "错别字", "笔误", "写成", "写错", "少了", "多了", "broken link", "dead link", "失效",
              "跳转", "misspell", "链接错误", "链接失效")


def is_doc_slip(case: Case) -> bool:
    """A documentation slip (a typo, a wrong or dead link in docs): one category across all repos."""
    from fixlore.rules.words import has_cue

    title = case.title or case.problem
    return has_cue(title, DOC_WORDS) and has_cue(title, SLIP_WORDS)


def _vector(case: Case) -> Counter:
    explanation = re.split(r"修复 |Fix: |无代码修复|No code change|KB[：:]", case.answer or "")[0]
    text = f"{case.title} {case.problem} {explanation}"
    # the repo's own name and version numbers are shared by every case of a repo: not a topic
    own = set(re.split(r"[-_/.\s]+", case.repo.lower()))
    kws = [k for k in topic_words(text, 16) if k not in own and not re.fullmatch(r"[\d.x-]+", k)][:12]
    return Counter({k: 12 - i for i, k in enumerate(kws)})


def _idf_weighted(vecs: list[Counter]) -> list[Counter]:
    """Down-weight words most cases share (within this pool): they name the product, not the mechanism."""
    n = len(vecs)
    df = Counter(k for v in vecs for k in v)
    return [Counter({k: w * math.log((n + 1) / (df[k] + 0.5)) for k, w in v.items() if df[k] < n or n < 3})
            for v in vecs]


def _cos(a: Counter, b: Counter) -> float:
    num = sum(a[k] * b[k] for k in a.keys() & b.keys())
    den = math.sqrt(sum(v * v for v in a.values())) * math.sqrt(sum(v * v for v in b.values()))
    return num / den if den else 0.0


def slug(text: str) -> str:
    s = re.sub(r"[^\w\u3400-\u9fff]+", "-", text.lower()).strip("-")
    return s[:60] or "misc"


def _cluster(sim: list[list[float]], floor: float) -> list[list[int]]:
    """Average-link merging while two groups are more similar than `floor`."""
    groups = [[i] for i in range(len(sim))]
    known: dict = {}
    while len(groups) > 1 and (pair := _closest_pair(sim, groups, floor, known=known)) is not None:
        _merge(groups, pair)
    return groups


def _cluster_to(sim: list[list[float]], k: int) -> list[list[int]]:
    """Average-link merging until at most `k` groups remain."""
    groups = [[i] for i in range(len(sim))]
    # a size cap keeps the groups balanced: average link alone tends to grow one giant group
    cap = -(-len(sim) // max(1, k)) + 1
    known: dict = {}
    while len(groups) > max(1, k):
        pair = _closest_pair(sim, groups, float("-inf"), cap, known)
        if pair is None:
            cap += 1
            continue
        _merge(groups, pair)
    return groups


def _closest_pair(sim: list[list[float]], groups: list[list[int]], floor: float,
                  cap: int | None = None, known: dict | None = None) -> tuple[int, int] | None:
    """The two groups with the highest average similarity above `floor` (together at most `cap`).

    `known` (one dict per clustering, kept across its calls) holds the averages already computed:
    a merge changes only the merged group's, so the others are not summed again (the same sum, in
    the same order, as before). A group is named by its first member and its size: groups only
    grow, so no two groups of one clustering ever share both."""
    known = {} if known is None else known
    best, pair = floor, None
    names = [(g[0], len(g)) for g in groups]
    for x in range(len(groups)):
        for y in range(x + 1, len(groups)):
            if cap is not None and len(groups[x]) + len(groups[y]) > cap:
                continue
            s = known.get((names[x], names[y]))
            if s is None:
                s = known[(names[x], names[y])] = (sum(sim[i][j] for i in groups[x] for j in groups[y])
                                                   / (len(groups[x]) * len(groups[y])))
            if s > best + 1e-12:
                best, pair = s, (x, y)
    return pair


def _merge(groups: list[list[int]], pair: tuple[int, int]) -> None:
    x, y = pair
    groups[x] = sorted(groups[x] + groups[y])
    del groups[y]


def _similarity(members: list[Case], vecs: list[Counter], embedder=None) -> list[list[float]]:
    n = len(members)
    weighted = _idf_weighted(vecs)
    proposed = [slug(c.theme) if c.theme else "" for c in members]
    fixes = [{(f.repo, f.number) for f in c.fix if f.role == "fix"} for c in members]
    slips = [is_doc_slip(c) for c in members]
    emb = (embedder.encode([prose(f"{c.title} {c.problem}") for c in members])
           if embedder is not None and n > 1 else None)
    sim = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            s = _cos(weighted[i], weighted[j])
            if emb is not None:
                s = 0.5 * s + 0.5 * max(0.0, float(emb[i] @ emb[j]))
            if members[i].repo != members[j].repo:
                s *= CROSS_REPO_FACTOR
            if proposed[i] and proposed[i] == proposed[j]:
                s = max(s, 0.9)
            if fixes[i] & fixes[j]:      # one PR fixing both: the same mechanism
                s = max(s, 0.6)
            if slips[i] and slips[j]:
                s = max(s, 0.9)
            sim[i][j] = sim[j][i] = s
    return sim


def _name(group_cases: list[Case], vecs: list[Counter], taken: dict, prefix: str = "") -> str:
    label = _label(group_cases, vecs)
    if len(group_cases) > 1 and sum(map(is_doc_slip, group_cases)) * 2 > len(group_cases):
        label = "docs-typo"
    proposed = [slug(c.theme) for c in group_cases if c.theme]
    common = Counter(proposed).most_common(1)
    if common and common[0][1] >= max(2, len(group_cases) // 2 + 1):
        label = common[0][0]
    name = slug(f"{prefix}-{label}" if prefix else label)
    base, k = name, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    return name


def assign_digest_themes(kept: list[Case], embedder=None, size: int = 6, small_repo: int = 2) -> dict[str, list[str]]:
    """Themes sized for reading, as a digest groups its kept cases: each repository's cases split
    into about len/size groups of the most similar cases; repositories with `small_repo` cases or
    fewer are read together (grouped across repos by the same rule)."""
    by_repo: dict[str, list[Case]] = {}
    for c in sorted(kept, key=lambda c: (c.repo, c.number)):
        by_repo.setdefault(c.repo, []).append(c)
    blocks = [(repo.split("/")[-1], cs) for repo, cs in by_repo.items() if len(cs) > small_repo]
    small = [c for cs in by_repo.values() if len(cs) <= small_repo for c in cs]
    if small:
        blocks.append(("", small))
    themes: dict[str, list[str]] = {}
    for prefix, members in blocks:
        vecs = [_vector(c) for c in members]
        k = max(1, round(len(members) / size))
        groups = _cluster_to(_similarity(members, vecs, embedder), k) if k > 1 else [list(range(len(members)))]
        for g in sorted(groups, key=lambda g: g[0]):
            group_cases = [members[i] for i in g]
            name = _name(group_cases, [vecs[i] for i in g], themes, prefix)
            for c in group_cases:
                c.theme = name
            themes[name] = [c.key for c in group_cases]
    return themes


def _label(members: list[Case], vectors: list[Counter]) -> str:
    counts: Counter = Counter()
    for v in vectors:
        for k, w in v.items():
            counts[k] += w
    shared = [k for k, _ in sorted(counts.items(), key=lambda kv: (-sum(1 for v in vectors if kv[0] in v), -kv[1], kv[0]))]
    return "-".join(shared[:3]) if shared else slug(prose(members[0].title))


def assign_themes(cases: list[Case], embedder=None, floor: float = SIMILARITY_FLOOR) -> dict[str, list[str]]:
    """Set `case.theme` on every given case; return theme -> case keys. Themes may span repositories
    (the same mechanism in two repos is one theme); a case with no close neighbour is its own theme."""
    members = sorted(cases, key=lambda c: (c.repo, c.number))
    if not members:
        return {}
    vecs = [_vector(c) for c in members]
    groups = _cluster(_similarity(members, vecs, embedder), floor)
    themes: dict[str, list[str]] = {}
    for g in sorted(groups, key=lambda g: g[0]):
        group_cases = [members[i] for i in g]
        name = _name(group_cases, [vecs[i] for i in g], themes)
        for c in group_cases:
            c.theme = name
        themes[name] = [c.key for c in group_cases]
    return themes


def attach_to_themes(cases: list[Case], themed: list[Case]) -> list[Case]:
    """Give each case the theme of the most similar already-themed case group of its own repository
    (a dropped case belongs with the kept cases it resembles); return the cases left without one."""
    groups: dict[tuple[str, str], list[Counter]] = {}
    for c in themed:
        groups.setdefault((c.repo, c.theme), []).append(_vector(c))
    left = []
    for c in sorted(cases, key=lambda c: (c.repo, c.number)):
        mine = [(t, vs) for (repo, t), vs in groups.items() if repo == c.repo]
        if not mine:
            left.append(c)
            continue
        v = _vector(c)
        c.theme = max(mine, key=lambda tv: (sum(_cos(v, w) for w in tv[1]) / len(tv[1]), tv[0]))[0]
    return left
