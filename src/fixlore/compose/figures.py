"""Every figure a digest prints, computed from the run's cases (and the run summary): pure data in,
plain dicts out. Nothing here is a constant about a world; change the cases and the figures move."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any

from fixlore.core.enums import EvidenceKind, FixState, FunnelStage, Timing, Trap
from fixlore.core.model import FUNNEL_STAGES, MERGED_CLOSED, Case, FixRef, merge_variant, pr_sigil
from fixlore.core.timeutil import lag_seconds
from fixlore.rules.unread import ISSUE, fix_unknown, unjudged
from fixlore.wording.facts import CLOSED_BY_MERGE, landed, own_fix_labels

AUTO_CLOSE_TIMINGS = CLOSED_BY_MERGE      # the one rule: wording.facts
# Keys of the digest's figures, so plain strings (orjson takes no enum keys).
CARRIER_TRAPS = tuple(t.value for t in (Trap.FIX_NOT_LANDED, Trap.CLAIMED_UNMERGED, Trap.LINKED_UNRELATED,
                                        Trap.CLOSED_BEFORE_MERGE))
STORM_GAP_S = 300          # closes of one storm follow each other within this gap


def merged(f) -> bool:
    return f.merged                     # the one rule: fixlore.core.model.merge_variant


class Refs:
    """Short, unique case names: `<repo name>#<number>`, the owner only when two repos share a name."""

    def __init__(self, cases: list[Case]):
        repos = {c.repo for c in cases}
        names = Counter(r.split("/")[-1] for r in repos)
        self._short = {r: (r.split("/")[-1] if names[r.split("/")[-1]] == 1 else r) for r in repos}

    def repo(self, repo: str) -> str:
        return self._short.get(repo, repo)

    def __call__(self, case: Case) -> str:
        return f"{self.repo(case.repo)}#{case.number}"


def stage_summary(run: dict[str, Any], name: str) -> dict[str, Any]:
    """A stage's summary from run.json: `run[name]`, or the `stages` list the pipeline records."""
    if isinstance(run.get(name), dict):
        return run[name]
    for st in run.get("stages", []) or []:
        if st.get("name") == name and isinstance(st.get("summary"), dict):
            return st["summary"]
    return {}


def window_of(cases: list[Case], run: dict[str, Any]) -> dict[str, str]:
    win = run.get("window") if isinstance(run.get("window"), dict) else {}
    since = win.get("since") or run.get("since") or ""
    until = win.get("until") or run.get("until") or run.get("snapshot_at") or ""
    closes = sorted(c.closed_at for c in cases if c.closed_at and c.funnel != FunnelStage.WINDOW)
    return {"since": str(since), "until": str(until),
            "first_close": closes[0].isoformat() if closes else "",
            "last_close": closes[-1].isoformat() if closes else ""}


def funnel_figures(cases: list[Case]) -> dict[str, Any]:
    by = Counter(c.funnel for c in cases)
    stages = {s: by.get(s, 0) for s in FUNNEL_STAGES}
    pool = by[FunnelStage.RANK] + by[FunnelStage.ANALYSIS] + by[FunnelStage.SELECTED]
    return {
        "considered": len(cases),
        "by_stage": stages,
        "closed_in_window": len(cases) - by[FunnelStage.WINDOW],
        "unresolved": by[FunnelStage.UNRESOLVED], "internal": by[FunnelStage.INTERNAL], "cve": by[FunnelStage.CVE],
        "empty_title": by[FunnelStage.EMPTY_TITLE],
        "resolved_user_side": by[FunnelStage.NOISE] + pool,
        "noise": by[FunnelStage.NOISE],
        "pool": pool,
        "analysed": by[FunnelStage.ANALYSIS] + by[FunnelStage.SELECTED],
        "kept": by[FunnelStage.SELECTED], "dropped": by[FunnelStage.ANALYSIS], "backlog": by[FunnelStage.RANK],
        "repos": len({c.repo for c in cases}),
        "repos_with_kept": len({c.repo for c in cases if c.funnel == FunnelStage.SELECTED}),
    }


