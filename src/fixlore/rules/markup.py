"""Markup in a report is how it was written, not what it is about: :func:`markup_free` drops it
(theme words never come from it). Every pattern here reads hostile text in linear time: a try stops
where the next one would start (tests/test_rules_linear.py)."""

from __future__ import annotations

import re

# a script block ends at its closing tag, and a try stops at the next opening one (linear on "<script" * n)
_SCRIPT_BLOCK = re.compile(r"<(script|style)\b(?:(?!<\1\b).)*?</\1\s*>|&lt;(script|style)\b(?:(?!&lt;\2\b).)*?&lt;/\2\s*&gt;",
                           re.S | re.I)
_ANY_TAG = re.compile(r"</?[A-Za-z!][^<>]{0,500}>|&lt;/?[A-Za-z!].{0,500}?&gt;", re.S)
_MD_TARGET = re.compile(r"(!?)\[([^\[\]\n]*)\]\((?:[^()\n]|\([^()\n]*\))*\)")

_SCRIPT_URL = re.compile(r"\b(?:javascript|vbscript|data)\s*:[^\s<>]*", re.I)
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-f]+|[a-z]{2,8});", re.I)


def markup_free(text: str) -> str:
    """``text`` without HTML tags (raw or entity-encoded, script and style with their content),
    Markdown images and link targets (link text kept), script URLs and entities."""
    if not text or not any(ch in text for ch in "<&[:"):
        return text or ""
    text = _SCRIPT_BLOCK.sub(" ", text)
    text = _ANY_TAG.sub(" ", text)
    text = _MD_TARGET.sub(lambda m: " " if m.group(1) else f" {m.group(2)} ", text)
    text = _SCRIPT_URL.sub(" ", text)
    return _ENTITY.sub(" ", text)
