"""Lines into sentences: where a reply's line goes on with the next (a lead-in before what it
introduces, a sentence wrapped by hand at ~72 columns) and what a line's list mark or greeting is.
Split out of rules/text.py (issue #22), which splits the joined lines into sentences."""

from __future__ import annotations

import re

from fixlore.rules.script import cjk_count, is_cjk

# a line that only leads into the next ("please upgrade to:", "修改如下：") belongs with it
_LEAD_IN = re.compile(r"[:：]\s*$")
_OUTPUT = re.compile(r"\s*[(\[$>]")     # pasted output follows the lead-in: it stays apart
# A line broken inside a sentence (text wrapped by hand at ~72 columns, as commit messages and
# many PR bodies are): it ends on a comma, or on a word with the next line going on in lower case.
_WRAPPED = re.compile(r"[a-z_)`'\"]\s*$")
_GOES_ON = re.compile(r"^\s*[a-z(`'\"]")
_ITEM_START = re.compile(r"^\s*(?:[-*+•>#|]|\d{1,2}[.)、]\s|```)")
_BLOCK_START = re.compile(r"^\s*(?:[#|]|```)")
# a greeting or a mention that opens a reply ("Hi @luentong , This issue …")
# a list's numbering ("2. ", "(3)", "②") marks where an item stood in the reply, not what it says
ENUMERATOR = re.compile(r"^(?:\d{1,2}[.)、](?!\d)|[（(]\d{1,2}[)）]|[\u2460-\u2473])\s*")
GREETING = re.compile(r"^(?:(?:hi|hello|hey|dear)\b[^,，:：]{0,30}[,，:：]\s*|(?:@[\w-]+[\s,，]*)+)", re.I)


def _wrapped(first: str, last: str, cjk: int, following: str) -> bool:
    """`following` goes on with the sentence a line (its `first` and `last` parts, `cjk` Chinese characters)
    broke off: neither is a list item, a heading or a fence, and the line ends on a comma, or (Latin text
    only: a line of Chinese ending on a name is a label or a table row) on a word before a lower-case start."""
    if _ITEM_START.match(following) or _BLOCK_START.match(first):    # a list item's lazy continuation joins it
        return False
    if last.rstrip().endswith(("，", "、", ",")):
        return True
    return not cjk and bool(_WRAPPED.search(last)) and bool(_GOES_ON.match(following))


# A line that leads into a list without a colon ("The fix does the following", "This PR makes these
# changes", "修改点如下", "主要改动"), then "1. …", "- …": the items are what it says, the line only
# announces them, as a colon would. Written from how PR descriptions open their list of changes
# (GitHub PR templates' "This PR does the following" / "Changes made", Gitee's "修改内容"/"主要改动";
# read in public PR threads through the search tool); no world's figure chose it. A line that counts
# what follows ("原因有两点。", "分三步。", "There are two reasons.") announces the list the same way
# (issue #22: such a lead-in stood alone as a sentence a row could choose).
_BARE_LEAD_IN = re.compile(
    r"(?:\b(?:(?:does|do|did|makes|made|includes|contains|changes?)\s+(?:the\s+)?following(?:\s+(?:changes|things|steps))?"
    r"|the following(?:\s+(?:changes|things|steps))?|as follows|(?:these|the following|main|key)\s+changes"
    r"|changes(?:\s+(?:made|include|are|in this (?:PR|patch|commit)))?|what (?:this|the) (?:PR|patch|change|fix) does)"
    r"|(?:there are|in) (?:two|three|four|several|a few) (?:reasons|causes|steps|changes|parts|ways)"
    r"|如下|以下几点|(?:主要|具体)?(?:改动|修改|变更|优化)(?:点|内容|项|如下)?|主要包括|包括以下(?:几点|内容)?"
    r"|(?:有|分|分为|包括)(?:以下)?[两二三四五六七八九十几\d]{1,2}(?:点|步|种|个(?:原因|问题|方面|步骤|改动|地方)))\s*[.。]?\s*$",
    re.I)
# "1、" is written with no space after it in Chinese text ("1、缓存未清理"), "1." and "1)" with one
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]\s|\d{1,2}(?:[.)](?:\s|$)|、)|[（(]\d{1,2}[)）]|[\u2460-\u2473])")


def bare_lead_in(line: str, following: str) -> bool:
    """`line`, a short line of its own, leads into the list `following` starts without a colon
    (`_BARE_LEAD_IN`): it goes with the list's first item as a line ending on a colon does."""
    return len(line) <= 100 and bool(_LIST_ITEM.match(following)) and bool(_BARE_LEAD_IN.search(line))


