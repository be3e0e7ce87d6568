"""POST /graphql for the one query shape fixlore sends: the closing references of a batch of issues.

    { repository(owner: "o", name: "r") {
        i96: issue(number: 96) { number closedByPullRequestsReferences(first: 10, includeClosedPrs: true) {
          totalCount nodes { number url merged state repository { nameWithOwner } } } } ... } }

GitHub fills ``closedByPullRequestsReferences`` with the PRs linked to close the issue: those
whose title or body carries a closing keyword for it (aimed at the default branch) and those
linked by hand in the Development sidebar. A world does not name the sidebar's PR, but when
that PR merged, the issue's ``closed`` entry carries its merge commit, so the replay reads
the link from there (the world's own data, even where the strict ``null_commit_id`` quirk
hides it from the REST answer).
A connection lists at most its ``first`` nodes while ``totalCount`` counts them all, as GitHub's do.
Any other query gets a GraphQL error, as a schema-checking server would give an unknown field.
"""

from __future__ import annotations

import re
from typing import Any

from fixlore.replay.listing import Answer
from fixlore.replay.world import World
from fixlore.rules.refs import closing_numbers

_REPO = re.compile(r'repository\s*\(\s*owner\s*:\s*"([^"\\]+)"\s*,\s*name\s*:\s*"([^"\\]+)"\s*\)')
_ISSUE = re.compile(r'(\w+)\s*:\s*issue\s*\(\s*number\s*:\s*(\d+)\s*\)')


def _error(message: str, **extra: Any) -> dict[str, Any]:
    return {"message": message, **extra}


def _closes(pull: dict, full: str, number: int, default_branch: str) -> bool:
    base = (pull.get("base") or {}).get("ref") if isinstance(pull.get("base"), dict) else None
    if default_branch and base and base != default_branch:
        return False
    return number in closing_numbers(f"{pull.get('title') or ''}\n{pull.get('body') or ''}", full)


def closing_pulls(world: World, owner: str, repo: str, number: int, include_closed: bool) -> list[dict]:
    """The PR objects GitHub would list as closing issue #number, oldest number first."""
    full = f"{owner}/{repo}"
    meta = world.repo(owner, repo) or {}
    default_branch = str(meta.get("default_branch") or "")
    commits = {str(e.get("commit_id")) for e in world.issue_file(owner, repo, number, "events") or []
               if isinstance(e, dict) and e.get("event") == "closed" and e.get("commit_id")}
    out = []
    for pull in world.pulls(owner, repo):
        if not isinstance(pull, dict) or pull.get("number") == number:
            continue
        merged = bool(pull.get("merged_at"))
        if pull.get("state") == "closed" and not merged and not include_closed:
            continue
        shas = {str(pull.get("merge_commit_sha") or "")} | {
            str(c.get("sha")) for c in world.pull_file(owner, repo, int(pull["number"]), "commits") or []
            if isinstance(c, dict)}
        if (commits & shas) or _closes(pull, full, number, default_branch):
            out.append(pull)
    return sorted(out, key=lambda p: int(p.get("number") or 0))


def _node(pull: dict, full: str) -> dict[str, Any]:
    merged = bool(pull.get("merged_at"))
    state = "MERGED" if merged else str(pull.get("state") or "open").upper()
    return {"number": pull.get("number"), "url": pull.get("html_url"), "merged": merged, "state": state,
            "repository": {"nameWithOwner": full}}


def answer(world: World, payload: Any) -> Answer:
    if not isinstance(payload, dict) or not isinstance(payload.get("query"), str):
        return Answer(400, {"message": "Problems parsing JSON", "documentation_url": "https://docs.github.com/graphql"})
    query = payload["query"]
    repo_m = _REPO.search(query)
    issues = _ISSUE.findall(query)
    if repo_m is None or not issues or "closedByPullRequestsReferences" not in query:
        return Answer(200, {"errors": [_error("this replay serves only the closing-references query of issues")]})
    owner, name = repo_m.groups()
    canon = world.canonical(owner, name)
    if canon is None:
        return Answer(200, {"data": {"repository": None}, "errors": [_error(
            f"Could not resolve to a Repository with the name '{owner}/{name}'.", type="NOT_FOUND",
            path=["repository"])]})
    include_closed = re.search(r"includeClosedPrs\s*:\s*true", query) is not None
    first = re.search(r"closedByPullRequestsReferences\s*\([^)]*\bfirst\s*:\s*(\d+)", query)
    limit = int(first.group(1)) if first else None
    full = f"{canon[0]}/{canon[1]}"
    data: dict[str, Any] = {}
    errors = []
    for alias, digits in issues:
        number = int(digits)
        obj = world.issue(*canon, number)
        if obj is None or "pull_request" in obj:
            data[alias] = None
            errors.append(_error(f"Could not resolve to an Issue with the number of {number}.", type="NOT_FOUND",
                                 path=["repository", alias]))
            continue
        nodes = [_node(p, full) for p in closing_pulls(world, *canon, number, include_closed)]
        data[alias] = {"number": number, "closedByPullRequestsReferences": {"totalCount": len(nodes),
                                                                            "nodes": nodes[:limit]}}
    body: dict[str, Any] = {"data": {"repository": data}}
    if errors:
        body["errors"] = errors
    return Answer(200, body)
