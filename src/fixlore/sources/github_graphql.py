"""GitHub closing references through GraphQL: which PRs the platform says close an issue.

The REST timeline often says nothing useful here: a ``connected`` entry does not name the PR
(Development sidebar) and ``closed.commit_id`` is often null. GraphQL's
``closedByPullRequestsReferences`` names them. One query asks for a batch of issues of one
repo (aliases ``i<N>``), so a page of pool issues costs one request.

GraphQL needs a token; without one it is not asked and the REST timeline is the only source. With
one, a query that meets a transport error, a 5xx or a timeout is asked again, a bounded number of
times (GitHub's GraphQL answers 502 on heavy queries now and then); an answer that says GraphQL is
not to be had here (501 Not Implemented, 401/403/404/410, a schema without the field, its own budget
spent: GitHub says not to ask again before its reset) gives up on it for that host at once, and so
do two batches in a row that kept failing, or one that could not reach it at all: no repeated cost.
An answer that holds some issues null beside an error naming them (a field that timed out) is asked
again for those only; an issue still null, one with more closing PRs than a query lists, or a
repository GraphQL does not resolve is unread, never an issue no PR closes (`read_answer`). Every
issue whose references could not be read is named (`ClosingRead.unread`, with why), so the harvest
can say per repo what the sidebar may hold that this run did not see.
"""

from __future__ import annotations

import logging
import re
import weakref
from dataclasses import dataclass, field
from typing import Any

from fixlore.core import model as m
from fixlore.sources.http import ApiClient

BATCH = 50               # issues per query: one page of issues, well inside GitHub's node limits
PRS_PER_ISSUE = 10
LINK_SOURCE = "closing_ref"
ENDPOINT = "POST /graphql"
_SAFE = re.compile(r"^[A-Za-z0-9_.\-]+$")
ATTEMPTS = 3             # asks per batch before that batch is given up
FAILED_BATCHES = 2       # batches in a row given up before GraphQL is given up for the host
RETRY_STATUSES = frozenset({0, 500, 502, 503, 504})      # 0: a transport error
GONE_STATUSES = frozenset({401, 403, 404, 410, 501})          # not to be had here with this token
log = logging.getLogger(__name__)


@dataclass
class _Host:
    gone: str = ""                        # why GraphQL was given up for this host ("" while it is asked)
    failed_in_row: int = 0


_hosts: "weakref.WeakKeyDictionary[ApiClient, _Host]" = weakref.WeakKeyDictionary()


@dataclass
class ClosingRead:
    """The platform's closing references of some issues, and those that could not be read, with why."""
    links: dict[int, list[m.Link]] = field(default_factory=dict)
    unread: list[int] = field(default_factory=list)
    why: str = ""


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


# errors that asking again does not change (GraphQL error types GitHub sends)
_FINAL_TYPES = frozenset({"NOT_FOUND", "FORBIDDEN"})


@dataclass
class Answered:
    """What one answer holds for the issues asked: their links, the issues it left null beside an error
    (``left``: worth asking again) and those it cannot give whole by being asked again (``kept``: more
    closing PRs than one query lists, or a repository GraphQL does not resolve), with why."""
    links: dict[int, list[m.Link]]
    left: list[int]
    kept: list[int]
    why: str = ""


