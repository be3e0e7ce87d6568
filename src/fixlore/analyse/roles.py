"""What a sentence of a thread does for a reader: explain the mechanism, describe the change,
give a workaround, state the scope (versions, requirements, who is affected) or a measured number.

Engineers write these in recognisable ways, whatever the project: a cause names code or says
"because"; a change says what now differs ("不再", "no longer", "改为"); a workaround is advice
in the imperative from someone who knows ("请在宿主机上改", "set X", "use the new version");
a scope sentence puts a version next to a bound ("≥ 26.2.0", "before 0.18", "需要 … 以上");
a measurement is a number with a unit. Pure functions over one sentence and where it came from."""

from __future__ import annotations

import re

from fixlore.analyse.fit import clauses
from fixlore.rules.answers import asks_the_reporter, is_me_too, is_question
from fixlore.rules.refs import KIND_ISSUE, find_refs, with_numbers
from fixlore.rules.text import hard_facts, sentences
from fixlore.rules.words import has_cue

# the people who changed or own the code; commit messages describe a change, never a cause
OFFICIAL = ("maintainer", "pull", "pull_comment", "commit")

# a reason stated without the usual cause words ("出于安全考虑默认只读挂载": the design is the cause)
REASON = ("出于", "是为了", "为了安全", "源于", "来自于", "回归自", "for security", "for safety", "by design", "so that",
          "found that", "the reason", "reason:", "regression from", "regressed by", "comes from", "come from",
          "lead to", "leads to", "led to", "results in", "resulting in", "this is because", "stems from")
# output pasted from a program (a log line, a debug print) is evidence, not an explanation
# and so is a command line from a test plan ("vllm serve … --port 8091", "pytest tests/…")
_LOG_LINE = re.compile(r"^\s*(?:\(\w+(?: pid=\d+| rank=\d+)[^)]*\)|\[[A-Z_]+\]|(?:INFO|ERROR|WARNING|DEBUG)\b|"
                       r"\d{2}[-/]\d{2}[ T]\d{2}:\d{2}|\$ |>>> |"
                       r"(?:vllm serve|python3?|pytest|pip3?|bash|git|curl|docker|export|torchrun|cd|sudo) [-\w./]+ )")
# a template's field with its value ("vLLM Version: v0.27.0", "Platform: 910B"): metadata, not a statement
_FIELD = re.compile(r"^[\w .()/-]{2,30}[:：]\s*\S+(?:\s+\S+){0,2}$")
# an explicit statement of the cause outweighs the words of change it may use
# ("Root cause: the vllm in the image no longer matches vllm-omni")
STRONG_CAUSE = ("根因", "原因", "问题在于", "问题出在", "由于", "因为", "root cause", "the cause", "because", "caused by",
                "due to", "reason:")
# a statement of what is different after the change, even when it names the old cause word
# ("etcd 瞬时读超时不再触发自我降级": "触发" is a cause word, the sentence is the change)
CHANGED = ("不再", "现改为", "改为", "改成", "改用", "换成", "现在会", "现在", "此后", "修复后", "以后",
           "no longer", "now ", "instead of", "is replaced", "replaces", "ports ", "aligns",
           "upgrade ", "bump", "升级到", "升级至", "update ")
WORKAROUND_CUES = ("规避", "绕过", "临时", "暂时", "workaround", "work around", "in the meantime", "meanwhile",
                   "手动", "手工", "可以先", "可先", "先用", "先把", "可以通过", "可通过", "改在", "在宿主机")
IMPERATIVE = ("请", "建议", "需要", "需在", "需先", "可以", "应当", "务必", "不要", "避免",
              "please", "recommend", "should", "try ", "use ", "set ", "add ", "upgrade to", "switch to",
              "make sure", "do not", "don't", "avoid")
# a bound on versions or a requirement: only with a version in the sentence
BOUND = ("≥", ">=", "≤", "<=", "以上", "以下", "及以上", "之前", "之后", "起", "开始", "需要", "要求", "配套", "匹配",
         "仅", "只有", "升级到", "升级至", "降级", "before", "after", "since", "from ", "or later", "or newer",
         "or above", "at least", "requires", "require", "needs", "compatible", "upgrade to", "pin")
