"""Platform-neutral domain objects.

Every source (GitCode, GitHub, a replayed world) normalises its payloads into these
objects; every later stage (funnel, link, kb, analyse, compose) reads only these.
Times are timezone-aware ``datetime`` values (``None`` when the platform left them
unset: ``""``, null or a missing key). ``raw`` keeps the platform's own JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# Normalised issue close reasons (GitHub state_reason, GitCode issue_state / labels).
REASON_COMPLETED = "completed"
REASON_NOT_PLANNED = "not_planned"
REASON_DUPLICATE = "duplicate"
REASON_REJECTED = "rejected"
REASON_UNKNOWN = ""

# Normalised event actions.
EV_CLOSED = "closed"
EV_REOPENED = "reopened"
EV_MERGED = "merged"
EV_LINKED = "linked"                # platform issue<->PR link made (GitCode add_issue_mr_link)
EV_CROSS_REF = "cross_referenced"   # GitHub timeline cross-reference
EV_REFERENCED = "referenced"        # GitHub: a commit referenced the issue
EV_COMMENTED = "commented"
EV_LABELED = "labeled"
EV_OTHER = "other"


@dataclass(slots=True)
class Repo:
    platform: str            # "gitcode" | "github"
    full_name: str           # "owner/path" as used in API paths and web URLs
    owner: str
    name: str                # the path part
    display_name: str = ""
    default_branch: str = ""
    html_url: str = ""
    description: str = ""
    updated_at: datetime | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(slots=True)
class Issue:
    repo: str                # Repo.full_name
    number: int
    title: str
    body: str
    state: str               # "open" | "closed"
    created_at: datetime | None
    updated_at: datetime | None
    closed_at: datetime | None          # GitCode finished_at, GitHub closed_at
    author: str = ""
    state_reason: str = REASON_UNKNOWN  # REASON_*
    workflow_state: str = ""            # GitCode issue_state ("DONE", "已完成", ...)
    issue_type: str = ""
    labels: list[str] = field(default_factory=list)
    comments_count: int = 0
    html_url: str = ""
    closed_by: str = ""                 # from the issue (GitHub) or its events
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def key(self) -> str:
        return f"{self.repo}#{self.number}"


@dataclass(slots=True)
class Pull:
    repo: str                # the target (base) repository
    number: int
    title: str
    body: str
    state: str               # "open" | "closed" | "merged" (GitHub merged PRs normalised to "merged")
    created_at: datetime | None
    updated_at: datetime | None
    merged_at: datetime | None
    closed_at: datetime | None
    author: str = ""
    head_ref: str = ""       # source branch
    head_repo: str = ""      # fork full name, if any
    base_ref: str = ""       # target branch
    merge_commit_sha: str = ""
    html_url: str = ""
    labels: list[str] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def merged(self) -> bool:
        """Merged only when the platform says so *and* gives the time (GitCode's `merged` is null)."""
        return self.state == "merged" and self.merged_at is not None

    @property
    def key(self) -> str:
        return f"{self.repo}!{self.number}"


@dataclass(slots=True)
class Comment:
    repo: str
    parent_kind: str         # "issue" | "pull"
    parent_number: int
    id: str
    author: str
    body: str
    created_at: datetime | None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(slots=True)
class Event:
    """One entry of an issue's or PR's history (GitCode operate_logs, GitHub timeline)."""
    repo: str
    parent_kind: str         # "issue" | "pull"
    parent_number: int
    id: str
    action: str              # EV_*
    actor: str
    created_at: datetime | None
    detail: dict[str, Any] = field(default_factory=dict)   # e.g. {"pull": 795, "pull_repo": "o/r", "commit_id": "..."}
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(slots=True)
class Link:
    """A platform-recorded issue<->PR link (not a text mention)."""
    issue_repo: str
    issue_number: int
    pull_repo: str
    pull_number: int
    source: str              # "issue_pulls" | "pull_issues" | "timeline" | "operate_log"


@dataclass(slots=True)
class FileChange:
    repo: str
    pull_number: int
    filename: str
    status: str = ""
    additions: int = 0
    deletions: int = 0
    patch: str = ""


@dataclass(slots=True)
class Commit:
    repo: str
    pull_number: int
    sha: str
    message: str
    author: str = ""
    date: datetime | None = None


@dataclass(slots=True)
class Corpus:
    """Everything a run knows, as plain objects: what the store loads and pure stages read."""
    platform: str = "gitcode"
    repos: list[Repo] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    pulls: list[Pull] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    files: list[FileChange] = field(default_factory=list)
    commits: list[Commit] = field(default_factory=list)
