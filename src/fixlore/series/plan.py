"""Which cases an edition takes, what changed in cases published before, and the next-edition
line. Pure: cases and the ledger's view in, a plan out.

An edition's candidates are the pool cases closed inside its own window that no edition has
taken yet (published or dropped by analysis), plus the backlog the last edition left; they
compete on value for the analysis slots, exactly as one run's pool does. A case already
published comes back only as an update row, when something happened to it since: a fix or a
backport merged that was not merged then (the fix of a ``fix_not_landed`` case landed), or
the issue was reopened. A case an earlier edition dropped by analysis is a candidate again
only when it changed since (closed again, a new fix merged, a new answer): ``returned``, with
the reason. A special edition takes the same candidates, restricted to its repos or themes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Collection, Iterable

from fixlore.core.enums import FunnelStage
from fixlore.core.model import Case
from fixlore.rules.funnel.rank import cut

POOL_STAGES = (FunnelStage.SELECTED, FunnelStage.ANALYSIS, FunnelStage.RANK)


@dataclass
class LedgerView:
    """What earlier editions did, as the plan needs it."""
    published: dict[str, dict[str, Any]] = field(default_factory=dict)   # case key -> last published row
    published_in: dict[str, list[int]] = field(default_factory=dict)    # case key -> editions that carried it
    published_until: dict[str, datetime | None] = field(default_factory=dict)   # case key -> end of that edition's window
    dropped: set[str] = field(default_factory=set)                       # dropped by analysis in some edition
    dropped_rows: dict[str, dict[str, Any]] = field(default_factory=dict)  # case key -> the row as last dropped
    backlog: list[str] = field(default_factory=list)                     # what the last edition left waiting


@dataclass
class Focus:
    """A special edition's restriction (empty: a regular edition): repos by owner/name, themes as
    words found in the case's theme, title or problem."""
    repos: list[str] = field(default_factory=list)
    themes: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.repos or self.themes)

    def admits(self, case: Case) -> bool:
        if self.repos and case.repo.lower() not in {r.lower() for r in self.repos}:
            return False
        if self.themes:
            # candidates meet the focus before analysis gives them a theme: their title and
            # problem count as much as the theme label
            text = f"{case.theme} {case.title} {case.problem}".lower()
            if not any(t.lower() in text for t in self.themes):
                return False
        return True

    def to_dict(self) -> dict[str, list[str]]:
        return {"repos": list(self.repos), "themes": list(self.themes)}


@dataclass
class EditionPlan:
    new: list[str] = field(default_factory=list)           # pool cases closed in this window
    carried: list[str] = field(default_factory=list)       # the last backlog, still in the pool
    left_pool: list[str] = field(default_factory=list)     # the last backlog, no longer in the pool (reopened ...)
    taken_elsewhere: list[str] = field(default_factory=list)   # the last backlog, published since by another edition
    outside: list[str] = field(default_factory=list)       # the last backlog outside this (special) edition's focus
    analyse: list[str] = field(default_factory=list)       # the candidates that won the analysis slots
    updates: dict[str, dict[str, Any]] = field(default_factory=dict)   # case key -> what changed
    considered: list[str] = field(default_factory=list)    # every case closed in this window (any stage), in scope
    returned: dict[str, dict[str, Any]] = field(default_factory=dict)  # dropped before, changed since -> why it is back

    def to_dict(self) -> dict[str, Any]:
        return {"new": self.new, "carried": self.carried, "left_pool": self.left_pool,
                "taken_elsewhere": self.taken_elsewhere, "outside": self.outside, "analyse": self.analyse,
                "updates": self.updates, "considered": self.considered, "returned": self.returned}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "EditionPlan":
        return cls(**{k: d.get(k, {} if k in ("updates", "returned") else []) for k in cls.__dataclass_fields__})

    def candidates(self) -> list[str]:
        """Every case competing for this edition's analysis slots."""
        return self.new + self.carried + sorted(self.returned)


def _closed_in(case: Case, since: datetime | None, until: datetime | None) -> bool:
    if case.closed_at is None:
        return False
    return (since is None or case.closed_at >= since) and (until is None or case.closed_at <= until)


