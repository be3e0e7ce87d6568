"""A stale process's "not planned" is its default, not the project's verdict.

A stale process closes every thread that went quiet, answered or not, and actions/stale (v5
and later) stamps every such close with the close reason "not planned" unless a project
configures otherwise (`close-issue-reason`). On GitHub's issue list that close looks exactly
like a maintainer declining the request. So when the only sign of "not resolved" is that
reason and the issue carries the stale process's own label, the reason says how the thread
ended (nobody wrote for N days), not whether it was settled; the thread says that:

- settled: someone other than the reporter replied with a statement (not a question, not a
  "me too"), or anyone in the thread says it is solved ("已解决", "解决了", "solved", "works now");
- not settled: no reply, or only people asking the same question or whether anyone maintains
  the project. Then the close stands as unresolved.

The cheap funnel (issue list only) keeps such an issue in the pool provisionally, so its thread
is fetched; the linker, which reads the thread, decides (`settled`). Written from how stale
bots close and how people end threads; read on paddle-threads' tune split (PaddleOCR,
PaddleSpeech threads closed by github-actions with `not_planned` after a maintainer's answer or
the reporter's "问题已解决"). Every other world is held out.
"""

from __future__ import annotations

import re
from typing import Collection, Iterable

from fixlore.core.model import REASON_NOT_PLANNED, Comment, Issue
from fixlore.rules.answers import best_answer
from fixlore.rules.bots import is_bot
from fixlore.rules.funnel.vocabulary import fold, has_label

# "the problem is solved", as reporters and others write it once it works.
SOLVED = re.compile(r"已解决|已经解决|解决了|问题解决|可以了|搞定了?|成功了|"
                    r"\bsolved\b|\bresolved\b|works now|it works|that worked|fixed it|working now",
                    re.IGNORECASE)
# A reply that asks instead of answering: it ends on a question mark or a question particle.
_ENDS_ASKING = re.compile(r"(?:[?？]|吗|呢|么)[\s\W]*$")
# "same here", "+1", "同问", "我也遇到了": the reply adds one more person with the problem.
_ME_TOO = re.compile(r"^\W*(?:\+1|same|me too|me2|同问|同样|一样|我也)", re.IGNORECASE)


def stale_default_close(issue: Issue, stale_labels: Collection[str]) -> bool:
    """The issue was closed "not planned" and carries a stale process's label (`stale_labels`,
    compared folded): the reason may be the process's default. Other unresolved signs (a
    wontfix label, a workflow state) are the caller's to test first."""
    if not issue.state_reason or fold(issue.state_reason) != fold(REASON_NOT_PLANNED):
        return False
    return bool(has_label(issue.labels, frozenset(fold(s) for s in stale_labels)))


_NEGATED = re.compile(r"(?:\bnot|n't|\bnever|没有?|未|无法|还是没)\W{0,2}\w{0,3}\W{0,2}$", re.IGNORECASE)


def says_solved(text: str) -> bool:
    """A person says the problem is solved (not "not solved yet", not "is it solved?")."""
    body = (text or "").strip()
    if _ENDS_ASKING.search(body):
        return False
    return any(not _NEGATED.search(body[max(0, m.start() - 12):m.start()]) for m in SOLVED.finditer(body))


def _answers(c: Comment) -> bool:
    body = (c.body or "").strip()
    return not _ENDS_ASKING.search(body) and not _ME_TOO.match(body)


def settled(reporter: str, comments: Iterable[Comment], min_chars: int,
            canned: Collection[str] = frozenset()) -> bool:
    """The thread settled the issue before the stale process closed it: a statement by someone
    other than the reporter (`best_answer`'s tests, and it does not ask), or a person's word
    that it is solved."""
    people = [c for c in comments if c.author and not is_bot(c.author)]
    if any(says_solved(c.body or "") for c in people):
        return True
    answering = [c for c in people if c.author != reporter and _answers(c)]
    return best_answer(reporter, answering, min_chars, canned) is not None
