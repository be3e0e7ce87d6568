"""GitCode v5 endpoints (paths under /api/v5), computed from a world's single objects.

Parameters and quirks follow reference/gitcode-api.md §2: issue lists default to state=all,
accept both ``sort``+``direction`` and the undocumented ``order_by`` (with ``sort`` as the
direction); pull lists answer 400 to ``sort=desc``; ``operate_logs`` of an issue takes the
repo as a query parameter; pagination headers are ``total_count``/``total_page``.
"""

from __future__ import annotations

from typing import Callable

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

PREFIX = "/api/v5"
DEFAULT_PER_PAGE = 20
MAX_PER_PAGE = 100

# Fields only the single-issue answer carries.
_ISSUE_SINGLE_ONLY = ("custom_fields",)


def not_found(message: str = "404 Not Found") -> Answer:
    return Answer(404, {"message": message})


def project_not_found() -> Answer:
    return Answer(404, {"error_code": 404, "error_code_name": "NOT_FOUND", "error_message": "Project Not Found"})


def blocked() -> Answer:
    """A repository withheld for legal reasons, in GitCode's error shape."""
    return Answer(451, {"error_code": 451, "error_code_name": "UNAVAILABLE_FOR_LEGAL_REASONS",
                        "error_message": "repository access blocked"})


def bad_request(message: str) -> Answer:
    return Answer(400, {"error_code": 400, "error_code_name": "UN_KNOW", "error_message": message})


def paged(items: list, q: Query, *, default: int = DEFAULT_PER_PAGE, maximum: int = MAX_PER_PAGE) -> Answer:
    page, per_page = page_window(q, default, maximum)
    headers = {"total_count": str(len(items)), "total_page": str(total_pages(len(items), per_page))}
    return Answer(200, paginate(items, page, per_page), headers, page=page,
                  page_of=lambda p: paginate(items, p, per_page))


def _repo_or_404(world: World, owner: str, repo: str) -> tuple[str, str] | None:
    return world.canonical(owner, repo)


def _num(text: str) -> int | None:
    # "case-sensitive, do not add #": only plain digits name an issue.
    return int(text) if text.isdigit() else None


# ---------- organisations and repositories ----------

def org_repos(world: World, q: Query, org: str) -> Answer:
    listing = world.org_repos(org)
    if listing is None:
        return not_found("404 Group Not Found")
    repo_type = q.get("repo_type", "code")
    items = [r for r in listing if repo_type == "all" or (r.get("repo_type") or "code") == repo_type]
    kind = q.get("type", "all")
    if kind == "public":
        items = [r for r in items if not r.get("private")]
    elif kind == "private":
        items = [r for r in items if r.get("private")]
    return paged(items, q)


def repo(world: World, q: Query, owner: str, repo: str) -> Answer:
    obj = world.repo(owner, repo)
    return Answer(200, obj) if obj is not None else project_not_found()


# ---------- issues ----------

def _issue_open(it: dict) -> bool:
    return str(it.get("state", "")).lower() in ("open", "opened", "progressing")


def _order(q: Query, default_field: str = "created_at") -> tuple[str, bool]:
    """(time field, descending) from either the documented or the order_by form."""
    order_by = q.get("order_by")
    if order_by in ("created_at", "updated_at"):
        direction = q.get("sort") if q.get("sort") in ("asc", "desc") else q.get("direction", "desc")
        return order_by, direction != "asc"
    sort = q.get("sort", "created")
    field = {"created": "created_at", "created_at": "created_at",
             "updated": "updated_at", "updated_at": "updated_at"}.get(sort, default_field)
    return field, q.get("direction", "desc") != "asc"


