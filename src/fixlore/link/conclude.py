"""One issue's conclusions from its fix verdict: the fix set, evidence, timing class and lag, traps with notes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from fixlore.core.enums import EvidenceKind, Timing, Trap
from fixlore.core.model import MERGED_CLOSED, TRAPS, Case, Comment, Evidence, FixRef, Issue, Pull
from fixlore.link.candidates import Candidate
from fixlore.link.closes import stale_note
from fixlore.link.config import LinkConfig
from fixlore.link.index import CorpusIndex
from fixlore.link.verdict import FixVerdict
from fixlore.rules.answers import best_answer as best_reply

TRAP_ORDER = {t: i for i, t in enumerate(TRAPS)}
EVIDENCE_OF = {"linked": EvidenceKind.LINKED, "keyword": EvidenceKind.KEYWORD, "mention": EvidenceKind.KEYWORD,
               "commit_close": EvidenceKind.KEYWORD, "cross_ref": EvidenceKind.KEYWORD,
               "branch_name": EvidenceKind.BRANCH_NAME, "comment": EvidenceKind.COMMENT, "backport": EvidenceKind.BACKPORT}


def _merge_note(pull: Pull) -> str:
    """Say so when a PR counts as merged through the closed-with-merged_at variant."""
    if pull.merge_variant == MERGED_CLOSED:
        return f" (merged {_t(pull.merged_at)}; the PR reads closed, merged_at is set)"
    return ""


def fixref(pull: Pull, role: str) -> FixRef:
    return FixRef(repo=pull.repo, number=pull.number, role=role, state=pull.state, merged_at=pull.merged_at,
                  url=pull.web_url,
                  base_ref=pull.base_ref)


def candidate_row(c: Candidate) -> dict[str, Any]:
    p = c.pull
    return {"repo": c.key[0], "number": c.key[1], "verdict": c.verdict,
            "state": p.state if p else "unknown", "merged_at": p.merged_at.isoformat() if p and p.merged_at else "",
            "base_ref": p.base_ref if p else "", "title": p.title if p else "", "unrelated": c.unrelated,
            "set_aside": c.set_aside,
            "signals": [{"kind": s.kind, "detail": s.detail, "source": s.source, "claim": s.claim,
                         **({"withheld": s.withheld} if s.withheld else {})} for s in c.signals]}


def answer_finder(issue: Issue, idx: CorpusIndex, cfg: LinkConfig,
                   canned: set[str]) -> Callable[[], tuple[int, Comment] | None]:
    """The issue's best answer, worked out on first call (evidence and value both ask)."""
    memo: list[tuple[int, Comment] | None] = []

    def best() -> tuple[int, Comment] | None:
        if not memo:
            memo.append(best_reply(issue.author, idx.issue_comments.get((issue.repo, issue.number), []),
                                   cfg.answer_min_chars, canned))
        return memo[0]

    return best


def answer_evidence(issue: Issue, best: tuple[int, Comment] | None) -> Evidence | None:
    if best is None:
        return None
    c = best[1]
    snippet = " ".join((c.body or "").split())[:100]
    return Evidence(EvidenceKind.ANSWER, f"answer by {c.author}: '{snippet}'", f"issues/{issue.number}/comments/{c.id}")


def _t(at: datetime | None) -> str:
    return at.isoformat() if at else "?"


