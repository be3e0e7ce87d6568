"""GitCode v5: the endpoints (reference gitcode-api.md §2) and pure normalisers raw JSON -> model.

Quirks handled here: issue numbers as strings, ``finished_at`` as the close time, ``""``/null/
missing times, ``+08:00`` and millisecond times, PR ``merged`` never trusted (state + merged_at
decide), ``nubmer`` typo in comment targets, ``issue_created_at`` on PR->issue items,
``repo`` as a query parameter of issue operate_logs, PR lists rejecting ``sort=desc``.

It is over 400 lines because the normalisers for every GitCode object and the `GitCodeSource`
endpoints sit together (the same quirks on both sides); the normalisers could be a module of their own.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from datetime import datetime, timedelta
from typing import Any, Iterator

from fixlore.core import model as m
from fixlore.core.errors import SourceError
from fixlore.core.timeutil import PLATFORM_ZONES, parse_time
from fixlore.rules.refs import log_number
from fixlore.rules.unread import COMMENTS, COMMITS, EVENTS, FILES, LINKS
from fixlore.sources.base import (IssueDetail, NewestFirst, PullDetail, as_int, as_str, assignees_of, label_names,
                                  issue_list, login_of, read_part, sub)
from fixlore.sources.http import ApiClient, NotFound, repo_pages
from fixlore.sources.listforms import OrderForms, ProbeForms, ordered_pages
from fixlore.sources.policy import GITCODE_POLICY

PLATFORM = "gitcode"

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------
# Normalisers (pure)


def repo_full_name(raw: dict[str, Any]) -> str:
    ns = sub(raw, "namespace", "path")
    path = raw.get("path")
    if ns and path:
        return f"{ns}/{path}"
    return as_str(raw.get("full_name") or raw.get("path_with_namespace"))


def normalize_repo(raw: dict[str, Any], platform: str = PLATFORM) -> m.Repo:
    full = repo_full_name(raw)
    owner, _, name = full.partition("/")
    html = as_str(raw.get("html_url") or raw.get("web_url"))
    if html.endswith(".git"):
        html = html[:-4]
    return m.Repo(platform=platform, full_name=full, owner=owner, name=name or as_str(raw.get("path")),
                  display_name=as_str(raw.get("name") or raw.get("human_name")),
                  default_branch=as_str(raw.get("default_branch")), html_url=html,
                  description=as_str(raw.get("description")),
                  updated_at=parse_time(raw.get("updated_at")), raw=raw, issues_enabled=raw.get("has_issues") is not False)


_REASON_WORDS = (
    (m.REASON_DUPLICATE, ("duplicate", "重复")),
    (m.REASON_REJECTED, ("reject", "拒绝", "不予", "invalid", "无效", "won't", "wontfix", "不受理")),
    (m.REASON_NOT_PLANNED, ("not_planned", "not planned", "暂不", "不计划", "不修复", "挂起", "suspend")),
    (m.REASON_COMPLETED, ("done", "complete", "fixed", "resolved", "已完成", "完成", "已解决", "已修复",
                          "closed", "已关闭", "accepted", "验收")),
)


def state_reason_of(text: str) -> str:
    """Map a free-text workflow state or label to a normalised close reason ("" when unknown)."""
    low = text.strip().lower()
    if not low:
        return m.REASON_UNKNOWN
    for reason, words in _REASON_WORDS:
        if any(w in low for w in words):
            return reason
    return m.REASON_UNKNOWN


def issue_state_reason(raw: dict[str, Any], labels: list[str]) -> str:
    explicit = as_str(raw.get("state_reason"))
    if explicit:
        return state_reason_of(explicit.replace("_", " ")) or explicit
    workflow = as_str(raw.get("issue_state") or sub(raw, "issue_state_detail", "title"))
    reason = state_reason_of(workflow)
    if reason:
        return reason
    for label in labels:                       # "duplicate", "wontfix", "invalid" labels
        reason = state_reason_of(label)
        if reason and reason != m.REASON_COMPLETED:
            return reason
    return m.REASON_UNKNOWN


def normalize_state(value: Any) -> str:
    state = as_str(value).lower()
    return {"opened": "open", "reopened": "open", "progressing": "open", "rejected": "closed"}.get(state, state)


def normalize_issue(raw: dict[str, Any], repo: str) -> m.Issue:
    labels = label_names(raw.get("labels"))
    repo_name = repo or repo_full_name(raw.get("repository") or {})
    state = normalize_state(raw.get("state"))
    reason = issue_state_reason(raw, labels)
    if as_str(raw.get("state")).lower() == "rejected" and not reason:
        reason = m.REASON_REJECTED                      # Gitee's "rejected" state
    return m.Issue(
        repo=repo_name, number=as_int(raw.get("number")), title=as_str(raw.get("title")),
        body=as_str(raw.get("body")), state=state,
        created_at=parse_time(raw.get("created_at") or raw.get("issue_created_at")),
        updated_at=parse_time(raw.get("updated_at") or raw.get("issue_updated_at")),
        closed_at=parse_time(raw.get("finished_at")) or parse_time(raw.get("closed_at")),
        author=login_of(raw.get("user")), state_reason=reason,
        workflow_state=as_str(raw.get("issue_state") or sub(raw, "issue_state_detail", "title")),
        issue_type=as_str(raw.get("issue_type") or sub(raw, "issue_type_detail", "title")),
        labels=labels, comments_count=as_int(raw.get("comments")), html_url=as_str(raw.get("html_url")),
        closed_by=login_of(raw.get("closed_by")), assignees=assignees_of(raw), platform=PLATFORM, raw=raw)


def normalize_pull(raw: dict[str, Any], repo: str = "") -> m.Pull:
    base_repo = repo_full_name(sub(raw, "base", "repo") or {}) if sub(raw, "base", "repo") else ""
    if "/" not in base_repo:
        base_repo = ""
    head_repo = as_str(sub(raw, "head", "repo", "full_name"))
    return m.Pull(
        repo=repo or base_repo, number=as_int(raw.get("number") if raw.get("number") is not None else raw.get("iid")),
        title=as_str(raw.get("title")), body=as_str(raw.get("body") or raw.get("description")),
        state=normalize_state(raw.get("state")),
        created_at=parse_time(raw.get("created_at")), updated_at=parse_time(raw.get("updated_at")),
        merged_at=parse_time(raw.get("merged_at")), closed_at=parse_time(raw.get("closed_at")),
        author=login_of(raw.get("user") or raw.get("author")),
        head_ref=as_str(sub(raw, "head", "ref") or raw.get("source_branch")), head_repo=head_repo,
        base_ref=as_str(sub(raw, "base", "ref") or raw.get("target_branch")),
        merge_commit_sha=as_str(raw.get("merge_commit_sha")),
        html_url=as_str(raw.get("html_url") or raw.get("web_url")), labels=label_names(raw.get("labels")),
        head_sha=as_str(sub(raw, "head", "sha")), platform=PLATFORM, raw=raw)


def normalize_comment(raw: dict[str, Any], repo: str, parent_kind: str, number: int | None = None) -> m.Comment:
    if number is None:
        target = sub(raw, "target", "issue") or {}
        number = as_int(target.get("number", target.get("nubmer")))
    return m.Comment(repo=repo, parent_kind=parent_kind, parent_number=number, id=as_str(raw.get("id")),
                     author=login_of(raw.get("user")), body=as_str(raw.get("body")),
                     created_at=parse_time(raw.get("created_at")), raw=raw)


_CLOSE_TYPES = {"closed", "close", "issue_closed", "close_issue", "merge_request_closed"}
_REOPEN_TYPES = {"reopened", "reopen", "issue_reopened", "reopen_issue"}
_MERGE_TYPES = {"merged", "merge", "merge_request_merged"}
_LINK_TYPES = {"add_issue_mr_link", "add_mr_issue_link"}
# Action types documented or seen live that are not a close (gitcode-api.md §2.5, §2.9).
_OTHER_TYPES = {"label", "milestone", "title", "discussion", "opened", "issue_state", "assignee", "description",
                "priority", "issue_type", "branch", "comment"}
KNOWN_ACTION_TYPES = frozenset(_CLOSE_TYPES | _REOPEN_TYPES | _MERGE_TYPES | _LINK_TYPES | _OTHER_TYPES)
_CLOSED_WORDS = re.compile(r"关闭|\bclosed?\b", re.IGNORECASE)
_REOPEN_WORDS = re.compile(r"重新打开|重新开启|reopen", re.IGNORECASE)
# A log entry this close to the issue's finished_at, of a type we do not know, is taken as the close.
CLOSE_TIME_SLACK_S = 2


def action_type_of(raw: dict[str, Any]) -> str:
    return as_str(raw.get("action_type") or raw.get("action")).lower()


def _log_action(raw: dict[str, Any], closed_at: datetime | None = None) -> tuple[str, str]:
    """(event action, the signal that told a close: "action_type" | "text" | "finished_at" | "")."""
    kind = action_type_of(raw)
    content = as_str(raw.get("content"))
    if kind in _REOPEN_TYPES:
        return m.EV_REOPENED, ""
    if kind in _CLOSE_TYPES:
        return m.EV_CLOSED, "action_type"
    if kind in _MERGE_TYPES:
        return m.EV_MERGED, ""
    if kind in _LINK_TYPES:
        return m.EV_LINKED, ""
    if kind == "label":
        return m.EV_LABELED, ""
    # A state change, or a type we do not know: what the entry says, then when it happened.
    if "state" in kind or kind in ("update", "status") or kind not in KNOWN_ACTION_TYPES:
        if _REOPEN_WORDS.search(content):
            return m.EV_REOPENED, ""
        if _CLOSED_WORDS.search(content):
            return m.EV_CLOSED, "text"
    if kind not in KNOWN_ACTION_TYPES and closed_at is not None:
        when = parse_time(raw.get("created_at"))
        if when is not None and abs((when - closed_at).total_seconds()) <= CLOSE_TIME_SLACK_S:
            return m.EV_CLOSED, "finished_at"
    return m.EV_OTHER, ""


read_log_action = _log_action      # the probe reads a live log with the harvester's own rule


def _linked_number(raw: dict[str, Any]) -> int:
    for key in ("merge_request_iid", "mr_number", "pull_number", "issue_number", "number"):
        if raw.get(key) not in (None, ""):
            return as_int(raw.get(key))
    found = log_number(as_str(raw.get("content")))
    return int(found) if found is not None else 0


def normalize_issue_log(raw: dict[str, Any], repo: str, number: int,
                        closed_at: datetime | None = None) -> tuple[m.Event, m.Link | None]:
    """One operation-log entry of an issue; ``closed_at`` (the issue's finished_at) helps tell its close."""
    action, signal = _log_action(raw, closed_at)
    detail: dict[str, Any] = {"action_type": as_str(raw.get("action_type")), "content": as_str(raw.get("content"))}
    if raw.get("commit_id"):
        detail["commit_id"] = as_str(raw["commit_id"])
    if signal and signal != "action_type":
        detail["close_signal"] = signal      # a close recognised by its text or its time, not its name
    link = None
    if action == m.EV_LINKED:
        pull_no = _linked_number(raw)
        pull_repo = _repo_of_ref(raw.get("base"), repo)
        detail.update(pull=pull_no, pull_repo=pull_repo)
        if pull_no:
            link = m.Link(issue_repo=repo, issue_number=number, pull_repo=pull_repo, pull_number=pull_no,
                          source="operate_log")
    event = m.Event(repo=repo, parent_kind="issue", parent_number=number, id=as_str(raw.get("id")),
                    action=action, actor=login_of(raw.get("user")), created_at=parse_time(raw.get("created_at")),
                    detail=detail, raw=raw)
    return event, link


def normalize_pull_log(raw: dict[str, Any], repo: str, number: int) -> tuple[m.Event, m.Link | None]:
    action, _signal = _log_action(raw)
    detail: dict[str, Any] = {"action_type": as_str(raw.get("action_type")), "content": as_str(raw.get("content"))}
    link = None
    if action == m.EV_LINKED:
        issue_no = _linked_number(raw)
        detail.update(issue=issue_no, issue_repo=repo)
        if issue_no:
            link = m.Link(issue_repo=repo, issue_number=issue_no, pull_repo=repo, pull_number=number,
                          source="operate_log")
    event = m.Event(repo=repo, parent_kind="pull", parent_number=number, id=as_str(raw.get("id")),
                    action=action, actor=login_of(raw.get("user")), created_at=parse_time(raw.get("created_at")),
                    detail=detail, raw=raw)
    return event, link


def _repo_of_ref(ref: Any, default: str) -> str:
    full = as_str(sub(ref, "repo", "full_name"))
    if "/" in full:
        return full
    ns = sub(ref, "repo", "namespace", "path")
    path = sub(ref, "repo", "path")
    return f"{ns}/{path}" if ns and path else default


def normalize_issue_pull(raw: dict[str, Any], issue_repo: str, issue_number: int) -> tuple[m.Pull, m.Link]:
    pull_repo = _repo_of_ref(raw.get("base"), issue_repo)
    pull = normalize_pull(raw, pull_repo)
    return pull, m.Link(issue_repo=issue_repo, issue_number=issue_number, pull_repo=pull_repo,
                        pull_number=pull.number, source="issue_pulls")


def normalize_pull_issue(raw: dict[str, Any], pull_repo: str, pull_number: int) -> m.Link:
    issue_repo = repo_full_name(raw.get("repository") or {}) or pull_repo
    if "/" not in issue_repo:
        issue_repo = pull_repo
    return m.Link(issue_repo=issue_repo, issue_number=as_int(raw.get("number")), pull_repo=pull_repo,
                  pull_number=pull_number, source="pull_issues")


def normalize_file(raw: dict[str, Any], repo: str, number: int) -> m.FileChange:
    patch = raw.get("patch")
    if isinstance(patch, dict):
        patch = patch.get("diff")
    return m.FileChange(repo=repo, pull_number=number,
                        filename=as_str(raw.get("filename") or sub(raw, "patch", "new_path")),
                        status=as_str(raw.get("status")), additions=as_int(raw.get("additions")),
                        deletions=as_int(raw.get("deletions")), patch=as_str(patch))


def normalize_commit(raw: dict[str, Any], repo: str, number: int) -> m.Commit:
    return m.Commit(repo=repo, pull_number=number, sha=as_str(raw.get("sha") or raw.get("id")),
                    message=as_str(sub(raw, "commit", "message") or raw.get("message")),
                    author=as_str(sub(raw, "commit", "author", "name") or login_of(raw.get("author"))),
                    date=parse_time(sub(raw, "commit", "author", "date") or sub(raw, "commit", "committer", "date")
                                    or raw.get("created_at")))


# ---------------------------------------------------------------------------
# The source




def pull_comments_flat(items: list[Any]) -> list[dict[str, Any]]:
    """A PR's comments as GitCode lists them (§2.9), each root's nested ``reply[]`` after it:
    a reply is a comment of the PR like any other (a reviewer's answer, the author's test report)."""
    out: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, dict):
            out.append(item)
            out.extend(r for r in item.get("reply") or [] if isinstance(r, dict))
    return out


