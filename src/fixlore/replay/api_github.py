"""GitHub REST endpoints (no path prefix, or /api/v3 as on GitHub Enterprise), computed from a world's single objects.

The issue list includes PRs (their issue form, with a ``pull_request`` key), defaults to
``state=open``, pages 30 by default (max 100) and announces pages in a ``Link`` header.
List items leave out the fields GitHub only sends on the single object (``closed_by`` on
issues; ``merged`` and the counters on pulls).

It is over 400 lines because it is one small function per GitHub endpoint the harvester and
the probe use, about forty of them; none of them is long.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable
from urllib.parse import unquote, urlencode

from fixlore.replay import github_shape as shape
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
# GitHub Enterprise Server serves the same API under this prefix; clients configured for it use it.
ENTERPRISE_PREFIX = "/api/v3"
RATE_LIMIT_ROUTE = "/rate_limit"
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
# A repository taken down under the DMCA answers 451 on every endpoint (docs.github.com REST: 451 on repository
# endpoints; the block object as GitHub sends it).
# An issue deleted by its repository's admin: "410 Gone" on the issue and its parts (GitHub REST, "Get an issue").
ISSUE_DELETED_BODY = {"message": "This issue was deleted",
                      "documentation_url": "https://docs.github.com/rest/issues/issues#get-an-issue", "status": "410"}
DMCA_BODY = {"message": "Repository access blocked",
             "block": {"reason": "dmca", "created_at": "2026-01-01T00:00:00Z", "html_url": "https://github.com/github/dmca"}}
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
    return paged([shape.repo(r) for r in items], q, self_url)


def repo(world: World, q: Query, self_url: str, owner: str, repo: str) -> Answer:
    obj = world.repo(owner, repo)
    return Answer(200, shape.repo(obj)) if obj is not None else not_found()


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
    return paged([shape.issue(drop_keys(it, _ISSUE_SINGLE_ONLY)) for it in items], q, self_url)


def issue(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    canon = world.canonical(owner, repo)
    obj = world.issue(*canon, int(number)) if canon and number.isdigit() else None
    return Answer(200, shape.issue(obj)) if obj is not None else not_found()


def _issue_file(world: World, owner: str, repo: str, number: str, kind: str) -> list | None:
    """An issue's comments or events; a PR is an issue on GitHub, so a PR the world holds without its
    issue form (a synthetic world) answers too, with what its issue form would hold, if anything."""
    canon = world.canonical(owner, repo)
    if canon is None or not number.isdigit() or (world.issue(*canon, int(number)) is None
                                                 and world.pull(*canon, int(number)) is None):
        return None
    return world.issue_file(*canon, int(number), kind) or []


def issue_comments(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    items = _issue_file(world, owner, repo, number, "comments")
    if items is None:
        return not_found()
    items = filter_time(items, "updated_at", q.get("since"), None)
    return paged([shape.comment(c) for c in items], q, self_url)


def issue_timeline(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    items = _issue_file(world, owner, repo, number, "events")
    if items is None:
        return not_found()
    return paged([shape.comment(e) if e.get("event") == "commented" else shape.timeline_item(e) for e in items],
                 q, self_url)


def issue_events(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    items = _issue_file(world, owner, repo, number, "events")
    if items is None:
        return not_found()
    return paged([shape.timeline_item(e) for e in items if e.get("event") not in _TIMELINE_ONLY], q, self_url)


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
    return paged([shape.pull(drop_keys(p, _PULL_SINGLE_ONLY)) for p in items], q, self_url)


def pull(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    canon = world.canonical(owner, repo)
    obj = world.pull(*canon, int(number)) if canon and number.isdigit() else None
    return Answer(200, shape.single_pull(obj)) if obj is not None else not_found()


def _pull_sub(kind: str) -> Callable[..., Answer]:
    complete = shape.review_comment if kind == "comments" else (lambda item: item)

    def handler(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
        canon = world.canonical(owner, repo)
        if canon is None or not number.isdigit() or world.pull(*canon, int(number)) is None:
            return not_found()
        return paged([complete(it) for it in world.pull_file(*canon, int(number), kind) or []], q, self_url)
    return handler


# ---------- endpoints other clients call (generated from what the world has) ----------

def _repo_comments(world: World, owner: str, repo: str) -> list[dict]:
    """Every conversation comment of the repo's issues and PRs (GitHub numbers both alike)."""
    out = []
    for n in world.issue_numbers(owner, repo):
        out.extend(c for c in world.issue_file(owner, repo, n, "comments") or [] if isinstance(c, dict))
    return out


def _id_key(it: dict) -> int:
    try:
        return int(str(it.get("id", 0)))
    except ValueError:
        return 0


