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

The other way round, `find_origin` reads a backport for the change it copies (`rules.cherry_pick`):
git's "(cherry picked from commit SHA)" in its body or commits (the SHA of a commit, merge or head
of another PR), "cherry-pick #N" / "backport of #N", or a title marked as a cherry-pick whose shape
is the specific title of exactly one PR merged earlier on another branch. The origin is the fix;
the backport a landing of it (paddle-threads' tune split, read: PaddleOCR#13769, whose release/2.8
"[cherry-pick] Solve ModuleNotFoundError…" #13603 closes it and copies main's #13348).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from rapidfuzz import fuzz, process

from fixlore.core.model import Pull
from fixlore.link.config import LinkConfig
from fixlore.link.index import CorpusIndex, Key
from fixlore.link.text import tokens
from fixlore.rules.cherry_pick import marked, origin_numbers, picked_shas

_BACKPORT_WORD = re.compile(r"backport|cherry[- ]?pick|回合|同步", re.IGNORECASE)
def _specific_title(fix: Pull, shape: str, idx: CorpusIndex, cfg: LinkConfig, window: timedelta) -> bool:
    if len(tokens(shape)) < 2:
        return False
    lo, hi = idx.merged_range(fix.repo, fix.merged_at - window, fix.merged_at + window, fix.base_ref)
    mates = [p for p in idx.merged_list(fix.repo, fix.base_ref)[lo:hi] if p.number != fix.number]
    shapes = [idx.backport_shape(p) for p in mates]
    return process.extractOne(shape, shapes, scorer=fuzz.ratio, score_cutoff=cfg.backport_title_similarity) is None \
        if shapes else True


# a title this like the fix's (rapidfuzz ratio) is worth a look at the files a PR changes; a title
# alone makes a twin only at `backport_title_similarity`
_SIMILAR_TITLE = 60


def _like_titles(pull: Pull, shape: str, idx: CorpusIndex, since: datetime, until: datetime,
                 cutoff: float) -> list[tuple[Pull, float]]:
    """The PRs merged between `since` and `until` into each branch of `pull`'s repository other
    than its own whose title shape (`idx.backport_shape`) is at least `cutoff` like `shape`, each
    with its similarity, branch by branch and most alike first within a branch; [] for no shape."""
    out: list[tuple[Pull, float]] = []
    if not shape:
        return out
    for branch in idx.branches_of(pull.repo):
        if branch == pull.base_ref:
            continue
        lo, hi = idx.merged_range(pull.repo, since, until, branch)
        if lo >= hi:
            continue
        others = idx.merged_list(pull.repo, branch)[lo:hi]
        shapes = idx.branch_backport_shapes(pull.repo, branch)[lo:hi]
        hits = process.extract(shape, shapes, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
        out += [(others[i], sim) for _, sim, i in sorted(hits, key=lambda h: -h[1])]
    return out


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
    for p, sim in _like_titles(fix, shape, idx, fix.merged_at - window, fix.merged_at + window, _SIMILAR_TITLE):
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


def find_origin(pull: Pull, idx: CorpusIndex, cfg: LinkConfig) -> tuple[Pull, str] | None:
    """The merged PR on another branch that `pull` (merged) cherry-picks or backports, with what shows
    it; None when it names none or copies no PR of the corpus."""
    if not pull.merged:
        return None

    def origin(key: Key | None) -> Pull | None:
        o = idx.pulls.get(key) if key else None
        if o is None or key == (pull.repo, pull.number) or not o.merged or o.base_ref == pull.base_ref:
            return None
        return o

    texts = [("body", pull.body or "")] + [(f"commit {cm.sha[:7]}", cm.message or "")
                                            for cm in idx.commits.get((pull.repo, pull.number), [])]
    for where, text in texts:
        for sha in picked_shas(text):
            o = origin(idx.pull_by_sha(sha))
            if o is not None:
                return o, f"its {where} says 'cherry picked from commit {sha[:10]}', a commit of {idx.pr_label((o.repo, o.number), pull.repo)}"
    for n in origin_numbers(pull.title, pull.body):
        o = origin((pull.repo, n))
        if o is not None:
            return o, f"it names {idx.pr_label((o.repo, o.number), pull.repo)} as the change it cherry-picks or backports"
    if not marked(pull.title) or pull.merged_at is None:
        return None
    shape = idx.backport_shape(pull)
    if len(tokens(shape)) < 2:
        return None
    window = timedelta(days=cfg.backport_window_days)
    same = [o for o, _ in _like_titles(pull, shape, idx, pull.merged_at - window, pull.merged_at,
                                       cfg.backport_title_similarity)
            if origin((o.repo, o.number)) is not None]
    if len(same) != 1:
        return None        # none, or several changes with that title: the title does not say which
    o = same[0]
    return o, (f"its title '{pull.title}' marks a cherry-pick of {idx.pr_label((o.repo, o.number), pull.repo)} "
               f"'{o.title}', merged earlier on {o.base_ref or '?'}")
