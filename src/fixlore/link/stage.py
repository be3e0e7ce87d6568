"""The link stage of the pipeline (see fixlore.pipeline): link the run's corpus (read once,
`RunContext.corpus`) with the run's cheap funnel verdict (`RunContext.funnel`, the harvester's),
re-check a sample of timing claims against the source, save the cases back.

Summary keys: funnel (every stage's count), timing {class: n}, traps {trap: n}, evidence
{kind: n} (over the analysis candidates), analysis_candidates, audit {checked, passed,
failed, errors, reused, by_timing, details}; a check of an earlier run still true is
reused, not fetched again (fixlore.link.audit).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypedDict

from fixlore.link.audit import audit_timing, corpus_fetcher, corpus_seen, prior_checks, source_fetcher
from fixlore.link.build import analysis_candidates, build_cases
from fixlore.link.config import LinkConfig
from fixlore.settings.config import Settings
from fixlore.settings.runcontext import RunContext

AUDIT_SAMPLE = 21      # the seed digest audits 21 timing claims (ascend-2026-09); not a fitted figure


def link_config(settings: Settings, value_weights: dict | None = None) -> LinkConfig:
    return LinkConfig(funnel=settings.funnel_rules, workers=settings.link_workers, value_weights=value_weights)


class LinkSummary(TypedDict):
    funnel: dict[str, int]            # FunnelCounts.as_dict(): every stage's count, the top-K cut
    analysis_candidates: int
    timing: dict[str, int]
    traps: dict[str, int]
    evidence: dict[str, int]
    audit: dict[str, Any]             # AuditResult.as_dict() (``reused``: checks of an earlier run) and ``via``


def _apply_overrides(ctx: RunContext, cases: list, corpus: Any, counts: Any) -> None:
    """The editor's fix / not-fix corrections, then keep / drop at the cut (fixlore.rules.overrides);
    the cut's counts follow what the editor moved."""
    import sys

    from fixlore.core.enums import FunnelStage
    from fixlore.link.conclude import fixref
    from fixlore.rules import overrides as ov

    pulls = {(p.repo, p.number): p for p in corpus.pulls}

    def pull(repo: str, number: int):
        p = pulls.get((repo, number))
        return fixref(p, "fix") if p is not None else None

    ctx.record_overrides(ov.apply_links(cases, ctx.overrides, pull), "link")
    ctx.record_overrides(ov.apply_cut(cases, ctx.overrides), "cut")
    counts.analysis_candidates = sum(1 for c in cases if c.funnel == FunnelStage.SELECTED and c.provisional)
    counts.rank = counts.pool - counts.analysis_candidates
    unknown = ov.unknown_keys(ctx.overrides, cases)
    ctx.info["overrides"]["unknown"] = unknown
    if unknown:
        print(f"overrides {ctx.overrides.source}: {len(unknown)} of its entries name no "
              f"case of this run: {', '.join(unknown[:5])}" + (" ..." if len(unknown) > 5 else ""), file=sys.stderr)


def run(ctx: RunContext) -> LinkSummary:
    corpus = ctx.corpus()                 # in the window's own offset, as the notes show times
    cases, counts = build_cases(corpus, ctx.since, link_config(ctx.settings, ctx.value_weights), funnel=ctx.funnel)
    if ctx.value_weights is not None:
        from fixlore.rules.funnel.learned import weights_used

        ctx.info["value_weights"] = weights_used(ctx.value_weights, cases)
    if ctx.overrides is not None:
        _apply_overrides(ctx, cases, corpus, counts)
    prior, seen, resumed = {}, None, set()
    if ctx.source is not None:
        fetch, mode = source_fetcher(ctx.source), "source"
        harvest = ctx.results.get("harvest")
        if harvest is not None:
            # an earlier run's checks, reused where this run's listing left their issue and PR
            # unchanged (a run without a harvest listed nothing: every check is made afresh)
            earlier = ctx.store.latest_stage_summary("link", before_run=ctx.run_id) or {}
            prior = prior_checks(earlier.get("audit"))
            resumed = ctx.store.resumed_runs(ctx.run_id)
            unread = {f.get("repo") for f in harvest.get("unreadable") or []} | {f["repo"] for f in ctx.store.failures()}
            seen = corpus_seen(corpus, unread)
    else:
        fetch, mode = corpus_fetcher(corpus), "store"
    chosen = analysis_candidates(cases)
    result = audit_timing(chosen, fetch, AUDIT_SAMPLE, prior=prior, seen=seen, run_id=ctx.run_id,
                          resumed=resumed)
    ctx.store.save_linked_cases(cases, ctx.run_id)
    ctx.hand_on(cases)
    ctx.info["funnel"] = counts.as_dict()
    return LinkSummary(
        funnel=counts.as_dict(),
        analysis_candidates=len(chosen),
        timing=dict(sorted(Counter(c.timing for c in chosen).items())),
        traps=dict(sorted(Counter(t for c in chosen for t in c.traps).items())),
        evidence=dict(sorted(Counter(e.kind for c in chosen for e in c.evidence).items())),
        audit={**result.as_dict(), "via": mode},
    )
