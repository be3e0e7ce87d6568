"""Text helpers for extractive analysis: cleaning issue templates, splitting sentences (the lines
joined first by rules/lines.py), the cue lists (read with rules.words, the one cue matcher), keywords
(jieba); which script a text is in lives in rules/script.py. Pure functions over strings."""

from __future__ import annotations

import logging
import re
from functools import lru_cache

from fixlore.rules.script import HAN, cjk_count, is_cjk, is_language_neutral  # noqa: F401 (their home before)
from fixlore.rules.lines import ENUMERATOR, GREETING, joined
from fixlore.rules.refs import files_only, urls_as_keys, without_leading_refs, without_trailing_fix_ref
from fixlore.rules.trims import without_trim_notes
from fixlore.rules.words import has_cue

_URL = re.compile(r"(?:https?://|www\.)[^\s）)\]】，。；、\u3400-\u9fff]+")
_CODE_FENCE = re.compile(r"```.*?```", re.S)
_HTML_TAG = re.compile(r"<[^>\n]{0,200}>")
# A link's text stops at the next "[" and its target at the next "(" unless that one closes in turn
# (CommonMark reads "[a [b](u)" as the link "[b](u)"; "(…Foo_(bar))" keeps its balanced pair): each
# try ends where the next one starts, so "[" * 200000 is read in linear time, not quadratic.
_TARGET = r"\((?:[^()]|\([^()]*\))*\)"
_MD_IMAGE = re.compile(r"!\[[^\[\]]*\]" + _TARGET)
_MD_LINK = re.compile(r"\[([^\[\]]*)\]" + _TARGET)
_TITLE_PREFIX = re.compile(
    r"^\s*(?:[\[【(（]\s*(?:bug|BUG|Bug|feature|Feature|FEATURE|question|Question|需求|缺陷|问题|求助|咨询|"
    r"bugfix|RFC|rfc|task|Task|任务|文档|doc|Doc|docs|Docs|help|Help|support|Support)[^\]】)）]{0,20}[\]】)）]\s*[:：-]?\s*)+"
)
_TITLE_LEAD = re.compile(r"^\s*(?:bug\s*report|feature\s*request|issue)\s*[:：-]\s*", re.I)
# Lines an issue template puts in: headings, checkboxes, field labels with nothing after them.
_TEMPLATE_LINE = re.compile(
    r"^\s*(?:#{1,6}\s.*|[-*]\s*\[[ xX]\]\s.*|[【\[]?(?:问题描述|环境信息|软件版本|硬件环境|复现步骤|期望结果|实际结果|"
    r"日志信息|截图|其他|Describe the bug|Environment|To Reproduce|Expected behavior|Additional context|"
    r"Steps to reproduce)[】\]]?\s*[:：]?\s*)$",
    re.I,
)
# "!" is only an end of sentence before a space: "!795" is a merge request. "；" joins clauses of
# one statement ("需 MindCluster≥26.2.0；CANN≥9.2.0"): a sentence is only split there when too long.
# a sentence ends at its mark, at a line break, and before a circled number: "①…；②…；③…" are
# points of a reply, each a statement of its own
_SENT_SPLIT = re.compile(r"(?<=[。！？])|(?<=[!?])(?=\s)|\n+|(?<=[.])\s+(?=[A-Z0-9`(])|(?=[\u2460-\u2473])")
_CLAUSE_SPLIT = re.compile(r"(?<=[；;])\s*")

ROOT_CUES = ("根因", "原因", "定位", "导致", "因为", "由于", "引起", "造成", "问题在于", "问题出在", "症结", "触发",
             "查到", "发现是", "原来是", "root cause", "because", "caused by", "due to", "the cause",
             "the problem is", "the issue is", "turns out", "the culprit")
FIX_CUES = ("修复", "改为", "改成", "改用", "新增", "调整", "统一", "增加", "删除", "去掉", "放宽", "适配",
            "对齐", "补齐", "兼容", "支持", "fix", "change", "add ", "remove", "replace", "switch", "align")
ACTION_CUES = ("请", "建议", "应", "需要", "改为", "设置", "使用", "升级", "配置", "去掉", "换用", "以",
               "should", "use ", "set ", "upgrade", "try", "configure", "switch to", "remove")
ERROR_CUES = ("error", "exception", "traceback", "failed", "failure", "timeout", "oom", "out of memory",
              "报错", "失败", "异常", "超时", "崩溃", "溢出", "越界", "无法", "不一致", "coredump", "segmentation")
