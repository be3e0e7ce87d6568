"""Small builders of domain objects shared by the digest tests (one cluster repo, +08:00 times)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fixlore.core.model import FixRef

TZ = timezone(timedelta(hours=8))
REPO = "o/cluster"


def at(day: int, hh: int = 10) -> datetime:
    return datetime(2026, 9, day, hh, tzinfo=TZ)


def pr(number: int, state: str = "merged", day: int = 15) -> FixRef:
    """A fix PR of REPO, merged on `day` unless `state` says otherwise."""
    return FixRef(repo=REPO, number=number, role="fix", state=state, merged_at=at(day) if state == "merged" else None,
                  url=f"https://gitcode.com/{REPO}/merge_requests/{number}", base_ref="master")