def repo_issue_comments(world: World, q: Query, self_url: str, owner: str, repo: str) -> Answer:
    canon = world.canonical(owner, repo)
    if canon is None:
        return not_found()
    items = filter_time(_repo_comments(world, *canon), "updated_at", q.get("since"), None)
    sort = q.get("sort")
    # Without sort, GitHub lists oldest first and ignores direction.
    desc = sort is not None and q.get("direction", "desc") == "desc"
    items = sort_by(items, time_key("updated_at" if sort == "updated" else "created_at"), desc, _id_key)
    return paged([shape.comment(c) for c in items], q, self_url)


def repo_issue_comment(world: World, q: Query, self_url: str, owner: str, repo: str, comment_id: str) -> Answer:
    canon = world.canonical(owner, repo)
    found = [c for c in _repo_comments(world, *canon) if str(c.get("id")) == comment_id] if canon else []
    return Answer(200, shape.comment(found[0])) if found else not_found()


def _repo_review_comments(world: World, owner: str, repo: str) -> list[dict]:
    out = []
    for n in world.pull_numbers(owner, repo):
        out.extend(c for c in world.pull_file(owner, repo, n, "comments") or [] if isinstance(c, dict))
    return out


def repo_review_comments(world: World, q: Query, self_url: str, owner: str, repo: str) -> Answer:
    canon = world.canonical(owner, repo)
    if canon is None:
        return not_found()
    items = filter_time(_repo_review_comments(world, *canon), "updated_at", q.get("since"), None)
    items = sort_by(items, time_key("created_at"), q.get("direction", "asc") == "desc", _id_key)
    return paged([shape.review_comment(c) for c in items], q, self_url)


