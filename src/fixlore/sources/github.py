"""GitHub REST: endpoints and pure normalisers raw JSON -> model (gitcode-api.md §11).

Differences from GitCode: the issue list mixes in PRs (items with ``pull_request``), PR
``state`` is open|closed and merged means ``merged_at`` non-null (normalised here to state
"merged"), close reasons come as ``state_reason``, history comes from the issue timeline
(``closed`` with ``commit_id``, ``cross-referenced`` from PRs), paging by ``Link`` header.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

from fixlore.core import model as m
from fixlore.core.errors import SourceError
from fixlore.core.timeutil import parse_time
from fixlore.rules.refs import github_repo_in_url
from fixlore.rules.unread import COMMENTS, COMMITS, EVENTS, FILES
from fixlore.sources.base import (IssueDetail, NewestFirst, PullDetail, as_int, as_str, assignees_of, label_names,
                                  issue_list, login_of, read_part, sub)
from fixlore.sources.http import ApiClient, NotFound, repo_pages
from fixlore.sources.listforms import OrderForms, ProbeForms, ordered_pages
from fixlore.sources.policy import GITHUB_POLICY

PLATFORM = "github"
log = logging.getLogger(__name__)

_REASONS = {"completed": m.REASON_COMPLETED, "not_planned": m.REASON_NOT_PLANNED,
            "duplicate": m.REASON_DUPLICATE, "reopened": m.REASON_UNKNOWN}


def normalize_repo(raw: dict[str, Any]) -> m.Repo:
    full = as_str(raw.get("full_name"))
    owner, _, name = full.partition("/")
    return m.Repo(platform=PLATFORM, full_name=full, owner=owner or login_of(raw.get("owner")),
                  name=name or as_str(raw.get("name")), display_name=as_str(raw.get("name")),
                  default_branch=as_str(raw.get("default_branch")), html_url=as_str(raw.get("html_url")),
                  description=as_str(raw.get("description")), updated_at=parse_time(raw.get("updated_at")), raw=raw,
                  issues_enabled=raw.get("has_issues") is not False)


def is_pull_item(raw: dict[str, Any]) -> bool:
    """A PR in GitHub's issue list (or a cross-reference's source): it carries a ``pull_request`` object;
    servers speaking GitHub's API send ``"pull_request": null`` on plain issues."""
    return isinstance(raw, dict) and raw.get("pull_request") is not None


def normalize_issue(raw: dict[str, Any], repo: str) -> m.Issue:
    reason = _REASONS.get(as_str(raw.get("state_reason")).lower(), m.REASON_UNKNOWN)
    labels = label_names(raw.get("labels"))
    if not reason and raw.get("state") == "closed":
        low = {name.lower() for name in labels}
        if "duplicate" in low:
            reason = m.REASON_DUPLICATE
        elif low & {"wontfix", "won't fix", "invalid"}:
            reason = m.REASON_NOT_PLANNED
    return m.Issue(repo=repo, number=as_int(raw.get("number")), title=as_str(raw.get("title")),
                   body=as_str(raw.get("body")), state=as_str(raw.get("state")).lower(),
                   created_at=parse_time(raw.get("created_at")), updated_at=parse_time(raw.get("updated_at")),
                   closed_at=parse_time(raw.get("closed_at")), author=login_of(raw.get("user")),
                   state_reason=reason, labels=labels, comments_count=as_int(raw.get("comments")),
                   html_url=as_str(raw.get("html_url")), closed_by=login_of(raw.get("closed_by")),
                   assignees=assignees_of(raw), platform=PLATFORM, is_pull=is_pull_item(raw), raw=raw)


