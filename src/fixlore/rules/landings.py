"""One change, several landings: when a PR that claims an issue after it was closed still lands its fix.

A developer who fixes a report sometimes needs a second PR for the same work: the first change was
incomplete, a review comment came after the merge, the change is split ("Fix the issue of high
memory usage in the flash_attn_npu v2 interface", merged with "closes #14"; three days later a
second PR by the same developer, same title, "closes #14" again). The platform closed the issue on
the first merge, so the second merges after the close, and GitHub's keyword does nothing then; the
author's claim is still that this PR is made for that report.

Who writes the second PR is what tells the two apart. The developer of a fix that landed before the
close, claiming the issue again with a closing keyword, an issue URL or a branch named after it, is
continuing his own change: a second landing of the fix. Someone else's PR that claims an already
closed issue is often coverage or follow-up work on a fix already shipped (open-gsd/gsd-core#2436: a
reviewer asks to drop "Closes #2429" from a test-only PR because the issue was fixed by two earlier
PRs), and stays a candidate merged after the close.

A PR that claims other issues besides this one is no second landing of its fix: a release or
changelog PR by the maintainer who wrote the fix lists every issue the release closes ("- Fix high
memory usage (#15), closes #14", release-please's "closes [#14](…/issues/14)"), a roll-up fixes
several at once. Nor is a login that is no one developer: GitHub shows every deleted account as
"ghost", and a bot (`rules.bots.is_bot`) opens PRs for everybody. Written from how release PRs and
logins read; no world read.

Read on accel-threads (flash-attention-npu #14: #15 then #16, both by the reporter-developer, both
labelled fixes) beside accel-threads3 (TheRock #6500: two merged PRs by one developer, both "Closes
#6500", both labelled fixes); every other world held out. Not fitted: no time bound, no threshold.
"""

from __future__ import annotations

from typing import Iterable

from fixlore.core.model import Pull
from fixlore.rules.bots import is_bot
from fixlore.rules.refs import KIND_ISSUE, find_refs

_DELETED_ACCOUNT = "ghost"     # the login GitHub shows for any deleted account


def continues_own_fix(pull: Pull, fixes_before_close: Iterable[Pull], issue: tuple[str, int]) -> Pull | None:
    """The fix merged before the close whose author also wrote `pull` (logins compared without
    case), or None; None for a login that is no one developer (a deleted account, a bot) and when
    `pull` claims an issue other than `issue` (repo, number). `pull` must itself claim the issue
    strongly; the caller checks that."""
    author = (pull.author or "").casefold()
    if not author or author == _DELETED_ACCOUNT or is_bot(author) or not pull.merged:
        return None
    if _claims_others(pull, issue):
        return None
    for fix in fixes_before_close:
        if fix.merged and (fix.author or "").casefold() == author and (fix.repo, fix.number) != (pull.repo, pull.number):
            return fix
    return None


def _claims_others(pull: Pull, issue: tuple[str, int]) -> bool:
    """Whether the PR's title or body claims an issue other than `issue`, with a closing keyword or
    the issue's URL / name (a pointer, a background cue or a withheld clause claims nothing)."""
    own = (issue[0].casefold(), issue[1])
    return any((r.keyword or r.kind == KIND_ISSUE) and not (r.pointer or r.background or r.withheld)
               and (r.repo.casefold(), r.number) != own
               for r in find_refs(f"{pull.title or ''}\n{pull.body or ''}", pull.repo, pull.platform))
