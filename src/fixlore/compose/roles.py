"""What a sentence of a case's written fields does for a guide reader: tell the cause (what was
wrong), the change (what the fix or the answer does), or only the status of the thread (news about
the issue or its PR: "修复已合入", "This pull request fixes #29", "bug已由提出人修复", a greeting, a
question back to the reporter), which teaches the reader nothing and is never shown as a fix.

The guide (and a row that names its parts) labels what it shows by the role: 原因 / 方案 / 答复
(en: cause / fix / answer); the label "答复" is for an official answer where no code changed.

The cues are how maintainers and PR templates write on GitCode and GitHub, in Chinese and English
(a PR body's "Fixes #N", "Fixed issue: …", a reviewer's "你好", "会引起冲突吗"); none was added to move
a figure. Read on the ascend-2026-09, npu-threads and paddle-threads guides (fitted), where the
baseline showed them as fixes ("修复：你好", "修复：This pull request fixes LMCache/LMCache-Ascend#29",
"修复：bug已由提出人修复"); seed-twin, seed-twin2, demo, github-mini and pytest-threads were not read
(held out). Pure functions."""

from __future__ import annotations

import re

from fixlore.rules.refs import find_refs
from fixlore.rules.text import overlap, tokens
from fixlore.rules.words import has_cue

CAUSE, CHANGE, STATUS = "cause", "change", "status"

# the label each role is shown under, in Chinese and English; "answer" is a change with no code
LABELS = {CAUSE: ("原因", "cause"), CHANGE: ("方案", "fix"), "answer": ("答复", "answer")}

# a stated cause: a reason word, or what went wrong and where
CAUSE_CUES = ("根因", "原因", "定位", "问题在于", "问题出在", "导致", "因为", "由于", "引起", "造成", "所致",
              "出于", "源于", "静默", "缺", "不支持", "发现", "报告", "仍显示", "仍然", "未对齐", "不对称", "没释放", "未释放", "没有随", "仍为", "被判", "误判",
              "because", "caused", "due to", "root cause", "the reason", "results in", "leads to", "stems from")
# what a change does ("改为…", "新增…", "no longer …"), or a label that says it is the change
CHANGE_CUES = ("改为", "改成", "改回", "改用", "新增", "增加", "不再", "统一", "删除", "删掉", "去掉", "适配", "放宽",
               "精简", "接入", "拆成", "拆分", "支持", "补充", "移到", "提供", "兼容", "方案", "修改",
               "add ", "adds ", "added ", "remove", "replace", "support", "no longer", "now ", "changed", "change ",
               "switch", "bump", "fallback", "fall back", "skip", "cache ", "instead", "use ")
# news about the thread, not about the code: a greeting, a thanks, a PR template's link to its issue,
# the state of the fix or of the issue ("已合入", "being closed"), what the reporter fixed unsaid
STATUS_CUES = re.compile(
    r"^(?:你好|您好|hi\b|hello\b|thanks?\b|thank you|感谢|谢谢|收到|好的|确认[，,。]|ok\b)|"
    r"(?:this (?:pull request|pr|mr|patch) (?:fixes|closes|resolves|addresses)|^(?:fixed|fixes|closes|resolves) (?:issue)?\s*:?\s*$)|"
    r"(?:已(?:合入|合并|修复|解决|关闭)|已由\S{0,6}修复|已提交|正在修复|修复中|检视中|being closed|no longer relevant|"
    r"(?:has|have) been (?:fixed|merged|closed|resolved)|already (?:provided|fixed|merged)|been provided|"
    r"中提到的(?:错误|问题|bug)|mentioned in|in this (?:issue|thread)|"
    # the thread's own talk: a duplicate, a reproduction or not, work in progress, a test that passes
    r"^duplicate|重复(?:问题|提交|issue)|(?:can ?not|can't|could not|无法)\s*(?:reproduce|复现)|not met\b|"
    r"\bi (?:met|have|got|see) the same|same issue|同样的问题|i'?m working on|i am working on|i will (?:test|fix|look)|"
    r"no code (?:behaviou?r )?change|\bcan pass\b|tests? (?:pass|passed)\b|\bwill (?:be )?merged?\b)",
    re.I)