def normalize_pull(raw: dict[str, Any], repo: str = "") -> m.Pull:
    merged_at = parse_time(raw.get("merged_at") or sub(raw, "pull_request", "merged_at"))
    state = as_str(raw.get("state")).lower()
    if merged_at is not None:
        state = "merged"
    base_repo = as_str(sub(raw, "base", "repo", "full_name"))
    return m.Pull(repo=repo or base_repo, number=as_int(raw.get("number")), title=as_str(raw.get("title")),
                  body=as_str(raw.get("body")), state=state, created_at=parse_time(raw.get("created_at")),
                  updated_at=parse_time(raw.get("updated_at")), merged_at=merged_at,
                  closed_at=parse_time(raw.get("closed_at")), author=login_of(raw.get("user")),
                  head_ref=as_str(sub(raw, "head", "ref")), head_repo=as_str(sub(raw, "head", "repo", "full_name")),
                  base_ref=as_str(sub(raw, "base", "ref")), merge_commit_sha=as_str(raw.get("merge_commit_sha")),
                  html_url=as_str(raw.get("html_url")), labels=label_names(raw.get("labels")),
                  head_sha=as_str(sub(raw, "head", "sha")), platform=PLATFORM, raw=raw)


def normalize_comment(raw: dict[str, Any], repo: str, parent_kind: str, number: int) -> m.Comment:
    return m.Comment(repo=repo, parent_kind=parent_kind, parent_number=number, id=as_str(raw.get("id")),
                     author=login_of(raw.get("user")), body=as_str(raw.get("body")),
                     created_at=parse_time(raw.get("created_at")),
                     association=as_str(raw.get("author_association")).upper(), raw=raw)


def _repo_of_issue_obj(obj: dict[str, Any], default: str) -> str:
    full = as_str(sub(obj, "repository", "full_name"))
    if full:
        return full
    for key in ("url", "html_url"):
        found = github_repo_in_url(as_str(obj.get(key)))
        if found:
            return found
    return default


def normalize_timeline_item(raw: dict[str, Any], repo: str, number: int) -> tuple[m.Event | None, m.Link | None]:
    kind = as_str(raw.get("event"))
    actor = login_of(raw.get("actor") or raw.get("user"))
    when = parse_time(raw.get("created_at") or raw.get("submitted_at"))
    ident = as_str(raw.get("id") or raw.get("node_id") or f"{kind}:{as_str(raw.get('created_at'))}")
    link = None
    detail: dict[str, Any] = {"event": kind}
    if kind == "closed":
        action = m.EV_CLOSED
        if raw.get("commit_id"):
            detail["commit_id"] = as_str(raw["commit_id"])
        if raw.get("state_reason"):
            detail["state_reason"] = as_str(raw["state_reason"])
    elif kind == "reopened":
        action = m.EV_REOPENED
    elif kind == "cross-referenced":
        source_issue = sub(raw, "source", "issue") or {}
        if not is_pull_item(source_issue):
            action = m.EV_CROSS_REF
            detail.update(issue=as_int(source_issue.get("number")),
                          issue_repo=_repo_of_issue_obj(source_issue, repo))
        else:
            action = m.EV_CROSS_REF
            pull_repo = _repo_of_issue_obj(source_issue, repo)
            pull_no = as_int(source_issue.get("number"))
            detail.update(pull=pull_no, pull_repo=pull_repo)
            link = m.Link(issue_repo=repo, issue_number=number, pull_repo=pull_repo, pull_number=pull_no,
                          source="timeline")
    elif kind == "referenced":
        action = m.EV_REFERENCED
        detail["commit_id"] = as_str(raw.get("commit_id"))
    elif kind == "commented":
        return None, None                       # comments come from the comments endpoint
    elif kind == "labeled":
        action = m.EV_LABELED
        detail["label"] = as_str(sub(raw, "label", "name"))
    elif kind == "merged":
        action = m.EV_MERGED
        detail["commit_id"] = as_str(raw.get("commit_id"))
    else:
        action = m.EV_OTHER
    return m.Event(repo=repo, parent_kind="issue", parent_number=number, id=ident, action=action, actor=actor,
                   created_at=when, detail=detail, raw=raw), link


def normalize_file(raw: dict[str, Any], repo: str, number: int) -> m.FileChange:
    return m.FileChange(repo=repo, pull_number=number, filename=as_str(raw.get("filename")),
                        status=as_str(raw.get("status")), additions=as_int(raw.get("additions")),
                        deletions=as_int(raw.get("deletions")), patch=as_str(raw.get("patch")))


