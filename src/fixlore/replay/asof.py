"""A world as it stood at a moment: everything that happened after it hidden.

A world is a snapshot taken at ``snapshot_at``; a digest series is tested by replaying the
same world at two earlier moments (edition 1 as of one date, edition 2 as of a later one).
The functions here take one payload (in the platform's own shape) and a moment and return
the payload as the API would have answered then, or None when the object did not exist
yet. They never change their input.

What "as of T" means, object by object:
- an issue, PR, comment, event or commit created after T does not exist;
- an issue's state is the last close/reopen event at or before T (without such events: closed
  when its close time is at or before T); an issue open at T has no close time;
- a PR merged after T is open at T (no merge time); one closed unmerged after T is open too;
- ``updated_at`` later than T falls back to the latest thing that happened at or before T;
- an issue's comment count counts only the comments that exist at T.

``WorldAsOf`` is a ``World`` whose every read goes through these functions, so the replay
server and anything else reading a world serve it unchanged, just earlier.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any, Iterable

from fixlore.core.timeutil import parse_time
from fixlore.replay.world import World

_CLOSE_ACTIONS = {"closed", "close"}
_REOPEN_ACTIONS = {"reopened", "reopen"}


def item_time(item: Any) -> datetime | None:
    """When a comment, event, commit or timeline item happened (None when it says nothing)."""
    if not isinstance(item, dict):
        return None
    for key in ("created_at", "submitted_at", "issue_created_at"):
        when = parse_time(item.get(key))
        if when is not None:
            return when
    commit = item.get("commit") if isinstance(item.get("commit"), dict) else item
    for who in ("committer", "author"):
        person = commit.get(who) if isinstance(commit, dict) else None
        if isinstance(person, dict):
            when = parse_time(person.get("date"))
            if when is not None:
                return when
    return None


def items_as_of(items: Iterable[Any] | None, as_of: datetime) -> list[Any] | None:
    """The items that existed at ``as_of``; an item without any time is kept (nothing says it is later)."""
    if items is None:
        return None
    out = []
    for item in items:
        when = item_time(item)
        if when is None or when <= as_of:
            out.append(item)
    return out


def _action(item: dict) -> str:
    return str(item.get("action_type") or item.get("event") or item.get("action") or "").lower()


def _blank(raw: dict, key: str, platform: str) -> None:
    if key in raw:
        raw[key] = "" if platform == "gitcode" else None


def _latest(times: Iterable[datetime | None], as_of: datetime) -> datetime | None:
    kept = [t for t in times if t is not None and t <= as_of]
    return max(kept) if kept else None


def _cap_updated(raw: dict, as_of: datetime, fallback: Iterable[datetime | None]) -> None:
    updated = parse_time(raw.get("updated_at"))
    if updated is not None and updated > as_of:
        latest = _latest(fallback, as_of)
        raw["updated_at"] = latest.isoformat() if latest else raw.get("created_at")


def issue_as_of(issue: dict | None, as_of: datetime, platform: str = "gitcode", *,
                events: list | None = None, comments: list | None = None) -> dict | None:
    """The issue at ``as_of`` (a copy), or None when it was created later. ``events`` and
    ``comments`` are the issue's own arrays as stored (unfiltered); they decide its state and
    its last update when given."""
    if not isinstance(issue, dict):
        return issue
    created = parse_time(issue.get("created_at") or issue.get("issue_created_at"))
    if created is not None and created > as_of:
        return None
    raw = copy.deepcopy(issue)
    close_key = "finished_at" if platform == "gitcode" and "finished_at" in raw else "closed_at"
    closed_at = parse_time(raw.get(close_key))
    toggles = sorted(((item_time(e), _action(e)) for e in (events or []) if isinstance(e, dict)
                      and _action(e) in _CLOSE_ACTIONS | _REOPEN_ACTIONS and item_time(e) is not None),
                     key=lambda te: te[0])
    if toggles:
        before = [(t, a) for t, a in toggles if t <= as_of]
        closed_then = bool(before) and before[-1][1] in _CLOSE_ACTIONS
        if closed_then and (closed_at is None or closed_at > as_of):
            raw["state"] = "closed"                         # closed then, reopened (or closed again) later
            raw[close_key] = before[-1][0].isoformat()
    else:
        closed_then = str(raw.get("state", "")).lower() == "closed" and closed_at is not None and closed_at <= as_of
    if not closed_then:
        raw["state"] = "open"
        for key in ("finished_at", "closed_at"):
            _blank(raw, key, platform)
        for key in ("state_reason", "closed_by"):
            if key in raw:
                raw[key] = None
    if isinstance(raw.get("pull_request"), dict):          # GitHub: the issue form of a PR
        merged = parse_time(raw["pull_request"].get("merged_at"))
        if merged is not None and merged > as_of:
            raw["pull_request"]["merged_at"] = None
    kept_comments = items_as_of(comments, as_of)
    if kept_comments is not None and isinstance(raw.get("comments"), int):
        raw["comments"] = len(kept_comments)
    close_now = parse_time(raw.get(close_key)) if closed_then else None
    _cap_updated(raw, as_of, [created, close_now, *(item_time(c) for c in comments or []),
                              *(item_time(e) for e in events or [])])
    return raw


def pull_as_of(pull: dict | None, as_of: datetime, platform: str = "gitcode") -> dict | None:
    """The PR at ``as_of`` (a copy), or None when it was opened later."""
    if not isinstance(pull, dict):
        return pull
    created = parse_time(pull.get("created_at"))
    if created is not None and created > as_of:
        return None
    raw = copy.deepcopy(pull)
    merged = parse_time(raw.get("merged_at"))
    closed = parse_time(raw.get("closed_at"))
    merged_then = merged is not None and merged <= as_of
    if merged is not None and not merged_then:
        _blank(raw, "merged_at", platform)
        if "merged" in raw and raw["merged"] is not None:
            raw["merged"] = False
        if "merged_by" in raw:
            raw["merged_by"] = None
    if not merged_then and str(raw.get("state", "")).lower() in ("merged", "closed") \
            and not (closed is not None and closed <= as_of and merged is None):
        raw["state"] = "open"
    if closed is not None and closed > as_of:
        _blank(raw, "closed_at", platform)
    _cap_updated(raw, as_of, [created, merged if merged_then else None,
                              closed if closed is not None and closed <= as_of else None])
    return raw


def pulls_as_of(pulls: list | None, as_of: datetime, platform: str = "gitcode") -> list | None:
    if pulls is None:
        return None
    return [p for p in (pull_as_of(x, as_of, platform) for x in pulls) if p is not None]


def issues_as_of(issues: list | None, as_of: datetime, platform: str = "gitcode") -> list | None:
    """Issue objects embedded in another payload (a PR's issues): no events to read, so their
    state comes from their own close time."""
    if issues is None:
        return None
    return [i for i in (issue_as_of(x, as_of, platform) for x in issues) if i is not None]


class WorldAsOf(World):
    """``World`` as of a moment: every payload read goes through the functions above."""

    def __init__(self, path: Any, as_of: datetime, *, eager: bool = False) -> None:
        super().__init__(path, eager=eager)
        if as_of.tzinfo is None:
            raise ValueError("as_of must carry a timezone")
        self.as_of = as_of
        self.snapshot_at = min(self.snapshot_at, as_of)
        self._as_of_cache: dict[tuple, dict | None] = {}

    def __repr__(self) -> str:
        return f"WorldAsOf({str(self.path)!r}, as_of={self.as_of.isoformat()!r})"

    def _raw_issue_file(self, owner: str, repo: str, number: int, kind: str) -> list | None:
        return super().issue_file(owner, repo, number, kind)

    def org_repos(self, org: str) -> list[dict] | None:
        listing = super().org_repos(org)
        if listing is None:
            return None
        return [r for r in listing if not isinstance(r, dict) or (parse_time(r.get("created_at")) or self.as_of) <= self.as_of]

    def issue(self, owner: str, repo: str, number: int) -> dict | None:
        key = ("issue", owner, repo, int(number))
        with self._lock:
            if key in self._as_of_cache:
                return self._as_of_cache[key]
        raw = super().issue(owner, repo, number)
        if raw is not None:
            raw = issue_as_of(raw, self.as_of, self.platform,
                              events=self._raw_issue_file(owner, repo, number, "events"),
                              comments=self._raw_issue_file(owner, repo, number, "comments"))
        with self._lock:
            self._as_of_cache[key] = raw
        return raw

    def pull(self, owner: str, repo: str, number: int) -> dict | None:
        key = ("pull", owner, repo, int(number))
        with self._lock:
            if key in self._as_of_cache:
                return self._as_of_cache[key]
        raw = pull_as_of(super().pull(owner, repo, number), self.as_of, self.platform)
        with self._lock:
            self._as_of_cache[key] = raw
        return raw

    def issue_numbers(self, owner: str, repo: str) -> list[int]:
        return [n for n in super().issue_numbers(owner, repo) if self.issue(owner, repo, n) is not None]

    def pull_numbers(self, owner: str, repo: str) -> list[int]:
        return [n for n in super().pull_numbers(owner, repo) if self.pull(owner, repo, n) is not None]

    def issue_file(self, owner: str, repo: str, number: int, kind: str) -> list | None:
        items = super().issue_file(owner, repo, number, kind)
        if kind == "pulls":
            return pulls_as_of(items, self.as_of, self.platform)
        return items_as_of(items, self.as_of)

    def pull_file(self, owner: str, repo: str, number: int, kind: str) -> list | None:
        items = super().pull_file(owner, repo, number, kind)
        if kind == "issues":
            return issues_as_of(items, self.as_of, self.platform)
        if kind == "files":
            return items
        return items_as_of(items, self.as_of)


def open_world(path: Any, as_of: datetime | None = None, *, eager: bool = False) -> World:
    """The world at ``path``, as of ``as_of`` when one is given."""
    return WorldAsOf(path, as_of, eager=eager) if as_of is not None else World(path, eager=eager)
