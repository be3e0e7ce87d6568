"""The harvester: walk every repo of the orgs, list what changed, fetch details only where they pay.

Order of work (each step writes the store, so a crash loses at most one object's fetch):

1. repos      list each org's repositories;
2. issues     per repo, page issues by ``updated_at`` descending down to the window start
              (or the repo's watermark on a re-run) and upsert them;
3. funnel     the cheap funnel over every issue updated in the window, before any detail;
4. details    per repo with pool issues not yet detailed at their current ``updated_at``:
              their comments, history and platform links; the repo's PRs updated since
              (window start - look-back); the detail of candidate PRs only; then the repo's
              watermark advances.

Failure is per item (fixlore.rules.unread): a detail endpoint that cannot be read costs that
issue's or PR's part only, recorded in ``item_failures`` and asked again next run (the item is
not marked detailed); a list that cannot be read is the repo's (``repo_failures``), its
watermark stays put, and what was listed is still detailed.

Idempotence: every write is an upsert keyed by (repo, number) or a replace of one parent's
children, and "already done" is read back from the store (``details_for`` equals the
object's ``updated_at``), so a re-run after a crash converges to the same rows.

It is over 400 lines because candidate selection still lives beside `Harvester` (issue #10), and
with it the per-item failure bookkeeping (`_item`, `_retry_unread_pulls`).
Progress is reported through the ``progress(phase, done, total)`` callback a caller gives
(`fixlore harvest` and `fixlore run` draw it as bars); the library draws nothing.
"""

from __future__ import annotations

import logging
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable

from fixlore.core import model as m
from fixlore.core.enums import FunnelStage
from fixlore.rules.bursts import in_bursts
from fixlore.rules.funnel import POOL, FunnelConfig, cheap_funnel
from fixlore.rules.refs import KIND_EITHER, KIND_ISSUE, KIND_PULL, find_refs, refs_from_branch
from fixlore.rules.unread import CLOSING_REFS, ISSUE, PULL, PULL_ITSELF, PULL_LIST, REPO
from fixlore.sources.base import Source, deleted_issue
from fixlore.sources.github_graphql import closing_refs
from fixlore.sources.http import ApiError, HostDown
from fixlore.sources.responses import IssuesDisabled
from fixlore.store import Store

log = logging.getLogger(__name__)

HOST_DOWN = HostDown.STATUS   # the status of a repo not read because the host stopped answering


