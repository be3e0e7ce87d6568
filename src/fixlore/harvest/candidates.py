"""Candidate PRs of a repo's pool issues, chosen from data already in hand (no requests): the PRs its
links, events and comments name, the listed PRs that name the issues, and their backport twins. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fixlore.core import model as m
from fixlore.rules.refs import KIND_EITHER, KIND_ISSUE, KIND_PULL, find_refs, refs_from_branch


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
