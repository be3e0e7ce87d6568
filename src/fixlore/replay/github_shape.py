"""The fields GitHub's REST API always sends, filled in where a world's payload lacks them.

Worlds are written for fixlore and carry what fixlore reads; other clients index fields
GitHub never leaves out (``reactions`` on issues and comments, ``license`` on a repo,
``_links`` and ``active_lock_reason`` on a pull, ``commit_id`` on a timeline ``closed``).
Each function takes a stored object and returns a copy with the missing keys added; a key
the world does carry is never overwritten. Values are the ones GitHub sends for an object
nobody touched that way: zero reactions, no lock, no licence, no requested reviewers.

The API root of generated URLs is taken from the object's own ``url`` so generated links
point where the world's links point.
"""

from __future__ import annotations

import re
from typing import Any

DEFAULT_API_ROOT = "https://api.github.com"
DEFAULT_WEB_ROOT = "https://github.com"
_REACTION_KEYS = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
_ROOT_IN_URL = re.compile(r"^(?P<root>https?://[^/]+(?:/api/v3)?)/(?:repos|users|orgs)/")


def api_root(obj: dict[str, Any]) -> str:
    found = _ROOT_IN_URL.match(str(obj.get("url") or ""))
    return found.group("root") if found else DEFAULT_API_ROOT


def web_root(obj: dict[str, Any]) -> str:
    html = str(obj.get("html_url") or "")
    found = re.match(r"^(https?://[^/]+)/", html)
    return found.group(1) if found else DEFAULT_WEB_ROOT


