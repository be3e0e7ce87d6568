"""Cherry-picks and backports as people and tools write them: which change a PR copies.

`git cherry-pick -x` appends "(cherry picked from commit <sha>)" to each copied commit's message;
backport bots and people write "cherry-pick #N", "cherry-pick of #N", "backport of #N", "Backport
#N to release/x", "回合 !N" in a PR's title or body; and a release-branch PR is often the origin's
title behind a tag ("[cherry-pick] Solve X", "[Backport 2.8] Solve X"). Pure text: the linker
(`link.backport.find_origin`) turns these into the origin PR.

Written from git's documented -x trailer and the backport bots' conventions; the title match was
checked on paddle-threads' tune split (PaddleOCR#13769: fix P/R 0.800 / 0.667 -> 1.000 / 1.000,
fitted). Held out, unchanged: every other world and split (fix, traps, timing, selection).
"""

from __future__ import annotations

import re

from fixlore.rules.refs import COPY_MARKER, copied_numbers, visible

# git's -x trailer: "(cherry picked from commit 1d378afea33cef9fc86f3b8d32dd663bd08b8c7d)"
_PICKED_FROM = re.compile(r"\(\s*cherry[- ]picked\s+from\s+commit\s+([0-9a-f]{7,40})\s*\)", re.IGNORECASE)
_TITLE_MARK = re.compile(rf"(?<![A-Za-z]){COPY_MARKER}(?![A-Za-z])", re.IGNORECASE)


def picked_shas(text: str) -> list[str]:
    """The commit SHAs a text says its commits were cherry-picked from (git's -x trailer), in order."""
    return list(dict.fromkeys(m.group(1).lower() for m in _PICKED_FROM.finditer(visible(text))))


def origin_numbers(title: str, body: str) -> list[int]:
    """The PR numbers a PR's title or body names as the change it cherry-picks or backports, in order:
    "cherry-pick #12", "backport of #12", and a marked title's trailing "(#12)" (`rules.refs`
    reads the references)."""
    return copied_numbers(title, body, marked(title))


def marked(title: str) -> bool:
    """Whether a PR's title says it is a cherry-pick or a backport ("[cherry-pick] …", "Backport …", "回合 …")."""
    return bool(_TITLE_MARK.search(title or ""))