def read_answer(body: Any, repo: str, numbers: list[int]) -> Answered:
    """The answer for ``numbers`` read whole or named. A field that fails is null beside its siblings, its
    error naming its path (GraphQL spec, "Handling Field Errors": GitHub's timeouts do so), so an issue
    answered null is unread unless its error says it does not exist (NOT_FOUND: nothing to read). A
    connection lists at most ``first`` nodes while ``totalCount`` counts them all: an issue with more
    closing PRs than that keeps what came and is unread, never cut short in silence."""
    asked = set(numbers)
    links = {n: v for n, v in parse_closing(body, repo).items() if n in asked}
    errors = [e for e in (body.get("errors") or []) if isinstance(e, dict)] if isinstance(body, dict) else []
    gone = {str(e["path"][-1]) for e in errors if str(e.get("type") or "") == "NOT_FOUND"
            and isinstance(e.get("path"), list) and e["path"]}
    repository = (body.get("data") or {}).get("repository") if isinstance(body.get("data"), dict) else None
    if not isinstance(repository, dict):
        said = _first_message(errors)
        if "repository" in gone or not errors:      # no such repository here: asking again gives nothing
            return Answered(links, [], list(numbers), f"GraphQL did not resolve {repo}: {said or 'no data'}")
        # the whole field failed (a timeout): every issue is worth asking again
        return Answered(links, list(numbers), [], f"GraphQL left {repo} unanswered: {said}")
    # an error under an issue's field (a node of its list nulled, a timeout inside it) leaves it part-read
    # ... unless that error is final (the node does not exist or may not be read: asking again gives the same)
    under = [e for e in errors if isinstance(e.get("path"), list) and len(e["path"]) > 2 and e["path"][0] == "repository"]
    failed_under = {str(e["path"][1]) for e in under if str(e.get("type") or "") not in _FINAL_TYPES}
    final_under = {str(e["path"][1]) for e in under if str(e.get("type") or "") in _FINAL_TYPES}
    left, kept = [], []
    for number in numbers:
        issue = repository.get(f"i{number}")
        refs = issue.get("closedByPullRequestsReferences") if isinstance(issue, dict) else None
        nodes = refs.get("nodes") if isinstance(refs, dict) else None
        alias = f"i{number}"
        if isinstance(nodes, list) and alias not in failed_under and (alias in final_under
                                                                    or all(isinstance(n, dict) for n in nodes)):
            total = refs.get("totalCount")
            if (isinstance(total, int) and total > len(nodes)) or alias in final_under:
                kept.append(number)
        elif not (issue is None and f"i{number}" in gone):
            left.append(number)
    paths = {f"i{n}" for n in left}
    said = _first_message(errors, lambda e: isinstance(e.get("path"), list) and len(e["path"]) > 1
                          and str(e["path"][1]) in paths)
    why = (f"GraphQL left {len(left)} issue(s) unanswered: {said or 'no data for them'}" if left else
           f"{len(kept)} issue(s) have more closing PRs than the {PRS_PER_ISSUE} one query lists" if kept else "")
    return Answered(links, left, kept, why)


# the error types of a spent GraphQL budget: RATE_LIMITED, and RATE_LIMIT (code graphql_rate_limit) as GitHub
# also answers now (githubkit#271)
_LIMIT_TYPES = frozenset({"RATE_LIMITED", "RATE_LIMIT"})


def _verdict(status: int, body: Any) -> str:
    """"ok", "retry" (worth asking again), "gone" (not to be had on this host) or "failed" (this batch)."""
    if status == 200 and isinstance(body, dict) and isinstance(body.get("data"), dict):
        return "ok"
    text = str(body)[:500].lower()
    limited = isinstance(body, dict) and bool(_LIMIT_TYPES & {str(e.get("type") or "") for e in body.get("errors") or []
                                                              if isinstance(e, dict)})
    if limited:
        # the budget spent ("do not retry until after x-ratelimit-reset", up to an hour away), whatever
        # status carries it: given up for the run, the REST timeline reads the rest
        return "gone"
    # a secondary limit comes as 403 or as 200 with its message (docs.github.com, GraphQL rate limits)
    if status == 429 or (status in (200, 403) and "rate limit" in text):
        # a limit (GitHub answers 403 or 429; wait a minute at least before asking again): not worth
        # hammering within seconds, not a verdict on the host either
        return "failed"
    if status in RETRY_STATUSES:
        return "retry"
    if status in GONE_STATUSES:
        return "gone"
    if status == 200:
        errors = body.get("errors") if isinstance(body, dict) else None
        errors = [e for e in errors if isinstance(e, dict)] if isinstance(errors, list) else []
        said = " ".join(str(e.get("message") or "") for e in errors).lower()
        # GitHub's "Something went wrong ... may be the result of a timeout": asked again; any other error
        # (a schema without the field): given up for the run, asking again gives the same
        return "retry" if "timeout" in said or "went wrong" in said else "gone"
    return "gone" if 400 <= status < 500 else "retry"


