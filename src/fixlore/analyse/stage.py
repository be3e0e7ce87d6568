"""The analyse stage of the pipeline (see fixlore.pipeline): take the cases the link and kb
stages handed on (`RunContext.cases`), analyse the candidates, store the analyses. Offline unless an LLM endpoint is named in the
settings or in FIXLORE_LLM_BASE_URL / FIXLORE_LLM_MODEL (key variable: FIXLORE_LLM_KEY_ENV,
default OPENAI_API_KEY; answer cache: FIXLORE_LLM_CACHE): `analyse.backend.choice_from_settings`,
the same analyst `fixlore analyse` builds from its flags."""

from __future__ import annotations

from typing import Any, TypedDict

from fixlore.analyse.backend import analyse, choice_from_settings
from fixlore.core.timeutil import cases_in_zone
from fixlore.settings.runcontext import RunContext


class AnalyseSummary(TypedDict, total=False):
    """`analyse_cases`' summary (its docstring names each key), or ``skipped``."""
    skipped: str
    backend: str
    candidates: int
    analysed: int
    kept: int
    dropped: int
    drop_reasons: dict[str, int]
    themes: dict[str, list[str]]
    fallbacks: list[str]
    llm_failed: int
    widened: list[str]          # rows given analyse/widen.py's extra room
    widen_chars: int            # how much room (0 when none was given)
    decisions: dict[str, dict[str, Any]]
    llm: dict[str, Any]
    editor_overrides: int


def run(ctx: RunContext) -> AnalyseSummary:
    cases = ctx.cases()
    if not cases:
        return AnalyseSummary(skipped="no cases (the link stage builds them)")
    # the answers state dates: in the window's own offset, as the digest shows every time
    since = ctx.since
    cases_in_zone(cases, since.tzinfo if since else None)
    report = ctx.reporter("analyse")
    summary = analyse(cases, ctx.corpus(), choice_from_settings(ctx.settings),
                      progress=(lambda done, total: report("cases", done, total)) if report else None,
                      circuits=ctx.circuits)
    if ctx.overrides is not None:          # the editor's keep / drop over the analyst's (fixlore.rules.overrides)
        from fixlore.rules.overrides import apply_keep, apply_themes

        applied = apply_keep(cases, ctx.overrides) + apply_themes(cases, ctx.overrides)   # a series has no compose
        ctx.record_overrides(applied, "analyse")
        if applied:
            summary["editor_overrides"] = len(applied)
    ctx.store.save_cases(cases, ctx.run_id)
    return summary  # type: ignore[return-value]
