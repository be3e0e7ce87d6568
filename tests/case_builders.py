"""Small builders of domain objects shared by the digest tests (one cluster repo, +08:00 times)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fixlore.core.model import FixRef
from fixlore.rules.funnel.rank import ValueInputs

TZ = timezone(timedelta(hours=8))
REPO = "o/cluster"


def at(day: int, hh: int = 10) -> datetime:
    return datetime(2026, 9, day, hh, tzinfo=TZ)


def pr(number: int, state: str = "merged", day: int = 15) -> FixRef:
    """A fix PR of REPO, merged on `day` unless `state` says otherwise."""
    return FixRef(repo=REPO, number=number, role="fix", state=state, merged_at=at(day) if state == "merged" else None,
                  url=f"https://gitcode.com/{REPO}/merge_requests/{number}", base_ref="master")


def value_inputs(**kw) -> ValueInputs:
    """A thin report with nothing said about it; `kw` sets what a test is about."""
    base = dict(title="crash when loading checkpoint", body="", author="rep", answer_chars=0, human_comments=0,
                reporter_last="", fix_merged=False, fix_strong=False, fix_pending=False, close_explained=False,
                answered=False)
    base.update(kw)
    return ValueInputs(**base)