def kb_figures(kept: list[Case], ref: Refs) -> dict[str, Any]:
    rows = []
    for c in kept:
        if c.kb_refs:
            best = max(c.kb_refs, key=lambda k: k.score)
            rows.append({"case": ref(c), "doc": best.doc, "chunk": best.chunk, "score": round(best.score, 3),
                         "refs": len(c.kb_refs)})
    return {"rows": len(kept), "with_refs": len(rows), "without_refs": len(kept) - len(rows), "cases": rows}


def merge_figures(analysed: list[Case]) -> dict[str, Any]:
    # each PR once: a PR that fixes two published cases is one PR, not two (a reader counts PRs)
    fixes = list({(f.repo, f.number): f for c in analysed for f in (*c.fix, *c.pending_fix)}.values())
    states = Counter("merged" if merged(f) else (f.state or "unknown") for f in fixes)
    return {"fix_refs": len(fixes), "merged": states.get("merged", 0),
            "not_merged": {k: v for k, v in sorted(states.items()) if k != "merged"},
            "state_merged_without_time": sum(1 for f in fixes if f.state == "merged" and f.merged_at is None),
            "closed_with_merged_at": sum(1 for f in fixes if merge_variant(f.state, f.merged_at) == MERGED_CLOSED)}


def carrier_figures(analysed: list[Case], ref: Refs) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = {t: [] for t in CARRIER_TRAPS}
    for c in analysed:
        for t in CARRIER_TRAPS:
            if t in c.traps:
                # an unrelated link's note names the case's own fix beside it: that one is no unrelated PR
                out[t].append({"case": ref(c), "note": c.trap_notes.get(t, ""), "funnel": c.funnel,
                               "own_fix": own_fix_labels(c) if t == Trap.LINKED_UNRELATED else []})
    return out


def _pr(f: FixRef, case: Case, ref: Refs) -> str:
    return f.label(case.repo, prose=True, name=ref.repo)


# the linker's words for a branch-name signal (link/candidates.py, prefixed with the PR by link/conclude.py):
# "!1309: source branch 'fix/ha-472-etcd-dual-master' names #472"
_BRANCH_DETAIL = re.compile(r"^(?:(?P<pr>\S+): )?source branch '(?P<branch>[^']*)' names #(?P<issue>\d+)")


def branch_parts(detail: str) -> dict[str, str]:
    """{pr, branch, issue} of a branch-name signal's detail, so each digest words it in its own
    language; {} for a detail in another shape (it is then shown as written)."""
    m = _BRANCH_DETAIL.match(detail or "")
    return {k: v or "" for k, v in m.groupdict().items()} if m else {}


def evidence_figures(kept: list[Case], all_cases: list[Case], ref: Refs) -> dict[str, Any]:
    chains = [c for c in kept if c.timing in AUTO_CLOSE_TIMINGS]
    lags = [abs(c.lag_s) for c in chains if c.lag_s is not None]
    minutes = [{"case": ref(c), "lag_s": c.lag_s} for c in kept if c.timing == Timing.MINUTES]
    users: dict[tuple[str, int], list[Case]] = defaultdict(list)
    for c in all_cases:
        for f in c.fix:
            if f.role == "fix":
                users[(f.repo, f.number)].append(c)
    many = []
    for (repo, number), cs in sorted(users.items()):
        if len(cs) >= 2 and any(c.funnel == FunnelStage.SELECTED for c in cs):
            f = next(f for f in cs[0].fix if (f.repo, f.number) == (repo, number))
            off = [ref(c) for c in cs if c.funnel != FunnelStage.SELECTED]
            many.append({"pr": _pr(f, cs[0], ref), "repo": ref.repo(repo), "cases": [ref(c) for c in cs]}
                        | ({"unpublished": off} if off else {}))
    backports = []
    for c in kept:
        for f in c.fix:
            if f.role == "backport":
                backports.append({"case": ref(c), "pr": _pr(f, c, ref), "branch": f.base_ref,
                                  "merged": merged(f)})
    kinds: dict[str, list[str]] = defaultdict(list)
    details: dict[str, list[dict[str, str]]] = defaultdict(list)
    for c in kept:
        for k in dict.fromkeys(e.kind for e in c.evidence):
            kinds[str(k)].append(ref(c))
        for e in c.evidence:
            if e.kind == EvidenceKind.BRANCH_NAME:
                details["branch_name"].append({"case": ref(c), "detail": e.detail} | branch_parts(e.detail))
    return {
        "auto_close_chains": {"count": len(chains), "same_second": sum(1 for c in chains if c.timing == Timing.SAME_SECOND),
                              "max_lag_s": max(lags) if lags else None,
                              "cases": [ref(c) for c in chains]},
        "minutes": minutes,
        "one_pr_many_issues": many,
        "backports": backports,
        "branch_names": details["branch_name"],
        "by_kind": {k: {"count": len(v), "cases": v} for k, v in sorted(kinds.items())},
        "no_evidence": [ref(c) for c in kept if not c.evidence],
    }


