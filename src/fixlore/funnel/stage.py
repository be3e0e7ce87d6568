"""The funnel as a pipeline stage (see fixlore.pipeline): every issue's cheap stage and the
counts in run.json. The value ranking needs link evidence, so the top-K cut is made by the link
stage (fixlore.link.stage), which reports the full funnel.

The cheap funnel runs once per run: in a run with a harvest, the harvester works it out over
every issue updated in the window before it fetches any detail, stores each stage and hands
the verdict on (`RunContext.funnel`); this stage counts it. Without a harvest in the run
(`--stage funnel`), this stage works it out over the store's issues and stores it."""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from fixlore.core.enums import FunnelStage
from fixlore.rules.funnel.cheap import POOL, cheap_funnel
from fixlore.settings.runcontext import RunContext


class FunnelSummary(TypedDict):
    """Issues per cheap stage (``closed_in_window`` = ``considered`` - ``window``)."""
    considered: int
    closed_in_window: int
    window: int
    unresolved: int
    internal: int
    cve: int
    empty_title: int
    noise: int
    pool: int


def run(ctx: RunContext) -> FunnelSummary:
    if ctx.funnel is None:
        ctx.funnel = _work_out(ctx)
    verdict = ctx.funnel
    counts = Counter(verdict.values())
    return FunnelSummary(considered=len(verdict), closed_in_window=len(verdict) - counts[FunnelStage.WINDOW],
                         window=counts[FunnelStage.WINDOW], unresolved=counts[FunnelStage.UNRESOLVED],
                         internal=counts[FunnelStage.INTERNAL], cve=counts[FunnelStage.CVE],
                         empty_title=counts[FunnelStage.EMPTY_TITLE], noise=counts[FunnelStage.NOISE],
                         pool=counts[POOL])


def _work_out(ctx: RunContext) -> dict[str, str]:
    issues = ctx.store.issues()
    verdict = cheap_funnel(issues, ctx.since, ctx.settings.funnel_rules)
    with ctx.store.writer() as w:
        w.set_funnel_stages({(i.repo, i.number): verdict[i.key] for i in issues if i.key in verdict})
    return verdict
