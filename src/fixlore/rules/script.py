"""Which script a text is written in: Chinese characters counted, the language of a row decided
by a few of them, a line of names and numbers read as neither (split out of rules/text.py, issue #22)."""

from __future__ import annotations

import re

HAN = re.compile(r"[\u3400-\u9fff]")


def cjk_count(text: str) -> int:
    return len(HAN.findall(text or ""))


_PLAIN_WORD = re.compile(r"^[A-Za-z]{2,}$")


def is_language_neutral(text: str) -> bool:
    """True when the text has no words of either language, only names and numbers (a table row of
    results: "qwen3.5-27B：0.25%，1.3×bf16"): it reads the same in a Chinese or an English row."""
    if cjk_count(text):
        return False
    words = [w for w in re.split(r"[\s,;:()\[\]/|，；：（）、]+", text or "") if _PLAIN_WORD.match(w)]
    return len(words) < 2


def is_cjk(text: str) -> bool:
    """True when the text is written in Chinese. Chinese writers quote English identifiers and logs
    freely, English writers hardly ever write Chinese: a few Chinese characters decide it."""
    return cjk_count(text) >= 6


__all__ = ["HAN", "cjk_count", "is_cjk", "is_language_neutral"]
