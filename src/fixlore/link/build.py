"""build_cases: funnel + link for every issue of the run, as Case objects.

Passes: (1) cheap funnel; (2) the fix verdict of every closed issue; (3) corpus-wide facts
(close storms over every close, PRs that fix several issues); (4) per issue timing, traps,
evidence; (5) value and the top-K cut of the pool.

Per issue, `_link_one` calls `conclude` (`link/conclude.py`: evidence, timing, traps), the
answer rules (`rules/answers.py`: best answer, canned replies) and `value_inputs`
(`link/value.py`); the corpus-wide passes stay here.
"""

from __future__ import annotations

import gc
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from functools import partial
from datetime import datetime
from typing import Any

from fixlore.core.enums import EvidenceKind, FunnelStage, Timing, Trap
from fixlore.core.model import Case, Corpus, Issue, pull_label
from fixlore.link.closes import Close, close_storms
from fixlore.link.conclude import TRAP_ORDER, answer_finder, candidate_row, conclude
from fixlore.link.config import LinkConfig
from fixlore.link.forked import ChunkPool, can_fork, chunked
from fixlore.link.index import CorpusIndex, Key, issue_map
from fixlore.link.value import Members, value_inputs
from fixlore.link.verdict import FixVerdict, decide
from fixlore.rules.answers import canned_replies
from fixlore.rules.bursts import awaits_reporter
from fixlore.rules.funnel.declined import closing_decline
from fixlore.rules.funnel.stale_reason import settled, stale_default_close
from fixlore.rules.funnel import CHEAP_STAGES, POOL, FunnelConfig, cheap_funnel, own_change_ticket
from fixlore.link.ranking import rank_pool
from fixlore.rules.funnel.rank import value_features, value_score
from fixlore.rules.unread import ISSUE, PULL, REPO, case_gaps, fix_unknown

__all__ = ["FunnelCounts", "analysis_candidates", "build_cases"]


@dataclass(slots=True)
class FunnelCounts:
    considered: int = 0          # issues updated in the window (the run's input)
    window: int = 0              # not closed inside the window
    closed_in_window: int = 0
    unresolved: int = 0
    internal: int = 0
    cve: int = 0
    empty_title: int = 0
    after_filters: int = 0       # resolved, user-side, not CVE, titled
    noise: int = 0
    pool: int = 0
    top_k: int = 0               # the configured cut
    value_min: float | None = None   # the cut by value instead (exported only when it is the cut)
    analysis_candidates: int = 0 # pool issues sent to deep analysis
    rank: int = 0                # the backlog for the next digest

    def as_dict(self) -> dict[str, int | float]:
        data = asdict(self)
        if self.value_min is None:
            del data["value_min"]
        return data


def _config(config: Any) -> LinkConfig:
    if config is None:
        return LinkConfig()
    if isinstance(config, LinkConfig):
        return config
    if isinstance(config, FunnelConfig):
        return LinkConfig(funnel=config)
    if isinstance(config, dict):
        return LinkConfig(funnel=FunnelConfig.from_mapping(config))
    raise TypeError(f"unsupported config: {type(config).__name__}")


def analysis_candidates(cases: list[Case]) -> list[Case]:
    """The top-K pool cases awaiting deep analysis (funnel "selected", provisional=True).

    The analysis stage sets funnel to "selected" or "analysis" (+ drop_reason) and clears
    `provisional`; everything it needs is on the case (fix, pending_fix, candidates,
    evidence, timing, traps with notes, value)."""
    return [c for c in cases if c.provisional]


def build_cases(corpus: Corpus, since: datetime, config: LinkConfig | FunnelConfig | dict | None = None,
                until: datetime | None = None, times: dict[str, tuple[float, float, float]] | None = None,
                funnel: dict[str, str] | None = None) -> tuple[list[Case], FunnelCounts]:
    """`funnel`: the run's cheap funnel verdict (Issue.key -> stage, as the harvester worked it
    out over the issues updated in the window), else worked out here; an issue it does not name
    was not updated in the window ("window").

    `times`, when given, receives each phase's (wall seconds, this process's CPU seconds,
    CPU seconds of the forked workers that ended in it, user + system)."""
    # The corpus is millions of long-lived objects; the cyclic collector would walk them all
    # again and again while this pass allocates (and frees, by refcount) its working objects.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _build_cases(corpus, since, config, until, _Clock(times), funnel)
    finally:
        if collecting:
            gc.enable()


