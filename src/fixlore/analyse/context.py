"""What an analyst reads about one case: the issue, its discussion, the fix PRs and their text,
gathered from the Corpus once (an index) and handed out per case."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from fixlore.core.model import Case, Comment, Commit, Corpus, FileChange, Issue, Pull
from fixlore.rules.bots import is_bot


def _from_a_person(c: Comment) -> bool:
    """Not a bot account: automation (stale notices, CI reports) explains nothing about a problem.
    A person's "inactive, closing" note stays: it often carries the reason (an RFC left unfinished)."""
    return bool(c.author) and not is_bot(c.author)


@dataclass(slots=True)
class CaseContext:
    issue: Issue | None
    comments: list[Comment] = field(default_factory=list)        # issue comments, oldest first
    pulls: list[Pull] = field(default_factory=list)              # the case's fix PRs (as known to the corpus)
    pull_comments: list[Comment] = field(default_factory=list)
    commits: list[Commit] = field(default_factory=list)
    files: list[FileChange] = field(default_factory=list)          # what the fix PRs changed
    shared_fix_cases: list[str] = field(default_factory=list)    # other case keys fixed by the same PR
    shared_fix_titles: dict[str, str] = field(default_factory=dict)   # their titles
    shared_fix_texts: dict[str, str] = field(default_factory=dict)    # their titles and descriptions

    @property
    def author(self) -> str:
        return self.issue.author if self.issue else ""

    @property
    def body(self) -> str:
        return self.issue.body if self.issue else ""

    def maintainer_comments(self) -> list[Comment]:
        """Comments by people other than the reporter: where official answers and root causes live."""
        return [c for c in self.comments if c.author != self.author and _from_a_person(c)]

    def discussion(self) -> list[Comment]:
        """The issue's comments by people, reporter included (what a reader of the issue reads)."""
        return [c for c in self.comments if _from_a_person(c)]

    def reviews(self) -> list[Comment]:
        """Comments on the fix PRs by people other than the reporter."""
        return [c for c in self.pull_comments if c.author != self.author and _from_a_person(c)]

    def reporter_comments(self) -> list[Comment]:
        return [c for c in self.comments if c.author == self.author and _from_a_person(c)]


class ContextIndex:
    """Lookups over a Corpus by (repo, number), built once per run."""

    def __init__(self, corpus: Corpus | None):
        corpus = corpus or Corpus()
        self.issues = {(i.repo, i.number): i for i in corpus.issues}
        self.pulls = {(p.repo, p.number): p for p in corpus.pulls}
        self.comments: dict[tuple[str, str, int], list[Comment]] = defaultdict(list)
        for c in corpus.comments:
            self.comments[(c.repo, c.parent_kind, c.parent_number)].append(c)
        for lst in self.comments.values():
            lst.sort(key=lambda c: (c.created_at is None, c.created_at, c.id))
        self.commits: dict[tuple[str, int], list[Commit]] = defaultdict(list)
        for cm in corpus.commits:
            self.commits[(cm.repo, cm.pull_number)].append(cm)
        self.files: dict[tuple[str, int], list[FileChange]] = defaultdict(list)
        for fc in corpus.files:
            self.files[(fc.repo, fc.pull_number)].append(fc)

    def context(self, case: Case, fix_users: dict[tuple[str, int], list[str]] | None = None) -> CaseContext:
        pulls, pcomments, commits, files, shared = [], [], [], [], []
        for f in case.fix:
            p = self.pulls.get((f.repo, f.number))
            if p is not None:
                pulls.append(p)
            pcomments.extend(self.comments.get((f.repo, "pull", f.number), []))
            commits.extend(self.commits.get((f.repo, f.number), []))
            files.extend(self.files.get((f.repo, f.number), []))
            for other in (fix_users or {}).get((f.repo, f.number), []):
                if other != case.key and other not in shared:
                    shared.append(other)
        titles, texts = {}, {}
        for key in shared:
            repo, _, num = key.rpartition("#")
            other = self.issues.get((repo, int(num))) if num.isdigit() else None
            titles[key] = other.title if other else ""
            texts[key] = f"{other.title}\n{other.body or ''}" if other else ""
        return CaseContext(
            issue=self.issues.get((case.repo, case.number)), shared_fix_titles=titles, shared_fix_texts=texts,
            comments=list(self.comments.get((case.repo, "issue", case.number), [])),
            pulls=pulls, pull_comments=pcomments, commits=commits, files=files, shared_fix_cases=shared,
        )


def fix_users(cases: list[Case]) -> dict[tuple[str, int], list[str]]:
    """PR -> the case keys that name it as fix: shows one PR fixing many issues."""
    users: dict[tuple[str, int], list[str]] = defaultdict(list)
    for c in cases:
        for f in c.fix:
            users[(f.repo, f.number)].append(c.key)
    return users