# words of a problem report (something is wrong), as opposed to a how-to question
PROBLEM_CUES = ERROR_CUES + ("变高", "变慢", "变低", "下降", "升高", "偏大", "偏小", "偏差", "不生效", "没有生效", "未生效",
                             "无效", "不对", "错误", "不符", "不一", "误判", "误杀", "泄漏", "缺", "丢失", "卡住", "hang",
                             "wrong", "slow", "regress*", "incorrect", "broken", "doesn't work", "does not work",
                             "not working", "missing", "leak", "crash", "flicker", "ignores", "mismatch")
_STOP = {"的", "了", "在", "是", "和", "与", "及", "或", "时", "后", "中", "对", "将", "把", "被", "为", "也",
         "the", "a", "an", "and", "or", "to", "of", "in", "on", "for", "is", "are", "with", "when", "not",
         "issue", "问题", "bug", "请问", "如何", "怎么", "一下", "使用", "出现", "进行", "需要", "可以",
         "pr", "mr", "修复", "fix", "fixes", "合入", "关单", "方案", "已经", "没有", "时候"}


# The stage of the discussion or the voice a reply names before its point ("定位：", "官方："): a row's
# fact sentences tell the state and whose words it keeps, so the label carries nothing a reader acts
# on. A label naming the kind of point stays ("根因：", "方案：", "验收：", "典型用法："); compose/steps.py
# drops a wider list from the guide's one-line steps.
STAGE_LABEL = re.compile(r"^\s*(?:定位|确认|结论|评估结论|说明|答复|官方)\s*[：:]\s*")


def without_stage_label(text: str) -> str:
    """`text` without the discussion-stage label it opens with (`STAGE_LABEL`), when a point follows."""
    rest = STAGE_LABEL.sub("", text, count=1)
    return rest if rest.strip() else text


def without_urls(text: str) -> str:
    """`text` with its web addresses blanked (a link says where to read, not what)."""
    return _URL.sub(" ", text or "")


def clean_title(title: str) -> str:
    t = _HTML_TAG.sub("", title or "")
    t = _TITLE_PREFIX.sub("", t)
    t = _TITLE_LEAD.sub("", t)
    return re.sub(r"\s+", " ", t).strip(" -:：")


_TABLE_RULE = re.compile(r"^\s*(?:\|\s*)?:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*(?:\|\s*)?$")    # one way to read each blank
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")


