"""Own-change bookkeeping tickets: the internal test for trackers that have no issue type.

GitCode lets a project type a ticket "任务"; GitHub has no such field, so a developer who keeps
an issue per change (some projects require one: the PR title reads `issue/N - …`, its body
`closes #N`) leaves a ticket that looks like any bug report. What marks it is behaviour, not
wording: the same account opens the ticket and the PR that fixes it in one sitting, and the
ticket says nothing of its own: its body is the repository's issue template left unfilled (or
nothing at all). The change is the developer's, the report is a formality, so the case teaches
no user-side problem.

Both conditions are needed. A contributor who reports a bug and fixes it himself the same hour
writes the symptom into the report (a user-side case worth keeping); a terse report by a user
is fixed by someone else, or days later.

`SITTING_S` (one hour) is a judgement of "one sitting", not fitted: the npu-threads world gives
days only and makes up the times of day, so no bundled world can measure it. `MIN_OWN_CHARS`
(20 letters, digits or CJK characters: less than one short sentence) is a judgement too,
checked on npu-threads' tune split only: its two own-change tickets keep 5 and 0 such
characters, the two reports their authors fixed themselves the same day keep 83 and 315.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from typing import Iterable

from fixlore.core.model import Issue, Pull

SITTING_S = 3600
MIN_OWN_CHARS = 20

# A line that is only markup around a heading: "## Describe the bug", "**版本**", "- [ ]".
_HEADING = re.compile(r"^\s*(#{1,6}\s.*|\*\*[^*]*\*\*:?|__[^_]*__:?|[-*]\s*\[[ xX]?\]\s*|[-*_=`>|\s]*)\s*$")
_MEANINGFUL = re.compile(r"[^\W_]", re.UNICODE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def _lines(body: str) -> list[str]:
    return [line.strip() for line in _COMMENT.sub("", body or "").splitlines() if line.strip()]


def template_lines(bodies: Iterable[str]) -> frozenset[str]:
    """Lines found in two or more issue bodies of one repository: the template wrote them
    (headings, hints such as "Steps to reproduce", unfilled placeholders), not a reporter."""
    seen: Counter[str] = Counter()
    for body in bodies:
        seen.update(set(_lines(body)))
    return frozenset(line for line, n in seen.items() if n >= 2)


def own_words(body: str, shared: frozenset[str]) -> str:
    """What the reporter wrote: the body without HTML comments, heading-only lines and lines
    the repository's other issues share."""
    return "\n".join(line for line in _lines(body) if line not in shared and not _HEADING.match(line))


def says_nothing(body: str, shared: frozenset[str], min_chars: int = MIN_OWN_CHARS) -> bool:
    return len(_MEANINGFUL.findall(own_words(body, shared))) < min_chars


def same_sitting(a: datetime | None, b: datetime | None, span_s: int = SITTING_S) -> bool:
    return a is not None and b is not None and abs((a - b).total_seconds()) <= span_s


def own_change_ticket(issue: Issue, fixes: Iterable[Pull], shared: frozenset[str]) -> Pull | None:
    """The merged fix that makes `issue` its author's bookkeeping ticket, or None.

    A fix counts when its author is the issue's author (logins compared case-insensitively)
    and it was opened within `SITTING_S` of the issue (before or after); the issue must then
    say nothing of its own (`says_nothing`)."""
    author = (issue.author or "").casefold()
    if not author:
        return None
    for pull in fixes:
        if pull.merged and (pull.author or "").casefold() == author \
                and same_sitting(issue.created_at, pull.created_at):
            return pull if says_nothing(issue.body, shared) else None
    return None
