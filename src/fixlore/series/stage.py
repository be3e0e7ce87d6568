"""The series stage (between link and analyse, in a `fixlore series publish` run): the edition's
plan decides which cases go to deep analysis, instead of the run's whole pool.

It reads the edition being made from ``ctx.info["series"]`` (name, number, since, until, top_k,
focus) and the ledger, marks the winners for analysis, puts every other candidate in the
backlog (funnel ``rank``), and records the plan in ``ctx.info["series"]["plan"]``.
"""

from __future__ import annotations

from typing import TypedDict

from fixlore.core.enums import FunnelStage
from fixlore.core.timeutil import parse_time
from fixlore.series.ledgerview import issue_states, ledger_view
from fixlore.series.model import Series
from fixlore.series.plan import Focus, plan_edition
from fixlore.settings.runcontext import RunContext
from fixlore.store.ledger import Ledger


class SeriesSummary(TypedDict, total=False):
    skipped: str                      # not a series edition (then the only key)
    new: int
    carried: int
    analyse: int
    updates: int
    left_pool: int
    returned: int


def _editors(ctx: RunContext, edition: dict) -> dict:
    """The editors' keep / drop (their overrides file) and the value weights learned from their
    past decisions (`fixlore.series.weights`, when saved beside the ledger) for the plan."""
    from fixlore.rules.funnel.learned import EVEN
    from fixlore.series.weights import learned_ranker

    extra: dict = {}
    if ctx.overrides is not None:
        extra.update(keep=ctx.overrides.keys_of("keep"), drop=ctx.overrides.keys_of("drop"))
    ranker, about = learned_ranker(ctx.out_dir, edition["name"])
    if ranker is not None:
        extra["value"] = ranker
        if about.get("gate"):             # the file's own check favours cutting by them (`fixlore weights learn`)
            extra["at_least"] = EVEN
        ctx.info["value_weights"] = about
    return extra


def run(ctx: RunContext) -> SeriesSummary:
    edition = ctx.info.get("series")
    if not edition:
        return SeriesSummary(skipped="not a series edition")
    ledger = Ledger(ctx.store)
    series = Series.from_dict(ledger.series(edition["name"]) or {})
    cases = ctx.cases()
    prior = ledger_view(ledger, series.name)
    states = issue_states(ctx.store, prior.published)
    editors = _editors(ctx, edition)

    def planned(**extra):
        return plan_edition(cases, prior, since=parse_time(edition["since"]), until=parse_time(edition["until"]),
                            top_k=int(edition["top_k"]), in_scope=series.in_scope,
                            focus=Focus(**(edition.get("focus") or {})), issue_states=states, **extra)

    plan = planned(**editors)
    # what the editors' keep / drop moved: the same plan without them (the plan is pure and cheap)
    without = planned(**{k: v for k, v in editors.items() if k in ("value", "at_least")}).analyse if ctx.overrides else []
    chosen, waiting = set(plan.analyse), set(plan.candidates())
    for c in cases:
        if c.key in chosen:
            c.funnel, c.provisional = FunnelStage.SELECTED, True
        else:
            c.provisional = False
            if c.key in waiting or c.funnel == FunnelStage.SELECTED:
                c.funnel = FunnelStage.RANK
    if ctx.overrides is not None:
        from fixlore.rules.overrides import note_plan

        ctx.record_overrides(note_plan(cases, ctx.overrides, plan.analyse, without), "series")
    ctx.store.save_cases(cases, ctx.run_id)
    edition["plan"] = plan.to_dict()
    return SeriesSummary(new=len(plan.new), carried=len(plan.carried), analyse=len(plan.analyse),
                         updates=len(plan.updates), left_pool=len(plan.left_pool), returned=len(plan.returned))
