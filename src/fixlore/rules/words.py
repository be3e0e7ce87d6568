"""Cue words as people write them, matched as words: a Chinese cue anywhere in the text (Chinese has
no spaces between words), an English cue only where a word starts and ends, so that 'error' does
not find 'terror' nor 'nan' 'finance'. An English cue takes its plain inflections (error/errors,
crash/crashed/crashing); one ending in '*' is a stem that matches any ending ('diverg*' finds
diverge, diverged, divergence). A matching rule, not a threshold: written from English morphology,
fitted on no world (the themes' modes that use it say where they were read)."""

from __future__ import annotations

import re
from functools import lru_cache

_CJK = re.compile(r"[\u3400-\u9fff]")
_INFLECTION = r"(?:s|es|ed|d|ing)?"
_EDGE = r"[a-z0-9]"


def _one(word: str) -> str:
    w = word.strip().lower() if not _CJK.search(word) else word.lower()
    if _CJK.search(w):
        return re.escape(w)
    if w.endswith("*"):
        return rf"(?<!{_EDGE}){re.escape(w[:-1])}"
    return rf"(?<!{_EDGE}){re.escape(w)}{_INFLECTION}(?!{_EDGE})"


@lru_cache(maxsize=256)
def cue_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for the cue words (None for none); match it on lower-cased text."""
    parts = [_one(w) for w in words if w.strip()]
    return re.compile("|".join(parts)) if parts else None


def has_cue(text: str, words: tuple[str, ...]) -> bool:
    """Whether `text` uses any of the cue `words`, as words."""
    pattern = cue_pattern(tuple(words))
    return bool(pattern and pattern.search(text.lower()))