def split_repo(full_name: str) -> tuple[str, str]:
    owner, _, name = full_name.partition("/")
    return owner, name


GITCODE_ZONE = PLATFORM_ZONES[PLATFORM]


def _in_window(items: list[Any], updated_since: datetime | None, given: set[int]) -> Iterator[Any]:
    """Items updated since the bound (or with no time), each number once."""
    for it in items:
        if it.number in given:
            continue
        if updated_since is None or it.updated_at is None or it.updated_at >= updated_since:
            given.add(it.number)
            yield it


class GitCodeSource:
    platform = PLATFORM
    policy = GITCODE_POLICY
    # The ordering forms are tried in the order `sources.listforms` documents (or a probe file
    # chose); whether the server honoured the one it accepted is checked on what comes back (NewestFirst).

    def __init__(self, client: ApiClient, probe: ProbeForms | None = None):
        self.client = client
        self.order_forms = {kind: OrderForms(PLATFORM, kind, probe) for kind in ("issues", "pulls")}
        # Operation-log action types met that we do not know: a live run reports what it saw.
        self.unknown_actions: Counter[str] = Counter()
        # (list path, remedy) for each list whose order could not be proven: "updated_after" when asked
        # again filtered, "walked" when walked to its end without a filter.
        self.unsorted: list[tuple[str, str]] = []

    def _note_actions(self, logs: list[Any]) -> None:
        for raw in logs:
            if isinstance(raw, dict):
                kind = action_type_of(raw)
                if kind and kind not in KNOWN_ACTION_TYPES:
                    self.unknown_actions[kind[:60]] += 1

    def list_repos(self, org: str) -> list[m.Repo]:
        repos: list[m.Repo] = []
        try:
            for page in self.client.paginate(f"/orgs/{org}/repos", {"type": "all"}, endpoint="/orgs/{org}/repos"):
                repos.extend(normalize_repo(r, self.platform) for r in page)
        except NotFound:
            raise SourceError(f"unknown organisation '{org}' on {self.client.host} (404 on its repository list)") from None
        return repos

    def _iter_updated(self, kind: str, path: str, endpoint: str, updated_since: datetime | None,
                      make: Any) -> Iterator[Any]:
        order = NewestFirst()
        given: set[int] = set()
        forms = self.order_forms[kind]
        base = {"state": "all"}
        for page in ordered_pages(forms, lambda form: repo_pages(self.client.paginate(path, {**base, **form},
                                                                                      endpoint=endpoint))):
            params = {**base, **forms.params}
            items = [it for it in (make(raw) for raw in page) if it is not None]
            yield from _in_window(items, updated_since, given)
            times = [it.updated_at for it in items]
            order.page(times, [it.created_at for it in items])
            if order.past(times, updated_since):      # stop at the window only when the order is proven
                return
            if order.broken and updated_since is not None:
                # The sort was ignored: ask the server to filter instead (documented since 2024-11-20),
                # and walk that list to its end; were the filter ignored too, it is the whole list.
                log.info("%s: list not in update order; walking it filtered by updated_after", path)
                self.unsorted.append((path, "updated_after"))
                after = (updated_since - timedelta(seconds=1)).astimezone(GITCODE_ZONE).isoformat(timespec="seconds")
                for filtered in repo_pages(self.client.paginate(path, {**params, "updated_after": after},
                                                                endpoint=endpoint)):
                    yield from _in_window([it for it in (make(raw) for raw in filtered) if it is not None],
                                          updated_since, given)
                return

    def iter_issues(self, repo: str, updated_since: datetime | None) -> Iterator[m.Issue]:
        owner, name = split_repo(repo)
        yield from issue_list(self._iter_updated("issues", f"/repos/{owner}/{name}/issues",
                                                 "/repos/{owner}/{repo}/issues", updated_since,
                                                 lambda raw: normalize_issue(raw, repo)))

    def iter_pulls(self, repo: str, updated_since: datetime | None) -> Iterator[m.Pull]:
        owner, name = split_repo(repo)
        yield from self._iter_updated("pulls", f"/repos/{owner}/{name}/pulls", "/repos/{owner}/{repo}/pulls",
                                      updated_since, lambda raw: normalize_pull(raw, repo))

    def _list(self, path: str, endpoint: str, params: dict[str, Any] | None = None, paged: bool = True) -> list[Any]:
        if paged:
            return [item for page in self.client.paginate(path, params, endpoint=endpoint) for item in page]
        return self.client.get_list(path, params, endpoint=endpoint)     # a 404: the part is unread (read_part)

    def issue_detail(self, issue: m.Issue) -> IssueDetail:
        owner, name = split_repo(issue.repo)
        n = issue.number
        detail = IssueDetail()
        miss = detail.unread
        comments = read_part(miss, COMMENTS, lambda: self._list(f"/repos/{owner}/{name}/issues/{n}/comments",
                                                                "/repos/{owner}/{repo}/issues/{number}/comments"))
        logs = read_part(miss, EVENTS, lambda: self._list(
            f"/repos/{owner}/issues/{n}/operate_logs", "/repos/{owner}/issues/{number}/operate_logs",
            {"repo": name}, paged=False))
        pulls = read_part(miss, LINKS, lambda: self._list(f"/repos/{owner}/{name}/issues/{n}/pull_requests",
                                                          "/repos/{owner}/{repo}/issues/{number}/pull_requests",
                                                          paged=False))
        detail.raw = {name_: payload for name_, part, payload in (("comments", COMMENTS, comments),
                                                                  ("events", EVENTS, logs), ("pulls", LINKS, pulls))
                      if part not in miss}
        detail.comments = [normalize_comment(c, issue.repo, "issue", n) for c in comments if isinstance(c, dict)]
        self._note_actions(logs)
        for raw in logs:
            if isinstance(raw, dict):
                event, link = normalize_issue_log(raw, issue.repo, n, issue.closed_at)
                detail.events.append(event)
                if link:
                    detail.links.append(link)
        for raw in pulls:
            if isinstance(raw, dict):
                pull, link = normalize_issue_pull(raw, issue.repo, n)
                detail.pulls.append(pull)
                detail.links.append(link)
        return detail

    def get_issue(self, repo: str, number: int) -> m.Issue | None:
        owner, name = split_repo(repo)
        raw = self.client.get_object(f"/repos/{owner}/{name}/issues/{number}",
                                     endpoint="/repos/{owner}/{repo}/issues/{number}")
        return normalize_issue(raw, repo) if raw is not None else None

    def get_pull(self, repo: str, number: int) -> m.Pull | None:
        owner, name = split_repo(repo)
        raw = self.client.get_object(f"/repos/{owner}/{name}/pulls/{number}",
                                     endpoint="/repos/{owner}/{repo}/pulls/{number}", keys=("number", "iid"))
        return normalize_pull(raw, repo) if raw is not None else None

    def pull_detail(self, pull: m.Pull) -> PullDetail:
        owner, name = split_repo(pull.repo)
        n = pull.number
        base = f"/repos/{owner}/{name}/pulls/{n}"
        tmpl = "/repos/{owner}/{repo}/pulls/{number}"
        miss: dict[str, Any] = {}
        files = read_part(miss, FILES, lambda: self._list(f"{base}/files", f"{tmpl}/files", paged=False))
        commits = read_part(miss, COMMITS, lambda: self._list(f"{base}/commits", f"{tmpl}/commits"))
        issues = read_part(miss, LINKS, lambda: self._list(f"{base}/issues", f"{tmpl}/issues"))
        logs = read_part(miss, EVENTS, lambda: self._list(f"{base}/operate_logs", f"{tmpl}/operate_logs"))
        comments = read_part(miss, COMMENTS, lambda: self._list(f"{base}/comments", f"{tmpl}/comments"))
        raw = {"files": (FILES, files), "commits": (COMMITS, commits), "issues": (LINKS, issues),
               "events": (EVENTS, logs), "comments": (COMMENTS, comments)}
        detail = PullDetail(pull=pull, raw={k: v for k, (part, v) in raw.items() if part not in miss}, unread=miss)
        detail.files = [normalize_file(f, pull.repo, n) for f in files if isinstance(f, dict)]
        detail.commits = [normalize_commit(c, pull.repo, n) for c in commits if isinstance(c, dict)]
        detail.links = [normalize_pull_issue(i, pull.repo, n) for i in issues if isinstance(i, dict)]
        detail.comments = [normalize_comment(c, pull.repo, "pull", n) for c in pull_comments_flat(comments)]
        self._note_actions(logs)
        for raw in logs:
            if isinstance(raw, dict):
                event, link = normalize_pull_log(raw, pull.repo, n)
                detail.events.append(event)
                if link:
                    detail.links.append(link)
        return detail