def _storms(cases: list[Case], ref: Refs) -> list[dict[str, Any]]:
    storm = sorted((c for c in cases if Trap.CLOSE_STORM in c.traps and c.closed_at), key=lambda c: c.closed_at)
    groups: list[list[Case]] = []
    for c in storm:
        if groups and (c.closed_at - groups[-1][-1].closed_at).total_seconds() <= STORM_GAP_S:
            groups[-1].append(c)
        else:
            groups.append([c])
    out = []
    for g in groups:
        actors = sorted({c.closed_by for c in g if getattr(c, "closed_by", "")})
        out.append({"start": g[0].closed_at.isoformat(), "end": g[-1].closed_at.isoformat(),
                    "span_s": int((g[-1].closed_at - g[0].closed_at).total_seconds()),
                    "count": len(g), "actors": actors, "cases": [ref(c) for c in g],
                    "notes": sorted({c.trap_notes.get(Trap.CLOSE_STORM, "") for c in g} - {""})}
                   | ({"unpublished": off} if (off := [ref(c) for c in g if c.funnel != FunnelStage.SELECTED]) else {}))
    return out


def _audit_ok(a: dict[str, Any]) -> bool:
    if "ok" in a:
        return bool(a["ok"])
    return str(a.get("status", a.get("result", ""))).lower() in ("ok", "pass", "passed", "confirmed", "match")


def _lag_to_later_merge(c: Case) -> int | None:
    """Close time minus the first merge after it (negative), when the linker left lag_s unset."""
    later = [f.merged_at for f in c.landed_fixes if c.closed_at and f.merged_at > c.closed_at]
    return lag_seconds(c.closed_at, min(later)) if later else None


def _reused_checks(summary: Any) -> dict[str, Any]:
    """How many of the audit's checks an earlier run made against the API (link/audit.py reuses a
    check whose issue and PR are unchanged since) and the day of the oldest: what the disclosure
    owes the reader about what was checked when. Empty when every check is this run's."""
    if not isinstance(summary, dict) or not summary.get("reused"):
        return {}
    days = sorted(str(d.get("checked_at") or "")[:10] for d in summary.get("details") or []
                  if isinstance(d, dict) and d.get("reused"))
    return {"reused": int(summary["reused"]), "reused_since": next((d for d in days if d), "")}


def timing_class(c: Case) -> str:
    """The case's timing class as the disclosure counts it: the linker's timing, except that a case
    without a merged fix is told by `Case.fix_state` (a fix that did not land is not "no code fix"),
    so the distribution's "no code fix" is the themes' and the tagline's number."""
    if c.timing == Timing.NO_FIX and c.fix_state == FixState.NOT_LANDED:
        return FixState.NOT_LANDED.value
    return str(c.timing)


