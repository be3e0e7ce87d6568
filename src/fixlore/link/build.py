"""build_cases: funnel + link for every issue of the run, as Case objects.

Passes: (1) cheap funnel; (2) the fix verdict of every closed issue; (3) corpus-wide facts
(close storms over every close, PRs that fix several issues); (4) per issue timing, traps,
evidence; (5) value and the top-K cut of the pool.
"""

from __future__ import annotations

import gc
import re
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from functools import partial
from datetime import datetime
from typing import Any, Callable, Collection, Iterable

from fixlore.funnel import FunnelConfig, cheap_funnel, own_change_ticket, template_lines
from fixlore.funnel.rank import CAUSE, ValueInputs, is_acknowledgement, top_keys, value_score
from fixlore.link.candidates import Candidate
from fixlore.link.closes import STALE_NOTICE, Close, close_storms, is_bot, stale_note
from fixlore.link.config import LinkConfig
from fixlore.link.forked import ChunkPool, can_fork, chunked
from fixlore.link.index import CorpusIndex, Key, issue_map
from fixlore.link.verdict import FixVerdict, decide
from fixlore.model import MERGED_CLOSED, TRAPS, Case, Comment, Corpus, Evidence, FixRef, Issue, Pull

_TRAP_ORDER = {t: i for i, t in enumerate(TRAPS)}
_EVIDENCE_OF = {"linked": "linked", "keyword": "keyword", "mention": "keyword", "commit_close": "keyword",
                "cross_ref": "keyword", "branch_name": "branch_name", "comment": "comment", "backport": "backport"}


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
    analysis_candidates: int = 0 # pool issues sent to deep analysis
    rank: int = 0                # the backlog for the next digest

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


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
                ) -> tuple[list[Case], FunnelCounts]:
    """`times`, when given, receives each phase's (wall seconds, this process's CPU seconds,
    CPU seconds of the forked workers that ended in it, user + system)."""
    # The corpus is millions of long-lived objects; the cyclic collector would walk them all
    # again and again while this pass allocates (and frees, by refcount) its working objects.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _build_cases(corpus, since, config, until, _Clock(times))
    finally:
        if collecting:
            gc.enable()


def _build_cases(corpus: Corpus, since: datetime, config: Any, until: datetime | None,
                 clock: "_Clock") -> tuple[list[Case], FunnelCounts]:
    cfg = _config(config)
    workers = max(1, cfg.workers) if can_fork() else 1
    if workers > 1:
        # The funnel and the canned replies read only the issues and their comments: the first
        # forked scan child works them out before it joins the PR text scan (two processes
        # on two cores; a third one would only compete for them).
        idx = CorpusIndex(corpus, workers, alongside=partial(_funnel_and_canned, corpus, since, cfg, until))
        stages, texts = idx.alongside_result
        clock("index, funnel + canned replies (forked)")
    else:
        idx = CorpusIndex(corpus)
        clock("index")
        stages, texts = _funnel_and_canned(corpus, since, cfg, until)
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
        if note and _apply_storm(case, note) and stage == "pool":
            issue = idx.issues[(case.repo, case.number)]
            case.value = value_score(_value_inputs(issue, case, fix_strong, idx,
                                                   _answer_finder(issue, idx, cfg, canned)))
    clock("close storms")

    pool = [(c, k) for c, k, stage in zip(cases, case_keys, case_stages) if stage == "pool"]
    comments = idx.issue_comments
    items = [(k, c.value, len(comments.get((c.repo, c.number), ())), c.closed_at.timestamp() if c.closed_at else 0.0)
             for c, k in pool]
    top_set = set(top_keys(items, cfg.funnel.rank_top_k))
    for c, k in pool:
        if k in top_set:
            c.funnel, c.provisional = "selected", True
        else:
            c.funnel = "rank"
    clock("rank")
    for c in cases:
        if not cfg.conclude_all and not c.provisional:
            _strip_conclusions(c)
        elif not c.provisional and c.evidence and any(e.kind == "answer" for e in c.evidence):
            # An answer without a code change is evidence a digest case rests on; outside the
            # analysis candidates it is noted in the trail only.
            c.evidence = [e for e in c.evidence if e.kind != "answer"]
    _mark_shared_fixes(cases)
    clock("answers off the trail, shared fixes")

    counts = FunnelCounts(considered=len(cases), top_k=cfg.funnel.rank_top_k)
    for stage, n in Counter(case_stages).items():
        if stage in ("window", "unresolved", "internal", "cve", "empty_title", "noise"):
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
    templates: dict[str, frozenset[str]] = field(default_factory=dict)   # repo -> its template lines


