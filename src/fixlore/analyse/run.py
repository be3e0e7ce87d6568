"""Run an analyst over the candidate cases: fill the digest fields, decide keep/drop, group themes."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from fixlore.analyse.base import Analysis, Analyst
from fixlore.analyse.context import ContextIndex, fix_users
from fixlore.analyse.offline import OfflineAnalyst
from fixlore.analyse.themes import assign_digest_themes, assign_themes, attach_to_themes
from fixlore.analyse.fit import ROW_CHARS
from fixlore.analyse.widen import WIDER, widen_rows
from fixlore.core.enums import DropReason, FunnelStage
from fixlore.core.model import Case, Corpus
from fixlore.rules.text import tokens
from fixlore.rules.unread import fix_unknown
from fixlore.wording.facts import landed

CANDIDATE_STAGES = (FunnelStage.SELECTED, FunnelStage.ANALYSIS)

Progress = Callable[[int, int], None]
DIGEST_SIZED = 4       # kept cases per wanted theme size from which themes are sized for reading


def is_candidate(case: Case, marker_in_use: bool = False) -> bool:
    """With the linker's top-K marker in use (`case.provisional`), exactly the marked cases;
    without it, the cases in the funnel stages of deep analysis."""
    if marker_in_use:
        return bool(getattr(case, "provisional", False))
    return case.funnel in CANDIDATE_STAGES


def candidates_of(cases: list[Case]) -> list[Case]:
    marker = any(getattr(c, "provisional", False) for c in cases)
    return [c for c in cases if is_candidate(c, marker)]


def settle_unknown(case: Case, a: Analysis) -> None:
    """A case whose fix question its unread parts leave open (rules.unread) is neither kept as
    "no code change" nor dropped as "no fix evidence", whatever the analyst made of what it saw."""
    unknown = fix_unknown(case.unread, landed(case))
    if unknown:
        a.keep, a.drop_reason, a.notes = False, DropReason.FIX_UNKNOWN, [unknown]


def apply(case: Case, a: Analysis) -> None:
    settle_unknown(case, a)
    case.problem, case.answer, case.theme = a.problem, a.answer, a.theme
    case.symptom, case.first_action = a.symptom, a.first_action
    case.funnel = FunnelStage.SELECTED if a.keep else FunnelStage.ANALYSIS
    case.drop_reason = "" if a.keep else a.drop_reason
    case.analysed_by = a.analysed_by
    case.written = a.written
    if hasattr(case, "provisional"):
        case.provisional = False


def analyse_cases(cases: list[Case], corpus: Corpus | None, backend: Analyst | None = None,
                  progress: Progress | None = None, workers: int = 4, embedder=None,
                  theme_size: int = 6) -> dict:
    """Analyse every candidate in place; return the run summary of this stage.

    Summary keys: backend, candidates, analysed, kept, dropped, drop_reasons{code: n},
    themes{theme: [kept case keys]}, fallbacks [case keys], llm_failed, widened [case keys whose
    rows above the middle took analyse/widen.py's extra room], widened_below [those below it, taken
    while the median row stayed within widen_bound], decisions{case key:
    keep, drop_reason, notes, analysed_by}, and `llm` (model, prompt_version, requests,
    cache_hits, tokens, cost, llm_failures) when the backend reports stats, and `editorial` (the
    editorial pass's record, `analyse.editorial`) when the backend ran one.
    """
    backend = backend or OfflineAnalyst(embedder=embedder)
    index = ContextIndex(corpus)
    users = fix_users(cases)
    todo = candidates_of(cases)
    tokens("预热")   # load jieba's dictionary once before threads share it
    done = 0
    if progress:
        progress(0, len(todo))

    def one(case: Case) -> Analysis:
        return backend.analyse(case, index.context(case, users))

    results: list[Analysis] = []
    widened: list[str] = []
    below: list[str] = []
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for a in pool.map(one, todo):    # map keeps the input order: the result is deterministic
            results.append(a)
            done += 1
            if progress:
                progress(done, len(todo))
        if getattr(backend, "widens", False):       # rows above the middle may say more (analyse/widen.py)
            # the middle of the rows the digest will show: a row the unread parts leave open is not one
            for case, a in zip(todo, results):
                settle_unknown(case, a)
            by_key = {case.key: case for case in todo}

            def rewrite(keys: list[str]) -> list[Analysis]:
                return list(pool.map(lambda key: backend.analyse(by_key[key], index.context(by_key[key], users),
                                                                 extra=WIDER), keys))

            widened, below = widen_rows({case.key: (case, a) for case, a in zip(todo, results) if a.keep}, rewrite)
    decisions = {}
    for case, a in zip(todo, results):
        apply(case, a)
        decisions[case.key] = {"keep": a.keep, "drop_reason": a.drop_reason, "notes": list(a.notes),
                               "analysed_by": a.analysed_by}

    kept = [c for c in todo if c.funnel == FunnelStage.SELECTED]
    # a digest-sized set reads best in themes of about `theme_size` cases; a handful of cases keeps
    # only the groups that similarity alone makes
    if theme_size > 0 and len(kept) >= DIGEST_SIZED * theme_size:
        themes = assign_digest_themes(kept, embedder=embedder, size=theme_size)
        dropped = [c for c in cases if c.funnel == FunnelStage.ANALYSIS]
        left = attach_to_themes(dropped, kept)
        # the backlog (and drops from repos with nothing kept) group among themselves
        assign_themes(left + [c for c in cases if c.funnel == FunnelStage.RANK], embedder=embedder)
    else:
        pool = [c for c in cases if c.funnel in (FunnelStage.SELECTED, FunnelStage.ANALYSIS, FunnelStage.RANK)]
        all_themes = assign_themes(pool, embedder=embedder)
        kept_keys = {c.key for c in kept}
        themes = {t: [k for k in keys if k in kept_keys] for t, keys in all_themes.items()}
        themes = {t: keys for t, keys in themes.items() if keys}
    fallbacks = [c.key for c in todo if "llm failed" in c.analysed_by]
    summary = {
        "backend": getattr(backend, "name", type(backend).__name__),
        "candidates": len(todo), "analysed": len(results), "kept": len(kept),
        "dropped": len(todo) - len(kept),
        "drop_reasons": dict(Counter(str(c.drop_reason) for c in todo if c.funnel == FunnelStage.ANALYSIS)),
        "themes": themes, "fallbacks": fallbacks, "llm_failed": len(fallbacks), "widened": widened,
        "widen_chars": WIDER if widened or below else 0, "widened_below": below,
        "widen_bound": ROW_CHARS if below else 0,
        "decisions": decisions,
    }
    edit = getattr(backend, "edit", None)
    record = edit(kept, themes) if callable(edit) else None
    if record:                # the editorial words (themes, repos, English cells) with the same model
        summary["editorial"] = record
    if hasattr(backend, "stats"):
        summary["llm"] = backend.stats()
    return summary
