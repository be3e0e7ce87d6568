"""The harvest as a pipeline stage (see fixlore.pipeline)."""

from __future__ import annotations

from typing import Any, TypedDict, cast

from fixlore.harvest.harvester import harvest
from fixlore.settings.runcontext import RunContext


class HarvestSummary(TypedDict, total=False):
    """`HarvestReport.as_dict()`: what was listed and fetched, what could not be read."""
    orgs: list[str]
    repos: int
    issues_listed: int
    issues_in_window: int
    funnel: dict[str, int]                  # cheap funnel stage -> issues
    issues_detailed: int
    repos_with_work: int
    pulls_listed: int
    pull_candidates: int
    pulls_detailed: int
    repos_unreadable: int
    unreadable: list[dict[str, Any]]        # {repo, endpoint, status, message, failed_at, attempts}
    items_unreadable: int                   # issues and PRs with a part that could not be read
    unread_items: list[dict[str, Any]]      # {repo, kind, number, part, endpoint, status, message, failed_at, attempts}
    unknown_actions: dict[str, int]
    unsorted_lists: int
    unsorted: list[dict[str, str]]
    list_forms: list[dict[str, Any]]        # per list kind: the ordering form in use, forms refused
    paging: list[dict[str, Any]]            # over-long pages taken whole, repeated pages that ended a list
    closing_refs_unread: list[dict[str, Any]]   # {repo, issues, numbers, why}: GitHub sidebar links not read
    repos_without_issues: list[dict[str, str]]  # {repo, why}: issues disabled, not asked for, not unreadable
    issues_deleted: list[dict[str, Any]]        # {repo, number, why}: deleted on the platform, left out from now on
    reconcile: dict[str, int]                   # --reconcile only: {repos, issues_checked, issues_asked}
    phase_seconds: dict[str, float]


def run(ctx: RunContext) -> HarvestSummary:
    settings = ctx.settings
    run_id = ctx.store.start_harvest_run(ctx.source.platform, settings.orgs, ctx.since)
    status = "failed"
    report = None
    try:
        report = harvest(ctx.store, ctx.source, settings.orgs, ctx.since, lookback_days=settings.lookback_days,
                         funnel_config=settings.funnel_rules, naive=ctx.naive, reconcile=ctx.reconcile,
                         progress=ctx.reporter("harvest"))
        status = "partial" if report.unreadable or report.unread_items else "done"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        summary = report.as_dict() if report else {}
        requests = ctx.client.accounting.snapshot() if ctx.client is not None else {}
        ctx.store.finish_harvest_run(run_id, status, requests.get("total", 0), {**summary, "requests": requests})
    ctx.info["funnel"] = dict(report.funnel)
    ctx.funnel = report.verdicts          # the run's cheap funnel: the funnel and link stages read it
    ctx.forget_corpus()                   # the store's corpus has changed
    return cast(HarvestSummary, summary)
