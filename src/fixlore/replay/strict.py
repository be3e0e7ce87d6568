"""Strict replay: the platform as documented or seen live, not as our client would like it.

The default replay answers every request the friendly way the client was written for. A
strict server adds the behaviours the GitCode docs, changelog and other live clients report
(reference/gitcode-api.md §2, §5, §13) and GitHub's REST docs describe, each one a named quirk
so a test can switch a single one on:

``sort_ignored``        GitCode lists order only by ``order_by=``; ``sort=``/``direction=`` are dropped
                        (the documented form is unproven live; ``order_by`` is what other clients saw work).
``order_ignored``       (not in the named sets) a list that ignores every sort form and comes in creation
                        order, the case a client must detect rather than assume away.
``filter_ignored``      (not in the named sets) time filters (``since``, ``updated_after``...) have no effect,
                        as the changelog shows they once had none (fixed 2024-11-15/21).
``per_page_cap``        ``per_page`` silently capped (50) while ``total_page`` describes the capped pages.
``no_totals``           no ``total_page``/``total_count`` headers (the OpenAPI pages declare none).
``commits_ignore_page`` a PR's commit list answers every ``page`` with the first page (items carry
                        ``sha`` and no ``id``, as GitCode's and GitHub's do).
``repeat_page``         the first ask for page >= 2 of any list is answered with the page before it.
``closed_module``       one repo's issue list is refused: GitCode 403 "issue module is closed",
                        GitHub 410 "Issues are disabled for this repo" (forks, archived projects); its repo
                        object says ``has_issues: false``, as GitHub's does for a repo with issues disabled.
``module_closed_late``  (not in the named sets) as ``closed_module``, but the repo objects still say
                        ``has_issues: true``: the module was switched off after the repo list was read.
``merged_as_closed``    GitCode: every other merged PR reads ``state: closed`` with ``merged_at`` set
                        (the ``mark_auto_merged_mr_as_closed`` switch), everywhere: a ``state=closed`` list
                        holds it and a ``state=merged`` list does not.
``close_actions``       GitCode: issue close log entries under other names than ``closed``, some with only
                        the log text, some with nothing but the issue's ``finished_at`` to tell.
``secondary_limit``     GitHub: every ``secondary_every``-th request is a 403 "secondary rate limit" without
                        ``Retry-After``, and so is any request in the minute after one (GitHub asks for a
                        minute's wait and punishes clients that retry sooner).
``sort_combined_400``   (not in the named sets) a list asked with ``order_by`` together with both ``sort`` and
                        ``direction`` answers 400 (GitCode) or 422 (GitHub), as a server that validates its query
                        strictly does (GitCode's pull list answers 400 to ``sort=desc``).
``pages_ignored``       (not in the named sets) a PR's commit list ignores ``page`` and ``per_page``: every ask
                        answers the whole list (150 items to ``per_page=100``), ``total_page`` still counted for
                        the ``per_page`` asked.
``graphql_501``         (not in the named sets) GitHub: ``POST /graphql`` answers 501 Not Implemented, as a GitHub
                        Enterprise server or a proxy without GraphQL does.
``graphql_flaky``       (not in the named sets) GitHub: the first ask of each GraphQL query answers 502 Bad Gateway
                        (GitHub's GraphQL does so on heavy queries now and then); asked again it answers.
``graphql_partial``     (not in the named sets) GitHub: a GraphQL answer holds every other issue asked for the
                        first time null and, beside the data, an error whose ``path`` names it
                        ("Something went wrong while executing your query. This may be the result of a
                        timeout"): a field that fails is nulled and its siblings kept (GraphQL spec, "Handling
                        Field Errors"); asked again, such an issue is answered.
``graphql_budget``      (not in the named sets) GitHub: GraphQL queries are counted against a budget of their own
                        (``graphql_points`` an hour, scaled), apart from REST's, and their answers carry its
                        ``X-RateLimit-*`` headers with ``X-RateLimit-Resource: graphql``; once it is spent a query
                        answers 200 with a ``RATE_LIMITED`` error, as GitHub's GraphQL API does.
``moved_repos``         (not in the named sets) every ``/repos/{owner}/{repo}...`` request answers 301 Moved
                        Permanently to ``/repositories/{id}...``, as GitHub does for a renamed or transferred
                        repository (GitCode documents 301 with Location too); see ``moved.py``.
``null_commit_id``      GitHub: ``closed`` entries of the REST timeline and events list carry ``commit_id``
                        and ``commit_url`` null even when a commit or a merged PR closed the issue, as GitHub
                        does for many closes made through a PR. GraphQL (``github_graphql.py``) reads the
                        world itself, so it still knows the link.

Which repo is refused is decided by the world alone (the repo with the fewest issues, of those
that have any, the last in name order on a tie: modules are switched off on small side projects,
and the big repos stay readable for the other quirks), so a test can ask
:meth:`Quirks.refused_repos` and check the harvest reported it.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from fixlore.core.errors import ConfigError
from fixlore.replay.listing import Answer
from fixlore.replay.world import World

GITCODE_QUIRKS = frozenset({"sort_ignored", "per_page_cap", "commits_ignore_page", "repeat_page", "closed_module",
                            "merged_as_closed", "close_actions"})
GITHUB_QUIRKS = frozenset({"commits_ignore_page", "repeat_page", "closed_module", "secondary_limit",
                           "null_commit_id"})
# Faults a harvester must adapt to (issue #21); switched on one by one, never in a named set.
ADAPT_QUIRKS = frozenset({"sort_combined_400", "pages_ignored", "graphql_501", "graphql_flaky", "graphql_partial",
                          "moved_repos", "graphql_budget", "module_closed_late"})
ALL_QUIRKS = GITCODE_QUIRKS | GITHUB_QUIRKS | ADAPT_QUIRKS | {"no_totals", "order_ignored", "filter_ignored"}

# Named sets: `--strict` picks the platform's own; the variant drops GitCode's paging headers.
NAMED = {"gitcode": GITCODE_QUIRKS, "gitcode-no-totals": GITCODE_QUIRKS | {"no_totals"}, "github": GITHUB_QUIRKS}

_ISSUE_LISTS = ("/repos/{owner}/{repo}/issues",)
_SORTED_LISTS = ("/repos/{owner}/{repo}/issues", "/repos/{owner}/{repo}/pulls", "/org/{org}/pull_requests")
_COMMITS = "/repos/{owner}/{repo}/pulls/{number}/commits"
_ISSUE_LOGS = "/repos/{owner}/issues/{number}/operate_logs"
_CLOSE_HISTORY = ("/repos/{owner}/{repo}/issues/{number}/timeline", "/repos/{owner}/{repo}/issues/{number}/events")
_REPO_OBJECTS = ("/orgs/{org}/repos", "/repos/{owner}/{repo}")
_ISSUE_PULLS = "/repos/{owner}/{repo}/issues/{number}/pull_requests"

GITCODE_MODULE_CLOSED = {"error_code": 403, "error_code_name": "FORBIDDEN",
                         "error_message": "issue module is closed"}
GITHUB_ISSUES_DISABLED = {"message": "Issues are disabled for this repo",
                          "documentation_url": "https://docs.github.com/rest/issues/issues#list-repository-issues",
                          "status": "410"}

_GRAPHQL_REPO = re.compile(r'repository\s*\([^)]*\)')
GRAPHQL_TIMEOUT = ("Something went wrong while executing your query. This may be the result of a timeout, or it "
                   "could be a GitHub bug. Please include `0000:0000:0000000:0000000:00000000` when reporting this "
                   "issue.")

# Close log entries as a GitCode that names them otherwise might write them: (action_type, content or None=keep).
_CLOSE_VARIANTS = (("issue_close", None), ("update_state", "将任务状态修改为 已关闭"), ("state_change", ""))


@dataclass
class Quirks:
    """The quirks a strict server plays (names above) and their knobs."""

    names: frozenset[str] = frozenset()
    per_page_cap: int = 50
    secondary_every: int = 40
    secondary_seconds: float = 60.0
    graphql_points: int = 5000
    _seen_pages: set[str] = field(default_factory=set, repr=False)
    _refused_names: frozenset[str] | None = field(default=None, repr=False)   # lower-cased, set by refuse()
    _limited_until: float = field(default=0.0, repr=False)
    retried_too_soon: int = 0            # requests that came back inside a secondary limit's minute
    _graphql_seen: set[str] = field(default_factory=set, repr=False)
    _partial_seen: set[str] = field(default_factory=set, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def of(cls, spec: "bool | str | Quirks | None", platform: str) -> "Quirks":
        """``True`` -> the platform's named set; a set name; a comma list of quirk names; a Quirks."""
        if isinstance(spec, Quirks):
            return spec
        if not spec:
            return cls()
        if spec is True:
            return cls(frozenset(NAMED[platform]))
        text = str(spec).strip()
        if text in NAMED:
            return cls(frozenset(NAMED[text]))
        names = frozenset(n.strip() for n in text.split(",") if n.strip())
        unknown = names - ALL_QUIRKS
        if unknown:
            raise ConfigError(f"unknown strict quirk(s) {', '.join(sorted(unknown))} "
                             f"(sets: {', '.join(NAMED)}; quirks: {', '.join(sorted(ALL_QUIRKS))})")
        return cls(names)

    def __bool__(self) -> bool:
        return bool(self.names)

    def on(self, name: str) -> bool:
        return name in self.names

    def reset(self) -> None:
        with self._lock:
            self._seen_pages.clear()
            self._graphql_seen.clear()
            self._partial_seen.clear()
            self._limited_until = 0.0
            self.retried_too_soon = 0
            self._refused_names = None      # worked out again from the world served next

    # -- which repos refuse their issue list
    def refused_repos(self, world: World) -> set[str]:
        if not (self.on("closed_module") or self.on("module_closed_late")):
            return set()
        counts = [(len(world.issue_numbers(o, r)), f"{o}/{r}") for o, r in world.repos()]
        counts = [(n, name) for n, name in counts if n]
        if not counts:
            return set()
        fewest = min(n for n, _ in counts)
        return {max((name for n, name in counts if n == fewest), key=str.lower)}

    def view(self, platform: str, world: World) -> World:
        """The world as this server's data layer sees it: quirks that change what a filter matches live here."""
        if platform == "gitcode" and self.on("merged_as_closed"):
            return _MergedAsClosed(world)   # type: ignore[return-value]
        return world

    # -- before the handler
    def rewrite_query(self, platform: str, template: str, values: dict[str, str]) -> dict[str, str]:
        out = dict(values)
        if platform == "gitcode" and self.on("sort_ignored") and template in _SORTED_LISTS:
            out.pop("sort", None)
            out.pop("direction", None)
        if self.on("order_ignored") and template in _SORTED_LISTS:
            for name in ("order_by", "sort", "direction"):
                out.pop(name, None)
        if self.on("filter_ignored") and template in _SORTED_LISTS:
            for name in ("since", "updated_after", "updated_before", "created_after", "created_before"):
                out.pop(name, None)
        if self.on("per_page_cap") and "per_page" in out:
            try:
                out["per_page"] = str(min(int(out["per_page"]), self.per_page_cap))
            except ValueError:
                pass
        if self.on("commits_ignore_page") and template == _COMMITS:
            out.pop("page", None)
        return out

    def refuse(self, platform: str, template: str, params: dict[str, str], world: World,
               clock: Callable[[], float] = time.monotonic, ordinal: int = 0, time_scale: float = 1.0) -> Answer | None:
        """An error answer this request gets instead of its data, or None."""
        if platform == "github" and self.on("secondary_limit"):
            now = clock()
            with self._lock:
                if now < self._limited_until or (ordinal and ordinal % self.secondary_every == 0):
                    if now < self._limited_until:
                        self.retried_too_soon += 1
                    else:
                        self._limited_until = now + self.secondary_seconds / time_scale
                    from fixlore.replay.api_github import SECONDARY_LIMIT_BODY
                    return Answer(403, SECONDARY_LIMIT_BODY)
        if self._refused_names is None:
            self._refused_names = frozenset(r.lower() for r in self.refused_repos(world))
        if template in _ISSUE_LISTS or template.startswith("/repos/{owner}/{repo}/issues/"):
            repo = f"{params.get('owner', '')}/{params.get('repo', '')}".lower()
            if repo in (self._refused_names or ()):
                if platform == "gitcode":
                    return Answer(403, GITCODE_MODULE_CLOSED)
                return Answer(410, GITHUB_ISSUES_DISABLED)
        return None

    def answer_instead(self, platform: str, template: str, params: dict[str, str], values: dict[str, str],
                       world: World) -> Answer | None:
        """The adapt quirks' answers, given instead of the handler's (None: the handler answers)."""
        if (self.on("sort_combined_400") and template in _SORTED_LISTS
                and {"order_by", "sort", "direction"} <= set(values)):
            message = "order_by cannot be combined with sort and direction"
            if platform == "gitcode":
                return Answer(400, {"error_code": 400, "error_code_name": "UN_KNOW", "error_message": message})
            return Answer(422, {"message": "Validation Failed", "errors": [{"message": message}]})
        if self.on("pages_ignored") and template == _COMMITS:
            canon = world.canonical(params.get("owner", ""), params.get("repo", ""))
            number = params.get("number", "")
            if canon is None or not number.isdigit():
                return None
            items = list(world.pull_file(*canon, int(number), "commits") or [])
            try:
                per_page = max(1, int(values.get("per_page") or 20))
            except ValueError:
                per_page = 20
            return Answer(200, items, {"total_count": str(len(items)), "total_page": str(-(-len(items) // per_page))})
        return None

    def graphql_fault(self, platform: str, body: bytes) -> Answer | None:
        """The GraphQL quirks: 501 always, or 502 on the first ask of each query."""
        if platform != "github":
            return None
        if self.on("graphql_501"):
            return Answer(501, {"message": "Not Implemented"})
        if self.on("graphql_flaky"):
            key = body.decode("utf-8", "replace")
            with self._lock:
                first = key not in self._graphql_seen
                self._graphql_seen.add(key)
            if first:
                return Answer(502, "<html><head><title>502 Bad Gateway</title></head><body></body></html>")
        return None

    def graphql_partial(self, platform: str, body: bytes, answer: Answer) -> Answer:
        """``graphql_partial``: every other issue asked for the first time is lost to a field error."""
        data = answer.body.get("data") if isinstance(answer.body, dict) else None
        repository = data.get("repository") if isinstance(data, dict) else None
        if platform != "github" or not self.on("graphql_partial") or not isinstance(repository, dict):
            return answer
        named = _GRAPHQL_REPO.search(body.decode("utf-8", "replace"))
        where = named.group(0) if named else ""
        with self._lock:
            fresh = [alias for alias, issue in repository.items()
                     if issue is not None and f"{where}:{alias}" not in self._partial_seen]
            self._partial_seen.update(f"{where}:{alias}" for alias in repository)
        lost = fresh[::2]
        if not lost:
            return answer
        errors = list(answer.body.get("errors") or []) + [
            {"message": GRAPHQL_TIMEOUT, "path": ["repository", alias], "locations": []} for alias in lost]
        kept = {alias: (None if alias in lost else issue) for alias, issue in repository.items()}
        return replace(answer, body={**answer.body, "data": {**data, "repository": kept}, "errors": errors})

    # -- after the handler
    def reshape(self, platform: str, template: str, answer: Answer, url_key: str) -> Answer:
        if answer.status != 200:
            return answer
        body = answer.body
        headers = dict(answer.headers)
        if self.on("no_totals"):
            headers.pop("total_page", None)
            headers.pop("total_count", None)
        refused = self._refused_names
        if refused and template in _REPO_OBJECTS and self.on("closed_module"):
            body = _map_items(body, lambda r: _issues_switch(r, refused))
        if platform == "gitcode" and self.on("merged_as_closed") and template == _ISSUE_PULLS:
            body = _map_items(body, _merged_as_closed)      # an issue's own PR list, not read through the view
        if platform == "gitcode" and self.on("close_actions") and template == _ISSUE_LOGS:
            body = _map_items(body, _renamed_close)
        if platform == "github" and self.on("null_commit_id") and template in _CLOSE_HISTORY:
            body = _map_items(body, _null_commit)
        page_of = answer.page_of
        if self.on("repeat_page") and page_of is not None and (answer.page or 1) > 1:
            with self._lock:
                first_ask = url_key not in self._seen_pages
                self._seen_pages.add(url_key)
            if first_ask:
                body = page_of(answer.page - 1)
        return replace(answer, body=body, headers=headers)


def _map_items(body: Any, fn: Callable[[dict], dict]) -> Any:
    if isinstance(body, list):
        return [fn(dict(it)) if isinstance(it, dict) else it for it in body]
    if isinstance(body, dict):
        return fn(dict(body))
    return body


def _merged_as_closed(pull: dict) -> dict:
    try:
        even = int(str(pull.get("number") or 0)) % 2 == 0
    except ValueError:
        even = False
    if even and str(pull.get("state")) == "merged" and pull.get("merged_at"):
        pull["state"] = "closed"
    return pull


def _renamed_close(entry: dict) -> dict:
    if str(entry.get("action_type")) != "closed":
        return entry
    try:
        variant = _CLOSE_VARIANTS[int(str(entry.get("id") or 0)) % len(_CLOSE_VARIANTS)]
    except ValueError:
        variant = _CLOSE_VARIANTS[0]
    entry["action_type"] = variant[0]
    if "action" in entry:
        entry["action"] = variant[0]
    if variant[1] is not None:
        entry["content"] = variant[1]
    return entry


def _null_commit(event: dict) -> dict:
    if event.get("event") == "closed":
        event["commit_id"] = None
        event["commit_url"] = None
    return event


def _issues_switch(repo: dict, refused: frozenset[str]) -> dict:
    if str(repo.get("full_name") or "").lower() in refused:
        repo["has_issues"] = False
    return repo


class _MergedAsClosed:
    """A world whose merged PRs read as the ``merged_as_closed`` switch shows them."""

    def __init__(self, world: World) -> None:
        self._world = world

    def __getattr__(self, name: str) -> Any:
        return getattr(self._world, name)

    def pull(self, owner: str, repo: str, number: int) -> dict | None:
        found = self._world.pull(owner, repo, number)
        return _merged_as_closed(dict(found)) if isinstance(found, dict) else found

    def pulls(self, owner: str, repo: str) -> list[dict]:
        return [_merged_as_closed(dict(p)) if isinstance(p, dict) else p for p in self._world.pulls(owner, repo)]