def _build_cases(corpus: Corpus, since: datetime, config: Any, until: datetime | None,
                 clock: "_Clock", funnel: dict[str, str] | None) -> tuple[list[Case], FunnelCounts]:
    cfg = _config(config)
    workers = max(1, cfg.workers) if can_fork() else 1
    if workers > 1:
        # The funnel and the canned replies read only the issues and their comments: the first
        # forked scan child works them out before it joins the PR text scan (two processes
        # on two cores; a third one would only compete for them).
        idx = CorpusIndex(corpus, workers, alongside=partial(_funnel_and_canned, corpus, since, cfg, until, funnel))
        stages, texts = idx.alongside_result
        clock("index, funnel + canned replies (forked)")
    else:
        idx = CorpusIndex(corpus)
        clock("index")
        stages, texts = _funnel_and_canned(corpus, since, cfg, until, funnel)
        clock("funnel + canned replies")
    canned = set(texts)
    shared = _Shared(idx, cfg, stages, canned, since)

    keys = list(idx.issues)
    results = _run_parallel(shared, keys, workers) if workers > 1 else _link_many(shared, keys)
    clock("link")

    cases: list[Case] = []
    closes: list[Close] = []
    strong: list[bool] = []
    for case, close, fix_strong in results:
        if close is not None:
            closes.append(close)
        if case is not None:
            cases.append(case)
            strong.append(fix_strong)
    case_keys = [c.key for c in cases]
    # A pool case's stage can change while linking (own-change tickets turn internal).
    case_stages = [_stage_of(c) for c in cases]
    clock("collect results")
    storms = close_storms(closes, cfg)
    for case, key, stage, fix_strong in zip(cases, case_keys, case_stages, strong):
        note = storms.get(key)
        # The value reads the evidence kinds only: unless the storm took timing evidence away,
        # the value worked out while linking stands.
        if note and _apply_storm(case, note) and stage == POOL:
            issue = idx.issues[(case.repo, case.number)]
            _set_value(case, value_inputs(issue, case, fix_strong, idx, answer_finder(issue, idx, cfg, canned),
                                          shared.members))
    clock("close storms")

    pool = [(c, k) for c, k, stage in zip(cases, case_keys, case_stages) if stage == POOL]
    top_set = rank_pool(pool, idx.issue_comments, cfg)
    for c, k in pool:
        if k in top_set:
            c.funnel, c.provisional = FunnelStage.SELECTED, True
        else:
            c.funnel = FunnelStage.RANK
    clock("rank")
    for c in cases:
        if not cfg.conclude_all and not c.provisional:
            _strip_conclusions(c)
        elif not c.provisional and c.evidence and any(e.kind == EvidenceKind.ANSWER for e in c.evidence):
            # An answer without a code change is evidence a digest case rests on; outside the
            # analysis candidates it is noted in the trail only.
            c.evidence = [e for e in c.evidence if e.kind != EvidenceKind.ANSWER]
    _mark_shared_fixes(cases, idx.platform)
    clock("answers off the trail, shared fixes")

    counts = FunnelCounts(considered=len(cases), top_k=cfg.funnel.rank_top_k, value_min=cfg.funnel.value_min)
    for stage, n in Counter(case_stages).items():
        if stage in CHEAP_STAGES:
            setattr(counts, stage, getattr(counts, stage) + n)
    counts.closed_in_window = counts.considered - counts.window
    counts.after_filters = counts.closed_in_window - counts.unresolved - counts.internal - counts.cve - counts.empty_title
    counts.pool = len(pool)
    counts.analysis_candidates = len(top_set)
    counts.rank = counts.pool - counts.analysis_candidates
    cases.sort(key=lambda c: (c.repo, c.number))
    clock("counts, sort")
    return cases, counts


def _children_cpu() -> float:
    try:
        import resource
    except ImportError:                                 # not on every platform
        return 0.0
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class _Clock:
    def __init__(self, times: dict[str, tuple[float, float, float]] | None):
        self.times = times
        self.wall, self.cpu, self.kids = time.perf_counter(), time.process_time(), _children_cpu()

    def __call__(self, phase: str) -> None:
        if self.times is None:
            return
        wall, cpu, kids = time.perf_counter(), time.process_time(), _children_cpu()
        self.times[phase] = (wall - self.wall, cpu - self.cpu, kids - self.kids)
        self.wall, self.cpu, self.kids = wall, cpu, kids


@dataclass(slots=True)
class _Shared:
    idx: CorpusIndex
    cfg: LinkConfig
    stages: dict[str, str]
    canned: set[str]
    since: datetime
    members: Members | None = None

    def __post_init__(self) -> None:
        if self.members is None:
            self.members = Members(self.idx)


