"""The funnel as a pipeline stage (see fixlore.pipeline): record every issue's cheap stage in
the store and the counts in run.json. The value ranking needs link evidence, so the top-K
cut is made by the link stage (fixlore.link.stage), which reports the full funnel."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fixlore.rules.funnel.cheap import cheap_funnel
from fixlore.rules.funnel.config import FunnelConfig


def run(ctx: Any) -> dict[str, Any]:
    settings = ctx.settings
    mapping = dict(getattr(settings, "funnel", None) or {})
    if getattr(settings, "rank_top_k", None) is not None:
        mapping.setdefault("rank_top_k", settings.rank_top_k)
    issues = ctx.store.issues()
    verdict = cheap_funnel(issues, ctx.since, FunnelConfig.from_mapping(mapping))
    with ctx.store.writer() as w:
        w.set_funnel_stages({(i.repo, i.number): verdict[i.key] for i in issues if i.key in verdict})
    counts = Counter(verdict.values())
    return {"considered": len(verdict), "closed_in_window": len(verdict) - counts.get("window", 0),
            **{stage: counts.get(stage, 0) for stage in ("window", "unresolved", "internal", "cve", "empty_title",
                                                          "noise", "pool")}}
