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

A request for new work is the other form of the same record. A feature ticket ("[FEAT]: support
X", labelled `enhancement` or `feature request`) opened by the account that opens the PR building
it in the same sitting is the developer announcing his own change: a user who asks for a
capability does not deliver it within the hour. Such tickets are often written out (a motivation,
the design in a paragraph, "实现及测试见 #145"), so their length says nothing; the kind of ticket
does. A failure report keeps the length test: its fixer writing the symptom down is a case worth
keeping. So does a request that tells of its author's own use ("I attempted to test it on the 310P
and found it does not build", "我在 910B 上部署时发现…"): an outside contributor who met the gap,
then closed it himself, raised it from the user side; a developer's plan speaks of the change, not
of having run into its absence. The kind is read from the title's first kind tag, else from the labels (`request_kinds`
in vocabulary.yaml, a label naming a report kind such as `bug` overrides). Written after reading
accel-threads' flash-attention-npu tickets (#78, #90, #144, #166: fitted there); accel-threads2 and
every other world held out.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from typing import Iterable

from fixlore.core.model import Issue, Pull
from fixlore.rules.funnel.config import FunnelConfig
from fixlore.rules.refs import visible
from fixlore.rules.funnel.titles import leading_tags
from fixlore.rules.funnel.vocabulary import fold, folded, has_label
from fixlore.rules.words import NEGATION, letters

SITTING_S = 3600
MIN_OWN_CHARS = 20