def clean_body(body: str) -> str:
    """Body without code fences, images, HTML tags, URLs, template scaffolding and trim notes (rules/trims.py)."""
    text = _CODE_FENCE.sub("\n", without_trim_notes(body or ""))
    text = _MD_IMAGE.sub("", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _HTML_TAG.sub("", text)
    lines = []
    raw = text.splitlines()
    header: list[str] = []
    for i, line in enumerate(raw):
        if _TEMPLATE_LINE.match(line) or _TABLE_RULE.match(line):
            continue
        if _TABLE_ROW.match(line):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if i + 1 < len(raw) and _TABLE_RULE.match(raw[i + 1]):     # the header names the columns
                header = cells
                continue
            line = _table_row(cells, header)
        else:
            header = []
        if line:
            lines.append(line)
    return "\n".join(lines)


def _table_row(cells: list[str], header: list[str]) -> str:
    """A table row as a sentence, each value with its column's name: "qwen3-vl-30B：误差 0.33%，性能 1.1×bf16"
    (a bare "0.33%" no longer says what was measured)."""
    named = [(f"{h} {c}" if h and h != c else c) if c else "" for h, c in zip(header[1:], cells[1:])] if header else cells[1:]
    named += cells[len(named) + 1:]
    rest = [c for c in named if c]
    first = cells[0] if cells else ""
    return f"{first}：{'，'.join(rest)}" if first and rest else (first or "，".join(rest))


_STRONG_ERROR = re.compile(r"\b\w*(?:Error|Exception|Fault)\b|Traceback|exit code|错误码|退出码|返回码|\bcode \d+|\bE\d{5,}", re.I)
# The line that names the exception and its message ("RuntimeError: ...", "torch.OutOfMemoryError: ..."):
# what a user pastes into a search box.
_EXCEPTION_LINE = re.compile(r"^(?:[\w.]+\.)?\w*(?:Error|Exception|Fault)\b\s*[:：]\s*\S")
# Lines every traceback carries, and the source line it echoes ("raise …"): they say an error
# happened, not which.
_TRACE_BOILERPLATE = re.compile(r"^(?:Traceback \(most recent call last\):?|File \"[^\"]*\", line \d+.*|raise \w.*|"
                                r"During handling of the above exception.*|"
                                r"The above exception was the direct cause.*)$")
# Distributed launchers prefix every line a worker prints with its rank ("[rank3]: ", "[default0]:",
# "(RayWorker pid=12) "): where the line came from, not what it says.
_WORKER_PREFIX = re.compile(r"^(?:\[(?:rank|default|local_rank)?\d+\]\s*:?|\(\w+ (?:pid|rank)=\d+[^)]*\))\s*", re.I)
# An exception's name with no message ("AssertionError") says an error happened, not which.
_BARE_EXCEPTION = re.compile(r"^(?:[\w.]+\.)?\w*(?:Error|Exception|Fault)[:：]?$")


def error_lines(body: str, limit: int = 3) -> list[str]:
    """Lines that look like what the user saw: error messages first (code fences included), then failures."""
    named: list[str] = []
    strong: list[str] = []
    weak: list[str] = []
    for line in _HTML_TAG.sub("", body or "").splitlines():
        s = _WORKER_PREFIX.sub("", line.strip().strip("`").strip())
        if (not (6 <= len(s) <= 200) or _TEMPLATE_LINE.match(s) or _TRACE_BOILERPLATE.match(s) or _BARE_EXCEPTION.match(s)
                or s.endswith((":", "："))
                or s in named or s in strong or s in weak):
            continue
        if _EXCEPTION_LINE.match(s):
            named.append(s)
        elif _STRONG_ERROR.search(s):
            strong.append(s)
        elif has_cue(s, ERROR_CUES):
            weak.append(s)
    return (named + strong + weak)[:limit]


def informative(sentence: str) -> bool:
    """False for sentences that are only issue/PR references (`rules.refs.files_only`)."""
    return not files_only(sentence)


_EMPHASIS = re.compile(r"\*\*|__(?=\S)|(?<=\S)__")


def sentences(text: str) -> list[str]:
    out, pieces = [], []
    # a zero-width split beside a line break (before "①", after "。"/"?") leaves an empty piece that
    # would part a lead-in from its list ("Steps:\n①…", "修改如下。\n1. …"): the line break already parts them
    split = [p for p in _SENT_SPLIT.split(_EMPHASIS.sub("", clean_body(urls_as_keys(text or "")))) if p]
    for raw in joined(split):
        pieces += _CLAUSE_SPLIT.split(raw) if raw and len(raw) > 240 else [raw]
    for raw in pieces:
        if not raw:
            continue
        # brackets a link leaves empty ("route()" is code and stays)
        s = re.sub(r"（\s*）|(?<![\w.])\(\s*\)", "", _URL.sub("", raw))
        s = without_trailing_fix_ref(GREETING.sub("", ENUMERATOR.sub("", without_leading_refs(s).strip(" \t-—*>·•"))).strip())
        # a long sentence with no clause mark to split at stays: a row takes its first clauses
        if 6 <= len(s) <= 400 and informative(s):
            out.append(s)
    return out


@lru_cache(maxsize=1)
def _jieba():
    import jieba
    import jieba.analyse

    jieba.setLogLevel(logging.WARNING)
    return jieba


def tokens(text: str) -> list[str]:
    """Lower-cased content words (jieba for Chinese, words for Latin), stop words removed."""
    return list(_tokens(text or "") if len(text or "") <= _MEMO_CHARS else _big_tokens(text))


# Several stages read the same texts (Ascend world: 4,380 calls, 1,220 texts): each is cut once up to a
# long body's size; a bigger one only while it is the last (analysis cut the hostile world's 1 MB body twice).
_MEMO_CHARS = 20_000
_big_tokens = lru_cache(maxsize=1)(lambda text: _cut(text))


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    return _cut(text)


def _cut(text: str) -> tuple[str, ...]:
    jb = _jieba()
    out = []
    for tok in jb.lcut(_URL.sub(" ", text)):
        t = tok.strip().lower()
        if len(t) < 2 and not HAN.match(t):
            continue
        if not t or t in _STOP or re.fullmatch(r"[\W_]+", t) or t.isdigit():
            continue
        out.append(t)
    return tuple(out)


def keywords(text: str, k: int = 8) -> list[str]:
    """TF-IDF keywords (jieba's idf table), lower-cased and de-duplicated, in rank order."""
    jb = _jieba()
    seen: list[str] = []
    for tag in jb.analyse.extract_tags(_URL.sub(" ", text or ""), topK=k * 2):
        t = tag.lower()
        if t in _STOP or t.isdigit() or len(t) < 2 or t in seen:
            continue
        seen.append(t)
        if len(seen) >= k:
            break
    return seen


def overlap(a: list[str], b: list[str]) -> float:
    """Share of `a`'s words found in `b`."""
    if not a:
        return 0.0
    bs = set(b)
    return sum(1 for t in a if t in bs) / len(a)


def shorten(text: str, limit: int) -> str:
    text = re.sub(r"\s+", " ", text or "").strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


_CLAUSE_END = re.compile(r"[；;，,、：:]")


_OPEN, _CLOSE = "([{（【“「《", ")]}）】”」》"
# quotes that open and close with the same mark: inside while an odd number of them came before
_PAIRED = "\"`"


def outside_brackets(text: str, at: int) -> bool:
    """A comma inside brackets ("input_ids[i, mask[i]]", "（自身、父进程）") or quotes
    ('fails with "Check failed: it->second"') ends no clause."""
    depth = 0
    for ch in text[:at]:
        depth += ch in _OPEN
        depth -= ch in _CLOSE and depth > 0
    head = text[:at]
    return depth == 0 and all(head.count(q) % 2 == 0 for q in _PAIRED)


def clip(text: str, limit: int) -> str:
    """`text` within `limit` characters, cut after the last whole clause when one ends past half of
    the limit (a reader gets complete statements), else after a whole word, else mid-word; both
    marked with "…"."""
    text = re.sub(r"\s+", " ", text or "").strip()
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _CLAUSE_END.finditer(text, 0, limit) if outside_brackets(text, m.start())]
    if ends and ends[-1] >= limit // 2:
        return text[: ends[-1]].rstrip("，,、：:；; ")
    space = text.rfind(" ", 0, limit)   # Latin text: at least end on a whole word
    if space >= limit // 2:
        return text[:space].rstrip("，,、：:；; ") + "…"
    return shorten(text, limit)