def timing_figures(analysed: list[Case], ref: Refs, run: dict[str, Any]) -> dict[str, Any]:
    stale = [{"case": ref(c), "lag_s": c.lag_s, "note": c.trap_notes.get(Trap.STALE_CLOSE, ""),
              "timing": timing_class(c), "published": c.funnel == FunnelStage.SELECTED}
             for c in analysed if c.timing == Timing.STALE or Trap.STALE_CLOSE in c.traps]
    before = [{"case": ref(c), "lag_s": c.lag_s if c.lag_s is not None else _lag_to_later_merge(c),
               "note": c.trap_notes.get(Trap.CLOSED_BEFORE_MERGE, "")} | ({} if c.funnel == FunnelStage.SELECTED else {"published": False})
              for c in analysed if c.timing == Timing.BEFORE_MERGE or Trap.CLOSED_BEFORE_MERGE in c.traps]
    audited = [c for c in analysed if getattr(c, "audit", None)]
    audit = {"checked": len(audited), "passed": sum(1 for c in audited if _audit_ok(c.audit)),
             "failed": [ref(c) for c in audited if not _audit_ok(c.audit)]}
    if (off := sum(1 for c in audited if c.funnel != FunnelStage.SELECTED)):
        audit["unpublished"] = off
    link = stage_summary(run, "link")
    if not audited and isinstance(link.get("audit"), dict):
        audit = {"checked": int(link["audit"].get("checked", 0)), "passed": int(link["audit"].get("passed", 0)),
                 "failed": list(link["audit"].get("failed", []))}
    reused = _reused_checks(link.get("audit"))
    if reused:
        audit.update(reused)
    return {
        "by_timing": dict(sorted(Counter(str(c.timing) for c in analysed).items())),
        # the same over the published cases: what the methods section speaks of
        "by_timing_published": dict(sorted(Counter(timing_class(c) for c in analysed
                                                   if c.funnel == FunnelStage.SELECTED).items())),
        "stale": sorted(stale, key=lambda s: -(s["lag_s"] or 0)),
        "close_storms": _storms(analysed, ref),
        "before_merge": before,
        "audit": audit,
    }


def drop_figures(analysed: list[Case], ref: Refs) -> dict[str, Any]:
    dropped = [c for c in analysed if c.funnel == FunnelStage.ANALYSIS]
    return {"count": len(dropped), "by_reason": dict(sorted(Counter(c.drop_reason or "unspecified" for c in dropped).items())),
            "cases": [{"case": ref(c), "reason": c.drop_reason or "unspecified",
                       "what": c.problem or c.title} for c in sorted(dropped, key=lambda c: (c.repo, c.number))]}


def backlog_figures(cases: list[Case], ref: Refs, top: int = 5) -> dict[str, Any]:
    rank = sorted((c for c in cases if c.funnel == FunnelStage.RANK), key=lambda c: (-c.value, c.repo, c.number))
    per_repo = Counter(ref.repo(c.repo) for c in rank)
    return {"count": len(rank), "per_repo": dict(per_repo.most_common()),
            "top": [{"case": ref(c), "title": c.title, "value": round(c.value, 3)} for c in rank[:top]]}


def analysis_figures(analysed: list[Case], run: dict[str, Any], ref: Refs) -> dict[str, Any]:
    st = stage_summary(run, "analyse")
    by_backend = Counter((c.analysed_by or "unknown").split(" (")[0] for c in analysed)
    fallbacks = [c for c in analysed if "llm failed" in (c.analysed_by or "")]
    llm = st.get("llm", {}) if isinstance(st.get("llm"), dict) else {}
    dropped = [c for c in analysed if "claims dropped" in (c.analysed_by or "")]
    grounding = llm.get("grounding", {}) if isinstance(llm.get("grounding"), dict) else {}
    widened, below = set(st.get("widened") or []), set(st.get("widened_below") or [])
    return {"by_backend": dict(by_backend), "llm_fallbacks": len(fallbacks),
            # rows above the middle given more room for their facts (analyse/widen.py), published ones
            "widened": [ref(c) for c in analysed if c.key in widened and c.funnel == FunnelStage.SELECTED],
            "widen_chars": int(st.get("widen_chars") or 0),
            # rows below the middle given that room while the median row stayed within the bound
            "widened_below": [ref(c) for c in analysed if c.key in below and c.funnel == FunnelStage.SELECTED],
            "widen_bound": int(st.get("widen_bound") or 0),
            "grounding": {"checked": grounding.get("checked", 0), "repaired": grounding.get("repaired", 0),
                          "claims_dropped": len(dropped)},
            "llm_failures": dict(llm.get("llm_failures", {})), "tokens": llm.get("tokens", {}),
            "cost": llm.get("cost"), "cache_hits": llm.get("cache_hits"), "requests": llm.get("requests"),
            "prompt_version": llm.get("prompt_version", ""),
            "endpoint_down": _open_circuit(llm.get("circuit")),
            # what the grounding check took out of each row, so the reader is told what a row no longer says
            "removed": [{"case": ref(c), "claims": list(c.written.removed)}
                        for c in analysed if c.written.removed]}


