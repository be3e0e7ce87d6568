"""What every platform source offers the harvester, and helpers shared by the normalisers."""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Iterator, Protocol

from fixlore.core.model import Comment, Commit, Event, FileChange, Issue, Link, Pull, Repo
from fixlore.core.textclean import clean_text, strip_escapes
from fixlore.sources.responses import ApiError, HostDown, IssuesDisabled, NotFound

GONE = "410"          # an issue list answered so: the repo's issues are disabled (`IssuesDisabled`)


@dataclass
class IssueDetail:
    """Everything fetched for one issue beyond the list item."""
    comments: list[Comment] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    pulls: list[Pull] = field(default_factory=list)          # linked PRs as the issue endpoint shows them
    raw: dict[str, Any] = field(default_factory=dict)        # resource name -> payload as received
    # part (fixlore.rules.unread) -> the ApiError that kept it unread; the other parts are complete
    unread: dict[str, Any] = field(default_factory=dict)


@dataclass
class PullDetail:
    pull: Pull | None = None
    files: list[FileChange] = field(default_factory=list)
    commits: list[Commit] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)    # parent_kind "pull": conversation and review
    raw: dict[str, Any] = field(default_factory=dict)
    unread: dict[str, Any] = field(default_factory=dict)     # part -> ApiError, as on IssueDetail


def read_part(unread: dict[str, Any], part: str, fetch: Any) -> list[Any]:
    """``fetch()``, or ``[]`` with the part noted in ``unread`` when its endpoint cannot be read
    (an ``ApiError``: that resource only). Everything else (a refused token, an unreachable
    host, an interrupt) still ends the work it belongs to, and so does a host whose breaker has
    opened (``HostDown``): the harvest stops there rather than note every part of every item.

    A 404 (``NotFound``) is unread too, never an empty part: the item was just listed, so the
    platform documents no 404 for its comments or history; one says the endpoint cannot be read
    here (not served, GitCode's transient "project not found"), and read as empty it made a fixed
    issue look like one with no fix evidence."""
    try:
        return fetch()
    except HostDown:
        raise
    except NotFound as exc:
        unread[part] = ApiError(exc.endpoint, 404, exc.message)
        return []
    except ApiError as exc:
        unread[part] = exc
        return []


def issue_list(listing: Iterator[Issue]) -> Iterator[Issue]:
    """A repo's issue list as a source walks it, where a 410 Gone says the repo's issues are disabled
    (`IssuesDisabled`), never that the list could not be read. Its other failures (403, 404, 5xx) stay
    what they were: the repo's list unread, asked again next run."""
    try:
        yield from listing
    except HostDown:
        raise
    except ApiError as exc:
        if exc.status == GONE:
            raise IssuesDisabled(exc.endpoint, exc.status, exc.message) from None
        raise


def deleted_issue(source: "Source", issue: Issue, unread: dict[str, Any]) -> str:
    """Why ``issue`` is deleted on the platform, or "" when nothing says so for certain. Asked only when a
    detail part answered 410 (``unread``): then the issue itself is asked. GitHub answers a deleted issue
    410 Gone ("This issue was deleted"); the same status says "Issues are disabled for this repo", which
    GitHub undoes when they are enabled again, and a 404 may be a transfer or lost access (GitHub's "Get
    an issue"), GitCode's 404 a transient "project not found" (gitcode-api.md §6): none of those is a
    deletion. Any other answer leaves the parts unread, asked again next run: named, never hidden."""
    if not any(str(getattr(exc, "status", "")) == GONE for exc in unread.values()):
        return ""
    try:
        found = source.get_issue(issue.repo, issue.number)
    except HostDown:
        raise
    except ApiError as exc:
        return _says_gone(exc, (GONE,))
    return ""


_DISABLED = re.compile(r"\bdisabled\b|未开启|已关闭", re.IGNORECASE)


def _says_gone(exc: ApiError, statuses: tuple[str, ...]) -> str:
    """"HTTP <status> <message>" when `exc` answers one of `statuses` and is not "Issues are disabled" (a
    410 GitHub undoes when they are enabled again), else "": the one rule of both askers above and below."""
    gone = exc.status in statuses and not _DISABLED.search(exc.message or "")
    return f"HTTP {exc.status} {exc.message}".strip() if gone else ""


