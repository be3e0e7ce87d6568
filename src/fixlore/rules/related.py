"""A PR that names an issue only as related work, beside another PR that claims it.

People who write no closing keyword still point at the one issue a PR fixes, often with a soft cue
("Related: #100", "refs #3"): alone, such a reference is how the fix names its issue (github-mini
#100, read). Beside another PR that claims the same issue in its own text (a closing keyword, the
issue's URL, a branch named after it), the soft cue is the writer's choice not to claim it: GitHub
acts on closing keywords only, and "Related to" is what people write for work next to a ticket, not
for its fix (fsnow/cst#920: "thirteen [open issues] referenced by merged commits, nearly all
'Related:' citations"; hivecommons/hive#6582 sweeps such non-closing "Related to"/"See" references
apart from closing ones). So with a claimed fix merged, a PR that only relates to the issue is not
its fix.

Two exceptions, read off how a close and a thread read: a close right after the related PR merged
(its timing signal) says whoever closed it took that merge as the fix, and a comment in the thread
crediting the PR with the fix ("Fixed by #156", "由 PR #156 修复": `rules.refs.fix_credits`) says so
outright; the PR stays a candidate.

Read on accel-threads (flash-attention-npu #65: #73 "Refs <issue URL>" builds the requested softcap
for v2/v3; #156 and #262 "Related to #65" extend it to other targets); every other world held out.
"""

from __future__ import annotations

from typing import Iterable


def related_work(cue: str, kinds: Iterable[str], claimants: list[str], credited: bool = False) -> str:
    """Why a candidate naming the issue only with the soft cue `cue` is related work, not its fix
    ("" when it stays a candidate). `kinds`: its evidence kinds; `claimants`: labels of the merged
    PRs that claim the issue themselves (strong evidence); `credited`: a comment says it fixed the issue."""
    if not cue or not claimants or credited or "timing" in set(kinds):
        return ""
    return f"names the issue only as related work ('{cue}'); {', '.join(claimants)} claims the fix"
