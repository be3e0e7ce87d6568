"""A fix with no textual reference: the reporter's own PR that repeats the report.

A user who hits a bug and fixes it himself often opens the PR without naming the issue: a
title in his own words ("fix: 修复了 Ascend NPU 上下文导致的崩溃问题"), a description that
pastes the same command line and log he put in the report. What shows the link is then who
wrote both and what both quote, not a reference. The rule is conservative and, like
`link.named_files`, runs only where no reference of any kind names a PR for the issue:

- the PR's author is the issue's author (logins compared case-insensitively), it was opened
  from `SITTING_S` before the issue up to `WINDOW_S` after it, merged into the default branch
  before the issue was closed, and it names no issue with a closing keyword (it would be that
  issue's fix);
- its title and description repeat a run of at least `QUOTE_MIN_CHARS` characters of the
  report (spaces folded), left after the lines the repository's template writes into every
  issue (`link.index.CorpusIndex.template_lines`): a command line, a log line, a traceback.

Its strength is as weak as the named-files rule's (`link.strength`): it never stands beside a
textual reference. `WINDOW_S` (3 days: "shortly after") and `QUOTE_MIN_CHARS` (60: longer than
a title's worth of shared words, shorter than any command line with its flags) are judgements,
fitted on no world; the class was named on accel-threads (sherpa-onnx #3510 ← #3512), which is
fitted for it, and every other world is held out.
"""

from __future__ import annotations

import re
from datetime import timedelta
from difflib import SequenceMatcher

from fixlore.core.model import Issue, Pull
from fixlore.link.index import CorpusIndex
from fixlore.rules.funnel.bookkeeping import SITTING_S
from fixlore.rules.refs import find_refs, visible

WINDOW_S = 3 * 86400
QUOTE_MIN_CHARS = 60

_SPACE = re.compile(r"\s+")


def _folded(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def shared_run(report: str, change: str) -> str:
    """The longest run of characters both texts hold, spaces folded."""
    a, b = _folded(report), _folded(change)
    if not a or not b:
        return ""
    m = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return a[m.a:m.a + m.size].strip()


def _report_text(issue: Issue, idx: CorpusIndex) -> str:
    shared = idx.template_lines(issue.repo)
    return "\n".join(line for line in visible(issue.body or "").splitlines() if line.strip() not in shared)


def _names_a_closed_issue(p: Pull, idx: CorpusIndex) -> bool:
    return any(m.ref.keyword for m in idx.pull_issue_refs.get((p.repo, p.number), [])) or any(
        r.keyword for r in find_refs(f"{p.title or ''}\n{p.body or ''}", p.repo, p.platform))


def quoted_fix(issue: Issue, idx: CorpusIndex) -> tuple[Pull, str] | None:
    """The reporter's own merge this rule names as the fix, with what shows it; None when any condition fails."""
    close, opened, author = issue.closed_at, issue.created_at, (issue.author or "").casefold()
    if close is None or opened is None or issue.state != "closed" or not author:
        return None
    own = [p for p in idx.merged_between(issue.repo, opened - timedelta(seconds=SITTING_S), close)
           if (p.author or "").casefold() == author and p.created_at is not None
           and -SITTING_S <= (p.created_at - opened).total_seconds() <= WINDOW_S
           and idx.is_default_branch(p.repo, p.base_ref)]
    if not own:
        return None
    report = _report_text(issue, idx)
    for p in sorted(own, key=lambda p: p.merged_at):
        run = shared_run(report, f"{p.title or ''}\n{visible(p.body or '')}")
        if len(run) >= QUOTE_MIN_CHARS and not _names_a_closed_issue(p, idx):
            lag = int((close - p.merged_at).total_seconds())
            return p, (f"no reference names a PR; the reporter's own PR, merged {lag}s before the close, "
                       f"repeats the report: '{run[:80]}'")
    return None
