"""Cue words as people write them, matched as words: the one matcher every stage reads cue words
with. A Chinese cue anywhere in the text (Chinese has no spaces between words); an English cue only
where a word starts and ends, so that 'error' does not find 'terror', 'nan' 'finance' nor 'fix'
'fixture'. An English cue takes its plain inflections (error/errors, crash/crashed/crashing,
update/updating, pin/pinned); one ending in '*' is a stem that matches any ending ('diverg*' finds
diverge, diverged, divergence). A cue's edge that is no letter or digit bounds itself ('?', '≥',
'.md', 'docs/', 'reason:').

Prose and names. A one-word cue names a thing, and finds it in an identifier's parts too: those
snake_case joins ('config*' in `minmax_config`, 'timeout' in `bootstrap_timeout`) and those CamelCase
starts ('error' in RuntimeError, 'failed' in FailedScheduling). A cue of several words, or written
with a space after it, is prose, read in the words people wrote around code, never inside an
identifier ('add ' is not in `atomic_add`, 'in progress' not in `reElectionInProgress_`, 'set ' not
in `set_env.sh`); one written with a space after it is that form only ('use ' the imperative, never
'used'; 'now ' never 'nowhere'), ending where a word ends ('use,' too). A matching rule, not a
threshold: written from English morphology and how identifiers are written. The prose/names split
was settled while reading where the two matchers this one replaced (rules.text's prefix match, this
module's first version) disagreed on ascend-2026-09, npu-threads, seed-twin and seed-twin2
(identifiers read as imperatives: `atomic_add` as 'add ', `set_env.sh` as 'set '): those worlds are
fitted; the modes and cue lists that use it say where they were read."""

from __future__ import annotations

import re
from functools import lru_cache

from fixlore.rules.script import HAN

_LETTER = re.compile(r"[^\W_]", re.UNICODE)     # a letter or digit of any script, CJK included


# What a pasted log shows when something went wrong, matched with its case ("RuntimeError", "ERROR:",
# "Error: …", "Segmentation fault", "报错"; not "default", "Error messages are unclear" nor "the error
# handling docs"): one pattern for the
# rules that ask whether a text carries a failure (link.quoted_fix, analyse.keep).
ERROR_SEEN = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Fault)\b|\b(?:Error|Exception)\s*:|\b(?:ERROR|FATAL)\b"
                        r"|\berror:|Segmentation fault|Traceback|报错|错误|异常")


# Negation as people write it before what they deny ("no longer fails", "not solved", "didn't work",
# "never crashes", "without errors", "不再报错", "没有再报错", "还是没解决", "无法解决", "不会崩溃"): one list
# for every rule that asks whether a word is denied (analyse.keep: a failure said to be over;
# rules.funnel.stale_reason: "not solved"; rules.funnel.bookkeeping: a failure a change says it removes),
# each saying how far before the word it looks. The union of the three lists those rules had; English
# ones are whole words ("n't" ends one: didn't, isn't; "cannot", which analyse.keep found inside as "not",
# is one word), Chinese ones stand anywhere.
NEGATIONS_EN = ("no longer", "cannot", "not", "never", "without", "no", "n't")
NEGATIONS_ZH = ("不再", "没有再", "没有", "没再", "还是没", "没", "未再", "未", "无法", "无", "不会", "不")
# The negations that still deny a word when one short word stands between (rules.funnel.stale_reason:
# "not yet solved", "还是没能解决", "无法完全解决"): the list without 不, 不再, 无, no, no longer, without, which
# deny the word between and end there: "去掉后推理不再报错，已解决" (no longer fails, solved) read with the
# whole list is "not solved" (ascend-2026-09, Ascend/memfabric_hybrid#479: the only text of the readable
# worlds where the two lists differ).
NEGATIONS_ACROSS_A_WORD = ("not", "never", "n't", "还是没", "没有", "没", "未", "无法")


def _alternation(words: tuple[str, ...]) -> str:
    """`words` as a regex alternation: an English word whole ("no longer" with any spaces), "n't" where a
    word ends, a Chinese one anywhere."""
    return "|".join(r"\b" + r"\s+".join(map(re.escape, w.split())) + r"\b" if w[:1].isascii() and "'" not in w
                    else re.escape(w) for w in words)


NEGATION_EN = _alternation(NEGATIONS_EN)
NEGATION_ZH = _alternation(NEGATIONS_ZH)
NEGATION = f"{NEGATION_EN}|{NEGATION_ZH}"      # a regex alternation, for a rule to place in its own pattern
NEGATION_ACROSS_A_WORD = _alternation(NEGATIONS_ACROSS_A_WORD)


def letters(text: str | None) -> int:
    """How many letters and digits `text` holds, of any script: what a person wrote, without the
    marks, markup and spaces around it."""
    return len(_LETTER.findall(text or ""))
_ALNUM = re.compile(r"[a-z0-9]")
_WORD = r"[a-z0-9]"              # a name's parts end at anything else ("_" too)
_PROSE = r"[a-z0-9_]"            # prose words end at spaces and marks; an identifier is one word
# where a CamelCase identifier starts a new part: "runtime|Error", "HTTP|Error", "Failed|Scheduling"
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _inflected(w: str) -> str:
    """`w` with its plain English endings: -s/-es/-ed/-d/-ing, a final 'e' dropped before -ing
    (updating), a final consonant doubled before -ed/-ing (pinned)."""
    forms = [rf"{re.escape(w)}(?:s|es|ed|d|ing)?"]
    if w.endswith("e") and len(w) > 2:
        forms.append(rf"{re.escape(w[:-1])}ing")
    if re.search(r"[aeiou][b-df-hj-np-tv-z]$", w):
        forms.append(rf"{re.escape(w)}{re.escape(w[-1])}(?:ed|ing)")
    return forms[0] if len(forms) == 1 else "(?:" + "|".join(forms) + ")"


