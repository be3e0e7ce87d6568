"""Lookups over a Corpus, built once per run so that linking one issue is a few dict hits.

Every PR's title, body and commit messages are scanned for references once; the index is
then keyed by the issue they name. No per-issue scan over all PRs happens anywhere.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from datetime import datetime
from typing import Any

from fixlore.core.model import (EV_CLOSED, EV_CROSS_REF, EV_LINKED, EV_REFERENCED, Comment, Commit, Corpus, Event,
                           FileChange, Issue, Pull, pull_label)
from fixlore.link.forked import ChunkPool, can_fork, chunked
from fixlore.link.shapes import backport_shape
from fixlore.rules.funnel.bookkeeping import template_lines
from fixlore.rules.refs import (KIND_EITHER, KIND_ISSUE, KIND_PULL, Ref, find_refs, log_number_at_end,
                                refs_from_branch, settle_background)

Key = tuple[str, int]

@dataclass(slots=True)
class Mention:
    """A PR's text naming an issue: where, how, and the quoted fragment."""
    pull: Key
    where: str               # "title" | "body" | "commit <sha7>"
    ref: Ref
    quote: str


def _quote(text: str, span: tuple[int, int], width: int = 36) -> str:
    start = max(0, span[0] - width)
    end = min(len(text), span[1] + 8)
    frag = text[start:end].replace("\n", " ").strip()
    return ("…" if start > 0 else "") + frag + ("…" if end < len(text) else "")


def _pull_key_of_event(ev: Event, default_repo: str) -> Key | None:
    d = ev.detail or {}
    number = d.get("pull", d.get("pull_number", d.get("source_number")))
    repo = d.get("pull_repo", d.get("source_repo")) or default_repo
    if number is None and ev.action == EV_LINKED:
        number = log_number_at_end(str(d.get("content", "")))
    try:
        return (str(repo), int(str(number))) if number is not None else None
    except ValueError:
        return None


def _issue_key_of_pull_event(ev: Event) -> Key | None:
    d = ev.detail or {}
    number = d.get("issue", d.get("issue_number"))
    repo = d.get("issue_repo") or ev.repo
    if number is None:
        number = log_number_at_end(str(d.get("content", "")))
    try:
        return (str(repo), int(str(number))) if number is not None else None
    except ValueError:
        return None


def _by_time(item) -> tuple[bool, float, str]:
    at = item.created_at
    return (at is None, at.timestamp() if at else 0.0, str(item.id))


def issue_map(corpus: Corpus) -> dict[Key, Issue]:
    """The corpus's issues by key (a GitHub issue list's PR items left out; a later copy of
    one issue wins)."""
    issues: dict[Key, Issue] = {}
    for i in corpus.issues:
        if not i.is_pull:
            issues[(i.repo, i.number)] = i
    return issues


_Scanned = tuple[list[tuple[Key, list[tuple[str, Ref, str]], list[int]]], list[tuple[Key, str]]]


def _scan_pulls(pulls: list[Pull], commits: dict[Key, list[Commit]]) -> _Scanned:
    """References in each PR's title, body and commit messages (where, ref, quote) and in its
    source branch, for the PRs that have any, in the given order; and the backport shape of
    every merged PR's title (what the backport search compares, worked out once here rather
    than again in every linking process)."""
    out = []
    shapes = []
    for p in pulls:
        pk = (p.repo, p.number)
        if p.merged:
            shapes.append((pk, backport_shape(p.title)))
        texts = [("title", p.title or ""), ("body", p.body or "")]
        texts += [(f"commit {cm.sha[:7]}", cm.message or "") for cm in commits.get(pk, [])]
        refs = [(where, ref, _quote(text, ref.span)) for where, text in texts for ref in find_refs(text, p.repo, p.platform)]
        if any(ref.background for _, ref, _ in refs):
            settled = settle_background([ref for _, ref, _ in refs])
            refs = [(where, ref, quote) for (where, _, quote), ref in zip(refs, settled)]
        branch_numbers = refs_from_branch(p.head_ref)
        if refs or branch_numbers:
            out.append((pk, refs, branch_numbers))
    return out, shapes


