"""Declarative specs for hand-written cases: what happened, when, and what a correct run concludes."""
from __future__ import annotations

from dataclasses import dataclass, field


def T(stamp: str) -> str:
    """'09-08 10:12:03' (2026, Beijing time) -> GitCode ISO string."""
    if len(stamp) == 14:  # MM-DD HH:MM:SS
        return f"2026-{stamp[:5]}T{stamp[6:]}+08:00"
    if len(stamp) == 19:  # YYYY-MM-DD HH:MM:SS
        return f"{stamp[:10]}T{stamp[11:]}+08:00"
    raise ValueError(stamp)


@dataclass
class PR:
    repo: str
    number: int
    title: str
    body: str
    author: str
    branch: str
    created: str
    state: str = "merged"            # merged | open | closed
    merged: str = ""
    closed: str = ""
    merger: str = ""
    base: str = "master"
    files: list = field(default_factory=list)      # [(path, unified diff body)]
    commits: list = field(default_factory=list)    # [message]
    links: list = field(default_factory=list)      # issue numbers linked on the platform
    comments: list = field(default_factory=list)   # [(time, user, body)]
    labels: list = field(default_factory=list)


@dataclass
class Case:
    repo: str
    number: int
    title: str
    body: str
    author: str
    created: str
    closed: str
    closer: str
    issue_type: str = "缺陷"
    labels: list = field(default_factory=list)
    comments: list = field(default_factory=list)   # [(time, user, body)]
    prs: list = field(default_factory=list)        # PR objects this case brings into the world
    reopen: list = field(default_factory=list)     # [(closed_time, closer, reopened_time, reopener)]
    resolved_at: str = ""                          # time the state was set to "resolved" (stale flow)
    stale_notice: str = ""                         # time of a bot stale notice comment
    bot_close: bool = False                        # closed by the stale robot (adds its close comment)
    # truth
    funnel: str = "selected"
    drop_reason: str = ""
    fix: list = field(default_factory=list)        # [(repo, number, role)]
    evidence: list = field(default_factory=list)
    timing: str = ""
    traps: list = field(default_factory=list)
    kb: list = field(default_factory=list)
    theme: str = ""