def _link_one(sh: _Shared, key: Key) -> tuple[Case | None, Close | None, bool]:
    """One issue: its verdict and conclusions (without the corpus-wide close-storm pass)."""
    idx, cfg = sh.idx, sh.cfg
    issue = idx.issues[key]
    stage = sh.stages.get(issue.key, FunnelStage.WINDOW)
    considered = _considered(issue, sh.since)
    closed = issue.state == "closed" and issue.closed_at is not None
    v: FixVerdict | None = None
    declined = ""
    own_change = False
    close: Close | None = None
    actor = ""
    if stage == POOL and stale_default_close(issue, cfg.funnel.stale_labels) and not settled(
            issue.author, idx.issue_comments.get(key, []), cfg.answer_min_chars, sh.canned):
        # The stale process's "not planned" stands when the thread settled nothing (rules.funnel.stale_reason).
        stage = FunnelStage.UNRESOLVED
    if closed:
        actor = idx.close_actor(issue)
        if stage != FunnelStage.WINDOW or considered:
            v = decide(issue, idx, cfg, stage != FunnelStage.UNRESOLVED)
            if stage == POOL and v.fix and own_change_ticket(
                    issue, [p for p, _ in v.fix], sh.idx.template_lines(issue.repo), cfg.funnel) is not None:
                # Found only now: the rule needs the fix's author and opening time (rules.funnel.bookkeeping).
                stage, own_change = FunnelStage.INTERNAL, True
            if stage == POOL and not v.fix and not v.pending and not v.after_close:
                # The closer's own words decline the work, sweep old tickets or name a duplicate
                # (rules.funnel.declined); the timing note shows them.
                declined = closing_decline(issue.author, actor, issue.closed_at, idx.issue_comments.get(key, []))
                stage = FunnelStage.UNRESOLVED if declined else stage
            explained = v.lag_s is not None and -cfg.clock_slack_s <= v.lag_s <= cfg.auto_close_s
        else:
            # Older closes only tell a close storm whether a linked fix merged just before them.
            explained = _explained_close(issue, idx, cfg)
        awaited = awaits_reporter(issue.author, idx.issue_comments.get(key, []), issue.closed_at,
                                  cfg.stale_warning_days * 86400)
        close = Close(issue.key, actor, issue.closed_at, explained, issue.author, awaited)
    if not considered:
        return None, close, False
    case = Case(repo=issue.repo, number=issue.number, title=issue.title,
                url=issue.web_url,
                closed_at=issue.closed_at, funnel=FunnelStage(stage) if stage != POOL else FunnelStage.RANK)
    fix_strong = bool(v and v.fix_strong)
    best_answer = answer_finder(issue, idx, cfg, sh.canned)
    if v is not None:
        case.closed_by = actor
        case.candidates = [candidate_row(c) for c in v.candidates.values()]
        if stage != FunnelStage.WINDOW:
            conclude(case, issue, v, idx, cfg, best_answer, resolved=stage != FunnelStage.UNRESOLVED)
            if declined:
                case.timing_note = f"{case.timing_note}; closed unresolved in the closer's words: '{declined}'"
            if own_change or (stage == FunnelStage.INTERNAL and not issue.issue_type and (case.fix or case.pending_fix)):
                # The ticket is the PR's own record, or the project's plan that only its text marks
                # (an RFC, a task list, a process tag or label on a tracker without issue types),
                # not a problem the PR fixes: no fix claim (the PR stays in the candidates, the
                # trail still shows it). A typed task (GitCode `任务`) is a work item whose fix the
                # seed digest links, so its claims stay.
                _strip_conclusions(case)
    _name_gaps(case, idx, v)
    if stage == POOL:
        _set_value(case, value_inputs(issue, case, fix_strong, idx, best_answer, sh.members))
    return case, close, fix_strong


def _set_value(case: Case, inputs) -> None:
    case.value_features = {k: round(x, 4) for k, x in value_features(inputs).items()}
    case.value = value_score(case.value_features)


def _name_gaps(case: Case, idx: CorpusIndex, v: FixVerdict | None) -> None:
    """What of the issue and of the PRs it was linked against could not be read, and, when that
    leaves the fix question open, a timing note that says so instead of "no merged fix" (rules.unread)."""
    own = idx.unread.get((ISSUE, case.repo, case.number), []) + idx.unread.get((REPO, case.repo, 0), [])
    pulls = {key: parts for key in (v.candidates if v is not None else {})
             if (parts := idx.unread.get((PULL, *key)))}
    if not own and not pulls:
        return
    case.unread = case_gaps(own, pulls, case.repo, case.number)
    unknown = fix_unknown(case.unread, any(f.merged for f in case.fix))
    if unknown and case.timing == Timing.NO_FIX:
        case.timing_note = unknown