def _open_circuit(circuit: Any) -> dict[str, str]:
    """{host, reason} of an endpoint whose breaker opened during the run, else {}."""
    if isinstance(circuit, dict) and circuit.get("state") == "open":
        return {"host": str(circuit.get("host", "")), "reason": str(circuit.get("reason", ""))}
    return {}


def kb_check_figures(run: dict[str, Any]) -> dict[str, Any]:
    """The model's passage check (kb.verify) as the kb stage recorded it: cases checked, cases
    whose check failed (they keep the threshold's references) and why, the endpoint if it went down."""
    verified = stage_summary(run, "kb").get("verified")
    if not isinstance(verified, dict):
        return {}
    return {"cases": int(verified.get("cases", 0)), "failed": int(verified.get("cases_on_threshold", 0)),
            "failures": dict(verified.get("failures") or {}), "endpoint_down": _open_circuit(verified.get("circuit"))}


def _why(failure: dict[str, Any]) -> str:
    """"HTTP 500" for a failure, also when retries gave up on it (the status then says "retries")."""
    status = str(failure.get("status", ""))
    if status.isdigit():
        return f"HTTP {status}"
    seen = re.findall(r"HTTP \d{3}", str(failure.get("message", "")))
    return seen[-1] if seen else status


def unread_figures(cases: list[Case], ref: Refs, run: dict[str, Any]) -> dict[str, Any]:
    """What was read only in part (fixlore.rules.unread): each issue or PR with the parts it lacks,
    the cases whose fix that leaves unknown, and what else it left unjudged."""
    sigil = pr_sigil(str(run.get("platform") or (cases[0].platform if cases else "gitcode")))
    items: dict[tuple[str, str, int], list[str]] = defaultdict(list)
    for it in stage_summary(run, "harvest").get("unread_items") or []:
        items[(it["repo"], it["kind"], int(it["number"]))].append(f"{it['part']} {_why(it)}".strip())
    named = [{"item": f"{ref.repo(repo)}{'#' if kind == ISSUE else sigil}{number}", "parts": parts}
             for (repo, kind, number), parts in sorted(items.items())]
    gaps = sorted((c for c in cases if c.unread), key=lambda c: (c.repo, c.number))
    return {"items": named,
            "fix_unknown": [ref(c) for c in gaps if fix_unknown(c.unread, landed(c))],
            "unjudged": [{"case": ref(c), "what": [_pr_path(p, sigil) for p in unjudged(c.unread)]}
                         for c in gaps if unjudged(c.unread)]}


def _pr_path(path: str, sigil: str) -> str:
    """``pulls/61`` as ``!61`` (``owner/name/pulls/61`` as ``owner/name!61``)."""
    where, _, number = path.rpartition("pulls/")
    return f"{where.rstrip('/')}{sigil}{number}"


def compute_figures(cases: list[Case], run: dict[str, Any] | None = None) -> dict[str, Any]:
    run = run or {}
    ref = Refs(cases)
    kept = sorted((c for c in cases if c.funnel == FunnelStage.SELECTED), key=lambda c: (c.repo, c.number))
    analysed = sorted((c for c in cases if c.funnel in (FunnelStage.SELECTED, FunnelStage.ANALYSIS)), key=lambda c: (c.repo, c.number))
    harvest = stage_summary(run, "harvest")
    return {
        "window": window_of(cases, run),
        "funnel": funnel_figures(cases),
        # a kb stage that found no documents searched nothing: its rows are not "below the threshold"
        "kb": kb_figures(kept, ref) | {"check": kb_check_figures(run),
                                       "searched": not stage_summary(run, "kb").get("skipped")},
        "merge": merge_figures(analysed),
        # the same over the published cases: what the disclosure speaks of
        "merge_published": merge_figures(kept),
        "carriers": carrier_figures(analysed, ref),
        "evidence": evidence_figures(kept, cases, ref),
        "timing": timing_figures(analysed, ref, run),
        "drops": drop_figures(analysed, ref),
        "backlog": backlog_figures(cases, ref),
        "analysis": analysis_figures(analysed, run, ref),
        "api": {k: harvest[k] for k in ("requests", "repos", "orgs", "api_requests", "unreadable",
                                        "closing_refs_unread", "repos_without_issues", "issues_deleted")
                if harvest.get(k) not in (None, [])},
        "unread": unread_figures(cases, ref, run),
    }