def _template_lines(sh: _Shared, repo: str) -> frozenset[str]:
    """Worked out on first use per repository (own-change tickets are rare; most runs never ask)."""
    if repo not in sh.templates:
        sh.templates[repo] = template_lines(i.body for (r, _), i in sh.idx.issues.items() if r == repo)
    return sh.templates[repo]


def _link_one(sh: _Shared, key: Key) -> tuple[Case | None, Close | None, bool]:
    """One issue: its verdict and conclusions (without the corpus-wide close-storm pass)."""
    idx, cfg = sh.idx, sh.cfg
    issue = idx.issues[key]
    stage = sh.stages[issue.key]
    considered = _considered(issue, sh.since)
    closed = issue.state == "closed" and issue.closed_at is not None
    v: FixVerdict | None = None
    own_change = False
    close: Close | None = None
    actor = ""
    if closed:
        actor = idx.close_actor(issue)
        if stage != "window" or considered:
            v = decide(issue, idx, cfg, stage != "unresolved")
            if stage == "pool" and v.fix and own_change_ticket(
                    issue, [p for p, _ in v.fix], _template_lines(sh, issue.repo)) is not None:
                # Found only now: the rule needs the fix's author and opening time (funnel.bookkeeping).
                stage, own_change = "internal", True
            explained = v.lag_s is not None and -cfg.clock_slack_s <= v.lag_s <= cfg.auto_close_s
        else:
            # Older closes only tell a close storm whether a linked fix merged just before them.
            explained = _explained_close(issue, idx, cfg)
        close = Close(issue.key, actor, issue.closed_at, explained)
    if not considered:
        return None, close, False
    case = Case(repo=issue.repo, number=issue.number, title=issue.title,
                url=issue.html_url or f"https://gitcode.com/{issue.repo}/issues/{issue.number}",
                closed_at=issue.closed_at, funnel=stage if stage != "pool" else "rank")
    fix_strong = bool(v and v.fix_strong)
    best_answer = _answer_finder(issue, idx, cfg, sh.canned)
    if v is not None:
        case.closed_by = actor
        case.candidates = [_candidate_row(c) for c in v.candidates.values()]
        if stage != "window":
            _conclude(case, issue, v, idx, cfg, best_answer, resolved=stage != "unresolved")
            if own_change:
                # The ticket is the PR's own record, not a problem the PR fixes: no fix claim
                # (the PR stays in the candidates, the trail still shows it).
                _strip_conclusions(case)
    if stage == "pool":
        case.value = value_score(_value_inputs(issue, case, fix_strong, idx, best_answer))
    return case, close, fix_strong


def _stage_of(case: Case) -> str:
    return "pool" if case.funnel == "rank" else case.funnel


def _link_many(sh: _Shared, keys: list[Key]) -> list[tuple[Case | None, Close | None, bool]]:
    return [_link_one(sh, key) for key in keys]


