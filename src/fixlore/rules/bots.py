"""Bots and stale notices: which accounts are processes, and which comments announce a close for inactivity.

Shared by the linker (who closed an issue, which reply is an answer), the analysis (whose
words count as a person's) and the world tools. The 80-character reach between an idle
phrase and a closing word was fitted on ascend-2026-09's stale notices.
"""

from __future__ import annotations

import re
from functools import lru_cache

_BOT_TOKENS = {"bot", "robot", "ci", "stale", "stalebot", "automation", "autobot"}
_SPLIT = re.compile(r"[^a-z0-9]+")
_IDLE = re.compile(r"(?:长时间|长期|\d+\s*天(?:以上|内)?)[^，。,.\n]{0,8}?(?:未|没有|无)[^，。,.\n]{0,4}?"
                   r"(?:更新|活动|响应|回复|进展|跟进)|(?:无|没有)(?:任何|新的)?(?:更新|活动|响应|回复|进展)|no (?:recent |further )?(?:activity|response|updates?)|"
                   r"inactiv\w*|without (?:any )?activity|not been updated|been quiet", re.IGNORECASE)
_CLOSING = re.compile(r"关闭|关单|close[sd]?|closing", re.IGNORECASE)
_STALE_WORD = re.compile(r"\bstale\b", re.IGNORECASE)


class _StaleNotice:
    """A stale notice says the *issue* has been idle and is (being) closed for it, in either
    order within 80 characters, or says "stale" outright."""

    @staticmethod
    @lru_cache(maxsize=200_000)
    def search(text: str) -> bool:
        if not text:
            return False
        low = text.lower()
        if "stale" in low and _STALE_WORD.search(text):
            return True
        if not ("关" in low or "clos" in low):
            return False
        for m in _IDLE.finditer(text):
            if _CLOSING.search(text, max(0, m.start() - 80), m.end() + 80):
                return True
        return False


STALE_NOTICE = _StaleNotice()


@lru_cache(maxsize=65536)
def is_bot(login: str) -> bool:
    low = (login or "").lower()
    if not low:
        return False
    if "[bot]" in low:
        return True
    parts = [p for p in _SPLIT.split(low) if p]
    return any(p in _BOT_TOKENS or p.endswith("bot") or p.endswith("robot") for p in parts)