def conclude(case: Case, issue: Issue, v: FixVerdict, idx: CorpusIndex, cfg: LinkConfig,
              best_answer: Callable[[], tuple[int, Comment] | None], resolved: bool = True) -> None:
    """Fix, evidence, timing and traps of one issue; a close storm is corpus-wide and applied
    afterwards (`_apply_storm`). `resolved`: closed as resolved (not stage "unresolved"); only
    such a close claims a fix, so only there is an unlanded fix PR the `fix_not_landed` trap
    (a not-planned or duplicate close says nothing landed, and the PR stays in `pending_fix`);
    the trap also needs one of those PRs still open (read off npu-threads' tune split, vllm-omni
    #3722: both attempts closed unmerged, the real fix never names the issue)."""
    n = issue.number
    comments = idx.issue_comments.get((issue.repo, n), [])
    case.fix = [fixref(p, role) for p, role in v.fix]
    case.pending_fix = [fixref(p, "fix") for p in v.pending + v.after_close]
    has_fix = bool(case.fix)

    evidence: list[Evidence] = []
    for pull, role in v.fix:
        c = v.candidates.get((pull.repo, pull.number))
        for s in (c.signals if c else []):
            kind = EVIDENCE_OF.get(s.kind)
            if kind is None or (kind == EvidenceKind.LINKED and c.unrelated):
                continue
            evidence.append(Evidence(kind, f"{idx.pr_label(c.key, issue.repo)}: {s.detail}{_merge_note(pull)}",
                                     s.source))
        if role == "backport" and (pull.repo, pull.number) in v.backport_notes \
                and not any(e.kind == EvidenceKind.BACKPORT and e.source == f"pulls/{pull.number}" for e in evidence):
            evidence.append(Evidence(EvidenceKind.BACKPORT, f"{idx.pr_label((pull.repo, pull.number), issue.repo)}: "
                                                 f"{v.backport_notes[(pull.repo, pull.number)]}", f"pulls/{pull.number}"))

    stale = stale_note(issue, case.closed_by, comments, v.lag_s, cfg)
    traps: dict[Trap, str] = {}
    if stale:
        traps[Trap.STALE_CLOSE] = stale

    lag = v.lag_s
    if lag is not None:
        case.lag_s = lag
        last = v.last_fix
        base = (f"fix {idx.pr_label((last.repo, last.number), issue.repo)} merged {_t(last.merged_at)}, "
                f"issue closed {_t(issue.closed_at)}{' by ' + case.closed_by if case.closed_by else ''}: lag {lag}s")
        if v.origin_fix is not None and v.fix_lag_s is not None and lag > cfg.minutes_s:
            # The last landing is a backport and its merge does not explain the close (no
            # same-second, auto-close or minutes class, whose bounds read that merge): the lag is
            # the change's, from the merge of the fix the backport carries (`verdict.change_origin`).
            case.lag_s = v.fix_lag_s
            o = v.origin_fix
            base = (f"backport {idx.pr_label((last.repo, last.number), issue.repo)} merged {_t(last.merged_at)}, "
                    f"issue closed {_t(issue.closed_at)}{' by ' + case.closed_by if case.closed_by else ''} "
                    f"{lag}s later; the fix it carries, {idx.pr_label((o.repo, o.number), issue.repo)}, merged "
                    f"{_t(o.merged_at)}: lag {case.lag_s}s")
        if stale:
            case.timing = Timing.STALE
            case.timing_note = f"{base}; stale close, the fix time is the merge time"
        elif abs(lag) <= cfg.same_second_s:
            case.timing = Timing.SAME_SECOND
        elif lag <= cfg.auto_close_s:
            case.timing = Timing.AUTO_CLOSE
        elif lag <= cfg.minutes_s:
            case.timing = Timing.MINUTES
        else:
            case.timing = Timing.LATER
        if not case.timing_note:
            case.timing_note = base
        if case.timing in (Timing.SAME_SECOND, Timing.AUTO_CLOSE, Timing.MINUTES):
            kind = EvidenceKind.MINUTES if case.timing == Timing.MINUTES else EvidenceKind.AUTO_CLOSE
            evidence.append(Evidence(kind, f"merged {_t(last.merged_at)}, closed {_t(issue.closed_at)} ({lag}s)",
                                     f"pulls/{last.number}, issues/{n}"))
    elif v.after_close and not has_fix:
        first = min(v.after_close, key=lambda p: p.merged_at)
        gap = int((first.merged_at - issue.closed_at).total_seconds())
        case.timing = Timing.BEFORE_MERGE
        via = v.after_close_via.get((first.repo, first.number), "")
        case.timing_note = (f"issue closed {_t(issue.closed_at)}, fix candidate "
                            f"{idx.pr_label((first.repo, first.number), issue.repo)}{via} merged {_t(first.merged_at)} "
                            f"({gap}s later): not back-filled")
    else:
        case.timing = Timing.NO_FIX
        case.timing_note = "no merged fix PR before the close" + (
            f"; candidates: {', '.join(idx.pr_label(c.key, issue.repo) + ' ' + c.verdict for c in v.candidates.values())}"
            if v.candidates else "") + ("; the close itself was a stale close" if stale else "")

    if v.after_close and not has_fix:
        traps[Trap.CLOSED_BEFORE_MERGE] = case.timing_note if case.timing == Timing.BEFORE_MERGE else (
            "closed before " + ", ".join(f"{idx.pr_label((p.repo, p.number), issue.repo)} merged {_t(p.merged_at)}"
                                         for p in v.after_close))
    # An unlanded fix is one still open when the issue closed. When every PR that claimed the
    # issue had been closed unmerged before that, they were attempts a maintainer declined or
    # dropped (superseded, rejected, abandoned): the close says nothing about them, and the fix,
    # if any, came some other way.
    open_at_close = [p for p in v.pending if p.state == "open" or (
        p.closed_at is not None and issue.closed_at is not None and p.closed_at > issue.closed_at)]
    if v.pending and not has_fix and not v.after_close and resolved and open_at_close:
        traps[Trap.FIX_NOT_LANDED] = "closed, but the fix did not land: " + ", ".join(
            f"{idx.pr_label((p.repo, p.number), issue.repo)} is {p.state}{' (closed unmerged)' if p.state == 'closed' else ''}"
            for p in v.pending)
    unrelated = [c.unrelated for c in v.candidates.values() if c.unrelated and c.pull is not None and c.pull.merged]
    if unrelated:
        traps[Trap.LINKED_UNRELATED] = "; ".join(unrelated)
    claims = []
    for c in v.candidates.values():
        if c.pull is None or c.pull.merged or c.pull.state != "closed":
            continue
        for s in c.signals:
            if s.kind == "comment" and s.claim:
                claims.append(f"{s.detail} — but {idx.pr_label(c.key, issue.repo)} was closed unmerged"
                              f" ({_t(c.pull.closed_at)}) [{s.source}]")
    if claims:
        traps[Trap.CLAIMED_UNMERGED] = "; ".join(claims)
    if not has_fix and not v.pending:
        answer = answer_evidence(issue, best_answer())
        if answer is not None:
            evidence.append(answer)

    seen = set()
    case.evidence = []
    for e in evidence:
        if (e.kind, e.detail, e.source) not in seen:
            seen.add((e.kind, e.detail, e.source))
            case.evidence.append(e)
    case.traps = sorted(traps, key=TRAP_ORDER.get)
    # orjson takes only plain `str` keys (fixlore.core.enums), so the notes are keyed by value.
    case.trap_notes = {t.value: traps[t] for t in case.traps}