def _funnel_and_canned(corpus: Corpus, since: datetime, cfg: LinkConfig,
                       until: datetime | None) -> tuple[dict[str, str], list[str]]:
    stages = cheap_funnel(list(issue_map(corpus).values()), since, cfg.funnel, until)
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
    kept = [e for e in case.evidence if e.kind not in ("auto_close", "minutes")]
    dropped = len(kept) != len(case.evidence)
    case.evidence = kept
    case.trap_notes["close_storm"] = note
    if "close_storm" not in case.traps:
        case.traps.append("close_storm")
        case.traps.sort(key=_TRAP_ORDER.get)
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
    record); a close storm is still named, since close times alone show it."""
    case.fix, case.pending_fix, case.evidence = [], [], []
    case.timing, case.lag_s, case.timing_note = "no_fix", None, ""
    case.traps = [t for t in case.traps if t == "close_storm"]
    case.trap_notes = {t: case.trap_notes[t] for t in case.traps}


def _mark_shared_fixes(cases: list[Case]) -> None:
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
            label = f"!{number}" if repo == c.repo else f"{repo}!{number}"
            note = f"{label} also fixes {others}"
            c.trap_notes["one_pr_many_issues"] = "; ".join(x for x in (c.trap_notes.get("one_pr_many_issues"), note) if x)
            if "one_pr_many_issues" not in c.traps:
                c.traps.append("one_pr_many_issues")
                c.traps.sort(key=_TRAP_ORDER.get)


def _merge_note(pull: Pull) -> str:
    """Say so when a PR counts as merged through the closed-with-merged_at variant."""
    if pull.merge_variant == MERGED_CLOSED:
        return f" (merged {_t(pull.merged_at)}; the PR reads closed, merged_at is set)"
    return ""


def _fixref(pull: Pull, role: str) -> FixRef:
    return FixRef(repo=pull.repo, number=pull.number, role=role, state=pull.state, merged_at=pull.merged_at,
                  url=pull.html_url or f"https://gitcode.com/{pull.repo}/merge_requests/{pull.number}",
                  base_ref=pull.base_ref)


def _candidate_row(c: Candidate) -> dict[str, Any]:
    p = c.pull
    return {"repo": c.key[0], "number": c.key[1], "verdict": c.verdict,
            "state": p.state if p else "unknown", "merged_at": p.merged_at.isoformat() if p and p.merged_at else "",
            "base_ref": p.base_ref if p else "", "title": p.title if p else "", "unrelated": c.unrelated,
            "signals": [{"kind": s.kind, "detail": s.detail, "source": s.source, "claim": s.claim} for s in c.signals]}


def _t(at: datetime | None) -> str:
    return at.isoformat() if at else "?"


def _conclude(case: Case, issue: Issue, v: FixVerdict, idx: CorpusIndex, cfg: LinkConfig,
              best_answer: Callable[[], tuple[int, Comment] | None], resolved: bool = True) -> None:
    """Fix, evidence, timing and traps of one issue; a close storm is corpus-wide and applied
    afterwards (`_apply_storm`). `resolved`: closed as resolved (not stage "unresolved"); only
    such a close claims a fix, so only there is an unlanded fix PR the `fix_not_landed` trap
    (a not-planned or duplicate close says nothing landed, and the PR stays in `pending_fix`)."""
    n = issue.number
    comments = idx.issue_comments.get((issue.repo, n), [])
    case.fix = [_fixref(p, role) for p, role in v.fix]
    case.pending_fix = [_fixref(p, "fix") for p in v.pending + v.after_close]
    has_fix = bool(case.fix)

    evidence: list[Evidence] = []
    for pull, role in v.fix:
        c = v.candidates.get((pull.repo, pull.number))
        for s in (c.signals if c else []):
            kind = _EVIDENCE_OF.get(s.kind)
            if kind is None or (kind == "linked" and c.unrelated):
                continue
            evidence.append(Evidence(kind, f"{idx.pr_label(c.key, issue.repo)}: {s.detail}{_merge_note(pull)}",
                                     s.source))
        if role == "backport" and (pull.repo, pull.number) in v.backport_notes \
                and not any(e.kind == "backport" and e.source == f"pulls/{pull.number}" for e in evidence):
            evidence.append(Evidence("backport", f"{idx.pr_label((pull.repo, pull.number), issue.repo)}: "
                                                 f"{v.backport_notes[(pull.repo, pull.number)]}", f"pulls/{pull.number}"))

    stale = stale_note(issue, case.closed_by, comments, v.lag_s, cfg)
    traps: dict[str, str] = {}
    if stale:
        traps["stale_close"] = stale

    lag = v.lag_s
    if lag is not None:
        case.lag_s = lag
        last = v.last_fix
        base = (f"fix {idx.pr_label((last.repo, last.number), issue.repo)} merged {_t(last.merged_at)}, "
                f"issue closed {_t(issue.closed_at)}{' by ' + case.closed_by if case.closed_by else ''}: lag {lag}s")
        if stale:
            case.timing = "stale"
            case.timing_note = f"{base}; stale close, the fix time is the merge time"
        elif abs(lag) <= cfg.same_second_s:
            case.timing = "same_second"
        elif lag <= cfg.auto_close_s:
            case.timing = "auto_close"
        elif lag <= cfg.minutes_s:
            case.timing = "minutes"
        else:
            case.timing = "later"
        if not case.timing_note:
            case.timing_note = base
        if case.timing in ("same_second", "auto_close", "minutes"):
            kind = "minutes" if case.timing == "minutes" else "auto_close"
            evidence.append(Evidence(kind, f"merged {_t(last.merged_at)}, closed {_t(issue.closed_at)} ({lag}s)",
                                     f"pulls/{last.number}, issues/{n}"))
    elif v.after_close and not has_fix:
        first = min(v.after_close, key=lambda p: p.merged_at)
        gap = int((first.merged_at - issue.closed_at).total_seconds())
        case.timing = "before_merge"
        via = v.after_close_via.get((first.repo, first.number), "")
        case.timing_note = (f"issue closed {_t(issue.closed_at)}, fix candidate "
                            f"{idx.pr_label((first.repo, first.number), issue.repo)}{via} merged {_t(first.merged_at)} "
                            f"({gap}s later): not back-filled")
    else:
        case.timing = "no_fix"
        case.timing_note = "no merged fix PR before the close" + (
            f"; candidates: {', '.join(idx.pr_label(c.key, issue.repo) + ' ' + c.verdict for c in v.candidates.values())}"
            if v.candidates else "") + ("; the close itself was a stale close" if stale else "")

    if v.after_close and not has_fix:
        traps["closed_before_merge"] = case.timing_note if case.timing == "before_merge" else (
            "closed before " + ", ".join(f"{idx.pr_label((p.repo, p.number), issue.repo)} merged {_t(p.merged_at)}"
                                         for p in v.after_close))
    if v.pending and not has_fix and not v.after_close and resolved:
        traps["fix_not_landed"] = "closed, but the fix did not land: " + ", ".join(
            f"{idx.pr_label((p.repo, p.number), issue.repo)} is {p.state}{' (closed unmerged)' if p.state == 'closed' else ''}"
            for p in v.pending)
    unrelated = [c.unrelated for c in v.candidates.values() if c.unrelated and c.pull is not None and c.pull.merged]
    if unrelated:
        traps["linked_unrelated"] = "; ".join(unrelated)
    claims = []
    for c in v.candidates.values():
        if c.pull is None or c.pull.merged or c.pull.state != "closed":
            continue
        for s in c.signals:
            if s.kind == "comment" and s.claim:
                claims.append(f"{s.detail} — but {idx.pr_label(c.key, issue.repo)} was closed unmerged"
                              f" ({_t(c.pull.closed_at)}) [{s.source}]")
    if claims:
        traps["claimed_unmerged"] = "; ".join(claims)
    if not has_fix and not v.pending:
        answer = _answer(issue, best_answer())
        if answer is not None:
            evidence.append(answer)

    seen = set()
    case.evidence = []
    for e in evidence:
        if (e.kind, e.detail, e.source) not in seen:
            seen.add((e.kind, e.detail, e.source))
            case.evidence.append(e)
    case.traps = sorted(traps, key=_TRAP_ORDER.get)
    case.trap_notes = {t: traps[t] for t in case.traps}


_CLOSING_NOTE = re.compile(r"^[\s\W]*(?:已答复|已回复|已解决|已修复|问题已解决|答复完毕)?[\s\W]*"
                           r"(?:关闭|先关闭|关单|closing|close[sd]?)[\s\W]*$", re.IGNORECASE)

def _squash(text: str) -> str:
    return "".join((text or "").split())


def canned_replies(corpus: Corpus, min_issues: int = 3) -> set[str]:
    """Reply texts posted verbatim on several issues: boilerplate, not an explanation.
    (`min_issues` = 3: fitted on ascend-2026-09.)"""
    seen: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for c in corpus.comments:
        if c.parent_kind == "issue" and c.body:
            seen[_squash(c.body)].add((c.repo, c.parent_number))
    return {text for text, where in seen.items() if len(where) >= min_issues}


# A reply that only asks for more information is not an answer.
_ASKS_ONLY = re.compile(r"^\s*(?:请|麻烦)?(?:提供|补充|附上|上传|贴一下|发一下)[^。！？!?]{0,60}[。！？!?]?\s*$|"
                        r"^\s*(?:please|could you|can you)\s+(?:provide|share|attach|post|upload)\b[^.!?]{0,80}[.!?]?\s*$",
                        re.IGNORECASE)


def _answer_finder(issue: Issue, idx: CorpusIndex, cfg: LinkConfig,
                   canned: set[str]) -> Callable[[], tuple[int, Comment] | None]:
    """The issue's best answer, worked out on first call (evidence and value both ask)."""
    memo: list[tuple[int, Comment] | None] = []

    def best() -> tuple[int, Comment] | None:
        if not memo:
            memo.append(best_answer(issue.author, idx.issue_comments.get((issue.repo, issue.number), []),
                                    cfg.answer_min_chars, canned))
        return memo[0]

    return best