# A line that is only markup around a heading: "## Describe the bug", "**版本**", "- [ ]".
_HEADING = re.compile(r"^\s*+(#{1,6}\s.*|\*\*[^*]*\*\*:?|__[^_]*__:?|[-*]\s*+\[[ xX]?\]\s*+|[-*_=`>|\s]*+)\s*+$")
# CommonMark's fences: an opening run of 3+ backticks or tildes whose info string holds no backtick (so an
# inline ```code``` span opens nothing), closed by a bare run of the same mark at least as long.
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}(?=[^`]*$)|~{3,})")
_FENCE_CLOSE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")
# The author telling what he met while using the project: a first person trying, running or meeting
# something, or the circumstance of a use ("When I run …", "在 910B 上部署时"). A developer's plan
# speaks of the change ("we use a new scheduler", "我们在此 PR 中实现", "I have tested it with the unit
# tests"), so neither bare use nor testing counts, nor "在" before the PR; "we use X" counts with what went
# wrong in the same sentence ("we use X in production and it crashes"), not with what the change does.
_USE_VERB = r"(?:run|running|ran|use|using|used|load|loading|call|calling|deploy|deploying|try|trying|tried|start|" \
            r"starting|launch|launching|train|training|infer|serve|serving|build|building|install|installing|compile)"
_OWN_USE = re.compile(
    r"\b(?:when|while|after|(?P<cond>if))\s+(?:I|we)\s+(?:(?:am|are|was|were)\s+)?(?:try\s+to\s+)?" + _USE_VERB + r"\b"
    r"|\bI(?:'m|\s+am|\s+was)\s+(?:using|running|trying|deploying)\b|\bwe(?:'re|\s+are|\s+were)\s+(?:using|running|trying|deploying)\b"
    r"|\b(?:I|we)(?:'ve|\s+have|\s+had)?\s+(?:been\s+)?(?:just\s+|recently\s+|also\s+)?"
    r"(?:tried|trying|attempted|encountered|noticed|observed|ran\s+into|run\s+into|hit|met|got|saw)\b"
    r"|\bI\s+(?:get|keep\s+getting|see)\s+(?:an?\s+|the\s+)?(?:\w+\s+){0,2}(?:error|crash|segfault|oom|hang|failure|exception)"
    r"|\bI\s+use\s+\S+.{0,40}?\b(?:and|but)\s+(?:it|the)\b"
    r"|(?P<we_use>\bwe\s+use\s+\S+.{0,40}?\b(?:and|but)\s+(?:it|the\s+\w+)\b)"
    r"|我们?(?:在(?!\s*(?:此|本|这个|该|新)?\s*(?:PR|MR|pr|mr|#|!|！|＃|版本))|尝试|试了|试着|部署|安装|发现|遇到|碰到)"
    r"|我们?(?:运行|跑)(?!了?\s*(?:单元测试|单测|UT|ut|benchmark|测试用例|用例))"
    r"|(?<!PR)(?<!PR\s)在[^。，,\n]{1,24}?上(?:运行|部署|使用|跑)[^。，,\n]{0,8}?时|使用(?:过程)?中(?:发现|遇到)",
    re.IGNORECASE)
# A use told as a condition is supposed, not met: "If we use the new API, the copy goes away", "if I
# were running two cards", "如果我们在 910B 上部署". It is met when the rest of its sentence tells what went
# wrong ("If I run the training script, it hangs after 3 steps", "如果我在 910B 上运行这个脚本，就会报错");
# so is "we use X … and it/the Y" (a plan says "we use a ring buffer and the copy goes away"). Written from
# reviewers' probes of how people write a condition and a promise, no world read; every world's export
# byte-identical with it.
_SUPPOSED = re.compile(r"(?:\b(?:if|unless|suppose|supposing|whether)|如果|假如|假设|要是|倘若|如若|若)\s*$", re.IGNORECASE)
# What went wrong, as a reporter tells it: a failure word not negated right before it ("no longer
# leaks", "never fails" are a change's promise), or a refusal to work.
_WENT_WRONG = re.compile(
    r"\b(?:crash|fail|hang|hangs|hung|break|breaks|broke|segfault|error|oom|leak|freez|stall|abort|wrong|incorrect"
    r"|broken|slow)\w*+|\bnan\b|\b(?:does\s*+n[o']t|did\s*+n[o']t|won't|can't|cannot)\s++(?:work|start|run|load|launch|finish)\b"
    r"|报错|失败|崩溃|卡住|卡死|挂掉|异常|出错|无法|不能(?:运行|启动|使用)",
    re.IGNORECASE)
_NEGATED = re.compile(rf"(?:{NEGATION})\s*+(?:\w+\s+)?$", re.IGNORECASE)      # rules.words.NEGATION
# a failure said to go away is the change's promise, not a report: "the OOM goes away", "it fixes the crash"
_GOES_AWAY = re.compile(r"\s*+(?:\w+\s+){0,3}?(?:goes\s+away|disappears|is\s+gone|vanishes)|\s*+(?:issue|problem)?\s*+消失",
                        re.IGNORECASE)
_FIXES_BEFORE = re.compile(r"\b(?:fix(?:es|ed)?|avoid(?:s|ed)?|prevent(?:s|ed)?|solv(?:es|ed)|resolv(?:es|ed))\s+(?:the\s+|a\s+|this\s+)?$"
                           r"|(?:解决|避免|修复)(?:了)?$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？\n]")
_SENTENCE_CHARS = 200


def _tells_what_went_wrong(text: str, at: int) -> bool:
    """Whether the sentence going on from `at` tells of a failure (`_WENT_WRONG`, not negated)."""
    rest = text[at:at + _SENTENCE_CHARS]
    end = _SENTENCE_END.search(rest)
    rest = rest[:end.start()] if end else rest
    return any(not _NEGATED.search(rest, max(0, m.start() - 16), m.start())
               and not _FIXES_BEFORE.search(rest, max(0, m.start() - 16), m.start())
               and not _GOES_AWAY.match(rest, m.end(), m.end() + 40) for m in _WENT_WRONG.finditer(rest))


def is_heading_line(line: str) -> bool:
    """A line that is only markup around a heading or nothing ("## Describe the bug", "**版本**", "- [ ]")."""
    return bool(_HEADING.match(line))


def _lines(body: str) -> list[tuple[str, bool]]:
    """The body's non-blank lines, stripped, without HTML comments, each with whether it lies in a
    code fence (what the writer pasted: a log, a command, code) or is a fence's own line. A fence
    left open at the end of the body fenced nothing: its lines are read as prose."""
    out: list[tuple[str, bool]] = []
    opener = ""
    opened_at = -1
    for line in visible(body or "").splitlines():
        if opener:
            close = _FENCE_CLOSE.match(line)
            if close and close.group(1)[0] == opener[0] and len(close.group(1)) >= len(opener):
                opener = ""
            if line.strip():
                out.append((line.strip(), True))
            continue
        start = _FENCE_OPEN.match(line)
        if start:
            opener, opened_at = start.group(1), len(out)
        if line.strip():
            out.append((line.strip(), bool(start)))
    if opener:
        out[opened_at + 1:] = [(text, False) for text, _ in out[opened_at + 1:]]
    return out


def template_lines(writers: Iterable[str | Iterable[str]]) -> frozenset[str]:
    """Lines outside code fences found in the bodies of two or more writers of one repository
    (each item: one writer's body, or all of his bodies): the template wrote them (headings, hints
    such as "Steps to reproduce", unfilled placeholders), not a reporter. What is pasted in a fence
    (a traceback's first line, `main()`) is each writer's own, however common."""
    seen: Counter[str] = Counter()
    for bodies in writers:
        seen.update({line for body in ([bodies] if isinstance(bodies, str) else bodies)
                     for line, fenced in _lines(body) if not fenced})
    return frozenset(line for line, n in seen.items() if n >= 2)


def own_words(body: str, shared: frozenset[str]) -> str:
    """What the reporter wrote: the body without HTML comments, and, outside code fences, without
    heading-only lines and the lines the repository's template writes (`shared`); a fence and
    what it holds stay whole."""
    return "\n".join(line for line, fenced in _lines(body)
                     if fenced or (line not in shared and not is_heading_line(line)))


def says_nothing(body: str, shared: frozenset[str], min_chars: int = MIN_OWN_CHARS) -> bool:
    return letters(own_words(body, shared)) < min_chars


def same_sitting(a: datetime | None, b: datetime | None, span_s: int = SITTING_S) -> bool:
    return a is not None and b is not None and abs((a - b).total_seconds()) <= span_s


# Report tags that name no kind of work: "help wanted" asks for hands on whatever the ticket is.
_NEITHER = frozenset({"help", "helpwanted", "goodfirstissue"})


def asks_for_new_work(issue: Issue, cfg: FunnelConfig) -> bool:
    """Whether `issue` is a request for new work: the first title tag naming a kind of ticket is
    a request kind, or (no such tag) a label is one and no label names another report kind."""
    requests = folded(tuple(cfg.request_kinds))
    kinds = (requests | folded(tuple(cfg.report_title_tags))) - _NEITHER
    for tag in leading_tags(issue.title):
        if fold(tag) in kinds:
            return fold(tag) in requests
    return bool(has_label(issue.labels, requests)) and not has_label(issue.labels, kinds - requests)


def tells_own_use(body: str, shared: frozenset[str] = frozenset()) -> bool:
    """Whether the author writes of what he tried or met while using the project, in his own words
    (`own_words`: the template's lines, such as a ticked "I have tried the latest version", are not his);
    a use under "if"/"如果" (`_SUPPOSED`), or "we use X and it …", is told only with what went wrong after it."""
    text = own_words(body, shared)
    for m in _OWN_USE.finditer(text):
        supposed = (m.group("cond") or m.group("we_use")) is not None \
            or _SUPPOSED.search(text, max(0, m.start() - 12), m.start())
        if not supposed or _tells_what_went_wrong(text, m.end()):
            return True
    return False


def own_change_ticket(issue: Issue, fixes: Iterable[Pull], shared: frozenset[str],
                      cfg: FunnelConfig | None = None) -> Pull | None:
    """The merged fix that makes `issue` its author's bookkeeping ticket, or None.

    A fix counts when its author is the issue's author (logins compared case-insensitively)
    and it was opened within `SITTING_S` of the issue (before or after); the issue must then
    say nothing of its own (`says_nothing`) or ask for new work (`asks_for_new_work`) without telling
    of its author's own use (`tells_own_use`)."""
    author = (issue.author or "").casefold()
    if not author:
        return None
    cfg = cfg or FunnelConfig()
    for pull in fixes:
        if pull.merged and (pull.author or "").casefold() == author \
                and same_sitting(issue.created_at, pull.created_at):
            planned = asks_for_new_work(issue, cfg) and not tells_own_use(issue.body, shared)
            return pull if planned or says_nothing(issue.body, shared) else None
    return None