def plan_edition(cases: Iterable[Case], prior: LedgerView, *, since: datetime | None, until: datetime | None,
                 top_k: int, in_scope: Callable[[str], bool] = lambda repo: True, focus: Focus | None = None,
                 issue_states: dict[str, tuple[str, datetime | None]] | None = None,
                 keep: Collection[str] = (), drop: Collection[str] = (),
                 value: Callable[[Case], float] | None = None, at_least: float | None = None) -> EditionPlan:
    """The plan of the next edition. `issue_states` (case key -> (state, closed_at) now) lets a
    reopened issue that no case describes any more be seen. `keep` / `drop` are the editors'
    (fixlore.rules.overrides): a kept candidate is analysed whatever its value, a dropped one
    is not; `value` ranks the candidates (default the pipeline's value; a series with learned
    weights, `fixlore.series.weights`, ranks by those); `at_least` analyses every candidate
    ranking at least that instead of the top K (the learned weights' gate, when their file's
    check favours it: `series.weights.gate_favoured`)."""
    focus = focus or Focus()
    by_key = {c.key: c for c in cases}
    plan = EditionPlan()
    for key, c in sorted(by_key.items()):
        if not in_scope(c.repo) or not _closed_in(c, since, until):
            continue
        if key in prior.published or key in prior.dropped:     # an earlier edition dealt with it
            continue
        if focus and not focus.admits(c):
            continue
        plan.considered.append(key)
        if c.funnel in POOL_STAGES:
            plan.new.append(key)
    for key in prior.backlog:
        c = by_key.get(key)
        if key in prior.published:
            plan.taken_elsewhere.append(key)
        elif c is None or c.funnel not in POOL_STAGES or not in_scope(c.repo):
            plan.left_pool.append(key)
        elif focus and not focus.admits(c):
            plan.outside.append(key)
        else:
            plan.carried.append(key)
    waiting = set(plan.carried)            # a backlog case closed inside this window too is still backlog
    plan.new = [k for k in plan.new if k not in waiting]
    plan.considered = [k for k in plan.considered if k not in waiting]
    for key, row in sorted(prior.dropped_rows.items()):
        c = by_key.get(key)
        if (c is None or key in prior.published or key in waiting or c.funnel not in POOL_STAGES
                or not in_scope(c.repo) or (focus and not focus.admits(c))):
            continue
        back = detect_return(row, c)
        if back:
            plan.returned[key] = back
    candidates = [by_key[k] for k in plan.candidates()]
    rank = value or (lambda c: c.value)
    items = [(c.key, rank(c), 0, c.closed_at.timestamp() if c.closed_at else 0.0) for c in candidates
             if c.key not in drop]
    # as at a run's cut: a kept case joins the analysed ones, a dropped one frees its slot
    plan.analyse = sorted(set(cut(items, top_k, at_least)) | {c.key for c in candidates if c.key in keep})
    for key, row in sorted(prior.published.items()):
        repo = row.get("repo", key.rsplit("#", 1)[0])
        if not in_scope(repo):
            continue
        current = by_key.get(key)
        if focus and not focus.admits(current or Case.from_export(row)):
            continue
        change = detect_change(row, current, (issue_states or {}).get(key), prior.published_until.get(key))
        if change:
            if prior.published_in.get(key):
                change["edition"] = prior.published_in[key][-1]
            plan.updates[key] = change
    return plan


def _comment_sources(row: dict[str, Any]) -> set[str]:
    return {str(e.get("source") or "") for e in row.get("evidence") or [] if isinstance(e, dict)
            and "/comments/" in str(e.get("source") or "")}


def detect_return(dropped: dict[str, Any], current: Case) -> dict[str, Any] | None:
    """Why a case an edition dropped by analysis is a candidate again: {"items": [...]} or None.

    Items: closed_again (reopened, then closed later than when it was dropped), fix_merged (a PR
    of its fix set merged that was not merged then), new_answer (a comment the case's evidence
    rests on that was not there then)."""
    items: list[dict[str, Any]] = []
    was = _ts(dropped.get("closed_at") or "")
    if current.closed_at is not None and was and current.closed_at.timestamp() - was > 1:
        items.append({"kind": "closed_again", "closed_at": current.closed_at.isoformat()})
    before = _merged_refs(dropped.get("fix") or [])
    for f in sorted(current.fix, key=lambda f: (f.repo, f.number)):
        if f.state == "merged" and f.merged_at is not None and (f.repo, f.number) not in before:
            items.append({"kind": "fix_merged", "pr": f"{f.repo}!{f.number}", "branch": f.base_ref or "",
                          "merged_at": f.merged_at.isoformat()})
    new_sources = sorted(_comment_sources(current.to_export()) - _comment_sources(dropped))
    if new_sources:
        items.append({"kind": "new_answer", "sources": new_sources})
    return {"items": items} if items else None


def _merged_refs(fixes: Iterable[dict[str, Any]]) -> set[tuple[str, int]]:
    return {(f["repo"], int(f["number"])) for f in fixes if f.get("state") == "merged" and f.get("merged_at")}


