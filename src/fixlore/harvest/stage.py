"""The harvest as a pipeline stage (see fixlore.pipeline)."""

from __future__ import annotations

from typing import Any

from fixlore.rules.funnel import FunnelConfig
from fixlore.harvest.harvester import harvest


def run(ctx: Any) -> dict[str, Any]:
    settings = ctx.settings
    funnel_cfg = dict(settings.funnel or {})
    if settings.rank_top_k is not None:
        funnel_cfg.setdefault("rank_top_k", settings.rank_top_k)
    run_id = ctx.store.start_harvest_run(ctx.source.platform, settings.orgs, ctx.since)
    status = "failed"
    report = None
    try:
        report = harvest(ctx.store, ctx.source, settings.orgs, ctx.since, lookback_days=settings.lookback_days,
                         funnel_config=FunnelConfig.from_mapping(funnel_cfg), naive=ctx.naive, quiet=ctx.quiet)
        status = "partial" if report.unreadable else "done"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        summary = report.as_dict() if report else {}
        requests = ctx.client.accounting.snapshot() if ctx.client is not None else {}
        ctx.store.finish_harvest_run(run_id, status, requests.get("total", 0), {**summary, "requests": requests})
    ctx.info["funnel"] = dict(report.funnel)
    return summary
