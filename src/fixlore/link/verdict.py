"""The fix set of one issue: which candidate PRs really fixed it, in which role.

A candidate is fix-like when it has a strong signal (closing keyword / issue URL, source
branch, a closing commit, or a platform link that the change confirms), or two independent
weaker ones (bare mention, timeline cross-reference, an issue comment citing it, a merge
just before the close). An issue comment that says a PR fixed it counts alone only when no
candidate has a strong signal. A fix-like PR is in the fix set only when merged (state
merged + merged_at) no later than the close; merged later it is not back-filled; open or
closed unmerged it did not land.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from fixlore.link.backport import find_twins
from fixlore.link.candidates import Candidate, Signal, gather, pull_label
from fixlore.link.config import LinkConfig
from fixlore.link.index import CorpusIndex, Key
from fixlore.link.refs import KIND_ISSUE
from fixlore.link.text import overlap, path_tokens, tokens
from fixlore.model import Issue, Pull

STRONG = frozenset({"keyword", "branch_name", "commit_close"})
MEDIUM = frozenset({"mention", "cross_ref", "comment", "timing"})


@dataclass(slots=True)
class FixVerdict:
    issue: Issue
    candidates: dict[Key, Candidate]
    fix: list[tuple[Pull, str]] = field(default_factory=list)      # (pull, role), fix roles first
    backport_notes: dict[Key, str] = field(default_factory=dict)
    pending: list[Pull] = field(default_factory=list)              # fix-like, not merged
    after_close: list[Pull] = field(default_factory=list)          # fix-like, merged after the close
    lag_s: int | None = None                                       # close minus the last fix merge before it
    last_fix: Pull | None = None

    @property
    def fix_strong(self) -> bool:
        for pull, _ in self.fix:
            c = self.candidates.get((pull.repo, pull.number))
            if c and (c.kinds() & STRONG or ("linked" in c.kinds() and not c.unrelated)):
                return True
        return False


def pull_tokens(pull: Pull, idx: CorpusIndex) -> set[str]:
    files = [f.filename for f in idx.files.get((pull.repo, pull.number), [])]
    return tokens(f"{pull.title}\n{pull.body}") | path_tokens(files)


def unrelated_reason(issue: Issue, pull: Pull, idx: CorpusIndex, cfg: LinkConfig, itoks: set[str]) -> str:
    """Why a platform-linked PR is not about this issue ("" when it may well be)."""
    key = (issue.repo, issue.number)
    refs = idx.pull_issue_refs.get((pull.repo, pull.number), [])
    if any((m.ref.repo, m.ref.number) == key for m in refs):
        return ""
    others = sorted({f"#{m.ref.number}" if m.ref.repo == issue.repo else f"{m.ref.repo}#{m.ref.number}"
                     for m in refs if (m.ref.keyword or m.ref.kind == KIND_ISSUE)})
    ptoks = pull_tokens(pull, idx)
    ov = overlap(itoks, ptoks)
    if others and ov < cfg.unrelated_overlap:
        return (f"linked {pull_label((pull.repo, pull.number), issue.repo)} names {', '.join(others[:4])} as what it "
                f"fixes, not this issue, and shares {ov:.0%} of its vocabulary (title/body/files)")
    if len(itoks) >= 8 and len(ptoks) >= 8 and ov < cfg.unrelated_no_overlap:
        return (f"linked {pull_label((pull.repo, pull.number), issue.repo)} shares {ov:.0%} of this issue's "
                f"vocabulary: its change is about something else")
    return ""


def decide(issue: Issue, idx: CorpusIndex, cfg: LinkConfig) -> FixVerdict:
    cands = gather(issue, idx)
    close = issue.closed_at if issue.state == "closed" else None
    slack = timedelta(seconds=cfg.clock_slack_s)
    itoks = tokens(f"{issue.title}\n{issue.body}")

    if close is not None and not any(c.pull is not None for c in cands.values()):
        _timing_only(issue, idx, cfg, cands, itoks)

    for c in cands.values():
        if c.pull is None:
            c.verdict = "missing"
            continue
        kinds = c.kinds()
        if "linked" in kinds and not kinds & STRONG:
            c.unrelated = unrelated_reason(issue, c.pull, idx, cfg, itoks)
        p = c.pull
        if close is not None and p.merged and "timing" not in kinds \
                and close - timedelta(seconds=cfg.auto_close_s) - slack <= p.merged_at <= close + slack:
            lag = int((close - p.merged_at).total_seconds())
            c.add(Signal("timing", f"merged {p.merged_at.isoformat()}, issue closed {lag}s later",
                         f"pulls/{p.number}, issues/{issue.number}"))

    def strong(c: Candidate) -> bool:
        k = c.kinds()
        return bool(k & STRONG) or ("linked" in k and not c.unrelated)

    any_strong = any(strong(c) for c in cands.values() if c.pull is not None)
    verdict = FixVerdict(issue, cands)
    fixlike: list[Candidate] = []
    for c in cands.values():
        if c.pull is None:
            continue
        k = c.kinds()
        medium = k & MEDIUM
        claimed = any(s.kind == "comment" and s.claim for s in c.signals)
        if strong(c) or len(medium) >= 2 or k == {"timing"} or (claimed and not any_strong and not c.unrelated):
            fixlike.append(c)
        else:
            c.verdict = "unrelated" if c.unrelated else "weak"

    for c in fixlike:
        p = c.pull
        if not p.merged:
            c.verdict = "pending"
            verdict.pending.append(p)
        elif close is not None and p.merged_at > close + slack:
            c.verdict = "after_close"
            verdict.after_close.append(p)
        else:
            c.verdict = "fix"

    fixes = [c.pull for c in fixlike if c.verdict == "fix"]
    on_default = [p for p in fixes if idx.is_default_branch(p.repo, p.base_ref)]
    for p in sorted(fixes, key=lambda p: (p.merged_at, p.number)):
        role = "backport" if on_default and p not in on_default else "fix"
        verdict.fix.append((p, role))
        if role == "backport":
            cands[(p.repo, p.number)].verdict = "backport"
            verdict.backport_notes[(p.repo, p.number)] = f"targets {p.base_ref}, the fix targets {on_default[0].base_ref or 'the default branch'}"

    in_set = {(p.repo, p.number) for p, _ in verdict.fix}
    for p, role in list(verdict.fix):
        if role != "fix":
            continue
        for twin, note in find_twins(p, idx, cfg, in_set):
            if idx.is_default_branch(twin.repo, twin.base_ref):
                continue
            tk = (twin.repo, twin.number)
            in_set.add(tk)
            verdict.fix.append((twin, "backport"))
            verdict.backport_notes[tk] = note
            tc = cands.get(tk) or cands.setdefault(tk, Candidate(tk, twin))
            tc.add(Signal("backport", note, f"pulls/{twin.number}"))
            tc.verdict = "backport"
            if twin in verdict.after_close:
                verdict.after_close.remove(twin)

    if close is not None:
        merged_before = [p for p, _ in verdict.fix if p.merged_at is not None and p.merged_at <= close + slack]
        if merged_before:
            verdict.last_fix = max(merged_before, key=lambda p: p.merged_at)
            verdict.lag_s = int(round((close - verdict.last_fix.merged_at).total_seconds()))
    return verdict


def _timing_only(issue: Issue, idx: CorpusIndex, cfg: LinkConfig, cands: dict[Key, Candidate], itoks: set[str]) -> None:
    """With no candidate at all, a PR merged within a second of the close that shares the
    issue's vocabulary and names no other issue is a candidate of its own."""
    close = issue.closed_at
    window = timedelta(seconds=cfg.timing_only_s)
    plausible = []
    for p in idx.merged_between(issue.repo, close - window, close + window):
        if any(m.ref.keyword for m in idx.pull_issue_refs.get((p.repo, p.number), [])):
            continue
        ov = overlap(itoks, pull_tokens(p, idx))
        if ov >= cfg.timing_only_overlap:
            plausible.append((p, ov))
    if len(plausible) == 1:
        p, ov = plausible[0]
        lag = int((close - p.merged_at).total_seconds())
        c = cands.setdefault((p.repo, p.number), Candidate((p.repo, p.number), p))
        c.add(Signal("timing", f"only PR merged within {cfg.timing_only_s}s of the close ({lag}s), "
                               f"sharing {ov:.0%} of the issue's vocabulary", f"pulls/{p.number}, issues/{issue.number}"))
