"""GitHub REST endpoints (no path prefix), computed from a world's single objects.

The issue list includes PRs (their issue form, with a ``pull_request`` key), defaults to
``state=open``, pages 30 by default (max 100) and announces pages in a ``Link`` header.
List items leave out the fields GitHub only sends on the single object (``closed_by`` on
issues; ``merged`` and the counters on pulls).
"""

from __future__ import annotations

from typing import Callable
from urllib.parse import urlencode

from fixlore.replay.listing import (
    Answer,
    Query,
    drop_keys,
    filter_labels,
    filter_time,
    number_key,
    page_window,
    paginate,
    sort_by,
    time_key,
    total_pages,
)
from fixlore.replay.world import World

PREFIX = ""
DEFAULT_PER_PAGE = 30
MAX_PER_PAGE = 100
DOCS = "https://docs.github.com/rest"

_ISSUE_SINGLE_ONLY = ("closed_by",)
_PULL_SINGLE_ONLY = ("merged", "mergeable", "mergeable_state", "merged_by", "rebaseable", "comments",
                     "review_comments", "maintainer_can_modify", "commits", "additions", "deletions", "changed_files")
# Timeline entries that /issues/{n}/events does not return.
_TIMELINE_ONLY = {"commented", "cross-referenced", "committed", "reviewed", "line-commented", "commit-commented"}

