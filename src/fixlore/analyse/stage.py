"""The analyse stage of the pipeline (see fixlore.pipeline): read the cases the link stage
stored, analyse the candidates, store them back. Offline unless an LLM endpoint is named in the
settings or in FIXLORE_LLM_BASE_URL / FIXLORE_LLM_MODEL (key variable: FIXLORE_LLM_KEY_ENV,
default OPENAI_API_KEY; answer cache: FIXLORE_LLM_CACHE)."""

from __future__ import annotations

from typing import Any, TypedDict

from fixlore.analyse.offline import OfflineAnalyst
from fixlore.analyse.run import analyse_cases, candidates_of
from fixlore.llmclient import endpoint_setting as _setting
from fixlore.runcontext import RunContext
from fixlore.timeutil import cases_in_zone


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
    decisions: dict[str, dict[str, Any]]
    llm: dict[str, Any]


def _backend(settings: Any, offline: OfflineAnalyst):
    """The LLM backend when an endpoint is named (llm_base_url + llm_model), else offline."""
    base_url, model = _setting(settings, "llm_base_url"), _setting(settings, "llm_model")
    if not (base_url and model):
        return offline
    from fixlore.analyse.llm import LlmAnalyst

    return LlmAnalyst(base_url=base_url, model=model, key_env=_setting(settings, "llm_key_env") or "OPENAI_API_KEY",
                      cache_path=_setting(settings, "llm_cache") or None, fallback=offline)


def run(ctx: RunContext) -> AnalyseSummary:
    cases = ctx.store.load_cases()
    if not cases:
        return AnalyseSummary(skipped="no cases in the store (the link stage writes them)")
    # the answers state dates: in the window's own offset, as the digest shows every time
    since = ctx.since
    cases_in_zone(cases, since.tzinfo if since else None)
    todo = candidates_of(cases)
    corpus = ctx.corpus()
    offline = OfflineAnalyst()
    report = ctx.reporter("analyse")
    summary = analyse_cases(cases, corpus, _backend(ctx.settings, offline), workers=2,
                            progress=(lambda done, total: report("cases", done, total)) if report else None)
    ctx.store.save_cases(cases, ctx.run_id)
    return summary  # type: ignore[return-value]