def _rstrip(parts: list[str]) -> None:
    """A line's parts without trailing blanks (a lead-in joined to a bare "1." leaves two blank parts)."""
    while len(parts) > 1 and not parts[-1].strip():
        parts.pop()
    parts[-1] = parts[-1].rstrip()


def joined(raws: list[str]) -> list[str]:
    """`raws`, a lead-in or a line broken mid-sentence joined to what follows; linear on "a\n" * 100000."""
    lines, cjk = [], []       # each line's parts and its count of Chinese characters
    for raw in raws:
        parts = lines[-1] if lines and (lines[-1][0] or len(lines[-1]) > 1) else None
        tail = "" if not parts else parts[-1] if parts[-1].strip() or len(parts) < 3 else parts[-3]   # see _rstrip
        if parts and len(parts) == 1 and bare_lead_in(parts[0].strip(), raw):
            parts[0] = tail = parts[0].rstrip().rstrip(".。") + ("：" if cjk[-1] else ":")
        if parts and _LEAD_IN.search(tail) and raw.strip() and not _OUTPUT.match(raw):
            _rstrip(parts)
            parts += ["" if parts[-1].endswith("：") else " ", ENUMERATOR.sub("", raw.strip().lstrip("-*+• "))]
        elif parts and raw.strip() and _wrapped(parts[0], tail, cjk[-1], raw):
            _rstrip(parts)
            parts += ["" if is_cjk(parts[-1][-1:]) or parts[-1].endswith(("，", "、")) else " ", raw.strip()]
        else:
            lines.append([raw])
            cjk.append(0)
        cjk[-1] += cjk_count(lines[-1][-1])
    return ["".join(parts) for parts in lines]


__all__ = ["ENUMERATOR", "GREETING", "bare_lead_in", "field_as_prose", "joined", "tight_pairs"]


# an issue template's filled-in field: "- 【硬件】： 如 Nvidia GPU TeslaP40", "[Version]: 1.0.2"; a value
# opening on the template's own example cue ("如", "例如", "e.g.") kept it from the template's hint
_FIELD = re.compile(r"^\s*(?:[-*]\s*)?[【\[]\s*([^\]】\n]{1,20}?)\s*[】\]]\s*[:：]\s*"
                    r"(?:(?:如|例如|比如|e\.g\.|eg\.?)[,，:：]?\s*)?(\S.*)$", re.I)


def field_as_prose(line: str) -> str:
    """A template field as a row says it: its label, then the value ("硬件 Nvidia GPU TeslaP40"), the
    brackets and colon of the form gone with the template's example cue; any other line as it is.
    Read on paddle-threads FastDeploy#1378 (tune), whose "【硬件】：" reached a problem cell; every other
    world held out: no other case of the 18 moved, rows figures unchanged."""
    m = _FIELD.match(line)
    return f"{m.group(1)} {m.group(2).strip()}" if m else line


# "A / B" between two ASCII names or figures: a pair of settings, models or values written as one
# ("qwen3-vl-30B / qwen3.5-27B", "env / MindIE 配置", "cutoff_len / mbs"). Engineers write the pair
# with or without spaces around the slash; a row writes it tight, as the one token a reader types
# or searches for ("env/MindIE", as the seed digest writes it). Only between ASCII word characters
# (never beside a Chinese word, never a URL's "//"). Written from how settings pairs are written in
# titles, PR bodies and the seed digest; read on the tune rows of seed-twin2 (MindSpeed-MM#716,
# msmodeling#430) and ascend-2026-09. Used on the problem cell (analyse/cells.problem_cell) only:
# tightening the analyst's sentences too (tried, 2026-12-08) left the chosen facts as they were but
# shortened rows, and the room it freed below the median went (analyse/widen.py) to rows that then
# chose other sentences: ascend-2026-09 held out 0.882 -> 0.876 / 0.885 -> 0.874 (figures only),
# so it was not kept. Problem cells only, bench/rows.py / facts_reader.py before -> after:
# ascend-2026-09 tune 0.942 -> 0.957 / 0.962 -> 0.962, held out 0.882 / 0.885 unchanged;
# seed-twin2 tune 0.895 -> 0.921 / 0.977, held out 0.714 / 0.868 unchanged; seed-twin unchanged.
_SPACED_SLASH = re.compile(r"(?<=[A-Za-z0-9_)\]`])[ \t]+/[ \t]+(?=[A-Za-z0-9_(\[`])")


def tight_pairs(text: str) -> str:
    """`text` with each "A / B" pair of ASCII names or figures written "A/B"."""
    return _SPACED_SLASH.sub("/", text or "")