class CorpusIndex:
    """`alongside`: a side job (reading the corpus only) that, with workers, the first forked
    scan child runs before it joins the scan; its value is `alongside_result` (None without
    workers: the caller runs it)."""

    def __init__(self, corpus: Corpus, workers: int = 1, alongside: Callable[[], Any] | None = None):
        self.alongside_result: Any = None
        self.corpus = corpus
        self.platform = corpus.platform     # how PRs are written: model.pull_label
        self.issues: dict[Key, Issue] = issue_map(corpus)
        self._templates: dict[str, frozenset[str]] = {}    # repo -> its template lines (`template_lines`)
        self.pulls: dict[Key, Pull] = {(p.repo, p.number): p for p in corpus.pulls}
        self.default_branch: dict[str, str] = {r.full_name: r.default_branch for r in corpus.repos if r.default_branch}
        # (kind, repo, number) -> parts that could not be read (fixlore.rules.unread)
        self.unread: dict[tuple[str, str, int], list[str]] = dict(getattr(corpus, "unread", None) or {})
        self.commits: dict[Key, list[Commit]] = defaultdict(list)
        self.sha_to_pull: dict[str, Key] = {}
        for cm in corpus.commits:
            self.commits[(cm.repo, cm.pull_number)].append(cm)
            if cm.sha:
                self.sha_to_pull.setdefault(cm.sha, (cm.repo, cm.pull_number))
        for p in corpus.pulls:
            if p.merge_commit_sha:
                self.sha_to_pull.setdefault(p.merge_commit_sha, (p.repo, p.number))
        # a source branch's head: what a cherry-pick's "(cherry picked from commit SHA)" may name
        self.head_to_pull: dict[str, Key] = {p.head_sha.lower(): (p.repo, p.number)
                                             for p in corpus.pulls if p.head_sha}

        # Reading every PR's text for references is the costliest part: with workers, forked
        # children start on it now (the first after the side job) and this process joins in
        # once the rest is built.
        scan = ChunkPool(partial(_scan_pulls, commits=self.commits), chunked(corpus.pulls, workers), workers,
                         first=alongside) if workers > 1 and can_fork() else None
        try:
            self._build_relations(corpus)
            self._build_merged(corpus)
            scanned = scan.join() if scan is not None else [_scan_pulls(corpus.pulls, self.commits)]
            if scan is not None:
                self.alongside_result = scan.first_result
        finally:
            if scan is not None:
                scan.close()
        self._add_refs(scanned)

    def _build_relations(self, corpus: Corpus) -> None:
        self.issue_comments: dict[Key, list[Comment]] = defaultdict(list)
        self.pull_comments: dict[Key, list[Comment]] = defaultdict(list)
        for c in corpus.comments:
            (self.issue_comments if c.parent_kind == "issue" else self.pull_comments)[(c.repo, c.parent_number)].append(c)
        for bucket in (self.issue_comments, self.pull_comments):
            for lst in bucket.values():
                if len(lst) > 1:
                    lst.sort(key=_by_time)
        self.issue_events: dict[Key, list[Event]] = defaultdict(list)
        self.pull_events: dict[Key, list[Event]] = defaultdict(list)
        for e in corpus.events:
            (self.issue_events if e.parent_kind == "issue" else self.pull_events)[(e.repo, e.parent_number)].append(e)
        self.files: dict[Key, list[FileChange]] = defaultdict(list)
        for f in corpus.files:
            self.files[(f.repo, f.pull_number)].append(f)

        # Platform links, both directions, as issue -> {pull: sources}.
        # A GitHub timeline cross-reference is a mention in the PR's text, not a platform link.
        self.links: dict[Key, dict[Key, set[str]]] = defaultdict(lambda: defaultdict(set))
        for link in corpus.links:
            if link.source == "timeline":
                continue
            self.links[(link.issue_repo, link.issue_number)][(link.pull_repo, link.pull_number)].add(link.source)
        for key, events in self.issue_events.items():
            for ev in events:
                if ev.action == EV_LINKED:
                    pk = _pull_key_of_event(ev, key[0])
                    if pk:
                        self.links[key][pk].add("operate_log")
        for key, events in self.pull_events.items():
            for ev in events:
                if ev.action == EV_LINKED:
                    ik = _issue_key_of_pull_event(ev)
                    if ik:
                        self.links[ik][key].add("pull_operate_log")

    def _add_refs(self, scanned: list[_Scanned]) -> None:
        """Text mentions of issues by PRs, branch names, PR->PR references; merged PRs' backport shapes."""
        self._backport_shapes: dict[Key, str] = {}
        for _refs, shapes in scanned:
            self._backport_shapes.update(shapes)
        self.mentions: dict[Key, list[Mention]] = defaultdict(list)
        self.pull_issue_refs: dict[Key, list[Mention]] = defaultdict(list)
        self.pull_pull_refs: dict[Key, list[Mention]] = defaultdict(list)   # cited pull -> citing mentions
        self.branch_refs: dict[Key, list[Key]] = defaultdict(list)
        for part, _shapes in scanned:
            for pk, refs, branch_numbers in part:
                for where, ref, quote in refs:
                    m = Mention(pk, where, ref, quote)
                    if ref.kind in (KIND_ISSUE, KIND_EITHER):
                        self.mentions[(ref.repo, ref.number)].append(m)
                        self.pull_issue_refs[pk].append(m)
                    if ref.kind in (KIND_PULL, KIND_EITHER) and (ref.repo, ref.number) != pk:
                        self.pull_pull_refs[(ref.repo, ref.number)].append(m)
                for number in branch_numbers:
                    self.branch_refs[(pk[0], number)].append(pk)

    def _build_merged(self, corpus: Corpus) -> None:
        # Merged PRs per repo (and per repo and target branch) in merge order, for timing
        # candidates and backport twins.
        merged: dict[tuple[str, str | None], list[Pull]] = defaultdict(list)
        for p in corpus.pulls:
            if p.merged:
                merged[(p.repo, None)].append(p)
                merged[(p.repo, p.base_ref)].append(p)
        self._merged: dict[tuple[str, str | None], list[Pull]] = {}
        self._merged_times: dict[tuple[str, str | None], list[float]] = {}
        self._branches: dict[str, list[str]] = defaultdict(list)
        for (repo, branch), lst in merged.items():
            lst.sort(key=lambda p: p.merged_at)
            self._merged[(repo, branch)] = lst
            self._merged_times[(repo, branch)] = [p.merged_at.timestamp() for p in lst]
            if branch is not None:
                self._branches[repo].append(branch)
        self._pull_tokens: dict[Key, set[str]] = {}
        self._declined: dict[Key, str] = {}     # link.unrelated: an issue's request declined by its owners
        self._branch_shape_lists: dict[tuple[str, str], list[str]] = {}

        # Base branch most used per repo, when the repo object does not name its default.
        counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for p in corpus.pulls:
            if p.base_ref:
                counts[p.repo][p.base_ref] += 1
        for repo, c in counts.items():
            if repo not in self.default_branch:
                self.default_branch[repo] = max(c.items(), key=lambda kv: (kv[1], kv[0] in ("master", "main")))[0]

    def pr_label(self, key: Key, issue_repo: str) -> str:
        """A PR as this platform writes it, seen from `issue_repo` (`!N`, `#N`, `owner/repo!N`)."""
        return pull_label(key, issue_repo, self.platform)

    def backport_shape(self, pull: Pull) -> str:
        """The PR's title without branch tags (`link.shapes`); merged PRs' shapes come from the index scan."""
        key = (pull.repo, pull.number)
        shape = self._backport_shapes.get(key)
        if shape is None:
            shape = self._backport_shapes[key] = backport_shape(pull.title)
        return shape

    def branch_backport_shapes(self, repo: str, branch: str) -> list[str]:
        """`backport_shape` of each PR merged into `branch`, in merge order (as `merged_list`)."""
        key = (repo, branch)
        shapes = self._branch_shape_lists.get(key)
        if shapes is None:
            shapes = self._branch_shape_lists[key] = [self.backport_shape(p) for p in self.merged_list(repo, branch)]
        return shapes

    def merged_between(self, repo: str, start: datetime, end: datetime, branch: str | None = None) -> list[Pull]:
        lo, hi = self.merged_range(repo, start, end, branch)
        return self.merged_list(repo, branch)[lo:hi]

    def merged_range(self, repo: str, start: datetime, end: datetime, branch: str | None = None) -> tuple[int, int]:
        times = self._merged_times.get((repo, branch))
        if not times:
            return 0, 0
        return bisect_left(times, start.timestamp()), bisect_right(times, end.timestamp())

    def merged_list(self, repo: str, branch: str | None = None) -> list[Pull]:
        return self._merged.get((repo, branch), [])

    def branches_of(self, repo: str) -> list[str]:
        return self._branches.get(repo, [])

    def close_actor(self, issue: Issue) -> str:
        if issue.closed_by:
            return issue.closed_by
        best: Event | None = None
        for ev in self.issue_events.get((issue.repo, issue.number), []):
            if ev.action == EV_CLOSED and ev.actor:
                if best is None or (ev.created_at and best.created_at and ev.created_at >= best.created_at):
                    best = ev
        return best.actor if best else ""

    def close_events(self, key: Key) -> list[Event]:
        return [e for e in self.issue_events.get(key, []) if e.action == EV_CLOSED]

    def cross_refs(self, key: Key) -> list[tuple[Key, Event]]:
        out = []
        for ev in self.issue_events.get(key, []):
            if ev.action in (EV_CROSS_REF, EV_REFERENCED, EV_CLOSED):
                pk = self.pull_of_commit(ev) if ev.action != EV_CROSS_REF else None
                if pk is None and ev.action != EV_CLOSED:
                    pk = _pull_key_of_event(ev, key[0])
                if pk:
                    out.append((pk, ev))
        return out

    def connected(self, key: Key) -> bool:
        """GitHub: the issue was connected to a PR by hand (the event does not name the PR)."""
        return any((e.detail or {}).get("event") == "connected" for e in self.issue_events.get(key, []))

    def pull_of_commit(self, ev: Event) -> Key | None:
        """The PR a timeline event's commit belongs to (one of its commits, or its merge commit)."""
        return _pull_of_sha(str((ev.detail or {}).get("commit_id") or ""), (self.sha_to_pull,))

    def pull_by_sha(self, sha: str) -> Key | None:
        """The PR a commit SHA (full or an abbreviation of >= 7) belongs to: one of its commits, its
        merge or squash commit, or its source branch's head."""
        return _pull_of_sha(sha, (self.sha_to_pull, self.head_to_pull))

    def template_lines(self, repo: str) -> frozenset[str]:
        """The lines the repository's issue template writes into every body
        (`rules.funnel.bookkeeping.template_lines`, counted over writers: one person's two reports
        do not make their lines a template). Worked out for every repository in one pass over the
        issues, on first use (the value of each pool case asks)."""
        if not self._templates:
            by_writer: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
            for (r, _), i in self.issues.items():
                by_writer[r][i.author or f"#{i.number}"].append(i.body or "")
            self._templates = {r: template_lines(writers.values()) for r, writers in by_writer.items()}
        return self._templates.get(repo, frozenset())

    def is_default_branch(self, repo: str, branch: str) -> bool:
        if not branch:
            return True
        default = self.default_branch.get(repo)
        if default:
            return branch == default
        return branch in ("master", "main", "develop", "dev")


def _pull_of_sha(sha: str, tables: tuple[dict[str, Key], ...]) -> Key | None:
    """The first table's PR for `sha` (>= 7 hex digits): by the whole SHA, else by one being an
    abbreviation of the other (a timeline may give a short SHA, a commit list a long one)."""
    sha = (sha or "").lower()
    if len(sha) < 7:
        return None
    for table in tables:
        if sha in table:
            return table[sha]
    for table in tables:
        for known, pk in table.items():
            known = known.lower()
            if known.startswith(sha) or (len(known) >= 7 and sha.startswith(known)):
                return pk
    return None