def _first_message(errors: list[Any], where: Any = lambda e: True) -> str:
    """The first error's message (of those `where` accepts), as a why says it: 160 characters at most."""
    return next((str(e.get("message") or "")[:160] for e in errors if isinstance(e, dict) and where(e)), "")


def _why(status: int, body: Any = None) -> str:
    errors = body.get("errors") if isinstance(body, dict) else None
    said = _first_message(errors) if isinstance(errors, list) else ""
    if status == 200 and said:
        return f"GraphQL answered: {said}"
    if status == 0:
        return "GraphQL could not be reached"
    if status == 501:
        return "GraphQL answered 501: not available on this host"
    return f"GraphQL answered {status}"


def closing_refs(source: Any, repo: str, numbers: list[int]) -> ClosingRead:
    """The platform's closing references for these issues of ``repo``, and which could not be read.

    Nothing is unread where GraphQL is not part of the plan (another platform, no token, no issue).
    """
    client = getattr(source, "client", None)
    if getattr(source, "platform", "") != "github" or not isinstance(client, ApiClient) or not numbers:
        return ClosingRead()
    if not client.has_token:
        return ClosingRead()
    host = _hosts.setdefault(client, _Host())
    owner, _, name = repo.partition("/")
    if host.gone:
        return ClosingRead(unread=sorted(numbers), why=host.gone)
    if not (_SAFE.match(owner) and _SAFE.match(name)):
        return ClosingRead(unread=sorted(numbers), why="repository name not askable through GraphQL")
    read = ClosingRead()
    wanted = sorted(numbers)
    for start in range(0, len(wanted), BATCH):
        part = wanted[start:start + BATCH]
        if host.gone:
            read.unread += part
            continue
        verdict, status, body, asking, attempt, partial = "retry", 0, None, part, 0, False
        while attempt < ATTEMPTS:
            attempt += 1
            if attempt > 1:
                client.sleep(min(client.backoff_max, client.backoff_base * 2 ** (attempt - 2)) / client.time_scale)
            status, body = client.post_json(graphql_url(client.base_url),
                                            {"query": closing_query(owner, name, asking)}, endpoint=ENDPOINT)
            verdict, partial = _verdict(status, body), False
            if verdict == "ok":
                got = read_answer(body, repo, asking)
                for number, links in got.links.items():
                    read.links.setdefault(number, []).extend(links)
                if got.kept:                  # not to be had by asking again (cut short, no such repository)
                    read.unread += got.kept
                    read.why = got.why
                asking = got.left             # nulled by an error beside the data: asked again
                if not asking:
                    break
                read.why, verdict, partial = got.why, "retry", True
            elif verdict != "retry":
                break
        if verdict == "ok":
            host.failed_in_row = 0
            continue
        read.unread += asking
        if partial:
            # the host answers, only not about these issues: named, the host not given up
            host.failed_in_row = 0
            read.why = f"{read.why} (after {attempt} attempt(s))"
            continue
        read.why = _why(status, body) + ("" if verdict == "gone" else f" (after {attempt} attempt(s))")
        host.failed_in_row += 1
        # Unreachable three times (each ask may have waited a read timeout): not worth another batch.
        if verdict == "gone" or host.failed_in_row >= FAILED_BATCHES or status == 0:
            host.gone = read.why if verdict == "gone" else f"{read.why}; given up for {client.host} this run"
            log.warning("closing references: %s; the REST timeline is the only source from here", host.gone)
    if read.unread and not read.why:
        read.why = host.gone
    return read