def best_answer(reporter: str, comments: Iterable[Comment], min_chars: int,
                canned: Collection[str] = frozenset()) -> tuple[int, Comment] | None:
    """The most substantial reply by someone other than the reporter, with its size: not a
    bot, a stale notice, a bare closing note or a canned reply. A reasoned refusal or "not a
    problem" verdict counts: why something will not be done is knowledge, and deep analysis
    decides the drop."""
    best = None
    for c in comments:
        if not c.author or c.author == reporter or is_bot(c.author):
            continue
        body = c.body or ""
        squashed = _squash(body)
        size = len(squashed)
        # Too short, or no longer than the best so far: the text checks cannot change the outcome.
        if size < min_chars or (best is not None and size <= best[0]):
            continue
        if STALE_NOTICE.search(body) or _CLOSING_NOTE.match(body) \
                or _ASKS_ONLY.match(body) or squashed in canned:
            continue
        best = (size, c)
    return best


def _answer(issue: Issue, best: tuple[int, Comment] | None) -> Evidence | None:
    if best is None:
        return None
    c = best[1]
    snippet = " ".join((c.body or "").split())[:100]
    return Evidence("answer", f"answer by {c.author}: '{snippet}'", f"issues/{issue.number}/comments/{c.id}")


def _fix_text_chars(case: Case, idx: CorpusIndex) -> int:
    """What the fix PRs say about the change: their bodies and the review comments of people
    (bots' CI reports are not an explanation), without spaces, capped at 4,000 each."""
    total = 0
    for f in list(case.fix) + list(case.pending_fix):
        key = (f.repo, f.number)
        pull = idx.pulls.get(key)
        total += min(4000, len(_squash(pull.body if pull else "")))
        for c in idx.pull_comments.get(key, []):
            if c.author and not is_bot(c.author):
                total += min(4000, len(_squash(c.body)))
    return total


def _value_inputs(issue: Issue, case: Case, fix_strong: bool, idx: CorpusIndex,
                  best_answer: Callable[[], tuple[int, Comment] | None]) -> ValueInputs:
    comments = idx.issue_comments.get((issue.repo, issue.number), [])
    human = [c for c in comments if c.author and not is_bot(c.author) and not STALE_NOTICE.search(c.body or "")]
    own = [c for c in human if c.author == issue.author]
    best = best_answer()
    kinds = {e.kind for e in case.evidence}
    explained = [len(_squash(c.body)) for c in own if CAUSE.search(c.body or "")]
    return ValueInputs(fix_text_chars=_fix_text_chars(case, idx),
        title=issue.title, body=issue.body or "", author=issue.author,
        answer_chars=best[0] if best else 0, self_explained_chars=max(explained, default=0),
        human_comments=sum(1 for c in human if not is_acknowledgement(c.body)),
        reporter_last=own[-1].body if own else "",
        fix_merged=bool(case.fix), fix_strong=fix_strong, fix_pending=bool(case.pending_fix),
        close_explained=bool(kinds & {"auto_close", "minutes"}), answered="answer" in kinds)