@dataclass
class HarvestReport:
    orgs: list[str] = field(default_factory=list)
    repos: int = 0
    issues_listed: int = 0
    issues_in_window: int = 0
    funnel: dict[str, int] = field(default_factory=dict)      # cheap funnel stage -> count
    issues_detailed: int = 0
    repos_with_work: int = 0
    pulls_listed: int = 0
    pull_candidates: int = 0
    pulls_detailed: int = 0
    phase_seconds: dict[str, float] = field(default_factory=dict)
    # What could not be read: {repo, endpoint, status, message, failed_at, attempts} per repo and endpoint.
    unreadable: list[dict[str, Any]] = field(default_factory=list)
    # Parts of single issues and PRs that could not be read (fixlore.rules.unread): {repo, kind, number,
    # part, endpoint, status, message, failed_at, attempts}; the rest of their repo was read.
    unread_items: list[dict[str, Any]] = field(default_factory=list)
    # Event (operation-log) action types the source met and does not know, with counts.
    unknown_actions: dict[str, int] = field(default_factory=dict)
    # Lists whose update order could not be proven past the window: {list, remedy} ("since" /
    # "updated_after" when asked again with the platform's filter, "walked" when walked to the end).
    unsorted: list[dict[str, str]] = field(default_factory=list)
    # How the source asked its lists (the ordering form in use, forms refused) and what paging met
    # (a page longer than asked taken whole, a repeated page that ended a list): sources.listforms, paging.
    list_forms: list[dict[str, Any]] = field(default_factory=list)
    paging: list[dict[str, Any]] = field(default_factory=list)
    # Repos whose GitHub closing references (the Development sidebar) could not be read: {repo, issues, why}.
    closing_refs_unread: list[dict[str, Any]] = field(default_factory=list)
    # Repos with issues disabled (the repo object's has_issues false, or their issue list answered 410 Gone):
    # {repo, why}. Not asked for their issues, not unreadable: there is nothing to read.
    without_issues: list[dict[str, str]] = field(default_factory=list)
    # Issues seen deleted on the platform when their details were asked for (sources.base.deleted_issue):
    # {repo, number, why}. Left out of the store's reads from now on: no case, no unread part, no new ask.
    issues_deleted: list[dict[str, Any]] = field(default_factory=list)
    # Issue.key -> cheap funnel stage of every issue updated in the window: the run's funnel
    # verdict (the funnel and link stages read it; not part of the summary)
    verdicts: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def repos_unreadable(self) -> int:
        return len({f["repo"] for f in self.unreadable})

    def as_dict(self) -> dict[str, Any]:
        return {"orgs": self.orgs, "repos": self.repos, "issues_listed": self.issues_listed,
                "issues_in_window": self.issues_in_window, "funnel": dict(self.funnel),
                "issues_detailed": self.issues_detailed, "repos_with_work": self.repos_with_work,
                "pulls_listed": self.pulls_listed, "pull_candidates": self.pull_candidates,
                "pulls_detailed": self.pulls_detailed, "repos_unreadable": self.repos_unreadable,
                "unreadable": [{**f, "failed_at": str(f.get("failed_at") or "")} for f in self.unreadable],
                "items_unreadable": len({(f["repo"], f["kind"], f["number"]) for f in self.unread_items}),
                "unread_items": [{**f, "failed_at": str(f.get("failed_at") or "")} for f in self.unread_items],
                "unknown_actions": dict(sorted(self.unknown_actions.items())),
                "unsorted_lists": len(self.unsorted), "unsorted": list(self.unsorted),
                "list_forms": list(self.list_forms), "paging": list(self.paging),
                "closing_refs_unread": list(self.closing_refs_unread),
                "repos_without_issues": list(self.without_issues),
                "issues_deleted": list(self.issues_deleted),
                "phase_seconds": {k: round(v, 3) for k, v in self.phase_seconds.items()}}


class _Progress:
    """Counts per phase, reported through the ``report(phase, done, total)`` callback the caller
    gives (the CLI draws it; the library draws nothing)."""

    def __init__(self, report: Callable[[str, int, int | None], None] | None):
        self.report = report
        self.done: dict[str, int] = {}
        self.total: dict[str, int | None] = {}

    def task(self, phase: str, total: int | None) -> str:
        self.done[phase], self.total[phase] = 0, total
        if self.report is not None:
            self.report(phase, 0, total)
        return phase

    def advance(self, phase: str, n: int = 1) -> None:
        self.done[phase] += n
        if self.report is not None:
            self.report(phase, self.done[phase], self.total[phase])

    def finish(self, phase: str) -> None:
        if self.report is not None:
            self.report(phase, self.done[phase], self.done[phase] if self.total[phase] is None else self.total[phase])


# ---------------------------------------------------------------------------
# Candidate PRs (pure)


def issue_refs_in_pull(pull: m.Pull) -> set[tuple[str, int]]:
    """(repo, number) of issues a PR's title, body or branch name points at."""
    found: set[tuple[str, int]] = set()
    for ref in find_refs(f"{pull.title}\n{pull.body}", pull.repo, pull.platform):
        if ref.kind in (KIND_ISSUE, KIND_EITHER):
            found.add((ref.repo, ref.number))
    for number in refs_from_branch(pull.head_ref):
        found.add((pull.repo, number))
    return found


def pull_refs_in_text(text: str, repo: str, platform: str = "") -> tuple[set[tuple[str, int]], set[tuple[str, int]]]:
    """(explicit PR refs, ambiguous ``#N`` refs) in a comment or PR body."""
    explicit, either = set(), set()
    for ref in find_refs(text, repo, platform):
        if ref.kind == KIND_PULL:
            explicit.add((ref.repo, ref.number))
        elif ref.kind == KIND_EITHER:
            either.add((ref.repo, ref.number))
    return explicit, either


@dataclass
class Candidates:
    """PRs worth a detail fetch, and why (kept for debugging and the run report)."""
    reasons: dict[tuple[str, int], set[str]] = field(default_factory=dict)

    def add(self, key: tuple[str, int], reason: str) -> None:
        if key[1] > 0:
            self.reasons.setdefault(key, set()).add(reason)

    def keys(self) -> list[tuple[str, int]]:
        return sorted(self.reasons)