UNAUTHORIZED_BODY = {"message": "Bad credentials", "documentation_url": DOCS, "status": "401"}
PRIMARY_LIMIT_BODY = {"message": "API rate limit exceeded. (But here's the good news: Authenticated requests get a "
                                 "higher rate limit. Check out the documentation for more details.)",
                      "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}
SECONDARY_LIMIT_BODY = {"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
                        "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}


def not_found() -> Answer:
    return Answer(404, {"message": "Not Found", "documentation_url": DOCS, "status": "404"})


def link_header(base_url: str, q: Query, page: int, last: int) -> str:
    """RFC 8288 links as GitHub sends them: next/last while more pages follow, first/prev after page 1."""
    def url(p: int) -> str:
        params = dict(q.values)
        params["page"] = str(p)
        return f"<{base_url}?{urlencode(params)}>"

    parts = []
    if page < last:
        parts += [f'{url(page + 1)}; rel="next"', f'{url(last)}; rel="last"']
    if page > 1:
        parts += [f'{url(1)}; rel="first"', f'{url(min(page - 1, max(last, 1)))}; rel="prev"']
    return ", ".join(parts)


def paged(items: list, q: Query, self_url: str) -> Answer:
    page, per_page = page_window(q, DEFAULT_PER_PAGE, MAX_PER_PAGE)
    last = total_pages(len(items), per_page)
    headers = {}
    link = link_header(self_url, q, page, last)
    if link:
        headers["Link"] = link
    return Answer(200, paginate(items, page, per_page), headers, page=page,
                  page_of=lambda p: paginate(items, p, per_page))


# Handlers get the absolute URL of the request path (for Link headers) as `self_url`.

def org_repos(world: World, q: Query, self_url: str, org: str) -> Answer:
    listing = world.org_repos(org)
    if listing is None:
        return not_found()
    kind = q.get("type", "all")
    if kind == "public":
        listing = [r for r in listing if not r.get("private")]
    elif kind == "private":
        listing = [r for r in listing if r.get("private")]
    sort = q.get("sort", "created")
    if sort == "full_name":
        items = sorted(listing, key=lambda r: str(r.get("full_name", "")).lower(), reverse=q.get("direction", "asc") == "desc")
    else:
        field = {"created": "created_at", "updated": "updated_at", "pushed": "pushed_at"}.get(sort, "created_at")
        items = sort_by(listing, time_key(field), q.get("direction", "desc") != "asc", lambda r: r.get("id") or 0)
    return paged(items, q, self_url)


def repo(world: World, q: Query, self_url: str, owner: str, repo: str) -> Answer:
    obj = world.repo(owner, repo)
    return Answer(200, obj) if obj is not None else not_found()


def issues(world: World, q: Query, self_url: str, owner: str, repo: str) -> Answer:
    canon = world.canonical(owner, repo)
    if canon is None:
        return not_found()
    items = world.issues(*canon)
    state = q.get("state", "open")
    if state in ("open", "closed"):
        items = [it for it in items if it.get("state") == state]
    items = filter_time(items, "updated_at", q.get("since"), None)
    items = filter_labels(items, q.get("labels"))
    if q.get("creator"):
        items = [it for it in items if (it.get("user") or {}).get("login") == q.get("creator")]
    sort = q.get("sort", "created")
    desc = q.get("direction", "desc") != "asc"
    if sort == "comments":
        items = sort_by(items, lambda it: int(it.get("comments") or 0), desc, number_key)
    else:
        items = sort_by(items, time_key("updated_at" if sort == "updated" else "created_at"), desc, number_key)
    return paged([drop_keys(it, _ISSUE_SINGLE_ONLY) for it in items], q, self_url)


def issue(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    canon = world.canonical(owner, repo)
    obj = world.issue(*canon, int(number)) if canon and number.isdigit() else None
    return Answer(200, obj) if obj is not None else not_found()


def _issue_file(world: World, owner: str, repo: str, number: str, kind: str) -> list | None:
    canon = world.canonical(owner, repo)
    if canon is None or not number.isdigit() or world.issue(*canon, int(number)) is None:
        return None
    return world.issue_file(*canon, int(number), kind) or []


def issue_comments(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    items = _issue_file(world, owner, repo, number, "comments")
    if items is None:
        return not_found()
    items = filter_time(items, "updated_at", q.get("since"), None)
    return paged(items, q, self_url)


def issue_timeline(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    items = _issue_file(world, owner, repo, number, "events")
    return not_found() if items is None else paged(items, q, self_url)


def issue_events(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    items = _issue_file(world, owner, repo, number, "events")
    if items is None:
        return not_found()
    return paged([e for e in items if e.get("event") not in _TIMELINE_ONLY], q, self_url)


def _popularity(p: dict) -> int:
    return int(p.get("comments") or 0) + int(p.get("review_comments") or 0)


def pulls(world: World, q: Query, self_url: str, owner: str, repo: str) -> Answer:
    canon = world.canonical(owner, repo)
    if canon is None:
        return not_found()
    items = world.pulls(*canon)
    state = q.get("state", "open")
    if state in ("open", "closed"):
        items = [p for p in items if p.get("state") == state]
    if q.get("base"):
        items = [p for p in items if (p.get("base") or {}).get("ref") == q.get("base")]
    if q.get("head"):
        items = [p for p in items if (p.get("head") or {}).get("label") == q.get("head")]
    sort = q.get("sort", "created")
    # GitHub: "desc when sort is created or not specified, otherwise asc".
    desc = q.get("direction", "desc" if sort == "created" else "asc") == "desc"
    if sort == "updated":
        items = sort_by(items, time_key("updated_at"), desc, number_key)
    elif sort == "popularity":
        items = sort_by(items, _popularity, desc, number_key)
    elif sort == "long-running":
        # Age of the PR: the oldest is the longest-running, so "desc" puts it first.
        items = sort_by(items, time_key("created_at"), not desc, number_key)
    else:
        items = sort_by(items, time_key("created_at"), desc, number_key)
    return paged([drop_keys(p, _PULL_SINGLE_ONLY) for p in items], q, self_url)


def pull(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    canon = world.canonical(owner, repo)
    obj = world.pull(*canon, int(number)) if canon and number.isdigit() else None
    return Answer(200, obj) if obj is not None else not_found()


def _pull_sub(kind: str) -> Callable[..., Answer]:
    def handler(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
        canon = world.canonical(owner, repo)
        if canon is None or not number.isdigit() or world.pull(*canon, int(number)) is None:
            return not_found()
        return paged(world.pull_file(*canon, int(number), kind) or [], q, self_url)
    return handler


ROUTES: list[tuple[str, Callable[..., Answer]]] = [
    ("/orgs/{org}/repos", org_repos),
    ("/repos/{owner}/{repo}", repo),
    ("/repos/{owner}/{repo}/issues", issues),
    ("/repos/{owner}/{repo}/issues/{number}", issue),
    ("/repos/{owner}/{repo}/issues/{number}/comments", issue_comments),
    ("/repos/{owner}/{repo}/issues/{number}/timeline", issue_timeline),
    ("/repos/{owner}/{repo}/issues/{number}/events", issue_events),
    ("/repos/{owner}/{repo}/pulls", pulls),
    ("/repos/{owner}/{repo}/pulls/{number}", pull),
    ("/repos/{owner}/{repo}/pulls/{number}/files", _pull_sub("files")),
    ("/repos/{owner}/{repo}/pulls/{number}/commits", _pull_sub("commits")),
    ("/repos/{owner}/{repo}/pulls/{number}/comments", _pull_sub("comments")),
]
