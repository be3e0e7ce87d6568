"""A PR title with branch and version tags removed, to recognise the same change landing on
several branches (`[26.2.0] fix X` ~ `fix X`). Pure text: the index works it out for every
merged PR in its (forked) scan, and the backport search compares these shapes."""

from __future__ import annotations

import re

_TAGS = re.compile(r"[\[【(（]\s*(?:backport|cherry[- ]?pick|回合|同步|合入|master|main|dev|release|br_|r?\d+(?:\.\w+)+|v\d[\w.]*)"
                   r"[^\]】)）]*[\]】)）]|\b(?:backport|cherry[- ]?pick(?:ed)?)\b\s*(?:to|of|from|:)?|回合|同步至?\s*\S*分支",
                   re.IGNORECASE)
_VERSIONISH = re.compile(r"\b(?:to\s+)?(?:branch\s+)?(?:r|v|release[-/_]?)?\d+(?:\.\w+)+\b", re.IGNORECASE)


def backport_shape(title: str) -> str:
    t = _TAGS.sub(" ", title or "")
    t = _VERSIONISH.sub(" ", t)
    return " ".join(t.casefold().split())
