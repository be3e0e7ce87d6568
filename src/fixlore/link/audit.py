"""Re-verify a sample of timing claims against the source.

A timing claim rests on two timestamps: the issue's close and the fix's merge. The audit
re-fetches both through `fetch(kind, repo, number)` (the HTTP source in production, a world
or store in tests) and records on each sampled case whether they still hold. Hard claims
(same-second and auto-close chains) are sampled first, then stale closes, then the rest.

A check an earlier run made is reused, not fetched again, when nothing it compared can have
changed since: it held, it checked the same claim (the same close time, the same PR and merge
time), and the issue and the PR still carry the ``updated_at`` the API gave when they were
checked, as this run's store shows them (its listing keeps every issue's ``updated_at``
current; a merged PR's merge time and state are final on every platform fixlore reads).
A close or a reopen moves the issue's ``updated_at``, so a changed issue is always fetched
again; a check that failed or erred is never reused. On GitCode, which sends no ETag, every
re-fetch is a full-cost request: a no-change re-run fetches nothing here. A reused check keeps
the time and run of the API check it rests on, and the result counts it (``reused``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

from fixlore.core.enums import Timing
from fixlore.core.model import Case, FixRef
from fixlore.core.timeutil import parse_time
from fixlore.sources.base import Source

Fetch = Callable[[str, str, int], Any]
# what this run's store shows of an issue or PR: its updated_at (None when it is not there)
Seen = Callable[[str, str, int], "datetime | None"]
_PRIORITY = {Timing.SAME_SECOND: 0, Timing.AUTO_CLOSE: 0, Timing.STALE: 1, Timing.MINUTES: 2, Timing.BEFORE_MERGE: 2,
             Timing.LATER: 3}


@dataclass(slots=True)
class AuditResult:
    sampled: int = 0
    held: int = 0
    failed: int = 0
    errors: int = 0
    reused: int = 0
    by_timing: dict[str, dict[str, int]] = field(default_factory=dict)
    details: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """`checked`/`passed`/`failed` (keys that did not hold) are what a digest prints."""
        return {"checked": self.sampled, "passed": self.held,
                "failed": [d["key"] for d in self.details if d.get("held") is False],
                "errors": [d["key"] for d in self.details if d.get("held") is None],
                "reused": self.reused, "by_timing": self.by_timing, "details": self.details}


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


def _utc(value: datetime | None) -> str | None:
    return value.astimezone(timezone.utc).isoformat() if value is not None else None


def _claim(case: Case, fix: FixRef | None) -> dict[str, Any]:
    """What a check compares with the API: the case's close time and its timed PR's merge time."""
    return {"closed_at": _utc(case.closed_at), "pull": f"{fix.repo}!{fix.number}" if fix else None,
            "merged_at": _utc(fix.merged_at) if fix else None}


def _seen_now(case: Case, fix: FixRef | None, seen: Seen) -> dict[str, Any]:
    return {"issue": _utc(seen("issue", case.repo, case.number)),
            "pull": _utc(seen("pull", fix.repo, fix.number)) if fix else None}


def reusable(prior: Mapping[str, Any] | None, claim: Mapping[str, Any], seen_now: Mapping[str, Any]) -> bool:
    """True when an earlier check still holds: it held, it checked this very claim, and the issue
    and PR it fetched are unchanged since (the same updated_at, known on both sides)."""
    if not prior or prior.get("held") is not True or prior.get("claim") != claim:
        return False
    then = prior.get("seen") or {}
    wanted = ("issue", "pull") if claim.get("pull") else ("issue",)
    return all(then.get(k) is not None and then.get(k) == seen_now.get(k) for k in wanted)


def audit_timing(cases: list[Case], fetch: Fetch, sample_size: int = 21, prior: Mapping[str, Mapping] | None = None,
                 seen: Seen | None = None, run_id: int | None = None,
                 resumed: frozenset[int] | set[int] = frozenset()) -> AuditResult:
    """Check a sample of timing claims; `prior` (case key -> an earlier run's detail) and `seen`
    (this run's updated_at of an issue or PR) let a check still true be reused (module doc).
    `resumed` names the unfinished runs this one resumes: their checks are this run's own work
    carried over, as their harvest is, and are not counted as reused."""
    claims = [c for c in cases if c.timing in _PRIORITY and c.closed_at is not None]
    claims.sort(key=lambda c: (_PRIORITY[c.timing], c.repo, c.number))
    result = AuditResult()
    for case in claims[:max(0, sample_size)]:
        result.sampled += 1
        fix = _timed_pull(case)
        claim = _claim(case, fix)
        earlier = (prior or {}).get(case.key)
        if seen is not None and reusable(earlier, claim, _seen_now(case, fix, seen)):
            _reuse(case, earlier, result, own=earlier.get("checked_in_run") in resumed)
            continue
        checks: list[str] = []
        ok = True
        fetched = {"issue": None, "pull": None}
        try:
            issue = fetch("issue", case.repo, case.number)
            fetched["issue"] = _utc(_get(issue, "updated_at"))
            closed = parse_time(_get(issue, "closed_at") or _get(issue, "finished_at"))
            if not _same(closed, case.closed_at):
                ok = False
            checks.append(f"issue closed_at {closed.isoformat() if closed else 'unset'}"
                          f" ({'held' if _same(closed, case.closed_at) else 'differs'})")
            if fix is not None:
                pull = fetch("pull", fix.repo, fix.number)
                fetched["pull"] = _utc(_get(pull, "updated_at"))
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
        result.details.append({"key": case.key, "timing": case.timing, "held": ok, "checks": checks, "claim": claim,
                               "seen": fetched, "checked_at": _utc(datetime.now(timezone.utc)), "checked_in_run": run_id})
    return result


def _reuse(case: Case, earlier: Mapping[str, Any], result: AuditResult, own: bool = False) -> None:
    """The case carries the earlier check as it was (so its export is the same); the detail says
    it was reused and when the API check it rests on was made. A check of a run this one resumes
    (`own`) is carried, not reused: the stopped run and its rerun are one job."""
    checks = list(earlier.get("checks") or [])
    case.audit = {"held": True, "ok": True, "status": "ok", "checks": checks}
    bucket = result.by_timing.setdefault(case.timing, {"sampled": 0, "held": 0})
    bucket["sampled"] += 1
    bucket["held"] += 1
    result.held += 1
    result.reused += 0 if own else 1
    result.details.append({"key": case.key, "timing": case.timing, "held": True, "checks": checks,
                           "claim": earlier.get("claim"), "seen": earlier.get("seen"),
                           **({"resumed": True} if own else {"reused": True}),
                           "checked_at": earlier.get("checked_at"), "checked_in_run": earlier.get("checked_in_run")})


def prior_checks(summary: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Case key -> detail of an earlier run's audit summary, when that audit asked the API (an
    audit of a store against itself proves nothing about the platform)."""
    if not summary or summary.get("via") != "source":
        return {}
    return {d["key"]: dict(d) for d in summary.get("details") or [] if isinstance(d, dict) and d.get("key")}


def corpus_seen(corpus: Any, skip_repos: set[str] | frozenset[str] = frozenset()) -> Seen:
    """``updated_at`` of an issue or PR as this run's store holds it; None for a repo this run
    could not read (its store rows are not this run's word) or an item it does not hold."""
    issues = {(i.repo, i.number): i.updated_at for i in corpus.issues}
    pulls = {(p.repo, p.number): p.updated_at for p in corpus.pulls}

    def seen(kind: str, repo: str, number: int) -> datetime | None:
        if repo in skip_repos:
            return None
        return (pulls if kind == "pull" else issues).get((repo, number))

    return seen


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