def _fill(obj: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    out = dict(obj)
    for key, value in defaults.items():
        out.setdefault(key, value)
    return out


def reactions(url: str) -> dict[str, Any]:
    """A rollup of no reactions, as GitHub sends it on issues and comments nobody reacted to."""
    return {"url": url, "total_count": 0, **{k: 0 for k in _REACTION_KEYS}}


def user(raw: Any) -> Any:
    """A user as nested in other objects (the "simple user"): every URL template GitHub sends."""
    if not isinstance(raw, dict) or not raw.get("login"):
        return raw
    login = str(raw["login"])
    root = api_root(raw) if raw.get("url") else DEFAULT_API_ROOT
    base = f"{root}/users/{login}"
    return _fill(raw, {
        "id": 0, "node_id": "", "avatar_url": "", "gravatar_id": "", "url": base,
        "html_url": f"{DEFAULT_WEB_ROOT}/{login}", "followers_url": f"{base}/followers",
        "following_url": f"{base}/following{{/other_user}}", "gists_url": f"{base}/gists{{/gist_id}}",
        "starred_url": f"{base}/starred{{/owner}}{{/repo}}", "subscriptions_url": f"{base}/subscriptions",
        "organizations_url": f"{base}/orgs", "repos_url": f"{base}/repos", "events_url": f"{base}/events{{/privacy}}",
        "received_events_url": f"{base}/received_events", "type": "User", "site_admin": False,
        "user_view_type": "public",
    })


def full_user(raw: dict[str, Any], created_at: str | None, updated_at: str | None) -> dict[str, Any]:
    """``GET /users/{login}``: the simple user plus the profile fields (empty where the world knows nothing)."""
    out = user(raw)
    return _fill(out, {
        "name": None, "company": None, "blog": "", "location": None, "email": None, "hireable": None, "bio": None,
        "twitter_username": None, "public_repos": 0, "public_gists": 0, "followers": 0, "following": 0,
        "created_at": created_at, "updated_at": updated_at,
    })


def repo(raw: dict[str, Any]) -> dict[str, Any]:
    full = str(raw.get("full_name") or "")
    root = api_root(raw)
    base = f"{root}/repos/{full}"
    out = _fill(raw, {
        "license": None, "homepage": None, "size": 0, "stargazers_count": 0, "watchers_count": 0, "watchers": 0,
        "forks_count": 0, "forks": 0, "open_issues": raw.get("open_issues_count", 0), "open_issues_count": 0,
        "topics": [], "has_projects": True, "has_wiki": True, "has_pages": False, "has_downloads": True,
        "has_discussions": False, "mirror_url": None, "allow_forking": True, "is_template": False,
        "web_commit_signoff_required": False, "archived": False, "disabled": False, "fork": False,
        "visibility": "private" if raw.get("private") else "public", "url": base,
        "issues_url": f"{base}/issues{{/number}}", "pulls_url": f"{base}/pulls{{/number}}",
        "issue_comment_url": f"{base}/issues/comments{{/number}}", "commits_url": f"{base}/commits{{/sha}}",
        "labels_url": f"{base}/labels{{/name}}", "events_url": f"{base}/events",
    })
    if isinstance(out.get("owner"), dict):
        out["owner"] = user(out["owner"])
    return out


def issue(raw: dict[str, Any]) -> dict[str, Any]:
    url = str(raw.get("url") or "")
    out = _fill(raw, {
        "reactions": reactions(f"{url}/reactions"), "active_lock_reason": None, "locked": False,
        "author_association": "NONE", "state_reason": None, "performed_via_github_app": None,
        "assignee": None, "assignees": [], "milestone": None, "labels": [], "body": None, "closed_at": None,
        "timeline_url": f"{url}/timeline", "comments": 0,
    })
    for key in ("user", "assignee", "closed_by"):
        if isinstance(out.get(key), dict):
            out[key] = user(out[key])
    if isinstance(out.get("assignees"), list):
        out["assignees"] = [user(u) for u in out["assignees"]]
    return out


def comment(raw: dict[str, Any]) -> dict[str, Any]:
    url = str(raw.get("url") or "")
    out = _fill(raw, {"reactions": reactions(f"{url}/reactions"), "author_association": "NONE",
                      "performed_via_github_app": None, "updated_at": raw.get("created_at")})
    if isinstance(out.get("user"), dict):
        out["user"] = user(out["user"])
    return out


def review_comment(raw: dict[str, Any]) -> dict[str, Any]:
    url = str(raw.get("url") or "")
    out = _fill(raw, {"reactions": reactions(f"{url}/reactions"), "author_association": "NONE",
                      "updated_at": raw.get("created_at"), "in_reply_to_id": None, "_links": {
                          "self": {"href": url}, "html": {"href": str(raw.get("html_url") or "")},
                          "pull_request": {"href": str(raw.get("pull_request_url") or "")}}})
    if isinstance(out.get("user"), dict):
        out["user"] = user(out["user"])
    return out


def pull(raw: dict[str, Any]) -> dict[str, Any]:
    url = str(raw.get("url") or "")
    repo_base = url.rsplit("/pulls/", 1)[0] if "/pulls/" in url else url
    number = raw.get("number")
    issue_url = str(raw.get("issue_url") or f"{repo_base}/issues/{number}")
    head_sha = str((raw.get("head") or {}).get("sha") or "") if isinstance(raw.get("head"), dict) else ""
    links = {
        "self": {"href": url}, "html": {"href": str(raw.get("html_url") or "")}, "issue": {"href": issue_url},
        "comments": {"href": f"{issue_url}/comments"}, "review_comments": {"href": f"{url}/comments"},
        "review_comment": {"href": f"{repo_base}/pulls/comments{{/number}}"}, "commits": {"href": f"{url}/commits"},
        "statuses": {"href": f"{repo_base}/statuses/{head_sha}"},
    }
    out = _fill(raw, {
        "_links": links, "active_lock_reason": None, "locked": False, "requested_reviewers": [],
        "requested_teams": [], "auto_merge": None, "draft": False, "labels": [], "milestone": None,
        "assignee": None, "assignees": [], "author_association": "NONE", "merge_commit_sha": None,
        "merged_at": None, "closed_at": None, "body": None, "issue_url": issue_url,
        "commits_url": f"{url}/commits", "review_comments_url": f"{url}/comments",
        "review_comment_url": f"{repo_base}/pulls/comments{{/number}}", "comments_url": f"{issue_url}/comments",
        "statuses_url": f"{repo_base}/statuses/{head_sha}",
    })
    for key in ("user", "assignee", "merged_by"):
        if isinstance(out.get(key), dict):
            out[key] = user(out[key])
    for key in ("assignees", "requested_reviewers"):
        if isinstance(out.get(key), list):
            out[key] = [user(u) for u in out[key]]
    return out


def single_pull(raw: dict[str, Any]) -> dict[str, Any]:
    """The single PR object also carries the merge state and the counters."""
    out = pull(raw)
    return _fill(out, {"merged": out.get("merged_at") is not None, "mergeable": None, "rebaseable": None,
                       "mergeable_state": "unknown", "merged_by": None, "comments": 0, "review_comments": 0,
                       "maintainer_can_modify": False, "commits": 0, "additions": 0, "deletions": 0,
                       "changed_files": 0})


def timeline_item(raw: dict[str, Any]) -> dict[str, Any]:
    """Timeline and event entries: ``closed``/``referenced``/``merged`` always carry commit_id, null when no commit."""
    out = dict(raw)
    if out.get("event") in ("closed", "referenced", "merged", "reopened"):
        out.setdefault("commit_id", None)
        out.setdefault("commit_url", None)
    if out.get("event") == "closed":
        out.setdefault("state_reason", None)
    for key in ("actor", "user"):
        if isinstance(out.get(key), dict):
            out[key] = user(out[key])
    out.setdefault("performed_via_github_app", None)
    return out


def rate_limit(headers: dict[str, str]) -> dict[str, Any]:
    """``GET /rate_limit`` from the core window's headers; the other buckets start full."""
    core = {"limit": int(headers.get("X-RateLimit-Limit", 5000)),
            "remaining": int(headers.get("X-RateLimit-Remaining", 5000)),
            "reset": int(headers.get("X-RateLimit-Reset", 0)), "used": int(headers.get("X-RateLimit-Used", 0)),
            "resource": "core"}

    def full(limit: int, resource: str) -> dict[str, Any]:
        return {"limit": limit, "remaining": limit, "reset": core["reset"], "used": 0, "resource": resource}

    return {"resources": {"core": core, "search": full(30, "search"), "graphql": full(5000, "graphql"),
                          "integration_manifest": full(5000, "integration_manifest"),
                          "code_search": full(10, "code_search")},
            "rate": core}