# Hard facts a reader acts on: code identifiers (snake_case, CamelCase, trailing underscore, dotted
# names, --flags), numbers with a unit or a change arrow, versions. ASCII word classes on purpose:
# in Chinese text an identifier touches Han characters, which \w would take as part of the word.
_A = "A-Za-z0-9_"
_FACT = re.compile(
    rf"(?<![{_A}./-])(?:--[a-z][\w-]+|[A-Za-z_][{_A}]*_[{_A}]*|[a-z]+[A-Z][{_A}]*|[A-Z][a-z]+[A-Z][{_A}]*"
    rf"|[A-Za-z_][{_A}]*\.[A-Za-z_][{_A}.]*\(?\)?)"
    rf"|(?<![{_A}.])v?\d+(?:\.\d+){{2,3}}(?:rc\d+|\.?post\d+)?(?![{_A}])"
    rf"|(?<![{_A}.])\d+(?:\.\d+)?\s?(?:%|×|倍|(?:ms|s)(?![A-Za-z])|秒|分钟|小时|[KMGT]i?B|[KMG](?![{_A}]))\s?(?:→|->)?"
)


def hard_facts(sentence: str) -> set[str]:
    """The distinct hard facts (identifiers, measured numbers, versions) a sentence states."""
    return {m.group(0).strip().rstrip("→->").strip() for m in _FACT.finditer(sentence or "")}


def fact_count(sentence: str) -> int:
    return len(hard_facts(sentence))


# A sentence that opens as an aside ("另外…", "Also, …") adds to the explanation, it is not it.
_ASIDE = re.compile(r"^\s*(?:另外|此外|顺便|顺带|附带|补充一点|还有一点|also\b|additionally\b|besides\b|by the way|btw\b|side note)", re.I)


def is_aside(sentence: str) -> bool:
    return bool(_ASIDE.match(sentence or ""))


_STATUS = re.compile(r"(定位中|排查中|处理中|分析中|跟进中|修复中|已复现|收到|看一下|马上提|稍后提|马上修|尽快修|"
                     r"looking into|investigating|on it|will check|will submit|pr incoming)", re.I)
# phrases that name a cue word but report progress, not a cause ("问题已定位并有方案")
_STATUS_PHRASES = re.compile(r"(问题已定位|已定位|定位中|正在定位|定位到问题|已经定位|在检视中|在提交中|合入后|has been located|root cause found)", re.I)


def is_status_update(sentence: str) -> bool:
    """A short progress note ("已复现，定位中") rather than content."""
    return len(sentence) <= 24 and bool(_STATUS.search(sentence))


def without_status(sentence: str) -> str:
    return _STATUS_PHRASES.sub(" ", sentence)