# who is affected, without a version ("影响所有标准门控系模型", "only on 910B")
AFFECTS = ("影响所有", "影响范围", "仅影响", "只影响", "不影响", "受影响", "affects all", "only affects",
           "does not affect", "affected")
_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+){0,2}(?:\.?rc\d+|\.?post\d+|\.RC\d+)?(?![\w.])", re.I)
# a number with a unit: what was measured ("约 2×", "30s→2s", "0.25%", "36G")
# a measured result: a number against a baseline (%, ×, 倍), a duration, or a rate. A bare size
# ("16K", "64GB") is usually a setting someone chose, not what they measured.
# A value the writer marks as measured ("验收：MFU≥24（实测 24.6）", "measured: 24.6") is a result too,
# though it has no unit: how a PR reports a task's acceptance figure (read on seed-twin2's tune rows,
# MindSpeed-MM#357).
_MEASURE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:%|×|x\b|倍|ms|s\b|秒|分钟|小时|"
                      r"(?:[KMGT]i?B|tokens?|it|samples?|req)/s\b|T?FLOPS\b|QPS\b|TPS\b)"
                      r"|(?:实测|实际测得|measured)\s*(?:值|为|是|at)?\s*[:：]?\s*\d+(?:\.\d+)?(?![\w.])(?!\s*(?:次|遍|轮|个|times\b|runs?\b))", re.I)


# words of bookkeeping: that something merged, closed, was answered or will be watched
_BOOKKEEPING = with_numbers(
    r"修复|已|均|都|合入|关闭|关单|答复|回复|给出|观察|关注|跟踪|处理|完成|见|参考|今晚|后续|指引|验证|通过|感谢|谢谢",
    r"master|main|nightly|分支|版本|"
    r"\b(?:fixed|fix|merged|closing|closed|close|done|thanks|see|in|by|via|the|on|is|was|has|been|will|now|"
    r"solved|resolved|it|this|issue|after|personal|discussion|offline|reopen|if|needed|can|i|we)\b",
    re.I)


# a courtesy that opens a reply ("Thanks for your feedback", "感谢反馈"): alone it tells nothing
_COURTESY = re.compile(r"^\s*(?:thanks?|thank you|many thanks|感谢|谢谢|多谢)(?:\s*(?:for|a lot|so much)?\s*(?:your|the)?\s*"
                       r"(?:feedback|report(?:ing)?|反馈|您的反馈|你的反馈|提单|报告)?)?[\s!！.。]*$", re.I)


def asks(sentence: str) -> bool:
    """A question (`rules.answers.is_question`): it asks the reporter for something, it tells the
    reader nothing established (neither a cause nor a fix)."""
    return is_question(sentence)


# a question offering steps to try ("Could you try the following?", "可以试试下面的方法吗？") opens a
# list of steps, the workaround, not of things asked
_OFFERS = re.compile(r"\btry\b|试", re.I)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)、]|[（(]\d{1,2}[)）])\s*")


def told(body: str) -> list[str]:
    """The sentences of a reply, without the items of a list that a question or a request for the
    reporter's material opens ("Could you provide more details?" then "1. Which model…?" … "4. Full
    terminal output or logs"): each item is part of what is asked, whatever its own words. Read on
    accel-threads7 (MNN #4368: the fourth item had become the row's cause); every other world held out."""
    kept: list[str] = []
    asking = False
    for line in (body or "").splitlines():
        if _LIST_ITEM.match(line):
            if asking:
                continue
        elif line.strip():
            said = sentences(line)
            asking = bool(said) and (asks_the_reporter(said[-1]) or asks(said[-1]) and not _OFFERS.search(said[-1]))
        kept.append(line)
    return sentences("\n".join(kept))


