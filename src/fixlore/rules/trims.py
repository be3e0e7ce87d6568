"""Trim notes: where a text was shortened before we read it, the note saying so is no part of it.

Whoever shortened a text (an archive's excerpt, a platform's notice, a world's encoding of a
thread) leaves a note in brackets where it stopped: "(the rest of the description is cut)",
"(log cut)", "(steps to reproduce cut; the excerpt ends here)", "(the rest is cut in the excerpt)",
"（其余略）", "（后略）", "（以下省略）", "（表格略）", "(the arrays it was invoked with; cut)". Such a note says what is missing, not what was wrong or what
was done: it is never a fact and never reaches a row (issue #22: "…(excerpt cut)。" read as the
row's own words). A note that closes a bracket of its own words ("(…JSON 样例；其余省略)") loses only
its closing part. Only whole notes are taken: "（截断是 0.3 版本的旧代码）" is a sentence about
truncation, not a note, and so are "(don't cut)", "（可省略）" and "（重试策略）"; an English note
that names an identifier, a version or a PR ("(the `use_fused_rope` path is cut)", "(v2.3.0rc1 cut)")
tells what was cut from the work, a fact, and stays. Written from how excerpts and quoted threads mark a cut; read on the
notes of the tune worlds' texts (accel-threads, accel-threads3, accel-threads7, npu-threads), no
figure chose it.
"""

from __future__ import annotations

import re

from fixlore.rules.refs import written_refs
from fixlore.rules.script import HAN

# the words of an English note: a short phrase ending "cut" ("log cut", "the rest of the description
# is cut", "rest cut"), optionally "in the excerpt" and "; the excerpt ends here"
# (never one that says not to cut: "(don't cut)", "(must not cut)")
_EN = r"(?![A-Za-z0-9 ,'/-]{0,70}?\b(?:not|never|don't|doesn't|won't|can't|shouldn't|mustn't)\s)(?:[A-Za-z][A-Za-z0-9 ,'/+_.-]{0,80}?\b(?:is |are )?)?cut(?: here| from the excerpt| in the excerpt)?(?:\s*;\s*the excerpt ends here)?"
# or what it was, then "; cut": "(the arrays it was invoked with; cut)"
_EN += r"|[A-Za-z][^()（）;；\n]{0,120}?;\s*cut"
# a Chinese note: "其余略", "后略", "以下省略", "其余部分已截去", "下略"
_ZH = r"(?:其余|以下|以后|余下|后面|下文)?(?:部分|内容)?(?:已)?(?:略|省略|从略|截去|截断|删去)|后略|下略"
# or naming what was left out: "（表格略）", "（调用链略）", "(完整复现脚本略)", "（此处省略）"; never a word
# that ends so ("策略", "忽略") nor what may be left out ("可省略", "不可省略")
_ZH += r"|[^（）()，,。；;：:]{1,12}?(?<![策战忽领侵粗简约概方谋攻要史经可能不勿需省])(?:略|省略)"
# each starts where a run of blanks starts ((?<!\s)): a run is scanned once, not once from each blank
_NOTE = re.compile(rf"(?<!\s)\s*(?:\((?:{_EN})\)|（(?:{_EN})）|[（(](?:{_ZH})[)）])", re.I)
# a bracket of its own words that ends with the note: "(样例 JSON；其余省略)", "(…; the rest is cut)"
_TAIL = re.compile(rf"(?<!\s)\s*[；;]\s*(?:{_ZH}|{_EN})\s*(?=[)）])", re.I)


# what a note in English names when it is an edit of the work, not of the text: an identifier
# (snake_case, `code`, CamelCase, a dotted name), a version or a release candidate, a PR or issue
# ("(the `use_fused_rope` path is cut)", "(v2.3.0rc1 cut)", "(the fp32 fallback from #812 is cut)").
# A shortener's note names what part of the text is missing ("log", "the rest of the description"),
# never such a fact.
_FACT_IN_NOTE = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]|`|\b[a-z]+[A-Z]\w*|\b[A-Za-z_]\w*\.[A-Za-z_]\w*\(?|"
                           r"\bv?\d+\.\d+|\brc\d")
# ...unless it names the part of the text that is missing: "(collect_env output cut)", "(the
# environment block, npu-smi table and CANN 8.5.1 info are cut)" (tune worlds' notes)
_TEXT_PART = re.compile(r"\b(?:output|log|logs|table|info|block|repro|trace|traceback|stack|details?|description|"
                        r"excerpt|rest|steps|env|environment|message|body|script|snippet|dump|listing|text|lines?|"
                        r"section|arrays|generated)\b", re.I)
# ...or says what the text cut away was, then "; cut": "(a diff adding an `x_y` helper to a/b.py; cut)"
# describes a block of the thread the excerpt left out (the review of 2026-12-07 took accel-threads7's
# vllm-ascend#5524 answer, which had been such a note, out of its row)
_SAYS_WHAT_IT_WAS = re.compile(r";\s*cut\s*[)）]\s*$")


def _note(match: re.Match) -> str:
    """"" for a shortener's note; an English note naming a fact (`_FACT_IN_NOTE`) stays (issue #22)."""
    note = match.group(0)
    keep = (not HAN.search(note) and (_FACT_IN_NOTE.search(note) or written_refs(note))
            and not _TEXT_PART.search(note) and not _SAYS_WHAT_IT_WAS.search(note))
    return note if keep else ""


def without_trim_notes(text: str) -> str:
    """`text` without the notes a shortener left where it cut (see the module's docstring)."""
    if not text or not ("cut" in text or "略" in text or "截" in text or "删去" in text):
        return text or ""
    return _TAIL.sub(_note, _NOTE.sub(_note, text))


__all__ = ["without_trim_notes"]
