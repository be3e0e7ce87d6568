"""Backports: the same change landed on a release branch.

A merged PR is a twin of a fix when it targets a different branch and either names the fix
together with a backport word (`backport of !870`, a cherry-pick note) or with the fix's
title once branch tags are removed; or, merged within `backport_window_days` of the fix,
carries that same title (`[26.2.0] fix X` ~ `fix X`, rapidfuzz ratio) or changes the same
files (Jaccard >= 0.8) under a similar title. A title alone identifies a change only when it
is specific: it carries at least two terms of vocabulary (link.text) and no other PR merged
into the fix's own branch within the window has a title that similar. Terse titles ("fix bug",
"修复问题", "补充参数说明") recur on every branch; two of them say nothing about one change.
Twins are searched among the repo's PRs
merged near the fix (bisect on the merge-time index), never by scanning every PR. A twin
may merge after the issue closed: a backport usually does.
"""

from __future__ import annotations

import re
from datetime import timedelta

from rapidfuzz import fuzz, process

from fixlore.core.model import Pull
from fixlore.link.config import LinkConfig
from fixlore.link.index import CorpusIndex, Key
from fixlore.link.text import tokens

_BACKPORT_WORD = re.compile(r"backport|cherry[- ]?pick|回合|同步", re.IGNORECASE)
def _specific_title(fix: Pull, shape: str, idx: CorpusIndex, cfg: LinkConfig, window: timedelta) -> bool:
    if len(tokens(shape)) < 2:
        return False
    lo, hi = idx.merged_range(fix.repo, fix.merged_at - window, fix.merged_at + window, fix.base_ref)
    mates = [p for p in idx.merged_list(fix.repo, fix.base_ref)[lo:hi] if p.number != fix.number]
    shapes = [idx.backport_shape(p) for p in mates]
    return process.extractOne(shape, shapes, scorer=fuzz.ratio, score_cutoff=cfg.backport_title_similarity) is None \
        if shapes else True


def find_twins(fix: Pull, idx: CorpusIndex, cfg: LinkConfig, exclude: set[Key]) -> list[tuple[Pull, str]]:
    """Merged PRs that carry `fix` to another branch, with what shows it."""
    out: list[tuple[Pull, str]] = []
    seen: set[Key] = set(exclude) | {(fix.repo, fix.number)}
    for m in idx.pull_pull_refs.get((fix.repo, fix.number), []):
        p = idx.pulls.get(m.pull)
        if p is None or m.pull in seen or not p.merged or p.base_ref == fix.base_ref:
            continue
        text = f"{p.title}\n{p.body}"
        if _BACKPORT_WORD.search(text) or idx.backport_shape(p) == idx.backport_shape(fix):
            seen.add(m.pull)
            out.append((p, f"PR {m.where} cites !{fix.number}: {m.quote}"))
    if fix.merged_at is None:
        return out
    window = timedelta(days=cfg.backport_window_days)
    shape = idx.backport_shape(fix)
    by_title: list[bool] = []        # worked out on the first title hit only (most fixes have none)
    fix_files = {f.filename for f in idx.files.get((fix.repo, fix.number), [])}
    for branch in idx.branches_of(fix.repo):
        if branch == fix.base_ref:
            continue
        lo, hi = idx.merged_range(fix.repo, fix.merged_at - window, fix.merged_at + window, branch)
        if lo >= hi or not shape:
            continue
        others = idx.merged_list(fix.repo, branch)[lo:hi]
        shapes = idx.branch_backport_shapes(fix.repo, branch)[lo:hi]
        hits = process.extract(shape, shapes, scorer=fuzz.ratio, score_cutoff=60, limit=None)
        for _, sim, i in sorted(hits, key=lambda h: -h[1]):
            p = others[i]
            pk = (p.repo, p.number)
            if pk in seen:
                continue
            if sim >= cfg.backport_title_similarity and not by_title:
                by_title.append(_specific_title(fix, shape, idx, cfg, window))
            if sim >= cfg.backport_title_similarity and by_title[0]:
                seen.add(pk)
                out.append((p, f"same change on {p.base_ref or '?'}: title '{p.title}' ~ '{fix.title}' ({sim:.0f}%)"))
            elif fix_files:
                files = {f.filename for f in idx.files.get(pk, [])}
                if files and len(files & fix_files) / len(files | fix_files) >= 0.8:
                    seen.add(pk)
                    out.append((p, f"same files on {p.base_ref or '?'} ({len(files & fix_files)} shared) and similar title"))
    return out