def detect_change(published: dict[str, Any], current: Case | None,
                  state: tuple[str, datetime | None] | None = None,
                  published_until: datetime | None = None) -> dict[str, Any] | None:
    """What happened to a published case since: {"items": [...]} or None when nothing did.

    Items: fix_merged / backport_merged (a PR of the fix set merged that was not merged when the
    case was published; `landed` when the case was published as fix_not_landed), reopened (the
    issue is open now), closed_again (it was reopened and closed later than published)."""
    items: list[dict[str, Any]] = []
    before = _merged_refs(published.get("fix") or [])
    if current is not None:
        for f in sorted(current.fix, key=lambda f: (f.merged_at.isoformat() if f.merged_at else "", f.repo, f.number)):
            if f.state == "merged" and f.merged_at is not None and (f.repo, f.number) not in before \
                    and (published_until is None or f.merged_at > published_until):
                items.append({"kind": "backport_merged" if f.role == "backport" else "fix_merged",
                              "pr": f"{f.repo}!{f.number}", "branch": f.base_ref or "",
                              "merged_at": f.merged_at.isoformat(),
                              "landed": "fix_not_landed" in (published.get("traps") or [])})
    now_state, now_closed = state if state else (None, None)
    if now_state is None and current is not None:
        now_state, now_closed = ("closed" if current.closed_at else "open"), current.closed_at
    was_closed = published.get("closed_at") or ""
    if now_state == "open":
        items.append({"kind": "reopened"})
    elif now_closed is not None and was_closed and now_closed.timestamp() - _ts(was_closed) > 1:
        items.append({"kind": "closed_again", "closed_at": now_closed.isoformat()})
    return {"items": items} if items else None


def _ts(iso: str) -> float:
    from fixlore.core.timeutil import parse_time

    when = parse_time(iso)
    return when.timestamp() if when else 0.0


def change_text(change: dict[str, Any], lang: str) -> str:
    """An update row's "what changed", one sentence per item."""
    zh = lang == "zh"
    out = []
    for it in change.get("items", []):
        day = (it.get("merged_at") or it.get("closed_at") or "")[:10]
        pr = it.get("pr", "").rsplit("/", 1)[-1]
        if it["kind"] == "backport_merged":
            out.append(f"backport {pr} 已合入 {it['branch'] or '?'}（{day}）" if zh
                       else f"backport {pr} merged into {it['branch'] or '?'} ({day})")
        elif it["kind"] == "fix_merged":
            if it.get("landed"):
                out.append(f"上期未落地的修复已落地：{pr} {day} 合入" if zh else f"the fix that had not landed has landed: {pr} merged {day}")
            else:
                out.append(f"修复 {pr} {day} 合入" if zh else f"fix {pr} merged {day}")
        elif it["kind"] == "reopened":
            out.append("issue 已重新打开" if zh else "the issue was reopened")
        elif it["kind"] == "closed_again":
            out.append(f"issue 曾重开，{day} 再次关闭" if zh else f"the issue was reopened and closed again on {day}")
        elif it["kind"] == "new_answer":
            out.append("有了新的回答" if zh else "a new answer was posted")
    text = ("；" if zh else "; ").join(out)
    if change.get("edition"):
        n = int(change["edition"])
        text = (f"（第 {n} 期）" if zh else f"(No. {n}) ") + text
    return text


def next_edition_line(backlog: list[dict[str, Any]], lang: str, repo_name: Callable[[str], str] = lambda r: r.split("/")[-1],
                      top_repos: int = 3, top_titles: int = 3) -> str:
    """The footer's "next edition" line, from what waits in the backlog ({repo, number, value, title})."""
    zh = lang == "zh"
    if not backlog:
        return "系列下一篇：余量已清空，下一篇只收新关单。" if zh else "Next edition: the backlog is empty; new closes only."
    per_repo = Counter(repo_name(b["repo"]) for b in backlog)
    repos = sorted(per_repo.items(), key=lambda kv: (-kv[1], kv[0]))[:top_repos]
    best = sorted(backlog, key=lambda b: (-float(b.get("value") or 0), b["repo"], int(b["number"])))[:top_titles]
    titles = [str(b.get("title") or f"{repo_name(b['repo'])}#{b['number']}") for b in best]
    if zh:
        return (f"系列下一篇：余量 {len(backlog)} 条续采——" + "、".join(f"{r} {n} 条" for r, n in repos)
                + "；价值靠前：" + "、".join(titles) + "。")
    return (f"Next edition: {len(backlog)} cases wait in the backlog — " + ", ".join(f"{r} {n}" for r, n in repos)
            + "; highest value: " + "; ".join(titles) + ".")
