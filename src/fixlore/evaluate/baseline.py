"""The keyword baseline: what a linker that reads only GitHub closing keywords would conclude.

A merged PR of the issue's repository whose title or body says "fixes/closes/resolves #N" (the
platform's documented keywords, `rules.refs.closing_numbers`) is the issue's fix, and nothing else is:
no URL, no comment, no platform link, no time, no backport, no trap. Funnel stages are the linker's own
(the baseline replaces linking only), so the fix, evidence, timing and trap figures compare the two
linkers on the same issues. `fixlore score --splits` prints it beside every world and split.
"""

from __future__ import annotations

from dataclasses import replace

from fixlore.core.enums import EvidenceKind, Timing
from fixlore.core.model import Case, Corpus, Evidence, FixRef
from fixlore.rules.refs import closing_numbers


def _timing(lag_s: float) -> Timing:
    """The timing class of a close ``lag_s`` seconds after the merge (world-format.md's bounds)."""
    if lag_s < 0:
        return Timing.BEFORE_MERGE
    if lag_s <= 1:
        return Timing.SAME_SECOND
    if lag_s <= 180:
        return Timing.AUTO_CLOSE
    if lag_s <= 3600:
        return Timing.MINUTES
    return Timing.LATER


def keyword_cases(corpus: Corpus, cases: list[Case]) -> list[Case]:
    """``cases`` with fix, evidence, timing and traps re-decided by closing keywords alone."""
    closes: dict[tuple[str, int], list] = {}
    for pull in corpus.pulls:
        if not pull.merged:
            continue
        for number in closing_numbers(f"{pull.title}\n{pull.body}", pull.repo):
            closes.setdefault((pull.repo, number), []).append(pull)
    closed_at = {(i.repo, i.number): i.closed_at for i in corpus.issues}
    out = []
    for case in cases:
        pulls = sorted(closes.get((case.repo, case.number), []), key=lambda p: p.merged_at)
        fix = [FixRef(repo=p.repo, number=p.number, role="fix", state=p.state, merged_at=p.merged_at)
               for p in pulls]
        evidence = [Evidence(kind=EvidenceKind.KEYWORD, detail=f"closing keyword in #{p.number}",
                             source=f"pulls/{p.number}") for p in pulls]
        closed = closed_at.get((case.repo, case.number))
        timing, lag = Timing.NO_FIX, None
        if pulls and closed is not None and pulls[0].merged_at is not None:
            lag = int((closed - pulls[0].merged_at).total_seconds())
            timing = _timing(lag)
        out.append(replace(case, fix=fix, evidence=evidence, timing=timing, lag_s=lag, traps=[], trap_notes={}))
    return out
