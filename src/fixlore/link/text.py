"""Vocabulary of issues and PRs, for "is this change about that issue" checks.

Tokens are lower-cased ASCII words (identifiers split on _ - . / and camelCase, 3+ letters,
stopwords removed) and CJK character bigrams. Deliberately cheap: it runs for every
candidate link.
"""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]{2,}")
_URL = re.compile(r"https?://\S+")
_STOP = frozenset("""
the and for with this that from have has are was were not but you your our can will would should
could into when then than what which who how why does did done its also just like more some such
only any all one two use used using fix fixes fixed fixing bug issue issues problem error pull request
merge merged add added adds update updated support close closes closed resolve resolves resolved
please thanks thank hello test tests testing code change changes master main branch release version
http https www com gitcode github md txt py cpp json yaml
""".split())
_CJK_STOP = frozenset(["问题", "修复", "解决", "关联", "请问", "一下", "这个", "没有", "可以", "是否", "已经",
                       "进行", "使用", "如果", "需要", "我们", "你们", "谢谢", "感谢", "合入", "提交"])


_ALL_STOP = _STOP | _CJK_STOP

_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_CAMEL_HINT = re.compile(r"[a-z0-9][A-Z]")
# Runs of CJK characters; their bigrams are cut in Python (a lookahead pattern would enter
# the regex engine at every position of the text).
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
_LOWER_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
_MAX_CHARS = 1200   # a description's vocabulary is settled by then; what follows is mostly logs


def tokens(text: str | None) -> set[str]:
    if not text:
        return set()
    text = text[:_MAX_CHARS]
    if "://" in text:
        text = _URL.sub(" ", text)
    if "\u0130" in text or "\u212a" in text:
        # The only characters whose lower case contains ASCII letters ("İ", the Kelvin sign):
        # words must be cut from the lowered text.
        out = set(_LOWER_WORD.findall(text.lower()))
        words = _WORD.findall(text) if not text.islower() else []
    else:
        # Otherwise lowering maps ASCII words one to one, so one pass over the text serves both.
        words = _WORD.findall(text)
        out = set(map(str.lower, words))
    if words and not text.islower():
        # Only mixed-case words are split, and only when the text has a camelCase hint
        # somewhere (looked for in those words first, then in the whole text).
        mixed = [w for w in words if not (w.islower() or w.isupper())]
        if mixed and (any(_CAMEL_HINT.search(w) for w in mixed) or _CAMEL_HINT.search(text)):
            for word in mixed:
                out.update(p.lower() for p in _PART.findall(word) if len(p) >= 3)
    for run in _CJK_RUN.findall(text):
        if len(run) == 2:
            out.add(run)
        else:
            out.update([run[i:i + 2] for i in range(len(run) - 1)])
    # Difference by iterating the (usually smaller) token set, not the stopword lists.
    return out - _ALL_STOP


_PATH_SEP = re.compile(r"[/_.\-]")


def path_tokens(paths) -> set[str]:
    out: set[str] = set()
    for path in paths:
        out |= _path_tokens(path)
    return out


@lru_cache(maxsize=65536)
def _path_tokens(path: str) -> frozenset[str]:
    # File names recur across PRs (the same module is changed again and again).
    return frozenset(tokens(_PATH_SEP.sub(" ", path)))


def overlap(a: set[str], b: set[str]) -> float:
    """Shared share of the smaller vocabulary (0 when either side is empty)."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))
