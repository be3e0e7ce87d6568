"""A fix with no textual reference: the reporter's own PR that repeats the report.

A user who hits a bug and fixes it himself often opens the PR without naming the issue: a
title in his own words ("fix: 修复了 Ascend NPU 上下文导致的崩溃问题"), a description that
pastes the same command line and log he put in the report. What shows the link is then who
wrote both and what both quote, not a reference. The rule is conservative and, like
`link.named_files`, runs only where no reference of any kind names a PR for the issue (it is
tried first of the two: the same author quoting the report is the more specific sign):

- the PR's author is the issue's author (logins compared case-insensitively), it was opened
  from `SITTING_S` before the issue up to `WINDOW_S` after it, merged into the default branch
  before the issue was closed, and it names no issue with a closing keyword (it would be that
  issue's fix);
- its title and description repeat a run of at least `QUOTE_MIN_CHARS` characters of the
  report in its writer's own words (`rules.funnel.bookkeeping.own_words`: the repository's template
  lines and bare headings left out, fences kept whole; spaces folded, addresses left out), and the
  run is a command or a log:
  it holds a long flag, a path to run, a shell prompt before a command or a failure shown. An environment line
  ("CANN 8.0.RC3, torch 2.1.0, Python 3.10") is the author's, not the report's: he pastes it
  into every report and PR he writes.

Its strength is as weak as the named-files rule's (`link.strength`): it never stands beside a
textual reference. `WINDOW_S` (3 days: "shortly after") and `QUOTE_MIN_CHARS` (60: longer than
a title's worth of shared words, shorter than any command line with its flags) are judgements,
fitted on no world; the class was named on accel-threads (sherpa-onnx #3510 ← #3512), which is
fitted for it, and every other world is held out. Texts are read up to `READ_CHARS` each, and
every shared run is found by hashing each `QUOTE_MIN_CHARS` window of the report (linear time),
and any of them that is a command or a log will do.
"""

from __future__ import annotations

import re
from datetime import timedelta

from fixlore.core.model import Issue, Pull
from fixlore.link.index import CorpusIndex
from fixlore.link.named_files import closes_an_issue
from fixlore.rules.funnel.bookkeeping import SITTING_S, own_words
from fixlore.rules.refs import visible
from fixlore.rules.text import without_urls
from fixlore.rules.words import ERROR_SEEN

WINDOW_S = 3 * 86400
QUOTE_MIN_CHARS = 60
READ_CHARS = 20_000

_SPACE = re.compile(r"\s+")
# what makes a run a command or a log rather than prose or an environment line: a long flag, a path
# to run ("./bin/x", "../run.sh"), a shell prompt before a command, or a failure shown (rules.words.ERROR_SEEN)
_COMMAND = re.compile(r"(?:^|\s)--[A-Za-z][\w-]*(?:=|\s)|(?:^|\s)\.{1,2}/(?:[\w.-]+/)*[\w-]+(?:\.(?:sh|py|bin|exe))?(?![\w.]*\.(?:md|txt|rst|html?))(?=\s|$)|(?:^|\s)\$\s+\S|(?:[\]~]|/[\w.-]*)#\s+\S")


def _command_or_log(run: str) -> bool:
    return bool(_COMMAND.search(run) or ERROR_SEEN.search(run))


def _folded(text: str) -> str:
    return _SPACE.sub(" ", without_urls(text[:READ_CHARS])).strip()


def quoted_runs(report: str, change: str, size: int = QUOTE_MIN_CHARS, places: int = 8) -> list[str]:
    """Runs of at least `size` characters both texts hold (spaces folded), found left to right in
    `change`: at each shared `size`-character window, the run from each of up to `places` places of
    it in `report` (a phrase the report repeats is tried at each), then past the longest; linear."""
    a, b = _folded(report), _folded(change)
    if len(a) < size or len(b) < size:
        return []
    where: dict[str, list[int]] = {}
    for i in range(len(a) - size + 1):
        at = where.setdefault(a[i:i + size], [])
        if len(at) < places:
            at.append(i)
    runs: list[str] = []
    j = 0
    while j <= len(b) - size:
        starts = where.get(b[j:j + size])
        if not starts:
            j += 1
            continue
        longest = size
        for i in starts:
            k = size
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            runs.append(a[i:i + k])
            longest = max(longest, k)
        j += longest
    return runs


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
    report = own_words(issue.body or "", idx.template_lines(issue.repo))
    for p in sorted(own, key=lambda p: p.merged_at):
        if closes_an_issue(p, idx):
            continue
        run = next((r for r in quoted_runs(report, f"{p.title or ''}\n{visible(p.body or '')}") if _command_or_log(r)), "")
        if run:
            lag = int((close - p.merged_at).total_seconds())
            return p, (f"no reference names a PR; the reporter's own PR, merged {lag}s before the close, "
                       f"repeats the report: '{run[:80]}'")
    return None