def issue_reactions(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    # Worlds record no reactions, and every generated rollup says total_count 0: the list is empty.
    return not_found() if _issue_file(world, owner, repo, number, "comments") is None else paged([], q, self_url)


def comment_reactions(world: World, q: Query, self_url: str, owner: str, repo: str, comment_id: str) -> Answer:
    canon = world.canonical(owner, repo)
    known = canon is not None and any(str(c.get("id")) == comment_id for c in _repo_comments(world, *canon))
    return paged([], q, self_url) if known else not_found()


def review_comment_reactions(world: World, q: Query, self_url: str, owner: str, repo: str, comment_id: str) -> Answer:
    canon = world.canonical(owner, repo)
    known = canon is not None and any(str(c.get("id")) == comment_id for c in _repo_review_comments(world, *canon))
    return paged([], q, self_url) if known else not_found()


def pull_reviews(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    """Reviews are the timeline's ``reviewed`` entries of the PR (none where the world has none)."""
    canon = world.canonical(owner, repo)
    if canon is None or not number.isdigit() or world.pull(*canon, int(number)) is None:
        return not_found()
    timeline = world.issue_file(*canon, int(number), "events") or []
    reviews = [_review(e) for e in timeline if isinstance(e, dict) and e.get("event") == "reviewed"]
    return paged(reviews, q, self_url)


def _review(entry: dict) -> dict:
    out = {k: v for k, v in entry.items() if k not in ("event", "actor")}
    out.setdefault("user", entry.get("user") or entry.get("actor"))
    if isinstance(out.get("user"), dict):
        out["user"] = shape.user(out["user"])
    for key, value in (("body", ""), ("state", "COMMENTED"), ("commit_id", None), ("author_association", "NONE"),
                       ("submitted_at", entry.get("created_at"))):
        out.setdefault(key, value)
    return out


def pull_requested_reviewers(world: World, q: Query, self_url: str, owner: str, repo: str, number: str) -> Answer:
    canon = world.canonical(owner, repo)
    obj = world.pull(*canon, int(number)) if canon and number.isdigit() else None
    if obj is None:
        return not_found()
    return Answer(200, {"users": [shape.user(u) for u in obj.get("requested_reviewers") or []],
                        "teams": list(obj.get("requested_teams") or [])})


_PERSON_KEYS = ("user", "actor", "assignee", "closed_by", "merged_by", "author", "committer")


@lru_cache(maxsize=8)
def _people(world: World) -> dict[str, tuple[dict, str | None, str | None]]:
    """login -> (simple user object, first and last time seen) over every object of the world."""
    seen: dict[str, tuple[dict, str | None, str | None]] = {}

    def note(obj: Any, when: Any) -> None:
        if not isinstance(obj, dict) or not obj.get("login") or obj.get("type") == "Organization":
            return
        login = str(obj["login"])
        stamp = str(when) if when else None
        known = seen.get(login)
        if known is None:
            seen[login] = (obj, stamp, stamp)
            return
        first, last = known[1], known[2]
        if stamp and (first is None or stamp < first):
            first = stamp
        if stamp and (last is None or stamp > last):
            last = stamp
        seen[login] = (known[0], first, last)

    def walk(item: Any) -> None:
        if not isinstance(item, dict):
            return
        when = item.get("created_at")
        for key in _PERSON_KEYS:
            note(item.get(key), when)
        for person in item.get("assignees") or []:
            note(person, when)

    for owner, name in world.repos():
        for n in world.issue_numbers(owner, name):
            walk(world.issue(owner, name, n))
            for kind in ("comments", "events"):
                for item in world.issue_file(owner, name, n, kind) or []:
                    walk(item)
        for n in world.pull_numbers(owner, name):
            walk(world.pull(owner, name, n))
            for item in world.pull_file(owner, name, n, "comments") or []:
                walk(item)
    return seen


def user_profile(world: World, q: Query, self_url: str, login: str) -> Answer:
    login = unquote(login)  # bots: "name[bot]" arrives percent-encoded
    for known, (obj, first, last) in _people(world).items():
        if known.lower() == login.lower():
            return Answer(200, shape.full_user(obj, first, last))
    return not_found()


def user_orgs(world: World, q: Query, self_url: str, login: str) -> Answer:
    # Public memberships are not part of a world; a known user shows none, as a private member would.
    login = unquote(login)
    return paged([], q, self_url) if any(k.lower() == login.lower() for k in _people(world)) else not_found()


def org(world: World, q: Query, self_url: str, org: str) -> Answer:
    listing = world.org_repos(org)
    if listing is None:
        return not_found()
    owner = next((r.get("owner") for r in listing if isinstance(r, dict) and isinstance(r.get("owner"), dict)), None)
    owner = owner or {"login": org}
    login = str(owner.get("login") or org)
    root = shape.api_root(owner)
    return Answer(200, {"login": login, "id": owner.get("id", 0), "node_id": owner.get("node_id", ""),
                        "url": f"{root}/orgs/{login}", "repos_url": f"{root}/orgs/{login}/repos",
                        "html_url": owner.get("html_url", f"{shape.DEFAULT_WEB_ROOT}/{login}"),
                        "avatar_url": owner.get("avatar_url", ""), "description": None, "type": "Organization",
                        "public_repos": len([r for r in listing if not r.get("private")])})


def rate_limit_placeholder(world: World, q: Query, self_url: str) -> Answer:
    """Routed so the template is known; the server answers it from its own limiter (see ``rate_limit_answer``)."""
    return Answer(200, shape.rate_limit({}))


def rate_limit_answer(limiter_headers: dict[str, str]) -> Answer:
    return Answer(200, shape.rate_limit(limiter_headers))


# Fixed segments (issues/comments, pulls/comments) come before the {number} routes they would otherwise match.
ROUTES: list[tuple[str, Callable[..., Answer]]] = [
    (RATE_LIMIT_ROUTE, rate_limit_placeholder),
    ("/users/{login}", user_profile),
    ("/users/{login}/orgs", user_orgs),
    ("/orgs/{org}", org),
    ("/orgs/{org}/repos", org_repos),
    ("/repos/{owner}/{repo}", repo),
    ("/repos/{owner}/{repo}/issues", issues),
    ("/repos/{owner}/{repo}/issues/comments", repo_issue_comments),
    ("/repos/{owner}/{repo}/issues/comments/{comment_id}", repo_issue_comment),
    ("/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", comment_reactions),
    ("/repos/{owner}/{repo}/issues/{number}", issue),
    ("/repos/{owner}/{repo}/issues/{number}/comments", issue_comments),
    ("/repos/{owner}/{repo}/issues/{number}/timeline", issue_timeline),
    ("/repos/{owner}/{repo}/issues/{number}/events", issue_events),
    ("/repos/{owner}/{repo}/issues/{number}/reactions", issue_reactions),
    ("/repos/{owner}/{repo}/pulls", pulls),
    ("/repos/{owner}/{repo}/pulls/comments", repo_review_comments),
    ("/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions", review_comment_reactions),
    ("/repos/{owner}/{repo}/pulls/{number}", pull),
    ("/repos/{owner}/{repo}/pulls/{number}/files", _pull_sub("files")),
    ("/repos/{owner}/{repo}/pulls/{number}/commits", _pull_sub("commits")),
    ("/repos/{owner}/{repo}/pulls/{number}/comments", _pull_sub("comments")),
    ("/repos/{owner}/{repo}/pulls/{number}/reviews", pull_reviews),
    ("/repos/{owner}/{repo}/pulls/{number}/requested_reviewers", pull_requested_reviewers),
]