def _stage_of(case: Case) -> str:
    return POOL if case.funnel == FunnelStage.RANK else case.funnel


def _link_many(sh: _Shared, keys: list[Key]) -> list[tuple[Case | None, Close | None, bool]]:
    return [_link_one(sh, key) for key in keys]


def _funnel_and_canned(corpus: Corpus, since: datetime, cfg: LinkConfig, until: datetime | None,
                       funnel: dict[str, str] | None) -> tuple[dict[str, str], list[str]]:
    stages = funnel if funnel is not None else cheap_funnel(list(issue_map(corpus).values()), since, cfg.funnel, until)
    return stages, list(canned_replies(corpus))


def _run_parallel(sh: _Shared, keys: list[Key], workers: int) -> list[tuple[Case | None, Close | None, bool]]:
    """This process and `workers - 1` forked children (which inherit the index: nothing is
    pickled but their results) link chunks of issues."""
    # Small chunks (each a few tens of milliseconds): the process that finishes first waits
    # at most one of them for the other.
    parts = ChunkPool(partial(_link_many, sh), chunked(keys, workers, per_worker=64), workers).join()
    return [r for part in parts for r in part]


def _apply_storm(case: Case, note: str) -> bool:
    """A close storm: the close time says nothing about a fix, so no timing evidence rests on it.
    True when that took evidence away (the value then needs working out again)."""
    kept = [e for e in case.evidence if e.kind not in (EvidenceKind.AUTO_CLOSE, EvidenceKind.MINUTES)]
    dropped = len(kept) != len(case.evidence)
    case.evidence = kept
    case.trap_notes[Trap.CLOSE_STORM.value] = note
    if Trap.CLOSE_STORM not in case.traps:
        case.traps.append(Trap.CLOSE_STORM)
        case.traps.sort(key=TRAP_ORDER.get)
    return dropped


def _explained_close(issue: Issue, idx: CorpusIndex, cfg: LinkConfig) -> bool:
    """A PR linked to the issue, or naming it, merged within the auto-close window before the close."""
    key = (issue.repo, issue.number)
    pulls = set(idx.links.get(key, {})) | {m.pull for m in idx.mentions.get(key, []) if not m.ref.background} \
        | set(idx.branch_refs.get(key, []))
    close = issue.closed_at.timestamp()
    for pk in pulls:
        p = idx.pulls.get(pk)
        if p is not None and p.merged and -cfg.clock_slack_s <= close - p.merged_at.timestamp() <= cfg.auto_close_s:
            return True
    return False


def _considered(issue: Issue, since: datetime) -> bool:
    """The run considers every issue updated (or closed) inside the window; older ones only
    inform corpus-wide facts such as close storms."""
    updated, closed = issue.updated_at, issue.closed_at
    return (updated is not None and updated >= since) or (closed is not None and closed >= since)


def _strip_conclusions(case: Case) -> None:
    """Cases that do not go to deep analysis carry no fix claim (the candidates stay for the
    record); a close storm and a stale close are still named, since the close alone shows them."""
    case.fix, case.pending_fix, case.evidence = [], [], []
    case.timing, case.lag_s, case.timing_note = Timing.NO_FIX, None, ""
    case.traps = [t for t in case.traps if t in (Trap.CLOSE_STORM, Trap.STALE_CLOSE)]
    case.trap_notes = {str(t): case.trap_notes[t] for t in case.traps}


def _mark_shared_fixes(cases: list[Case], platform: str) -> None:
    fixed_by: dict[Key, list[Case]] = defaultdict(list)
    for c in cases:
        for f in c.fix:
            if f.role == "fix":
                fixed_by[(f.repo, f.number)].append(c)
    for (repo, number), users in fixed_by.items():
        if len(users) < 2:
            continue
        for c in users:
            others = ", ".join(o.key if o.repo != c.repo else f"#{o.number}" for o in users if o is not c)
            label = pull_label((repo, number), c.repo, platform)
            note = f"{label} also fixes {others}"
            c.trap_notes[Trap.ONE_PR_MANY_ISSUES.value] = "; ".join(
                x for x in (c.trap_notes.get(Trap.ONE_PR_MANY_ISSUES), note) if x)
            if Trap.ONE_PR_MANY_ISSUES not in c.traps:
                c.traps.append(Trap.ONE_PR_MANY_ISSUES)
                c.traps.sort(key=TRAP_ORDER.get)