def left_the_list(source: "Source", repo: str, number: int) -> str:
    """Why issue `number` of `repo` is gone, or "": asked only of a stored live issue updated since the bound
    of a listing that ended without an error and did not carry it (an issue's update time only grows, so one
    on the platform is in that list). It is asked for by number: found, it stays (the list's silence alone
    says nothing certain); a 410 (not "Issues are disabled") or a 404 (GitCode's answer for a deleted issue)
    beside the list's silence is two words for one fact: deleted or moved away. No answer: it stays."""
    try:
        if source.get_issue(repo, number) is None:      # the client's answer to a 404
            return "left the issue list; HTTP 404"
    except HostDown:
        pass
    except NotFound as exc:
        return f"left the issue list; HTTP 404 {exc}".strip()
    except ApiError as exc:
        if said := _says_gone(exc, ("404", GONE)):
            return f"left the issue list; {said}"
    return ""


def left_the_listing(source: "Source", stored: Iterable[Issue], listed: set[int]) -> list[dict[str, Any]]:
    """{repo, number, why} of each stored live issue (`stored`: updated since the bound of a listing that
    ended without an error) the listing did not carry and that `left_the_list` says is gone. GitCode answers a
    transient 404 "project not found" for a whole project (gitcode-api.md §6), and a mark on an issue never
    updated again would not heal: so the 404s count only when the repo answers at the same time for an issue
    the listing carried (the control), or, with none listed, when the issue is asked again and gone again."""
    gone = [(i, why) for i in stored if i.number not in listed and (why := left_the_list(source, i.repo, i.number))]
    if gone and not _repo_answers(source, gone[0][0].repo, listed):
        return []
    return [{"repo": i.repo, "number": i.number, "why": why} for i, why in gone
            if listed or left_the_list(source, i.repo, i.number)]


def _repo_answers(source: "Source", repo: str, listed: set[int]) -> bool:
    """True when `repo` answers for the issue of `listed` with the highest number (True with none listed:
    the caller then asks each issue twice); any failure to answer is False."""
    if not listed:
        return True
    try:
        return source.get_issue(repo, max(listed)) is not None
    except (HostDown, NotFound, ApiError):
        return False


class Source(Protocol):
    """A code-hosting platform seen through its REST API (GitCode, GitHub)."""

    platform: str

    def list_repos(self, org: str) -> list[Repo]: ...

    def iter_issues(self, repo: str, updated_since: datetime | None) -> Iterator[Issue]:
        """Issues (never PRs) by ``updated_at`` descending, down to ``updated_since``."""

    def issue_detail(self, issue: Issue) -> IssueDetail: ...

    def get_issue(self, repo: str, number: int) -> Issue | None:
        """One issue as the platform shows it now (None when it does not exist)."""

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
    """Every platform string passes here: cleaned once, at the edge (fixlore.core.textclean): terminal
    escape sequences removed whole (not only their ESC), then the control characters."""
    return "" if value is None else clean_text(strip_escapes(str(value)))


def login_of(user: Any) -> str:
    if isinstance(user, dict):
        return as_str(user.get("login") or user.get("username") or user.get("name"))
    return as_str(user) if isinstance(user, str) else ""


def assignees_of(raw: dict[str, Any]) -> list[str]:
    """The logins an issue is assigned to: its `assignees` list, else its single `assignee`
    (both platforms send both; either may be null), in order, each once."""
    people = raw.get("assignees") if isinstance(raw.get("assignees"), list) else []
    logins = [login_of(u) for u in [*people, raw.get("assignee")]]
    return list(dict.fromkeys(x for x in logins if x))


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


class NewestFirst:
    """Proves, page by page, that a list asked for newest-updated-first really came that way.

    A server may ignore the sort it was asked for (GitCode orders issue lists only by the form it
    understands, else by creation). A page that merely looks sorted proves nothing: the order must
    hold within every page and across each page boundary, and some page must show it is not the
    creation order (an item updated later yet created earlier than the one after it). Until then
    the list is walked on; once the order breaks, it is walked to its end.
    """

    def __init__(self) -> None:
        self.broken = False
        self.distinct = False              # seen evidence that this is not creation order
        self._last: tuple[datetime | None, datetime | None] | None = None

    @property
    def proven(self) -> bool:
        return self.distinct and not self.broken

    def page(self, updated: list[datetime | None], created: list[datetime | None] | None = None) -> None:
        pairs = list(zip(updated, created or [None] * len(updated)))
        if self._last is not None:
            pairs.insert(0, self._last)
        for (u1, c1), (u2, c2) in zip(pairs, pairs[1:]):
            if u1 is not None and u2 is not None:
                if u1 < u2:
                    self.broken = True
                elif c1 is None or c2 is None or c1 < c2:
                    self.distinct = True   # newer update, older creation: sorted by update, not creation
        if pairs:
            self._last = pairs[-1]

    def past(self, updated: list[datetime | None], bound: datetime | None) -> bool:
        """True when the list may stop here: proven newest-first and already older than ``bound``."""
        return bound is not None and self.proven and any(t is not None and t < bound for t in updated)
