"""Small hand-built domain objects for the funnel/link tests."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fixlore.core.model import Comment, Event, FileChange, Issue, Link, Pull

TZ = timezone(timedelta(hours=8))
SINCE = datetime(2026, 9, 17, tzinfo=TZ)
REPO = "Ascend/toolkit"


def t(day: int, hour: int = 10, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2026, 9, day, hour, minute, second, tzinfo=TZ)


def issue(number: int, title: str = "quantization fails on W8A8", *, body: str = "steps to reproduce: run it",
          closed: datetime | None = None, repo: str = REPO, author: str = "alice", state: str | None = None,
          updated: datetime | None = None, created: datetime | None = None, **kw) -> Issue:
    return Issue(repo=repo, number=number, title=title, body=body,
                 state=state or ("closed" if closed else "open"),
                 created_at=created or t(1), updated_at=updated or closed or t(18), closed_at=closed,
                 author=author, html_url=f"https://gitcode.com/{repo}/issues/{number}", **kw)


def pull(number: int, title: str = "fix quantization", *, body: str = "", merged: datetime | None = None,
         state: str | None = None, repo: str = REPO, head_ref: str = "dev", base_ref: str = "master",
         closed: datetime | None = None, author: str = "bob", **kw) -> Pull:
    return Pull(repo=repo, number=number, title=title, body=body,
                state=state or ("merged" if merged else "open"), created_at=t(2), updated_at=merged or t(18),
                merged_at=merged, closed_at=closed, author=author, head_ref=head_ref, base_ref=base_ref,
                html_url=f"https://gitcode.com/{repo}/merge_requests/{number}", **kw)


def comment(number: int, body: str, *, author: str = "maint", at: datetime | None = None, repo: str = REPO,
            cid: str | None = None, kind: str = "issue") -> Comment:
    return Comment(repo=repo, parent_kind=kind, parent_number=number, id=cid or f"c{number}-{abs(hash(body)) % 10**6}",
                   author=author, body=body, created_at=at or t(17))


def event(number: int, action: str, *, actor: str = "maint", at: datetime | None = None, repo: str = REPO,
          kind: str = "issue", **detail) -> Event:
    return Event(repo=repo, parent_kind=kind, parent_number=number, id=f"e{number}-{action}-{actor}",
                 action=action, actor=actor, created_at=at, detail=dict(detail))


def link(issue_number: int, pull_number: int, repo: str = REPO, pull_repo: str | None = None,
         source: str = "issue_pulls") -> Link:
    return Link(issue_repo=repo, issue_number=issue_number, pull_repo=pull_repo or repo,
                pull_number=pull_number, source=source)


def files(pull_number: int, *names: str, repo: str = REPO) -> list[FileChange]:
    return [FileChange(repo=repo, pull_number=pull_number, filename=n, status="modified", additions=3) for n in names]
