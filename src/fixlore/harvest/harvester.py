"""The harvester: walk every repo of the orgs, list what changed, fetch details only where they pay.

Order of work (each step writes the store, so a crash loses at most one object's fetch):

1. repos      list each org's repositories;
2. issues     per repo, page issues by ``updated_at`` descending down to the window start
              (or the repo's watermark on a re-run; always the window start with ``reconcile``) and upsert them;
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

Which PRs are worth a detail fetch is `harvest.candidates`; what the run tells its caller (the summary,
the progress) is `harvest.report`. Progress is reported through the ``progress(phase, done, total)``
callback a caller gives (`fixlore harvest` and `fixlore run` draw it as bars); the library draws nothing.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable

from fixlore.core import model as m
from fixlore.core.enums import FunnelStage
from fixlore.harvest.candidates import Candidates, pull_refs_in_text, select_candidates
from fixlore.harvest.report import HarvestReport, Progress
from fixlore.rules.bursts import in_bursts
from fixlore.rules.funnel import POOL, FunnelConfig, cheap_funnel
from fixlore.rules.unread import CLOSING_REFS, ISSUE, PULL, PULL_ITSELF, PULL_LIST, REPO
from fixlore.sources.base import Source, deleted_issue, left_the_listing
from fixlore.sources.github_graphql import closing_refs
from fixlore.sources.http import ApiError, HostDown
from fixlore.sources.responses import IssuesDisabled
from fixlore.store import Store

log = logging.getLogger(__name__)


class Harvester:
    def __init__(self, store: Store, source: Source, *, since: datetime, lookback_days: int = 60,
                 funnel_config: FunnelConfig | None = None, naive: bool = False, reconcile: bool = False,
                 progress: Callable[[str, int, int | None], None] | None = None):
        self.store = store
        self.reconcile = reconcile              # list from the window start: what left the list is asked about
        self.source = source
        self.since = since
        self.pulls_since = since - timedelta(days=lookback_days)
        self.funnel_config = funnel_config or FunnelConfig()
        self.naive = naive
        self.progress = progress
        self.report = HarvestReport(reconcile={"repos": 0, "issues_checked": 0, "issues_asked": 0} if reconcile else None)
        self.failed: set[str] = set()          # repos met with an unreadable endpoint in this run
        self.bursts: set[str] = set()          # issue keys outside the pool whose close is in a burst
        self.pulls_tried: set[tuple[str, int]] = set()   # candidate PRs asked for in this run
        self.gaps: set[tuple[str, str, int]] = set()        # (kind, repo, number) unread before this run
        self.no_issues: set[str] = set()       # repos whose issues are disabled: no issue asked for

    # -- phases
    def run(self, orgs: list[str]) -> HarvestReport:
        self.report.orgs = list(orgs)
        started = datetime.now(timezone.utc)
        progress = Progress(self.progress)
        repos = self._timed("repos", lambda: self._list_repos(orgs, progress))
        self.report.repos = len(repos)
        self._timed("issues", lambda: self._list_issues(repos, progress))
        verdicts = self._timed("funnel", lambda: self._funnel(repos))
        self._timed("details", lambda: self._details(repos, verdicts, progress))
        self.report.unreadable = self.store.failures([r.full_name for r in repos])
        # Items met in this run: one left unread earlier and not needed since (left the window) is not this run's.
        self.report.unread_items = [f for f in self.store.item_failures([r.full_name for r in repos])
                                    if f["failed_at"] is not None and f["failed_at"] >= started
                                    and f["kind"] != REPO]      # a repo's list: in `unreadable`
        self.report.take_source_findings(self.source)
        self.report.log_unread(log)
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
        """The host stopped answering: every repo this phase had not finished is recorded as not read (its
        watermark stays put, so the next run reads it), none is asked for."""
        why = self._host_down()
        for repo in repos:
            self._fail(repo, HostDown("*", getattr(self.source.client, "host", "the host"), why))

    def _timed(self, name: str, work: Callable[[], Any]) -> Any:
        start = time.perf_counter()
        try:
            return work()
        finally:
            self.report.phase_seconds[name] = self.report.phase_seconds.get(name, 0.0) + time.perf_counter() - start

    def _list_repos(self, orgs: list[str], progress: Progress) -> list[m.Repo]:
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

    def _list_issues(self, repos: list[m.Repo], progress: Progress) -> None:
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
            if not self.reconcile and self._watermark_applies(mark) and mark.get("issues_updated_at"):
                bound = max(bound, mark["issues_updated_at"])
            batch: list[m.Issue] = []
            listed: set[int] = set()
            complete: datetime | None = None
            try:
                for issue in self.source.iter_issues(repo.full_name, bound):
                    batch.append(issue)
                    listed.add(issue.number)
                    if len(batch) >= 100:
                        self._save_issues(batch)
                        batch = []
                complete = bound
            except IssuesDisabled as exc:      # switched off after the listing: nothing to read, nothing failed
                self._without_issues(repo.full_name, f"HTTP {exc.status} {exc.message}".strip())
            except ApiError as exc:
                self._fail(repo.full_name, exc)
            self._save_issues(batch, (repo.full_name, listed), complete)   # what was read is true; the watermark decides
            progress.advance(task)

    def _without_issues(self, repo: str, why: str) -> None:
        """A repo whose issues are disabled: named, its earlier failures forgotten, no detail asked for."""
        self.no_issues.add(repo)
        self.report.without_issues.append({"repo": repo, "why": why})
        self.store.clear_failures(repo)

    def _save_issues(self, batch: list[m.Issue], listing: tuple[str, set[int]] | None = None, complete_since: datetime | None = None) -> None:
        """A page of a repo's issue list; with its last one, `listing` (the repo, every number it carried) takes the
        deleted marks off those listed again (StoreWriter.listed_again); one that ended without an error down to
        `complete_since` marks deleted what left it and is gone (sources.base.left_the_list, asked before the write
        lock is taken). Killed before that, the marks stay and the next listing, starting no later, reads them again.
        With `reconcile` the bound is the window start: every stored live issue of the window is checked."""
        stored = self.store.issues([listing[0]], complete_since) if listing and complete_since else []
        left = left_the_listing(self.source, stored, listing[1]) if listing else []
        self.report.count_reconciled(stored, listing[1] if listing and complete_since else None)
        if batch or listing:
            with self.store.writer() as w:
                if batch:
                    w.upsert_issues(batch)
                if listing:
                    w.listed_again(*listing)
                for gone in left:
                    w.mark_deleted(gone["repo"], gone["number"])
            self.report.issues_deleted += left
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

    def _details(self, repos: list[m.Repo], verdicts: dict[str, str], progress: Progress) -> None:
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
        # A repo whose issue list broke off still has the issues it listed: detailed like any other (its failure is
        # recorded, its watermark stays put).
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

    def _retry_unread_pulls(self, repos: list[str], progress: Progress, pull_task: Any) -> None:
        """PRs left partly read by an earlier run and not asked for again in this one (their issue is detailed
        already, or lives in another repo): asked again now, each on its own."""
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

    def _repo_details(self, repo: str, selected: list[int], needs: list[int], progress: Progress,
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
            # The PR list is the repo's, not an item's: recorded against the repo (its watermark stays put); the
            # candidates the issues name are still fetched one by one, every issue carries the gap (rules.unread).
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

    def _fetch_pulls(self, cands: Candidates, known: dict[tuple[str, int], m.Pull], progress: Progress,
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
            funnel_config: FunnelConfig | None = None, naive: bool = False, reconcile: bool = False,
            progress: Callable[[str, int, int | None], None] | None = None) -> HarvestReport:
    """Harvest ``orgs`` from ``source`` into ``store`` for the window starting at ``since``.
    ``naive=True`` fetches the details of every issue updated in the window instead of only the cheap funnel's
    pool (the benchmark's baseline). ``reconcile=True`` lists each repo's issues from the window start, not its
    watermark (the window's pages again): a stored issue deleted since, not updated, is asked about too.
    ``progress(phase, done, total)`` hears how each phase advances (total None when unknown)."""
    harvester = Harvester(store, source, since=since, lookback_days=lookback_days, funnel_config=funnel_config,
                          naive=naive, reconcile=reconcile, progress=progress)
    return harvester.run(list(orgs))