def issues(world: World, q: Query, owner: str, repo: str) -> Answer:
    canon = _repo_or_404(world, owner, repo)
    if canon is None:
        return project_not_found()
    all_items = world.issues(*canon)     # read once: the filters below build new lists, the counts need them all
    items = all_items
    state = q.get("state", "all")
    if state == "open":
        items = [it for it in items if _issue_open(it)]
    elif state == "closed":
        items = [it for it in items if not _issue_open(it)]
    items = filter_time(items, "updated_at", q.get("since"), None)
    items = filter_time(items, "updated_at", q.get("updated_after"), q.get("updated_before"))
    items = filter_time(items, "created_at", q.get("created_after"), q.get("created_before"))
    items = filter_labels(items, q.get("labels"))
    if q.get("creator"):
        items = [it for it in items if (it.get("user") or {}).get("login") == q.get("creator")]
    if q.get("search"):
        needle = q.get("search").lower()
        items = [it for it in items if needle in f"{it.get('title') or ''}\n{it.get('body') or ''}".lower()]
    field, desc = _order(q)
    items = sort_by(items, time_key(field), desc, number_key)
    ans = paged([drop_keys(it, _ISSUE_SINGLE_ONLY) for it in items], q)
    n_open = sum(1 for it in all_items if _issue_open(it))
    ans.headers.update({"all_issues": str(len(all_items)), "open_issues": str(n_open),
                        "close_issues": str(len(all_items) - n_open)})
    return ans


def issue(world: World, q: Query, owner: str, repo: str, number: str) -> Answer:
    canon = _repo_or_404(world, owner, repo)
    if canon is None:
        return project_not_found()
    n = _num(number)
    obj = world.issue(*canon, n) if n is not None else None
    return Answer(200, obj) if obj is not None else not_found()


def _issue_sub(world: World, owner: str, repo: str, number: str, kind: str) -> list | Answer:
    canon = _repo_or_404(world, owner, repo)
    if canon is None:
        return project_not_found()
    n = _num(number)
    if n is None or world.issue(*canon, n) is None:
        return not_found()
    return world.issue_file(*canon, n, kind) or []


def issue_comments(world: World, q: Query, owner: str, repo: str, number: str) -> Answer:
    items = _issue_sub(world, owner, repo, number, "comments")
    if isinstance(items, Answer):
        return items
    items = filter_time(items, "created_at", q.get("since"), None)
    items = sort_by(items, time_key("created_at"), q.get("order", "asc") == "desc", lambda c: c.get("id") or 0)
    return paged(items, q)


def issue_operate_logs(world: World, q: Query, owner: str, number: str) -> Answer:
    repo = q.get("repo")
    if not repo:
        return bad_request("repo is required")
    items = _issue_sub(world, owner, repo, number, "events")
    if isinstance(items, Answer):
        return items
    return Answer(200, items)  # not paged, stored order (clients sort it themselves)


def issue_pull_requests(world: World, q: Query, owner: str, repo: str, number: str) -> Answer:
    items = _issue_sub(world, owner, repo, number, "pulls")
    return items if isinstance(items, Answer) else Answer(200, items)


# ---------- pulls ----------

def _filter_pulls(items: list[dict], q: Query) -> list[dict] | Answer:
    if q.get("sort") in ("asc", "desc"):
        # Live quirk: the direction belongs in `direction`, and the server says so.
        return bad_request("direction is required")
    state = q.get("state", "all")
    if state in ("open", "opened"):
        items = [p for p in items if p.get("state") in ("open", "opened")]
    elif state in ("closed", "merged"):
        items = [p for p in items if p.get("state") == state]
    elif state == "locked":
        items = [p for p in items if p.get("locked")]
    items = filter_time(items, "updated_at", q.get("since"), None)
    items = filter_time(items, "merged_at", q.get("merged_after"), q.get("merged_before"))
    items = filter_time(items, "updated_at", q.get("updated_after"), q.get("updated_before"))
    items = filter_time(items, "created_at", q.get("created_after"), q.get("created_before"))
    if q.get("base"):
        items = [p for p in items if (p.get("base") or {}).get("ref") == q.get("base")]
    if q.get("author"):
        items = [p for p in items if (p.get("user") or {}).get("login") == q.get("author")]
    items = filter_labels(items, q.get("labels"))
    order_by = q.get("order_by")
    if order_by in ("created_at", "updated_at"):
        field, desc = order_by, q.get("direction", "desc") != "asc"
    else:
        field, desc = _order(q)
    return sort_by(items, time_key(field), desc, number_key)


