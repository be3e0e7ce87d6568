"""What every platform source offers the harvester, and helpers shared by the normalisers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterator, Protocol

from fixlore.model import Comment, Commit, Event, FileChange, Issue, Link, Pull, Repo
from fixlore.textclean import clean_text


@dataclass
class IssueDetail:
    """Everything fetched for one issue beyond the list item."""
    comments: list[Comment] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    pulls: list[Pull] = field(default_factory=list)          # linked PRs as the issue endpoint shows them
    raw: dict[str, Any] = field(default_factory=dict)        # resource name -> payload as received


@dataclass
class PullDetail:
    pull: Pull | None = None
    files: list[FileChange] = field(default_factory=list)
    commits: list[Commit] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)


class Source(Protocol):
    """A code-hosting platform seen through its REST API (GitCode, GitHub)."""

    platform: str

    def list_repos(self, org: str) -> list[Repo]: ...

    def iter_issues(self, repo: str, updated_since: datetime | None) -> Iterator[Issue]:
        """Issues (never PRs) by ``updated_at`` descending, down to ``updated_since``."""

    def issue_detail(self, issue: Issue) -> IssueDetail: ...

    def iter_pulls(self, repo: str, updated_since: datetime | None) -> Iterator[Pull]: ...

    def get_pull(self, repo: str, number: int) -> Pull | None: ...

    def pull_detail(self, pull: Pull) -> PullDetail: ...


# ---------------------------------------------------------------------------
# Normalising helpers


def as_int(value: Any, default: int = 0) -> int:
    """Numbers arrive as ints, digit strings, or "#12"; anything else gives ``default``."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        text = value.strip().lstrip("#")
        if text.lstrip("-").isdigit():
            return int(text)
    return default


def as_str(value: Any) -> str:
    """Every platform string passes here: cleaned once, at the edge (fixlore.textclean)."""
    return "" if value is None else clean_text(str(value))


def login_of(user: Any) -> str:
    if isinstance(user, dict):
        return as_str(user.get("login") or user.get("username") or user.get("name"))
    return as_str(user) if isinstance(user, str) else ""


def label_names(labels: Any) -> list[str]:
    names = []
    for label in labels or []:
        if isinstance(label, dict):
            if label.get("name"):
                names.append(as_str(label["name"]))
        elif label:
            names.append(as_str(label))
    return names


def sub(obj: Any, *keys: str) -> Any:
    """``obj[k1][k2]...`` where any level may be missing or null."""
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def is_descending(times: list[datetime | None]) -> bool:
    known = [t for t in times if t is not None]
    return all(a >= b for a, b in zip(known, known[1:]))
