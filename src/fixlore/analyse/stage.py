"""The analyse stage of the pipeline (see fixlore.pipeline): read the cases the link stage
stored, analyse the candidates, store them back."""

from __future__ import annotations

from typing import Any

from fixlore.analyse.offline import OfflineAnalyst
from fixlore.analyse.run import analyse_cases, candidates_of


def _backend(settings: Any, offline: OfflineAnalyst):
    """The LLM backend when the settings name an endpoint (llm_base_url, llm_model), else offline."""
    base_url, model = getattr(settings, "llm_base_url", ""), getattr(settings, "llm_model", "")
    if not (base_url and model):
        return offline
    from fixlore.analyse.llm import LlmAnalyst

    return LlmAnalyst(base_url=base_url, model=model, key_env=getattr(settings, "llm_key_env", "") or "OPENAI_API_KEY",
                      cache_path=getattr(settings, "llm_cache", None), fallback=offline)


def run(ctx: Any) -> dict[str, Any]:
    cases = ctx.store.load_cases()
    if not cases:
        return {"skipped": "no cases in the store (the link stage writes them)"}
    todo = candidates_of(cases)
    corpus = ctx.store.load_corpus(repos=sorted({c.repo for c in todo}))
    offline = OfflineAnalyst()
    summary = analyse_cases(cases, corpus, _backend(ctx.settings, offline), workers=2)
    ctx.store.save_cases(cases, ctx.run_id)
    return summary
