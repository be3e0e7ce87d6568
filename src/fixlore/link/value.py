"""What the value score reads of one pool issue (`rules.funnel.rank.ValueInputs`).

The thread (the reporter's follow-ups, the best answer and who gave it), the fix PRs (their
bodies and the review comments of people, their diff: which files and how many lines) and the
case's traps. Pure: everything comes from the corpus index; the score itself is in
`rules.funnel.rank` (`value_features`, `value_score`).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Callable

from fixlore.core.enums import EvidenceKind
from fixlore.core.model import Case, Comment, Issue
from fixlore.link.index import CorpusIndex
from fixlore.rules.answers import squash
from fixlore.rules.bots import STALE_NOTICE, is_bot
from fixlore.rules.funnel.bookkeeping import own_words
from fixlore.rules.funnel.rank import CAUSE, ValueInputs, is_acknowledgement

__all__ = ["Members", "value_inputs"]

_PER_TEXT = 4000
_DOC_SUFFIXES = frozenset({".md", ".rst", ".txt", ".adoc", ".html", ".png", ".jpg", ".svg"})
_CONFIG_SUFFIXES = frozenset({".yml", ".yaml", ".json", ".toml", ".cfg", ".ini", ".lock", ".in"})
_DOC_DIRS = frozenset({"doc", "docs", "documentation", ".github"})
_TEST_DIRS = frozenset({"test", "tests", "testing", "unittest", "ut", "st"})


class Members:
    """The people of a repository: authors of a PR merged into it (worked out on first ask)."""

    def __init__(self, idx: CorpusIndex):
        self.idx = idx
        self.by_repo: dict[str, frozenset[str]] | None = None

    def __call__(self, repo: str) -> frozenset[str]:
        if self.by_repo is None:
            seen: dict[str, set[str]] = {}
            for (r, _), p in self.idx.pulls.items():
                if p.merged and p.author:
                    seen.setdefault(r, set()).add(p.author)
            self.by_repo = {r: frozenset(a) for r, a in seen.items()}
        return self.by_repo.get(repo, frozenset())


def is_code_file(path: str) -> bool:
    """A source file: not documentation, not a test, not configuration."""
    p = PurePosixPath(path.lower())
    parts = set(p.parts[:-1])
    name = p.name
    if p.suffix in _DOC_SUFFIXES or p.suffix in _CONFIG_SUFFIXES or parts & _DOC_DIRS or parts & _TEST_DIRS:
        return False
    return not (name.startswith("test_") or name.endswith(("_test.py", "_test.go", ".test.js", ".test.ts"))
                or name in {"readme", "changelog", "license"})


def _fix_text(case: Case, idx: CorpusIndex) -> list[str]:
    """What the fix PRs say about the change: their bodies and the review comments of people
    (bots' CI reports are not an explanation)."""
    texts = []
    for f in list(case.fix) + list(case.pending_fix):
        key = (f.repo, f.number)
        pull = idx.pulls.get(key)
        texts.append((pull.body if pull else "") or "")
        texts += [c.body or "" for c in idx.pull_comments.get(key, []) if c.author and not is_bot(c.author)]
    return texts


def _diff(case: Case, idx: CorpusIndex) -> tuple[int, int, int]:
    """(code files, other files, changed lines) over the merged fixes' diffs (pending ones when none landed)."""
    refs = list(case.fix) or list(case.pending_fix)
    code = other = lines = 0
    for f in refs:
        for change in idx.files.get((f.repo, f.number), ()):
            if is_code_file(change.filename):
                code += 1
            else:
                other += 1
            lines += max(0, change.additions) + max(0, change.deletions)
    return code, other, lines


def value_inputs(issue: Issue, case: Case, fix_strong: bool, idx: CorpusIndex,
                 best_answer: Callable[[], tuple[int, Comment] | None], members: Members) -> ValueInputs:
    comments = idx.issue_comments.get((issue.repo, issue.number), [])
    human = [c for c in comments if c.author and not is_bot(c.author) and not STALE_NOTICE.search(c.body or "")]
    own = [c for c in human if c.author == issue.author]
    best = best_answer()
    kinds = {e.kind for e in case.evidence}
    explained = [c.body or "" for c in own if CAUSE.search(c.body or "")]
    longest = max(explained, key=lambda b: len(squash(b)), default="")
    fix_texts = _fix_text(case, idx)
    code, other, lines = _diff(case, idx)
    # The report as its writer wrote it: the repository's template lines, bare headings and HTML
    # comments are every report's, so they tell nothing of this one ("### Reproduction" is no
    # reproduction). Written from how templates fill bodies; read on accel-threads3 (fitted).
    return ValueInputs(
        title=issue.title, body=own_words(issue.body or "", idx.template_lines(issue.repo)), author=issue.author,
        answer_chars=best[0] if best else 0, self_explained_chars=len(squash(longest)),
        human_comments=sum(1 for c in human if not is_acknowledgement(c.body)),
        reporter_last=own[-1].body if own else "",
        fix_merged=bool(case.fix), fix_strong=fix_strong, fix_pending=bool(case.pending_fix),
        close_explained=bool(kinds & {EvidenceKind.AUTO_CLOSE, EvidenceKind.MINUTES}),
        answered=EvidenceKind.ANSWER in kinds,
        fix_text_chars=sum(min(_PER_TEXT, len(squash(t))) for t in fix_texts),
        answer_text=(best[1].body or "") if best else "",
        answer_by_member=bool(best) and best[1].author in members(issue.repo),
        fix_text="\n".join(fix_texts), self_explained_text=longest,
        code_files=code, other_files=other, changed_lines=lines,
        traps=tuple(str(t) for t in case.traps))
