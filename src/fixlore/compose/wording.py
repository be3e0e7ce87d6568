"""Small wording helpers the digest's sections share: a phrase per language, list joins, dates,
PR labels as the tables show them, a sentence's first clause."""

from __future__ import annotations

import re

from fixlore.compose.figures import Refs, merged
from fixlore.core.model import Case


def t(lang: str, zh: str, en: str) -> str:
    return zh if lang == "zh" else en


def j(lang: str, items) -> str:
    return ("、" if lang == "zh" else ", ").join(str(i) for i in items)


def date(iso: str) -> str:
    return iso[:10] if iso else ""


def gist(answer: str) -> str:
    first = re.split(r"(?<=[。；])|(?<=[.;])\s", answer or "", maxsplit=1)[0].strip()
    return first if len(first) <= 90 else first[:89] + "…"


def fix_labels(c: Case, ref: Refs) -> list[str]:
    """The case's fix PRs as a theme bullet names them: its fix set, and a fix that merged after the
    issue was closed (`Case.landed_fixes`: it counts as the landed fix, so the bullet names it)."""
    out = []
    for f in [*c.fix, *(f for f in c.pending_fix if f.merged and f not in c.fix)]:
        mark = f.label(c.repo, prose=True, name=ref.repo)
        out.append(mark + ("" if merged(f) else "(open)" if f.state == "open" else f"({f.state or '?'})"))
    return out