# a leading clause that only reports the state ("PR#1309 已合入：…"): the rest is the content
LEADING_STATUS = re.compile(r"^[^，,：:。]{0,24}?(?:已合入|已合并|已修复|评审通过|审核通过|merged|fixed|approved)\s*[：:，,]\s*(?=\S)", re.I)
# what is left of a line once its references are gone when it only points at a ticket ("Fixed issue:
# #625", "Please see issue #6707", "Duplicate with #2512", "详见 !3054")
EMPTY_CLAIM = re.compile(r"^(?:(?:please )?see|refer to|duplicate(?: (?:with|of))?|dup|same as|as|详见|参见|参考|见|同)?\s*"
                         r"(?:fix(?:ed|es)?|close[sd]?|resolve[sd]?|修复|解决|关闭)?(?: ?(?:issue|bug|pr|mr|问题))?$", re.I)
# the verbs a fix opens with; what is left is what it says it changes
FIX_VERBS = {"fix", "fixes", "fixed", "solve", "solves", "solved", "resolve", "resolves", "resolved", "bugfix", "修复",
             "解决", "bug", "issue", "问题"}
RESTATED = 0.7       # a text whose other words are this much the issue's own only says the issue is fixed
# a sentence that ends asking ("会引起冲突吗", "is it fixed?"): the thread talking, not an answer
QUESTION = re.compile(r"(?:吗|么|呢|[?？])\s*[。.]?$")


def _bare(sentence: str, repo: str = "") -> str:
    """The sentence without its references and links: what is left to say."""
    text = re.sub(r"\[[^\]]*\]\([^)]*\)|https?://\S+", " ", sentence or "")
    for r in sorted(find_refs(text, repo or "o/r"), key=lambda r: -r.span[0]):
        text = text[:r.span[0]] + " " + text[r.span[1]:]
    return re.sub(r"[\s\W_]+", " ", text).strip()


# a commit's or PR's tags in front ("[fix] ", "[TensorCast] ", "【26.2.0】"): where it was filed, not what it says
LEADING_TAGS = re.compile(r"^(?:\s*(?:\[[^\]\n]{1,24}\]|【[^】\n]{1,24}】)\s*[:：]?)+\s*")


def content(sentence: str) -> str:
    """The sentence without its leading tags ("[fix] Fix T.tile.atomic_add …", npu-threads) and a
    leading clause that only reports the state ("PR#1309 已合入：抢锁超时…" -> "抢锁超时…")."""
    return LEADING_STATUS.sub("", LEADING_TAGS.sub("", (sentence or "").strip(), count=1), count=1)


def restates(text: str, issue: str, verb: bool = True) -> bool:
    """`text` only says the issue is fixed: it opens with a fix verb (with `verb`; a fix that says
    what changes often repeats the issue's words: "续查按 instance/dp 对齐，cpu_blocks 不再跨 dp
    累加") and its other words are mostly the issue's own ("Fix [Bug]: Qwen3-TTS Base on NPU running
    failed #2323" of that issue); none left is no content."""
    bare = _bare(text).lower()
    said = [t for t in tokens(bare) if t not in FIX_VERBS]
    if verb and not any(bare.startswith(w) and (not w.isascii() or bare[len(w):len(w) + 1] in ("", " "))
                        for w in FIX_VERBS):
        return False
    return not said or (bool(issue) and overlap(said, tokens(issue)) >= RESTATED)


def role(sentence: str, field: str = "", repo: str = "", issue: str = "") -> str:
    """The role of one sentence of a case's written `field` ("mechanism", "change", "workaround",
    "action", or "" when unknown) of the case whose title and problem are `issue`: status when it is
    news about the thread or a question, says nothing once its references are gone, or only says
    the issue is fixed (`restates`); cause when it gives a reason or comes from the mechanism
    without saying what changes; change when it says what changes, or comes from a change or an answer."""
    text = content(sentence)
    low = text.lower()
    bare = _bare(text, repo)
    if not text or QUESTION.search(text) or STATUS_CUES.search(low) or len(bare) < 4 or EMPTY_CLAIM.match(bare):
        return STATUS
    if issue and restates(text, issue):
        return STATUS
    low = low.replace("不支持", "不")
    causal = has_cue(text, CAUSE_CUES)       # as words: "unsupported" is no "support", "because" no "use"
    changing = has_cue(low, CHANGE_CUES)
    if field == "mechanism":
        return CHANGE if changing and not causal else CAUSE
    if field in ("change", "workaround", "action"):
        return CAUSE if causal and not changing else CHANGE
    return CAUSE if causal and not changing else CHANGE if changing else CAUSE if causal else STATUS


def label(kind: str, lang: str) -> str:
    """The word a guide cell puts before a text of role `kind` (or "answer")."""
    zh, en = LABELS.get(kind, LABELS[CHANGE])
    return zh if lang == "zh" else en


__all__ = ["CAUSE", "CHANGE", "STATUS", "LABELS", "content", "label", "restates", "role"]
