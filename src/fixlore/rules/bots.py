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
# How long: 长时间, 长期, 一周, 两个月, 30 天, 半个月 ...
_ZH_SPAN = r"(?:长时间|长期|很久|许久|[一二两三四五六七八九十半几数\d]+\s*(?:个)?\s*(?:天|日|周|星期|礼拜|月)(?:以上|以来|内)?)"
_ZH_SILENT = r"(?:更新|活动|响应|回应|回复|进展|跟进|反馈)"
# English, as stale bots and maintainers write it: "no activity", "no response", "no reply",
# "no feedback", "has not had recent activity", "not received any response", "lack of response".
_EN_SILENT = r"(?:activity|response|reply|replies|feedback|updates?)"
_IDLE = re.compile(rf"{_ZH_SPAN}[^，。,.\n]{{0,8}}?(?:未|没有|没|无)[^，。,.\n]{{0,4}}?{_ZH_SILENT}"
                   rf"|(?:无|没有|暂无|未收到|没收到)(?:任何|新的|进一步的?)?{_ZH_SILENT}|"
                   rf"no (?:recent |further |more )?{_EN_SILENT}|"
                   rf"(?:has|have|had)(?:n't| not) (?:had|received|seen|got|gotten) (?:any )?(?:recent |further )?{_EN_SILENT}|"
                   rf"(?:lack|absence) of (?:any )?(?:recent )?{_EN_SILENT}|"
                   r"inactiv\w*|without (?:any )?activity|not been updated|been (?:quiet|idle|dormant)",
                   re.IGNORECASE)
# "This issue has been automatically closed", "自动关闭": a process closing on its own schedule,
# unless the sentence names what fixed it ("automatically closed by the merge of #12").
_AUTO_CLOSED = re.compile(r"(?:has been|was|is being|will be|were) (?:automatically|auto-?)\s*closed"
                          r"|(?:automatically|auto-?)\s*clos(?:ed|ing) (?:this|the) (?:issue|ticket)", re.IGNORECASE)
_AUTO_BY_FIX = re.compile(r"\b(?:by|via|with|after|when|once|because of)\b[^.\n]{0,30}(?:pull|PR\b|merge|commit|#\d|!\d|fix)"
                          r"|合入|合并|修复", re.IGNORECASE)
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
        for m in _AUTO_CLOSED.finditer(text):
            if not _AUTO_BY_FIX.search(text, max(0, m.start() - 40), m.end() + 60):
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
