"""A stale process's "not planned" is its default, not the project's verdict.

A stale process closes every thread that went quiet, answered or not, and actions/stale (v5
and later) stamps every such close with the close reason "not planned" unless a project
configures otherwise (`close-issue-reason`). On GitHub's issue list that close looks exactly
like a maintainer declining the request. So when the only sign of "not resolved" is that
reason and the issue carries the stale process's own label, the reason says how the thread
ended (nobody wrote for N days), not whether it was settled; the thread says that:

- settled: someone other than the reporter replied with a statement (not a question, not a
  "me too", not a fix put off to a later update with nothing landed: "像是内存溢出了…后续更新后会更正",
  read on accel-threads7, MNN #3726: fitted there), or anyone in the thread says it is solved
  ("已解决", "解决了", "solved", "works now");
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
from fixlore.rules.refs import written_refs
from fixlore.rules.words import NEGATION_ACROSS_A_WORD

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


# a negation with at most one short word between it and "solved" ("not yet solved"): rules.words says why
# this is not the whole list
_NEGATED = re.compile(rf"(?:{NEGATION_ACROSS_A_WORD})\W{{0,2}}\w{{0,3}}\W{{0,2}}$", re.IGNORECASE)


def says_solved(text: str) -> bool:
    """A person says the problem is solved (not "not solved yet", not "is it solved?")."""
    body = (text or "").strip()
    if _ENDS_ASKING.search(body):
        return False
    return any(not _NEGATED.search(body[max(0, m.start() - 12):m.start()]) for m in SOLVED.finditer(body))


# A reply that puts the work off: a fix promised for a later update ("后续更新后会更正", "will be fixed in a
# future release", "we will look into it") settles nothing until it lands; one that says where it landed
# ("fixed in 2.1", "已在 !12 修复", a PR named: `rules.refs.written_refs`) is an answer.
_PUTS_OFF = re.compile(
    r"(?:后续|之后|以后|下个|下一个?)(?:的)?(?:更新|版本|迭代)?(?:后|中)?(?:会|将)(?:更正|修复|修正|解决|支持|优化|处理)"
    r"|(?:会|将)在(?:后续|之后|下个|下一个?)(?:的)?(?:更新|版本|迭代)"
    r"|\bwill\s+(?:be\s+)?(?:fix|fixed|address|addressed|correct|corrected|support|supported|resolve|resolved)\s+"
    r"(?:\w+\s+)?(?:in|with)\s+(?:a|the)?\s*(?:later|future|next|upcoming|coming)\b"
    r"|\bwe(?:'ll|\s+will)\s+(?:look\s+into|investigate|check)\s+(?:it|this)\b",
    re.IGNORECASE)
_LANDED = re.compile(r"已(?:经)?(?:在|于)?.{0,12}?(?:修复|解决|支持|合入)"
                     r"|\b(?:is|was|been|got)\s+(?:fixed|resolved)\s+(?:in|by)\s+(?:the\s+)?(?:latest|current|newest|main|master)\b"
                     r"|\bv?\d+\.\d+", re.IGNORECASE)


def _answers(c: Comment) -> bool:
    body = (c.body or "").strip()
    if _PUTS_OFF.search(body) and not _LANDED.search(body) and not written_refs(body):
        return False
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