def pulls(world: World, q: Query, owner: str, repo: str) -> Answer:
    canon = _repo_or_404(world, owner, repo)
    if canon is None:
        return project_not_found()
    items = _filter_pulls(world.pulls(*canon), q)
    return items if isinstance(items, Answer) else paged(items, q)


def org_pulls(world: World, q: Query, org: str) -> Answer:
    if world.org_repos(org) is None:
        return not_found("404 Group Not Found")
    every = [p for o, r in world.repos() if o.lower() == org.lower() for p in world.pulls(o, r)]
    items = _filter_pulls(every, q)
    return items if isinstance(items, Answer) else paged(items, q)


def pull(world: World, q: Query, owner: str, repo: str, number: str) -> Answer:
    canon = _repo_or_404(world, owner, repo)
    if canon is None:
        return project_not_found()
    obj = world.pull(*canon, int(number)) if number.isdigit() else None
    return Answer(200, obj) if obj is not None else not_found()


def _pull_sub(world: World, owner: str, repo: str, number: str, kind: str) -> list | Answer:
    canon = _repo_or_404(world, owner, repo)
    if canon is None:
        return project_not_found()
    if not number.isdigit() or world.pull(*canon, int(number)) is None:
        return not_found()
    return world.pull_file(*canon, int(number), kind) or []


def _paged_sub(kind: str, order_key: str | None = None) -> Callable[..., Answer]:
    def handler(world: World, q: Query, owner: str, repo: str, number: str) -> Answer:
        items = _pull_sub(world, owner, repo, number, kind)
        if isinstance(items, Answer):
            return items
        if order_key is not None:
            # operate_logs: newest first unless sort=asc.
            items = sort_by(items, time_key(order_key), q.get("sort", "desc") != "asc", lambda e: e.get("id") or 0)
        return paged(items, q)
    return handler


def pull_files(world: World, q: Query, owner: str, repo: str, number: str) -> Answer:
    items = _pull_sub(world, owner, repo, number, "files")
    if isinstance(items, Answer):
        return items
    added = sum(_to_int(f.get("additions")) for f in items)
    removed = sum(_to_int(f.get("deletions")) for f in items)
    return Answer(200, items, {"total_added_lines": str(added), "total_removed_lines": str(removed)})


def _to_int(v: object) -> int:
    try:
        return int(str(v))
    except ValueError:
        return 0


# (template, handler) in match order; {name} segments match one path segment.
ROUTES: list[tuple[str, Callable[..., Answer]]] = [
    ("/orgs/{org}/repos", org_repos),
    ("/org/{org}/pull_requests", org_pulls),
    ("/repos/{owner}/issues/{number}/operate_logs", issue_operate_logs),
    ("/repos/{owner}/{repo}", repo),
    ("/repos/{owner}/{repo}/issues", issues),
    ("/repos/{owner}/{repo}/issues/{number}", issue),
    ("/repos/{owner}/{repo}/issues/{number}/comments", issue_comments),
    ("/repos/{owner}/{repo}/issues/{number}/pull_requests", issue_pull_requests),
    ("/repos/{owner}/{repo}/pulls", pulls),
    ("/repos/{owner}/{repo}/pulls/{number}", pull),
    ("/repos/{owner}/{repo}/pulls/{number}/issues", _paged_sub("issues")),
    ("/repos/{owner}/{repo}/pulls/{number}/files", pull_files),
    ("/repos/{owner}/{repo}/pulls/{number}/comments", _paged_sub("comments")),
    ("/repos/{owner}/{repo}/pulls/{number}/commits", _paged_sub("commits")),
    ("/repos/{owner}/{repo}/pulls/{number}/operate_logs", _paged_sub("events", order_key="created_at")),
]

UNAUTHORIZED_BODY = {"message": "401 Unauthorized"}
RATE_LIMITED_BODY = {"message": "Too Many Requests"}