def select_candidates(pool: list[m.Issue], listed_pulls: list[m.Pull], links: list[m.Link],
                      events: list[m.Event], comments: list[m.Comment]) -> Candidates:
    """Candidate PRs for a repo's pool issues, from data already in hand (no requests)."""
    wanted = {(i.repo, i.number) for i in pool}
    listed = {(p.repo, p.number) for p in listed_pulls}
    cands = Candidates()
    for link in links:
        if (link.issue_repo, link.issue_number) in wanted:
            cands.add((link.pull_repo, link.pull_number), "linked")
    by_sha: dict[str, tuple[str, int]] = {}
    for pull in listed_pulls:
        for sha in (pull.merge_commit_sha, pull.head_sha):
            if sha:
                by_sha[sha] = (pull.repo, pull.number)
    for event in events:
        if (event.repo, event.parent_number) not in wanted or event.parent_kind != "issue":
            continue
        if event.detail.get("pull"):
            cands.add((str(event.detail.get("pull_repo") or event.repo), int(event.detail["pull"])), "event")
        sha = str(event.detail.get("commit_id") or "")
        if sha and sha in by_sha:          # closed or referenced by a commit: the PR that carried it
            cands.add(by_sha[sha], "commit")
    for pull in listed_pulls:
        if issue_refs_in_pull(pull) & wanted:
            cands.add((pull.repo, pull.number), "mentions_issue")
    for comment in comments:
        if (comment.repo, comment.parent_number) not in wanted or comment.parent_kind != "issue":
            continue
        explicit, either = pull_refs_in_text(comment.body, comment.repo)
        for key in explicit:
            cands.add(key, "comment")
        for key in either:
            # "#N" may be an issue: take it as a PR only when such a PR is known, or in another repo.
            if key in listed or key[0] != comment.repo:
                cands.add(key, "comment")
    add_backport_twins(cands, listed_pulls)
    return cands


def _title_key(title: str) -> str:
    text = re.sub(r"^\s*(\[[^\]]*\]\s*|(cherry[- ]?pick|backport)\s*(of|:)?\s*)+", "", title.casefold())
    return re.sub(r"\W+", " ", text).strip()


def add_backport_twins(cands: Candidates, listed_pulls: list[m.Pull]) -> None:
    """Listed PRs that cite a candidate PR, or carry its title to another branch (backports)."""
    chosen = set(cands.reasons)
    by_key = {(p.repo, p.number): p for p in listed_pulls}
    titles: dict[tuple[str, str], set[str]] = {}
    for key in chosen:
        pull = by_key.get(key)
        if pull and len(title := _title_key(pull.title)) >= 8:
            titles.setdefault((pull.repo, title), set()).add(pull.base_ref)
    for pull in listed_pulls:
        key = (pull.repo, pull.number)
        if key in chosen:
            continue
        explicit, either = pull_refs_in_text(f"{pull.title}\n{pull.body}", pull.repo, pull.platform)
        if (explicit | either) & chosen:
            cands.add(key, "cites_candidate")
            continue
        branches = titles.get((pull.repo, _title_key(pull.title)))
        if branches and pull.base_ref not in branches:
            cands.add(key, "backport_twin")


# ---------------------------------------------------------------------------
# The harvest


