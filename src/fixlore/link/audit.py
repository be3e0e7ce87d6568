"""Re-verify a sample of timing claims against the source.

A timing claim rests on two timestamps: the issue's close and the fix's merge. The audit
re-fetches both through `fetch(kind, repo, number)` (the HTTP source in production, a world
or store in tests) and records on each sampled case whether they still hold. Hard claims
(same-second and auto-close chains) are sampled first, then stale closes, then the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fixlore.enums import Timing
from fixlore.model import Case, FixRef
from fixlore.sources.base import Source
from fixlore.timeutil import parse_time

Fetch = Callable[[str, str, int], Any]
_PRIORITY = {Timing.SAME_SECOND: 0, Timing.AUTO_CLOSE: 0, Timing.STALE: 1, Timing.MINUTES: 2, Timing.BEFORE_MERGE: 2,
             Timing.LATER: 3}


@dataclass(slots=True)
class AuditResult:
    sampled: int = 0
    held: int = 0
    failed: int = 0
    errors: int = 0
    by_timing: dict[str, dict[str, int]] = field(default_factory=dict)
    details: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """`checked`/`passed`/`failed` (keys that did not hold) are what a digest prints."""
        return {"checked": self.sampled, "passed": self.held,
                "failed": [d["key"] for d in self.details if d.get("held") is False],
                "errors": [d["key"] for d in self.details if d.get("held") is None],
                "by_timing": self.by_timing, "details": self.details}


def _get(obj: Any, name: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _same(a: datetime | None, b: datetime | None, slack: int = 1) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs((a - b).total_seconds()) <= slack


def _timed_pull(case: Case) -> FixRef | None:
    if case.timing == Timing.BEFORE_MERGE:
        merged = [f for f in case.pending_fix if f.merged_at is not None]
        return min(merged, key=lambda f: f.merged_at) if merged else None
    if case.closed_at is None:
        return None
    before = [f for f in case.fix if f.merged_at is not None and f.merged_at.timestamp() <= case.closed_at.timestamp() + 1]
    return max(before, key=lambda f: f.merged_at) if before else None


def audit_timing(cases: list[Case], fetch: Fetch, sample_size: int = 21) -> AuditResult:
    claims = [c for c in cases if c.timing in _PRIORITY and c.closed_at is not None]
    claims.sort(key=lambda c: (_PRIORITY[c.timing], c.repo, c.number))
    result = AuditResult()
    for case in claims[:max(0, sample_size)]:
        result.sampled += 1
        checks: list[str] = []
        ok = True
        try:
            issue = fetch("issue", case.repo, case.number)
            closed = parse_time(_get(issue, "closed_at") or _get(issue, "finished_at"))
            if not _same(closed, case.closed_at):
                ok = False
            checks.append(f"issue closed_at {closed.isoformat() if closed else 'unset'}"
                          f" ({'held' if _same(closed, case.closed_at) else 'differs'})")
            fix = _timed_pull(case)
            if fix is not None:
                pull = fetch("pull", fix.repo, fix.number)
                merged_at = parse_time(_get(pull, "merged_at"))
                state = _get(pull, "state")
                pull_ok = _same(merged_at, fix.merged_at) and (state in (None, "", "merged"))
                ok = ok and pull_ok
                checks.append(f"{fix.repo}!{fix.number} merged_at {merged_at.isoformat() if merged_at else 'unset'}"
                              f" state {state or '?'} ({'held' if pull_ok else 'differs'})")
        except Exception as exc:   # a failed re-fetch is recorded, never fatal to the run
            result.errors += 1
            case.audit = {"held": None, "ok": False, "status": "error", "checks": checks,
                          "error": f"{type(exc).__name__}: {exc}"[:200]}
            result.details.append({"key": case.key, "timing": case.timing, "held": None, "error": case.audit["error"]})
            continue
        case.audit = {"held": ok, "ok": ok, "status": "ok" if ok else "differs", "checks": checks}
        bucket = result.by_timing.setdefault(case.timing, {"sampled": 0, "held": 0})
        bucket["sampled"] += 1
        if ok:
            result.held += 1
            bucket["held"] += 1
        else:
            result.failed += 1
        result.details.append({"key": case.key, "timing": case.timing, "held": ok, "checks": checks})
    return result


def source_fetcher(source: Source) -> Fetch:
    """A fetch function over a platform Source (fixlore.sources): single issue and single PR."""

    def fetch(kind: str, repo: str, number: int) -> Any:
        return source.get_pull(repo, number) if kind == "pull" else source.get_issue(repo, number)

    return fetch


def corpus_fetcher(corpus: Any) -> Fetch:
    """A fetch function over a Corpus (a loaded world or store): for tests and offline runs."""
    issues = {(i.repo, i.number): i for i in corpus.issues}
    pulls = {(p.repo, p.number): p for p in corpus.pulls}

    def fetch(kind: str, repo: str, number: int) -> Any:
        return (pulls if kind == "pull" else issues).get((repo, number))

    return fetch