def withholds(sentence: str) -> bool:
    """One more person with the problem ("same issue", "我也遇到了") or a request to the reporter for
    their material ("please share the full log", "请提供完整日志"): it says nothing established, even
    when it names another ticket ("我也遇到了，见 #77")."""
    return is_me_too(sentence) or asks_the_reporter(sentence)


# A PR conversation's talk about its own review round ("I've addressed both comments: added …", "Merged
# the latest changes — this is ready again now", "已按检视意见修改", "rebased onto main", "PTAL"): it
# tells how the change went through review, not what was wrong or what the change does (the PR's
# body and title say that). Read on npu-threads' tune rows once a run read PR comments (vllm-omni
# #5234, #5102); every other world held out.
_REVIEW_ROUND = re.compile(
    r"^\s*(?:(?:I|we)(?:'ve| have)?\s+)?(?:addressed|resolved|applied|handled)\s+(?:(?:all|both|the|your|these|those|"
    r"reviewers?'?s?|review)\s+)*(?:comments?|feedback|suggestions?|review)\b"
    r"|^\s*(?:(?:I|we)(?:'ve| have)?\s+)?(?:merged|pulled|rebased)\s+(?:(?:in|on|onto)\s+)?(?:the\s+)?"
    r"(?:latest|main|master|upstream)\b"
    r"|\b(?:is|are|it's|now)\s+ready\s+(?:for\s+(?:another\s+)?review|again|to\s+merge)\b|^\s*(?:PTAL|LGTM|/retest|/lgtm)\b"
    r"|^\s*(?:已|均已)?(?:按|根据)(?:检视|review|评审)意见(?:修改|更新|处理)|^\s*(?:已)?(?:rebase|解决冲突|合并最新)",
    re.IGNORECASE)


# what the rest of such a sentence may still tell: a fix or a cause ("merged the latest upstream fix
# for X into our fork, which resolves Y", "合并最新主线后 HCCL 超时问题消失")
_ANSWERS_REVIEW = re.compile(r"comments?|feedback|suggestions?|review|意见", re.IGNORECASE)
_TELLS_FIX_OR_CAUSE = re.compile(r"\b(?:fix(?:es|ed)?|resolves?|solves?|caused?|root cause)\b|修复|解决|消失|原因|导致",
                                 re.IGNORECASE)


def review_round(sentence: str) -> bool:
    """Talk of a PR's review round (`_REVIEW_ROUND`) that goes on to no fix or cause: nothing a row says."""
    m = _REVIEW_ROUND.search(sentence)
    if m and _ANSWERS_REVIEW.search(m.group(0)):     # what was changed for the reviewers ("…, fixed the code style")
        return True
    return bool(m) and not _TELLS_FIX_OR_CAUSE.search(sentence[m.end():])


def says_something(sentence: str) -> bool:
    """False for bookkeeping ("修复已合入，今晚 nightly 观察", "已给出迁移指引，关闭", "Fixed by #12"):
    it reports that something happened, not what; for a question (`asks`), a bare courtesy
    ("Thanks for your feedback"), one more person with the problem ("same issue", "我也遇到了") and a
    request to the reporter ("please share the full log", "请提供完整日志")."""
    if asks(sentence) or _COURTESY.match(sentence) or withholds(sentence) or review_round(sentence):
        return False
    if any(re.search(r"[A-Za-z]", f) for f in hard_facts(sentence)):   # it names code
        return True
    rest = re.sub(r"[\W_]+", "", _BOOKKEEPING.sub("", _VERSION.sub("", sentence)))
    return len(rest) >= 6


def is_log_line(sentence: str) -> bool:
    """Pasted output or a command, or a template's field: nothing a row should say in its own words."""
    field = len(sentence) <= 40 and _FIELD.match(sentence) and not is_measurement(sentence)
    return bool(_LOG_LINE.match(sentence) or field)


def states_cause(sentence: str) -> bool:
    return has_cue(sentence, STRONG_CAUSE)


def states_reason(sentence: str) -> bool:
    return has_cue(sentence, REASON)