def normalize_commit(raw: dict[str, Any], repo: str, number: int) -> m.Commit:
    return m.Commit(repo=repo, pull_number=number, sha=as_str(raw.get("sha")),
                    message=as_str(sub(raw, "commit", "message")),
                    author=as_str(sub(raw, "commit", "author", "name") or login_of(raw.get("author"))),
                    date=parse_time(sub(raw, "commit", "author", "date")))


PER_PAGE = 100      # what ApiClient.paginate asks for, GitHub's documented maximum


def github_time(when: datetime) -> str:
    """A time as GitHub's ``since`` wants it: ``YYYY-MM-DDTHH:MM:SSZ``."""
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _in_window(page: list[dict], times: list[datetime | None], updated_since: datetime | None, make: Any,
               keep: Any, given: set[Any]) -> Iterator[Any]:
    """The page's kept items updated since the bound (or with no time), each number once."""
    for raw, when in zip(page, times):
        number = raw.get("number")
        if number in given or not keep(raw):
            continue
        if updated_since is None or when is None or when >= updated_since:
            given.add(number)
            yield make(raw)


class GitHubSource:
    platform = PLATFORM
    policy = GITHUB_POLICY

    def __init__(self, client: ApiClient, probe: ProbeForms | None = None):
        self.client = client
        self.order_forms = {kind: OrderForms(PLATFORM, kind, probe) for kind in ("issues", "pulls")}
        # (list path, what was done) for each list whose order could not be proven past the window:
        # "since" when asked again filtered, "walked" when walked to its end.
        self.unsorted: list[tuple[str, str]] = []

    def list_repos(self, org: str) -> list[m.Repo]:
        try:
            pages = list(self.client.paginate(f"/orgs/{org}/repos", {"type": "all"}, endpoint="/orgs/{org}/repos",
                                              style="link"))
        except NotFound:
            raise SourceError(f"unknown organisation '{org}' on {self.client.host} (404 on its repository list)") from None
        return [normalize_repo(r) for page in pages for r in page]

    def _iter_updated(self, kind: str, path: str, endpoint: str, updated_since: datetime | None, make: Any,
                      keep: Any, filterable: bool) -> Iterator[Any]:
        """The list newest-updated first, stopped at the window once that order is proven.

        When a page reaches past the window and the order is not proven, the rest could only be
        had by walking to the end; a list GitHub documents a ``since`` filter for (the issue list,
        not the pull list) is asked again with it instead, and that shorter list walked to its end.
        """
        forms = self.order_forms[kind]
        base = {"state": "all"}
        order = NewestFirst()
        given: set[Any] = set()
        noted = False
        for page in ordered_pages(forms, lambda form: repo_pages(self.client.paginate(
                path, {**base, **form}, endpoint=endpoint, style="link"))):
            params = {**base, **forms.params}
            times = [parse_time(raw.get("updated_at")) for raw in page]
            yield from _in_window(page, times, updated_since, make, keep, given)
            order.page(times, [parse_time(raw.get("created_at")) for raw in page])
            if order.past(times, updated_since):      # stop at the window only when the order is proven
                return
            if (noted or updated_since is None or order.proven or len(page) < PER_PAGE   # a short page is the last
                    or not any(t is not None and t < updated_since for t in times)):
                continue
            noted = True
            if not filterable:
                self.unsorted.append((path, "walked"))
                continue
            self.unsorted.append((path, "since"))
            log.info("%s: order not proven past the window; asking it again with since=", path)
            filtered = {**params, "since": github_time(updated_since - timedelta(seconds=1))}
            for page2 in repo_pages(self.client.paginate(path, filtered, endpoint=endpoint, style="link")):
                yield from _in_window(page2, [parse_time(raw.get("updated_at")) for raw in page2], updated_since,
                                      make, keep, given)
            return

    def iter_issues(self, repo: str, updated_since: datetime | None) -> Iterator[m.Issue]:
        yield from issue_list(self._iter_updated("issues", f"/repos/{repo}/issues", "/repos/{owner}/{repo}/issues", updated_since,
                                      lambda raw: normalize_issue(raw, repo), lambda raw: not is_pull_item(raw),
                                      filterable=True))

    def iter_pulls(self, repo: str, updated_since: datetime | None) -> Iterator[m.Pull]:
        yield from self._iter_updated("pulls", f"/repos/{repo}/pulls", "/repos/{owner}/{repo}/pulls", updated_since,
                                      lambda raw: normalize_pull(raw, repo), lambda raw: True, filterable=False)

    def _list(self, path: str, endpoint: str) -> list[Any]:
        # a 404: the part is unread (read_part), never empty
        return [item for page in self.client.paginate(path, endpoint=endpoint, style="link") for item in page]

    def issue_detail(self, issue: m.Issue) -> IssueDetail:
        base = f"/repos/{issue.repo}/issues/{issue.number}"
        miss: dict[str, Any] = {}
        comments = read_part(miss, COMMENTS, lambda: self._list(f"{base}/comments",
                                                                "/repos/{owner}/{repo}/issues/{number}/comments"))
        timeline = read_part(miss, EVENTS, lambda: self._list(f"{base}/timeline",
                                                              "/repos/{owner}/{repo}/issues/{number}/timeline"))
        raw = {"comments": (COMMENTS, comments), "events": (EVENTS, timeline)}
        detail = IssueDetail(raw={k: v for k, (part, v) in raw.items() if part not in miss}, unread=miss)
        detail.comments = [normalize_comment(c, issue.repo, "issue", issue.number) for c in comments
                           if isinstance(c, dict)]
        for raw in timeline:
            if isinstance(raw, dict):
                event, link = normalize_timeline_item(raw, issue.repo, issue.number)
                if event:
                    detail.events.append(event)
                if link:
                    detail.links.append(link)
        return detail

    def get_issue(self, repo: str, number: int) -> m.Issue | None:
        raw = self.client.get_object(f"/repos/{repo}/issues/{number}", endpoint="/repos/{owner}/{repo}/issues/{number}")
        return normalize_issue(raw, repo) if raw is not None else None

    def get_pull(self, repo: str, number: int) -> m.Pull | None:
        raw = self.client.get_object(f"/repos/{repo}/pulls/{number}", endpoint="/repos/{owner}/{repo}/pulls/{number}")
        return normalize_pull(raw, repo) if raw is not None else None

    def pull_detail(self, pull: m.Pull) -> PullDetail:
        base = f"/repos/{pull.repo}/pulls/{pull.number}"
        tmpl = "/repos/{owner}/{repo}/pulls/{number}"
        miss: dict[str, Any] = {}
        files = read_part(miss, FILES, lambda: self._list(f"{base}/files", f"{tmpl}/files"))
        commits = read_part(miss, COMMITS, lambda: self._list(f"{base}/commits", f"{tmpl}/commits"))
        # A PR's comments are two lists: the conversation under the PR's issue number, and the review
        # comments on its diff; either unread leaves the part unread.
        talk = read_part(miss, COMMENTS, lambda: self._list(f"/repos/{pull.repo}/issues/{pull.number}/comments",
                                                            "/repos/{owner}/{repo}/issues/{number}/comments"))
        review = [] if COMMENTS in miss else read_part(miss, COMMENTS, lambda: self._list(f"{base}/comments",
                                                                                           f"{tmpl}/comments"))
        comments = [] if COMMENTS in miss else talk + review
        raw = {"files": (FILES, files), "commits": (COMMITS, commits), "comments": (COMMENTS, comments)}
        detail = PullDetail(pull=pull, raw={k: v for k, (part, v) in raw.items() if part not in miss}, unread=miss)
        detail.files = [normalize_file(f, pull.repo, pull.number) for f in files if isinstance(f, dict)]
        detail.commits = [normalize_commit(c, pull.repo, pull.number) for c in commits if isinstance(c, dict)]
        detail.comments = [normalize_comment(c, pull.repo, "pull", pull.number) for c in comments
                           if isinstance(c, dict)]
        return detail
