"""GitHub closing references through GraphQL: which PRs the platform says close an issue.

The REST timeline often says nothing useful here: a ``connected`` entry does not name the PR
(Development sidebar) and ``closed.commit_id`` is often null. GraphQL's
``closedByPullRequestsReferences`` names them. One query asks for a batch of issues of one
repo (aliases ``i<N>``), so a page of pool issues costs one request.

GraphQL needs a token; without one, or once the API refuses (401/403/404, errors instead of
data), this answers nothing for the rest of the run and the REST timeline stays the only
source, as before.
"""

from __future__ import annotations

import re
import weakref
from typing import Any

from fixlore import model as m
from fixlore.sources.http import ApiClient

BATCH = 50               # issues per query: one page of issues, well inside GitHub's node limits
PRS_PER_ISSUE = 10
LINK_SOURCE = "closing_ref"
ENDPOINT = "POST /graphql"
_SAFE = re.compile(r"^[A-Za-z0-9_.\-]+$")
_disabled: "weakref.WeakKeyDictionary[ApiClient, str]" = weakref.WeakKeyDictionary()


def graphql_url(rest_base: str) -> str:
    """api.github.com -> /graphql; a GitHub Enterprise root .../api/v3 -> .../api/graphql."""
    base = rest_base.rstrip("/")
    if base.endswith("/api/v3"):
        return base[: -len("/v3")] + "/graphql"
    return base + "/graphql"


def closing_query(owner: str, name: str, numbers: list[int]) -> str:
    fields = (f"closedByPullRequestsReferences(first: {PRS_PER_ISSUE}, includeClosedPrs: true) "
              "{ totalCount nodes { number url merged state repository { nameWithOwner } } }")
    issues = " ".join(f"i{n}: issue(number: {n}) {{ number {fields} }}" for n in numbers)
    return f'query {{ repository(owner: "{owner}", name: "{name}") {{ {issues} }} }}'


def parse_closing(body: Any, repo: str) -> dict[int, list[m.Link]]:
    """Issue number -> platform links to the PRs that close it (malformed parts are skipped)."""
    out: dict[int, list[m.Link]] = {}
    data = body.get("data") if isinstance(body, dict) else None
    repository = data.get("repository") if isinstance(data, dict) else None
    if not isinstance(repository, dict):
        return out
    for alias, issue in repository.items():
        if not isinstance(issue, dict) or not alias.startswith("i"):
            continue
        refs = issue.get("closedByPullRequestsReferences")
        nodes = refs.get("nodes") if isinstance(refs, dict) else None
        number = issue.get("number")
        if not isinstance(number, int) or not isinstance(nodes, list):
            continue
        for node in nodes:
            if not isinstance(node, dict) or not isinstance(node.get("number"), int):
                continue
            pull_repo = str(((node.get("repository") or {}).get("nameWithOwner")) or repo)
            out.setdefault(number, []).append(m.Link(issue_repo=repo, issue_number=number, pull_repo=pull_repo,
                                                     pull_number=node["number"], source=LINK_SOURCE))
    return out


def closing_links(source: Any, repo: str, numbers: list[int]) -> dict[int, list[m.Link]]:
    """The platform's closing references for these issues of ``repo``; {} where GraphQL is not to be had."""
    client = getattr(source, "client", None)
    if getattr(source, "platform", "") != "github" or not isinstance(client, ApiClient) or not numbers:
        return {}
    if not client.has_token or client in _disabled:
        return {}
    owner, _, name = repo.partition("/")
    if not (_SAFE.match(owner) and _SAFE.match(name)):
        return {}
    found: dict[int, list[m.Link]] = {}
    for start in range(0, len(numbers), BATCH):
        part = sorted(numbers)[start:start + BATCH]
        status, body = client.post_json(graphql_url(client.base_url), {"query": closing_query(owner, name, part)},
                                        endpoint=ENDPOINT)
        if status != 200 or not isinstance(body, dict) or "data" not in body:
            _disabled[client] = f"GraphQL answered {status}"
            return found
        for number, links in parse_closing(body, repo).items():
            found.setdefault(number, []).extend(links)
    return found