# a PR template's or a reply's label for what was changed ("修改：matcher 跳过 bookkeeping 边", "Fix: …")
_CHANGE_LABEL = re.compile(r"^\s*(?:本\s*PR\s*)?(?:修改|改动|修改内容|修改点|修复方案|解决方案|变更|改法|"
                           r"changes?|fix|solution|what (?:this pr|changed))\s*[:：]", re.I)


def states_change(sentence: str) -> bool:
    return has_cue(sentence, CHANGED) or bool(_CHANGE_LABEL.match(sentence))


def is_workaround(sentence: str, source: str) -> bool:
    """Advice from someone who knows the code: what to do now, fix or no fix."""
    if source not in ("maintainer", "pull_comment"):
        return False
    return has_cue(sentence, WORKAROUND_CUES) or has_cue(sentence, IMPERATIVE)


def is_scope(sentence: str) -> bool:
    """A version with a bound or requirement, or who is (not) affected."""
    return bool(_VERSION.search(sentence) and has_cue(sentence, BOUND)) or has_cue(sentence, AFFECTS)


def is_measurement(sentence: str) -> bool:
    return bool(_MEASURE.search(sentence))


# a PR template's self-check field ("【自检】main.go 修改，无 UT/ST 需求"): the author's checklist
# for the reviewer, nothing a reader of the row learns about the problem
SELF_CHECK = ("自检", "自测", "自验证", "checklist", "self-check", "self check", "ut/st", "ut、st")
# what tests a change adds: evidence that it works, not what it changes
TESTS = ("单测", "单元测试", "回归测试", "测试用例", "用例", "断言", "ut ", "unit test", "regression test",
         "test case", "tests", "assertion", "assert ")


def is_template_note(sentence: str) -> bool:
    """A self-check line of a PR template: a bracketed label ("【自检】") or a checklist answer."""
    text = sentence.strip()
    return has_cue(text, SELF_CHECK) or bool(re.match(r"^[【\[]\s*(?:自检|自测|checklist|self[- ]check)", text, re.I))


def only_tests(sentence: str) -> bool:
    """Says what tests a change adds and nothing it changes in the code: "新增 tp=2/4 下 dispatch
    字节数断言" is how the fix was checked, not the fix."""
    return has_cue(sentence, TESTS) and not states_change(sentence)


def facts_kept(whole: str, part: str) -> bool:
    """Whether `part` (a clipped `whole`) still states every hard fact of `whole`."""
    return hard_facts(whole) <= hard_facts(part)


# words that report a merge: the pipeline's fact sentence says it once, with its date
MERGE_NEWS = ("已合入", "合入", "已合并", "merged", "has landed")


def without_merge_news(text: str, repo: str, stated: str) -> str:
    """`text` without its clauses of merge news about PRs the pipeline's fact sentence (`stated`)
    names, or about no PR at all ("!3109 已合入：…", "…引起，PR#964 修复", "已合入，nightly …"): they
    say nothing but the merge and no fact of their own. The row says the merge once, with its date."""
    told = pulls_named(stated, repo)

    def merge_news(c: str) -> bool:
        named = pulls_named(c, repo)
        about = named <= told if named else any(w in c.lower() for w in MERGE_NEWS)
        return about and not says_something(c) and not (hard_facts(c) - hard_facts(stated))

    return "".join(c for c in clauses(text) if not merge_news(c)).strip().rstrip("，,、；;：:").strip()


def pulls_named(text: str, repo: str) -> set[tuple[str, int]]:
    """(repo, number) of every reference in `text` that may be a PR (`!N`, `PR 55`, `#N`, URLs)."""
    return {(r.repo, r.number) for r in find_refs(text, repo) if r.kind != KIND_ISSUE}


__all__ = ["OFFICIAL", "MERGE_NEWS", "asks", "pulls_named", "without_merge_news", "facts_kept", "is_template_note", "only_tests", "is_log_line", "states_cause", "says_something", "is_measurement", "is_scope", "is_workaround", "states_change", "states_reason", "withholds"]
