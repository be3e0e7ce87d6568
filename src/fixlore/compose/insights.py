"""Insights across cases, beside the themes (组合解读), as the seed no. 16 draws them ("上一个修复埋的
雷由下一个修复收"): read from each case's links, never from its wording alone.

- A regression chain: a case whose cause names an earlier PR of its repository as what brought the
  fault in (`lessons.earlier_prs`) and whose fix is another PR that landed. One insight names every
  such case with its two PRs.
- A shared fix: one PR that is the fix of cases from two or more repositories.

Each insight names its cases (`cases`) and its count is computed once from them (`count`), so the
editorial check can add it up against what it names. Read on ascend-2026-09 (msmodeling #405/#430,
fitted); the others are held out."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from fixlore.compose import lessons
from fixlore.compose.figures import Refs
from fixlore.compose.wording import j as _j, t as _t
from fixlore.core.model import Case, FixRef


MIN_CASES = 2        # "across cases": fewer is not a pattern


def _label(c: Case, number: int, ref: Refs) -> str:
    """An earlier PR of the case's repository, labelled as its own fixes are (the same forge)."""
    url = next((f.url for f in c.fix if f.url), "")
    return FixRef(repo=c.repo, number=number, role="fix", url=url).label(c.repo, prose=True, name=ref.repo)


def chains(kept: list[Case]) -> list[tuple[Case, list[int], list[FixRef]]]:
    """(case, the earlier PRs its cause blames, its landed fixes) for each regression chain."""
    out = []
    for c in kept:
        fixes = [f for f in c.landed_fixes if f.repo == c.repo]
        earlier = [n for n in lessons.earlier_prs(c) if n not in {f.number for f in fixes}]
        if earlier and fixes:
            out.append((c, earlier, fixes))
    return out


def shared_fixes(kept: list[Case]) -> list[tuple[FixRef, list[Case]]]:
    """(PR, its cases) for each PR that is the fix of cases from at least two repositories."""
    by: dict[tuple[str, int], list[Case]] = defaultdict(list)
    first: dict[tuple[str, int], FixRef] = {}
    for c in kept:
        for f in c.fix:
            by[(f.repo, f.number)].append(c)
            first.setdefault((f.repo, f.number), f)
    return [(first[k], cs) for k, cs in sorted(by.items()) if len({c.repo for c in cs}) >= 2]


def insights(kept: list[Case], ref: Refs, lang: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    found = sorted(chains(kept), key=lambda x: (ref(x[0])))
    # an insight across cases names at least two: one chain is that case's own story, told in its row
    # (and a theme's headline may already carry the lesson); read on ascend-2026-09, where one case
    # (msmodeling#430) made a "跨案线索" of 1 案
    if len(found) >= MIN_CASES:
        n, repos = len(found), len({c.repo for c, _, _ in found})
        bits = []
        for c, earlier, fixes in found:
            before = _j(lang, [_label(c, e, ref) for e in earlier])
            after = _j(lang, [f.label(c.repo, prose=True, name=ref.repo) for f in fixes])
            bits.append(_t(lang, f"{ref(c)} 的故障由 {before} 引入、{after} 修复", f"{ref(c)}: brought in by {before}, fixed by {after}"))
        where = _t(lang, f"，来自 {repos} 个仓", f", from {repos} repositories") if repos > 1 else ""
        out.append({"kind": "regression_chain", "count": n, "cases": [ref(c) for c, _, _ in found],
                    "headline": _t(lang, f"上一个修复埋的雷由下一个修复收：{n} 案{where}",
                                   f"One change's fault, the next fix's work: {n} case{'s' if n > 1 else ''}{where}"),
                    "text": _t(lang, "；".join(bits) + "。", "; ".join(bits) + ".")})
    for pr, cs in shared_fixes(kept):
        cs = sorted(cs, key=ref)
        n, repos = len(cs), len({c.repo for c in cs})
        label = pr.label("", prose=True, name=ref.repo)
        out.append({"kind": "shared_fix", "count": n, "cases": [ref(c) for c in cs],
                    "headline": _t(lang, f"一个 PR 修了 {repos} 个仓的 {n} 案：{label}",
                                   f"One PR fixed {n} cases of {repos} repositories: {label}"),
                    "text": _t(lang, f"{label} 同时是 {_j(lang, [ref(c) for c in cs])} 的修复。",
                               f"{label} is the fix of {_j(lang, [ref(c) for c in cs])}.")})
    return out