def _is_prose(word: str) -> bool:
    """A cue of several words, or written with a space after it."""
    return word.endswith(" ") or " " in word.strip()


def _one(word: str, edge: str) -> str:
    if HAN.search(word):
        return re.escape(word.lower())
    w = word.strip().lower()
    stem = w.endswith("*") and len(w) > 1
    core = w[:-1] if stem else w
    head = rf"(?<!{edge})" if _ALNUM.match(core[:1]) else ""
    if stem or not _ALNUM.match(core[-1:]):
        return head + re.escape(core)
    return rf"{head}{re.escape(core) if word.endswith(' ') else _inflected(core)}(?!{edge})"


@lru_cache(maxsize=256)
def cue_patterns(words: tuple[str, ...]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """The cue words as two patterns: every cue, for the lower-cased text as written (an identifier
    one word), and the one-word cues, for the text with its identifiers cut into parts (`parts`);
    None for no cue."""
    kept = [w for w in words if w.strip()]
    prose = "|".join(_one(w, _PROSE) for w in kept)
    names = "|".join(_one(w, _WORD) for w in kept if not _is_prose(w) and not HAN.search(w))
    return (re.compile(prose) if prose else None), (re.compile(names) if names else None)


def parts(text: str) -> str:
    """The lower-cased text with each CamelCase identifier cut into its parts ("runtime error")."""
    return _CAMEL.sub(" ", text or "").lower()


def _found(text: str, patterns: tuple[re.Pattern[str] | None, re.Pattern[str] | None]) -> bool:
    prose, names = patterns
    return bool((prose and prose.search((text or "").lower())) or (names and names.search(parts(text))))


def has_cue(text: str, words: tuple[str, ...]) -> bool:
    """Whether `text` uses any of the cue `words`, as words."""
    return _found(text, cue_patterns(tuple(words)))


def cue_count(text: str, words: tuple[str, ...]) -> int:
    """How many of the cue `words` `text` uses, as words."""
    return sum(1 for w in words if _found(text, cue_patterns((w,))))


# Sentences that only point at attached material ("附上完整日志供参考。", "日志见附件", "log attached",
# "see the attached log", "full logs below"): they say where the evidence is, nothing about the
# failure, so cue words (日志 is a cue of the observe mode) are not read in them. A clause is such a
# pointer when every word of it is a pointing word, a qualifier or the material's name, and it has a
# pointing word that says where and a name. Written from the common ways reports point at their logs
# (the examples, issue-template habits such as "Logs: see attached", "附上日志"; not checked
# against a corpus); a clause with any other word ("日志没有打印 rank 信息", "no log output after
# step 3", "报错日志见附件") stays read. Issue #22; no world was read for it: measured on all 19
# worlds (2026-12-08), no title or problem the modes read holds such a clause yet (0 cases moved).
_POINT_ZH = ("附上", "附带", "附", "见附件", "如附件", "附件", "详见", "请见", "参见", "见", "如下", "见下方", "下方",
             "见下", "下面", "后面", "上传", "贴上", "贴出", "贴在", "放在", "供参考", "以供参考", "仅供参考", "参考")
_NAME_ZH = ("日志文件", "日志", "截图", "log", "logs")
_FILLER_ZH = ("完整的", "完整", "详细的", "详细", "全部", "全量", "相关", "具体", "运行", "训练", "的", "了", "已",
              "请", "在", "中", "里", "是", "为", "一下", "查看", "文件", "：", ":")
_POINT_EN = ("attached", "attaching", "attach", "attachments", "attachment", "below", "above", "uploaded", "follows",
             "here's", "here", "find", "see", "refer")
_NAME_EN = ("logfiles", "logfile", "logs", "log", "screenshots", "screenshot", "outputs", "output")
_FILLER_EN = ("full", "complete", "detailed", "whole", "entire", "relevant", "the", "a", "my", "our", "is", "are",
              "file", "files", "please", "i", "i've", "have", "to", "for", "reference", "as", "in", "of", "more",
              "you", "can", "with", "this", "issue", "and", ":")
_STRONG = frozenset(_POINT_ZH + _POINT_EN) - {"find", "see", "refer", "参考", "见"}


def _tokens(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_POINTER_TOKEN = re.compile(rf"\s*(?:({_tokens(_POINT_ZH + _POINT_EN)})|({_tokens(_NAME_ZH + _NAME_EN)})|"
                            rf"{_tokens(_FILLER_ZH + _FILLER_EN)})(?![a-z'])\s*")
# clauses end at Chinese and English sentence marks, commas and line ends ('.' only before a space)
_CLAUSE = re.compile(r"([。！？!?；;，,\n]+\s*|\.(?:\s+|$))")


def points_at_attachment(clause: str) -> bool:
    """Whether `clause` only points at attached material: every word a pointing word, a qualifier or
    the material's name ("附上完整日志供参考", "full logs below"), with a name and a pointing word that
    says where ("附件", "below", "attached"; "see the log" alone points nowhere)."""
    text, pos, named, strong = clause.strip().lower(), 0, False, False
    while pos < len(text):
        m = _POINTER_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            return False
        named, strong, pos = named or bool(m.group(2)), strong or (m.group(1) or "") in _STRONG, m.end()
    return named and strong


def without_pointers(text: str) -> str:
    """`text` without its clauses that only point at attached material (`points_at_attachment`)."""
    pieces = _CLAUSE.split(text or "")
    return "".join(p for i in range(0, len(pieces), 2) if not points_at_attachment(pieces[i])
                   for p in pieces[i:i + 2])