class Harvester:
    def __init__(self, store: Store, source: Source, *, since: datetime, lookback_days: int = 60,
                 funnel_config: FunnelConfig | None = None, naive: bool = False,
                 progress: Callable[[str, int, int | None], None] | None = None):
        self.store = store
        self.source = source
        self.since = since
        self.pulls_since = since - timedelta(days=lookback_days)
        self.funnel_config = funnel_config or FunnelConfig()
        self.naive = naive
        self.progress = progress
        self.report = HarvestReport()
        self.failed: set[str] = set()          # repos met with an unreadable endpoint in this run
        self.bursts: set[str] = set()          # issue keys outside the pool whose close is in a burst
        self.pulls_tried: set[tuple[str, int]] = set()   # candidate PRs asked for in this run
        self.gaps: set[tuple[str, str, int]] = set()        # (kind, repo, number) unread before this run
        self.no_issues: set[str] = set()       # repos whose issues are disabled: no issue asked for

    # -- phases
    def run(self, orgs: list[str]) -> HarvestReport:
        self.report.orgs = list(orgs)
        started = datetime.now(timezone.utc)
        progress = _Progress(self.progress)
        repos = self._timed("repos", lambda: self._list_repos(orgs, progress))
        self.report.repos = len(repos)
        self._timed("issues", lambda: self._list_issues(repos, progress))
        verdicts = self._timed("funnel", lambda: self._funnel(repos))
        self._timed("details", lambda: self._details(repos, verdicts, progress))
        self.report.unreadable = self.store.failures([r.full_name for r in repos])
        # Items met in this run: one left unread by an earlier run and not needed since (its issue
        # left the window) is no longer this run's to report.
        self.report.unread_items = [f for f in self.store.item_failures([r.full_name for r in repos])
                                    if f["failed_at"] is not None and f["failed_at"] >= started
                                    and f["kind"] != REPO]      # a repo's list: in `unreadable`
        self.report.unknown_actions = dict(getattr(self.source, "unknown_actions", {}) or {})
        self.report.unsorted = [{"list": path, "remedy": remedy}
                                for path, remedy in getattr(self.source, "unsorted", []) or []]
        self.report.list_forms = [forms.report() for forms in (getattr(self.source, "order_forms", None) or {}).values()]
        client = getattr(self.source, "client", None)
        self.report.paging = client.paging_report() if hasattr(client, "paging_report") else []
        if self.report.unknown_actions:
            log.warning("operation-log action types not known to fixlore: %s", self.report.unknown_actions)
        down = [f for f in self.report.unreadable if f["status"] == HOST_DOWN]
        for failure in self.report.unreadable:
            if failure["status"] != HOST_DOWN:
                log.warning("could not read %s (%s): %s %s", failure["repo"], failure["endpoint"], failure["status"],
                            failure["message"])
        if down:        # one line for the lot: the host said why once already
            log.warning("not read, the host having stopped answering: %s", ", ".join(sorted({f["repo"] for f in down})))
        for item in self.report.unread_items:      # the CLI names each at the end of the run
            log.info("could not read %s %s#%s %s (%s): %s %s", item["kind"], item["repo"], item["number"],
                     item["part"], item["endpoint"], item["status"], item["message"])
        return self.report

    def _fail(self, repo: str, exc: ApiError) -> None:
        """Record what could not be read; the repo's watermark stays put, so the next run retries it."""
        self.failed.add(repo)
        self.store.record_failure(repo, exc.endpoint, exc.status, exc.message)

    def _item(self, kind: str, repo: str, number: int, unread: dict[str, ApiError]) -> None:
        """Record the parts of one issue or PR that could not be read, and forget those now read:
        the item costs only itself (fixlore.rules.unread), and the next run asks again."""
        if not unread and (kind, repo, number) not in self.gaps:
            return                              # nothing to forget: no write on a clean item
        self.store.clear_item_failures(repo, kind, number, keep=unread)
        for part, exc in unread.items():
            self.store.record_item_failure(repo, kind, number, part, exc.endpoint, exc.status, exc.message)

    def _host_down(self) -> str:
        """Why the platform host's breaker is open ("" while it answers): a loop over repos stops."""
        breaker = getattr(getattr(self.source, "client", None), "breaker", None)
        return breaker.reason if breaker is not None and breaker.is_open else ""

    def _not_reached(self, repos: list[str]) -> None:
        """The host stopped answering: every repo this phase had not finished is recorded as not
        read (its watermark stays put, so the next run reads it), none is asked for."""
        why = self._host_down()
        for repo in repos:
            self._fail(repo, HostDown("*", getattr(self.source.client, "host", "the host"), why))

    def _timed(self, name: str, work: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        try:
            return work()
        finally:
            self.report.phase_seconds[name] = self.report.phase_seconds.get(name, 0.0) + time.perf_counter() - start

    def _list_repos(self, orgs: list[str], progress: _Progress) -> list[m.Repo]:
        task = progress.task("orgs", len(orgs))
        repos: list[m.Repo] = []
        seen: set[str] = set()
        for org in orgs:
            found = self.source.list_repos(org)
            with self.store.writer() as w:
                w.upsert_repos(found, org)
            for repo in found:
                if repo.full_name not in seen:
                    seen.add(repo.full_name)
                    repos.append(repo)
            progress.advance(task)
        return repos

    def _watermark_applies(self, mark: dict[str, Any] | None) -> bool:
        """A watermark earned under a window that started no later than ours covers our window."""
        return bool(mark and mark.get("window_since") and mark["window_since"] <= self.since)

    def _list_issues(self, repos: list[m.Repo], progress: _Progress) -> None:
        task = progress.task("issue lists", len(repos))
        for at, repo in enumerate(repos):
            if self._host_down():
                self._not_reached([r.full_name for r in repos[at:]])
                break
            if not repo.issues_enabled:        # the listing says so: its issue list is not asked for
                self._without_issues(repo.full_name, "has_issues: false")
                progress.advance(task)
                continue
            mark = self.store.watermark(repo.full_name)
            bound = self.since
            if self._watermark_applies(mark) and mark.get("issues_updated_at"):
                bound = max(bound, mark["issues_updated_at"])
            batch: list[m.Issue] = []
            listed: set[int] = set()
            try:
                for issue in self.source.iter_issues(repo.full_name, bound):
                    batch.append(issue)
                    listed.add(issue.number)
                    if len(batch) >= 100:
                        self._save_issues(batch)
                        batch = []
            except IssuesDisabled as exc:      # switched off after the listing: nothing to read, nothing failed
                self._without_issues(repo.full_name, f"HTTP {exc.status} {exc.message}".strip())
            except ApiError as exc:
                self._fail(repo.full_name, exc)
            # what was read is true; the watermark decides what is done
            self._save_issues(batch, (repo.full_name, listed))
            progress.advance(task)

    def _without_issues(self, repo: str, why: str) -> None:
        """A repo whose issues are disabled: named, its earlier failures forgotten, no detail asked for."""
        self.no_issues.add(repo)
        self.report.without_issues.append({"repo": repo, "why": why})
        self.store.clear_failures(repo)

    def _save_issues(self, batch: list[m.Issue], listing: tuple[str, set[int]] | None = None) -> None:
        """A page of a repo's issue list; with its last one, `listing` (the repo, every number the listing
        carried) takes the deleted marks off those listed again (StoreWriter.listed_again), once per listing.
        Killed before that, the marks stay, and the next run lists them again: the watermark only moves in
        the details phase, after every listing has ended, so the next listing starts no later."""
        if batch or listing:
            with self.store.writer() as w:
                if batch:
                    w.upsert_issues(batch)
                if listing:
                    w.listed_again(*listing)
            self.report.issues_listed += len(batch)

    def _funnel(self, repos: list[m.Repo]) -> dict[str, str]:
        names = [r.full_name for r in repos]
        in_window = self.store.issues(names, updated_since=self.since)
        self.report.issues_in_window = len(in_window)
        verdicts = cheap_funnel(in_window, self.since, self.funnel_config)
        self.report.verdicts = verdicts
        self.report.funnel = dict(Counter(verdicts.values()))
        # who closed the issues of a close burst outside the pool (a storm or a stale close is a
        # trap at any stage); template floods are left out: nobody reads a flood's close
        self.bursts = {key for key in in_bursts((i.repo, i.key, i.closed_at) for i in in_window
                                                if i.closed_at is not None and i.closed_at >= self.since
                                                and verdicts.get(i.key) not in (FunnelStage.WINDOW, FunnelStage.NOISE))
                       if verdicts.get(key) != POOL}
        by_key = {}
        for issue in in_window:
            stage = verdicts.get(issue.key)
            if stage:
                by_key[(issue.repo, issue.number)] = stage
        with self.store.writer() as w:
            w.set_funnel_stages(by_key)
        return verdicts

    def _details(self, repos: list[m.Repo], verdicts: dict[str, str], progress: _Progress) -> None:
        plans = []
        # items left unread by an earlier run; a PR list among them is asked for again, whatever
        # else its repo needs
        self.gaps = {(f["kind"], f["repo"], f["number"]) for f in self.store.item_failures()}
        list_gaps = {repo for kind, repo, _n in self.gaps if kind == REPO}
        for repo in repos:
            if repo.full_name in self.no_issues:
                continue
            book = self.store.issue_bookkeeping(repo.full_name)
            selected = [n for n, b in book.items()
                        if b["updated_at"] is not None and b["updated_at"] >= self.since
                        and (self.naive or verdicts.get(f"{repo.full_name}#{n}") == POOL)]
            burst = [n for n, b in book.items() if f"{repo.full_name}#{n}" in self.bursts and n not in selected]
            needs = sorted(n for n in selected + burst if book[n]["details_for"] != book[n]["updated_at"])
            mark = self.store.watermark(repo.full_name)
            pending = (selected and not self._watermark_applies(mark)) or repo.full_name in list_gaps
            plans.append((repo, selected, needs, pending))
        # A repo whose issue list broke off still has the issues it listed: they are detailed like
        # any other (their repo failure is recorded and the watermark stays put).
        work = [p for p in plans if p[2] or p[3]]
        self.report.repos_with_work = len(work)
        repo_task = progress.task("repos with new pool issues", len(work))
        issue_task = progress.task("issue details", sum(len(p[2]) for p in work))
        pull_task = progress.task("PR details", None)
        # Repos without work: their listing is done, so their watermark can move now.
        with self.store.writer() as w:
            for repo, selected, needs, pending in plans:
                if not (needs or pending) and repo.full_name not in self.failed:
                    self._advance_issue_watermark(w, repo.full_name)
        for repo, selected, needs, pending in plans:
            if not (needs or pending) and repo.full_name not in self.failed:
                self.store.clear_failures(repo.full_name)
        for at, (repo, selected, needs, _pending) in enumerate(work):
            try:
                self._repo_details(repo.full_name, selected, needs, progress, issue_task, pull_task)
                if repo.full_name not in self.failed and not self._host_down():
                    self.store.clear_failures(repo.full_name)
            except ApiError as exc:
                if not isinstance(exc, HostDown):
                    self._fail(repo.full_name, exc)
            if self._host_down():       # this repo and the rest: recorded as not read, not asked for
                self._not_reached([p[0].full_name for p in work[at:]])
                break
            progress.advance(repo_task)
        if not self._host_down():
            self._retry_unread_pulls([r.full_name for r in repos], progress, pull_task)
        progress.finish(pull_task)

    def _retry_unread_pulls(self, repos: list[str], progress: _Progress, pull_task: Any) -> None:
        """PRs left partly read by an earlier run and not asked for again in this one (their issue
        is detailed already, or lives in another repo): asked again now, each on its own."""
        left = sorted({(f["repo"], f["number"]) for f in self.store.item_failures(repos) if f["kind"] == PULL}
                      - self.pulls_tried)
        if left:
            cands = Candidates()
            for key in left:
                cands.add(key, "unread")
            self._fetch_pulls(cands, {}, progress, pull_task)

    def _advance_issue_watermark(self, writer: Any, repo: str, pulls_updated_at: datetime | None = None) -> None:
        book = self.store.issue_bookkeeping(repo)
        newest = max((b["updated_at"] for b in book.values() if b["updated_at"]), default=None)
        writer.set_watermark(repo, issues_updated_at=newest, pulls_updated_at=pulls_updated_at,
                             window_since=self.since)

    def _repo_details(self, repo: str, selected: list[int], needs: list[int], progress: _Progress,
                      issue_task: Any, pull_task: Any) -> None:
        issues = {i.number: i for i in self.store.issues([repo])}
        closing = closing_refs(self.source, repo, needs)    # GitHub GraphQL when the token allows it
        if closing.unread:
            self.report.closing_refs_unread.append({"repo": repo, "issues": len(closing.unread),
                                                    "numbers": closing.unread[:20], "why": closing.why})
            log.warning("%s: closing references of %d issue(s) not read: %s", repo, len(closing.unread), closing.why)
        for number in needs:
            issue = issues[number]
            detail = self.source.issue_detail(issue)
            gone = deleted_issue(self.source, issue, detail.unread)
            if gone:                            # deleted since it was listed: forgotten, never unread
                with self.store.writer() as w:
                    w.mark_deleted(repo, number)
                self.report.issues_deleted.append({"repo": repo, "number": number, "why": gone})
                progress.advance(issue_task)
                continue
            detail.links.extend(closing.links.get(number, []))
            if number in closing.unread:     # the sidebar is asked for again next run (rules.unread)
                detail.unread[CLOSING_REFS] = ApiError("graphql closingIssuesReferences", "graphql", closing.why)
            with self.store.writer() as w:
                w.save_issue_detail(issue, detail)
            self._item(ISSUE, repo, number, detail.unread)
            self.report.issues_detailed += 1
            progress.advance(issue_task)

        # The repo's PRs updated since (window start - look-back), from its watermark on a re-run.
        mark = self.store.watermark(repo)
        bound = self.pulls_since
        if self._watermark_applies(mark) and mark.get("pulls_updated_at"):
            bound = max(bound, mark["pulls_updated_at"])
        newest_pull = mark.get("pulls_updated_at") if mark else None
        batch: list[m.Pull] = []
        lost_list: ApiError | None = None
        try:
            for pull in self.source.iter_pulls(repo, bound):
                batch.append(pull)
                if pull.updated_at and (newest_pull is None or pull.updated_at > newest_pull):
                    newest_pull = pull.updated_at
        except HostDown:
            raise
        except ApiError as exc:
            # The PR list is the repo's, not an item's: recorded against the repo, whose watermark
            # then stays put; the candidates the issues name are still fetched one by one below,
            # and every issue of the repo carries the gap (rules.unread: it may name their fix).
            self._fail(repo, exc)
            lost_list = exc
        self._item(REPO, repo, 0, {PULL_LIST: lost_list} if lost_list else {})
        if batch:
            with self.store.writer() as w:
                w.upsert_pulls(batch)
            self.report.pulls_listed += len(batch)

        pool = [issues[n] for n in selected if n in issues]
        corpus = self.store.load_corpus([repo], raw=True)      # its pulls are written back (_fetch_pulls)
        cands = select_candidates(pool, corpus.pulls, corpus.links, corpus.events, corpus.comments)
        self._fetch_pulls(cands, {(p.repo, p.number): p for p in corpus.pulls}, progress, pull_task)
        if repo not in self.failed:
            with self.store.writer() as w:
                self._advance_issue_watermark(w, repo, pulls_updated_at=newest_pull)

    def _fetch_pulls(self, cands: Candidates, known: dict[tuple[str, int], m.Pull], progress: _Progress,
                     pull_task: Any) -> None:
        queue = cands.keys()
        seen = set(queue)
        hops = {key: 0 for key in queue}
        detailed = self.store.pull_details_for(queue)
        while queue:
            key = queue.pop(0)
            self.pulls_tried.add(key)
            self.report.pull_candidates += 1
            pull = known.get(key)
            if pull is None:
                if key in detailed and detailed[key] is not None:
                    continue                    # cited PR outside our listings, already fetched once
                try:
                    pull = self.source.get_pull(*key)
                except HostDown:
                    raise
                except ApiError as exc:
                    self._item(PULL, key[0], key[1], {PULL_ITSELF: exc})
                    continue
                if pull is None:
                    continue
            if detailed.get(key) is None or detailed.get(key) != pull.updated_at:
                detail = self.source.pull_detail(pull)
                with self.store.writer() as w:
                    w.save_pull_detail(pull, detail)
                self._item(PULL, pull.repo, pull.number, detail.unread)
                self.report.pulls_detailed += 1
                progress.advance(pull_task)
            # Cross-repo references of a candidate PR (a backport, a fix in a sibling repo): one hop.
            if hops[key] == 0:
                explicit, either = pull_refs_in_text(f"{pull.title}\n{pull.body}", pull.repo, pull.platform)
                for ref in sorted(explicit | either):
                    if ref[0] != pull.repo and ref not in seen:
                        seen.add(ref)
                        hops[ref] = 1
                        queue.append(ref)
                        detailed.update(self.store.pull_details_for([ref]))


def harvest(store: Store, source: Source, orgs: Iterable[str], since: datetime, *, lookback_days: int = 60,
            funnel_config: FunnelConfig | None = None, naive: bool = False,
            progress: Callable[[str, int, int | None], None] | None = None) -> HarvestReport:
    """Harvest ``orgs`` from ``source`` into ``store`` for the window starting at ``since``.

    ``naive=True`` fetches the details of every issue updated in the window instead of only
    the cheap funnel's pool (the baseline the benchmark compares against). ``progress(phase,
    done, total)``, when given, hears how each phase advances (total None when unknown).
    """
    harvester = Harvester(store, source, since=since, lookback_days=lookback_days, funnel_config=funnel_config,
                          naive=naive, progress=progress)
    return harvester.run(list(orgs))
