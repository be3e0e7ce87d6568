"""A PR that carries another PR's commits: its mention of that PR's issue is branch history.

When a PR is squash-merged, its branch's own commits never reach the base branch; a second PR
branched from the first (stacked) still lists them among its commits, and when that one is
squash-merged too, GitHub's default message for it is the list of those commits, one "* subject"
item each. So "* [Fix] fix the issue #1023" in the second PR's commit list repeats the first PR's
claim: the first PR fixed #1023, the second merely carried its history along.

A mention is carried when an earlier merged PR into the same branch has the same commit (the
same sha in both PRs' commit lists), or, for an item of a commit list standing as the PR's
description, when that earlier PR claims the issue in its own title or description. A commit
message of the PR's own, naming an issue an earlier PR claimed, is not carried: a second fix of
a half-fixed issue is written that way. No number here; the rule is the platform's
behaviour, first seen on npu-threads' third held-out split (tilelang-ascend #1113, which that
split had already measured: it is no longer held out for this rule).
"""

from __future__ import annotations

import re
from typing import Iterable

from fixlore.core.model import Commit, Pull

Key = tuple[str, int]

# an item of a commit list: "* subject" (GitHub's squash message) or "- subject" (`gh pr create --fill`)
_ITEM = re.compile(r"^\s*[*-]\s+\S")


def commit_list(body: str) -> bool:
    """The description is a list of commit subjects and nothing else: two items or more, every
    non-blank line an item or a continuation right under one (a commit's own body)."""
    lines = [ln for ln in (body or "").splitlines()]
    items = [ln for ln in lines if _ITEM.match(ln)]
    if len(items) < 2 or not _ITEM.match(next((ln for ln in lines if ln.strip()), "")):
        return False
    # a heading or a paragraph of prose ("## Summary", "This PR fixes …") is a written description
    return not any(ln.lstrip().startswith("#") for ln in lines if ln.strip())


def in_commits(where: str, body: str) -> bool:
    """Whether a mention found at `where` ("title" | "body" | "commit <sha7>") of a PR with this
    description sits in the PR's commits rather than in words its author wrote for it."""
    return where.startswith("commit ") or (where == "body" and commit_list(body))


def carried_from(pull: Pull, where: str, sha7: str, claimants: Iterable[tuple[Pull, bool]],
                 commits: dict[Key, list[Commit]]) -> Pull | None:
    """The earlier PR whose history `pull` carries at this mention, or None.

    `claimants`: the other PRs that name the same issue, each with whether it claims the issue
    in its own title or description (a closing keyword there)."""
    if not in_commits(where, pull.body or ""):
        return None
    for other, claims in claimants:
        if (other.repo, other.number) == (pull.repo, pull.number) or not other.merged:
            continue
        earlier = other.merged_at is not None and (pull.merged_at is None or other.merged_at < pull.merged_at)
        if not earlier or (other.base_ref or "") != (pull.base_ref or ""):
            continue
        if where.startswith("commit "):     # a commit message: carried only when it is the same commit
            if sha7 and any(c.sha.startswith(sha7) for c in commits.get((other.repo, other.number), [])):
                return other
        elif claims:                          # a commit list as the description: the earlier claim stands
            return other
    return None

