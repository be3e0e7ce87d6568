"""The ledger as the edition plan reads it (fixlore.series.plan.LedgerView)."""

from __future__ import annotations

from datetime import datetime

from fixlore.core.enums import FunnelStage
from fixlore.series.plan import LedgerView
from fixlore.store import Store
from fixlore.store.ledger import Ledger


def ledger_view(ledger: Ledger, series: str, before: int | None = None) -> LedgerView:
    """What the editions of `series` (those numbered below `before`, when given) published,
    dropped and left in the backlog."""
    editions = [e for e in ledger.editions(series) if before is None or e["number"] < before]
    until = {e["number"]: e["window_until"] for e in editions}
    view = LedgerView()
    for r in ledger.rows(series):
        if r["edition"] not in until:
            continue
        key = f"{r['repo']}#{r['number']}"
        if r["published"]:
            view.published[key] = r["row"]
            view.published_in.setdefault(key, []).append(r["edition"])
            view.published_until[key] = until[r["edition"]]
        elif (r["row"] or {}).get("funnel") == FunnelStage.ANALYSIS:
            view.dropped.add(key)
            view.dropped_rows[key] = r["row"]           # rows come by edition: the last drop wins
    if editions:
        view.backlog = [f"{b['repo']}#{b['number']}" for b in editions[-1]["backlog"] or []]
    return view


def issue_states(store: Store, keys) -> dict[str, tuple[str, datetime | None]]:
    """Case key -> (state, closed_at) of the issue as the store has it now."""
    repos = sorted({k.rsplit("#", 1)[0] for k in keys})
    if not repos:
        return {}
    wanted = set(keys)
    return {i.key: (i.state, i.closed_at) for i in store.issues(repos) if i.key in wanted}
