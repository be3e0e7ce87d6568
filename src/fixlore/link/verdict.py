"""The fix set of one issue: which candidate PRs really fixed it, in which role.

A candidate is fix-like when it has a strong signal (closing keyword / issue URL, source
branch, a closing commit, or a platform link that the unrelated test does not rule out; that
test runs only when nothing else strong names the PR), or two independent weaker ones (bare
mention, timeline cross-reference, an issue comment naming it, a merge just before the
close), or a timing signal alone (merged within the auto-close window before the close), or
an issue comment that points at it as where the change is made ("已在 !802 修复", "see !N",
"文档随 !N 修改") without saying it did not land. A candidate the unrelated test refutes (on
positive contrary evidence only: `unrelated_reason`) is never fix-like. A fix-like PR is in the fix set only when
merged (state merged + merged_at) no later than the close (plus `clock_slack_s`); merged
later it is not back-filled as the fix (only a backport twin of a fix, or a second landing by
the author of a fix merged before the close, `rules.landings`, may merge after the close); open
or closed unmerged it did not land.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from fixlore.core.model import Issue, Pull
from fixlore.link.backport import find_origin, find_twins
from fixlore.link.candidates import MEDIUM, STRONG, Candidate, Signal, _sentence_around, gather
from fixlore.link.config import LinkConfig
from fixlore.link.index import CorpusIndex, Key
from fixlore.link.named_files import files_fix
from fixlore.link.quoted_fix import quoted_fix
from fixlore.link.text import overlap
from fixlore.link.unrelated import _LazyTokens, pull_tokens, unrelated_reason
from fixlore.rules.landings import continues_own_fix
from fixlore.rules.related import related_work
from fixlore.rules.refs import KIND_ISSUE, KIND_PULL, find_refs, fix_credits, is_follow_up
from fixlore.rules.unread import PULL, SHOWS_THE_CHANGE



@dataclass(slots=True)
class FixVerdict:
    issue: Issue
    candidates: dict[Key, Candidate]
    fix: list[tuple[Pull, str]] = field(default_factory=list)      # (pull, role), fix roles first
    backport_notes: dict[Key, str] = field(default_factory=dict)
    pending: list[Pull] = field(default_factory=list)              # fix-like, not merged
    after_close: list[Pull] = field(default_factory=list)          # fix-like, merged after the close
    after_close_via: dict[Key, str] = field(default_factory=dict)  # how an indirect after-close fix was found
    lag_s: int | None = None                                       # close minus the last fix merge before it
    last_fix: Pull | None = None
    # The change's own lag: close minus the merge of the fix (role "fix") the last landing carries,
    # when that landing is a backport of it; else `lag_s` (`change_lag`).
    fix_lag_s: int | None = None
    origin_fix: Pull | None = None

    @property
    def fix_strong(self) -> bool:
        for pull, _ in self.fix:
            c = self.candidates.get((pull.repo, pull.number))
            if c and (c.kinds() & STRONG or ("linked" in c.kinds() and not c.unrelated)):
                return True
        return False


def _change_unread(idx: CorpusIndex, key: Key, cands: dict[Key, Candidate]) -> bool:
    """The linked PR's change, or that of a PR that claims the issue (what it is compared with),
    could not be read: whether it is unrelated is not judged (rules.unread)."""
    if not idx.unread:
        return False
    keys = [key] + [k for k, c in cands.items() if k != key and c.kinds() & STRONG]
    return any(SHOWS_THE_CHANGE & set(idx.unread.get((PULL, *k), ())) for k in keys)


def decide(issue: Issue, idx: CorpusIndex, cfg: LinkConfig, resolved: bool = True) -> FixVerdict:
    """`resolved`: the issue was closed as resolved (not rejected / duplicate); only then can
    an answer that defers the change to another ticket make it "closed before the fix merged"."""
    cands = gather(issue, idx)
    close = issue.closed_at if issue.state == "closed" else None
    slack = timedelta(seconds=cfg.clock_slack_s)
    itoks = _LazyTokens(f"{issue.title}\n{issue.body}")

    if close is not None and not any(c.pull is not None for c in cands.values()):
        _timing_only(issue, idx, cfg, cands, itoks)
    if close is not None and not cands:
        # the reporter's own PR quoting the report is the more specific sign: tried first
        if (found := quoted_fix(issue, idx)) is not None:
            p, note = found
            cands[(p.repo, p.number)] = Candidate((p.repo, p.number), p, [Signal("quoted", note, f"pulls/{p.number}")])
        elif (found := files_fix(issue, idx)) is not None:
            p, note = found
            cands[(p.repo, p.number)] = Candidate((p.repo, p.number), p, [Signal("files", note, f"pulls/{p.number}/files")])

    if close is not None:
        timing_from, timing_to = close - timedelta(seconds=cfg.auto_close_s) - slack, close + slack
    for c in cands.values():
        if c.pull is None:
            c.verdict = "missing"
            continue
        kinds = c.kinds()
        if "linked" in kinds and not kinds & STRONG and not _change_unread(idx, c.key, cands):
            c.unrelated = unrelated_reason(issue, c.pull, idx, cfg, itoks, cands)
        p = c.pull
        if close is not None and p.merged and "timing" not in kinds and timing_from <= p.merged_at <= timing_to:
            lag = int((close - p.merged_at).total_seconds())
            c.add(Signal("timing", f"merged {p.merged_at.isoformat()}, issue closed {lag}s later",
                         f"pulls/{p.number}, issues/{issue.number}"))

    kinds_of = {key: c.kinds() for key, c in cands.items()}

    def strong(c: Candidate) -> bool:
        k = kinds_of[c.key]
        return bool(k & STRONG) or ("linked" in k and not c.unrelated)

    verdict = FixVerdict(issue, cands)
    fixlike: list[Candidate] = []
    for c in cands.values():
        if c.pull is None:
            continue
        k = kinds_of[c.key]
        medium = k & MEDIUM
        cited = any(s.kind == "comment" and s.cite for s in c.signals)
        if c.unrelated:          # positive contrary evidence outweighs any number of weak signals
            c.verdict = "unrelated"
        elif c.set_aside:        # a revert takes a change out, whatever names the issue
            c.verdict = "set_aside"
        elif strong(c) or len(medium) >= 2 or k == {"timing"} or k - {"timing"} in ({"files"}, {"quoted"}) or cited:
            fixlike.append(c)
        else:
            c.verdict = "weak"

    # a stopgap the thread names as one gives way to a merged PR that claims the issue itself
    claimed = [c for c in fixlike if not c.stopgap and c.pull.merged and strong(c)]
    for c in [c for c in fixlike if c.stopgap and claimed]:
        c.set_aside = (f"the thread calls it a workaround ('{c.stopgap[:80]}'); "
                       f"{idx.pr_label(claimed[0].key, issue.repo)} claims the fix")
        c.verdict = "set_aside"
        fixlike.remove(c)
    # so does a PR that names the issue only as related work ("Related to #65": rules.related), beside
    # a claim into the same branch merged by the close (one merged after it is no fix the close could
    # have followed; a release branch's claim is that branch's landing, not the change's)
    claims = [c for c in claimed if close is None or c.pull.merged_at <= close + slack]
    related = [c for c in fixlike if c.related and not strong(c)]
    credited = {n for cm in idx.issue_comments.get((issue.repo, issue.number), []) if related and claims
                for n in fix_credits(cm.body or "")}
    for c in related:
        claimants = [idx.pr_label(x.key, issue.repo) for x in claims if x is not c and x.pull.base_ref == c.pull.base_ref]
        why = related_work(c.related, kinds_of[c.key], claimants, c.key[0] == issue.repo and c.key[1] in credited)
        if why:
            c.set_aside = why
            c.verdict = "set_aside"
            fixlike.remove(c)

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

    _origins(verdict, cands, idx, cfg)

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

    # a PR into a release branch that names the issue itself ("Fixes #104") is its backport whenever
    # it merges: the platform closes issues only from the default branch, so the close bounds
    # nothing there (its title need not match the fix's: find_twins above reads titles)
    if any(role == "fix" and idx.is_default_branch(p.repo, p.base_ref) for p, role in verdict.fix):
        for p in list(verdict.after_close):
            c = cands[(p.repo, p.number)]
            if strong(c) and not idx.is_default_branch(p.repo, p.base_ref) and (p.repo, p.number) not in in_set:
                verdict.after_close.remove(p)
                verdict.fix.append((p, "backport"))
                in_set.add((p.repo, p.number))
                verdict.backport_notes[(p.repo, p.number)] = f"targets {p.base_ref} and names the issue itself"
                c.verdict = "backport"

    _second_landings(verdict, cands, kinds_of, in_set, idx)
    _follow_ups(verdict, cands)

    if resolved and close is not None and not verdict.fix and not verdict.after_close and not verdict.pending:
        _deferred_fix(issue, idx, cfg, verdict)

    if close is not None:
        merged_before = [p for p, _ in verdict.fix if p.merged_at is not None and p.merged_at <= close + slack]
        if merged_before:
            verdict.last_fix = max(merged_before, key=lambda p: p.merged_at)
            verdict.lag_s = int(round((close - verdict.last_fix.merged_at).total_seconds()))
            verdict.origin_fix = change_origin(verdict.fix, verdict.last_fix, close + slack)
            verdict.fix_lag_s = verdict.lag_s if verdict.origin_fix is None else \
                int(round((close - verdict.origin_fix.merged_at).total_seconds()))
    return verdict


def change_origin(fix: list[tuple[Pull, str]], last: Pull, until: datetime) -> Pull | None:
    """The fix a backport landing carries, when the last landing before the close is a backport:
    the latest PR of role "fix" merged before it (and before `until`), or None.

    A backport copies a change merged earlier on another branch (a cherry-pick onto a release
    branch, `link.backport`): the change was made when its fix merged, and the backport only
    brings it to one more branch. How long the issue waited after its fix is measured from that
    merge (paddle-threads' tune split, read: PaddleOCR#13769, whose release/2.8 cherry-pick #13603
    lands main's #13348 seven weeks later). The timing class still reads the last landing: that
    merge is what can explain the close, so `conclude` takes this lag only for a close that the
    landing does not explain (class later or stale; the seed digest words a backport closed minutes
    after it lands by that backport's lag, ascend-2026-09 Ascend/msmodeling#438)."""
    roles = {(p.repo, p.number): role for p, role in fix}
    if roles.get((last.repo, last.number)) != "backport":
        return None
    fixes = [p for p, role in fix if role == "fix" and p.merged_at is not None
             and p.merged_at <= min(until, last.merged_at)]
    return max(fixes, key=lambda p: p.merged_at) if fixes else None


def _origins(verdict: FixVerdict, cands: dict[Key, Candidate], idx: CorpusIndex, cfg: LinkConfig) -> None:
    """A fix that copies a change merged earlier on another branch (a cherry-pick, a backport:
    `link.backport.find_origin`) is a landing of that change: the origin is the fix, with the
    copy's claim as its evidence, and the copy its backport."""
    for p, role in list(verdict.fix):
        if role != "fix":
            continue
        found = find_origin(p, idx, cfg)
        if found is None or found[0].merged_at is None or found[0].merged_at > p.merged_at:
            continue
        o, note = found
        pk, ok = (p.repo, p.number), (o.repo, o.number)
        at = verdict.fix.index((p, role))
        verdict.fix[at] = (p, "backport")
        cands[pk].verdict = "backport"
        verdict.backport_notes[pk] = f"copies {idx.pr_label(ok, p.repo)}: {note}"
        roles = {(q.repo, q.number): i for i, (q, _) in enumerate(verdict.fix)}
        if ok in roles:
            verdict.fix[roles[ok]] = (o, "fix")
        else:
            verdict.fix.insert(at, (o, "fix"))
        oc = cands.get(ok) or cands.setdefault(ok, Candidate(ok, o))
        oc.add(Signal("backport", f"{idx.pr_label(pk, p.repo)} lands it on {p.base_ref or '?'}: {note}",
                      f"pulls/{p.number}"))
        oc.verdict = "fix"
        for parked in (verdict.after_close, verdict.pending):
            if o in parked:
                parked.remove(o)


def _second_landings(verdict: FixVerdict, cands: dict[Key, Candidate], kinds_of: dict[Key, set[str]],
                     in_set: set[Key], idx: CorpusIndex) -> None:
    """A PR merged after the close that claims the issue strongly, written by the author of a fix
    merged before the close, is a second landing of that fix (`rules.landings`): in the fix set."""
    before = [p for p, role in verdict.fix if role == "fix"]
    for p in list(verdict.after_close):
        key = (p.repo, p.number)
        if key in in_set or not kinds_of.get(key, set()) & STRONG:
            continue
        own = continues_own_fix(p, before, (verdict.issue.repo, verdict.issue.number))
        if own is None:
            continue
        verdict.after_close.remove(p)
        verdict.fix.append((p, "fix"))
        in_set.add(key)
        c = cands[key]
        c.verdict = "fix"
        c.add(Signal("landing", f"merged after the close; its author also wrote "
                                f"{idx.pr_label((own.repo, own.number), p.repo)}, the fix merged before it: "
                                f"a second landing of that work", f"pulls/{p.number}"))


def _follow_ups(verdict: FixVerdict, cands: dict[Key, Candidate]) -> None:
    """A candidate that is not itself a fix and calls itself the follow-up of one of this issue's
    fixes ("Follow-up of #101", "!101 的后续") lists that fix as done: its role is `follow_up`, named
    in the explain trail, never in the fix set."""
    fixes = {(p.repo, p.number) for p, _ in verdict.fix}
    if not fixes:
        return
    for c in cands.values():
        if c.pull is None or c.verdict not in ("weak", "unrelated") or c.key in fixes:
            continue
        p = c.pull
        for ref in find_refs(f"{p.title or ''}\n{p.body or ''}", p.repo, p.platform):
            if ref.kind != KIND_ISSUE and (ref.repo, ref.number) in fixes and is_follow_up(ref):
                c.verdict = "follow_up"
                c.add(Signal("follow_up", f"the PR calls itself the follow-up ('{ref.background}') of "
                                          f"#{ref.number}, a fix of this issue", f"pulls/{p.number}"))
                break


_DUPLICATE = re.compile(r"重复|duplicate|dup of|same as|同一(?:个)?问题|已有|已存在", re.IGNORECASE)


def _deferred_fix(issue: Issue, idx: CorpusIndex, cfg: LinkConfig, verdict: FixVerdict) -> None:
    """An answer that defers the change to another ticket ("同主题的 #1167 会在 26.2.0 删除…"):
    when that ticket's own fix merged after this issue was closed, this issue was closed before
    the fix merged. Such a PR is never put in the fix set (no back-filling)."""
    key = (issue.repo, issue.number)
    close = issue.closed_at + timedelta(seconds=cfg.clock_slack_s)
    for c in idx.issue_comments.get(key, []):
        if not c.author or c.author == issue.author:
            continue
        body = c.body or ""
        for ref in find_refs(body, issue.repo, issue.platform):
            other = (ref.repo, ref.number)
            if ref.kind == KIND_PULL or other == key or other not in idx.issues:
                continue
            if _DUPLICATE.search(_sentence_around(body, *ref.span)):
                continue
            fixes: set[Key] = set(idx.links.get(other, {}))
            fixes |= {m.pull for m in idx.mentions.get(other, [])
                      if (m.ref.keyword or m.ref.kind == KIND_ISSUE) and not m.ref.background}
            fixes |= set(idx.branch_refs.get(other, []))
            for pk in sorted(fixes):
                p = idx.pulls.get(pk)
                if p is None or not p.merged or p.merged_at <= close or p in verdict.after_close:
                    continue
                label = f"#{other[1]}" if other[0] == issue.repo else f"{other[0]}#{other[1]}"
                verdict.after_close.append(p)
                verdict.after_close_via[pk] = f" (the fix of {label}, which comment {c.id} names)"
                cand = verdict.candidates.setdefault(pk, Candidate(pk, p))
                cand.add(Signal("comment", f"comment by {c.author} defers the change to {label}, fixed by this PR",
                                f"issues/{issue.number}/comments/{c.id}"))
                cand.verdict = "after_close"


def _timing_only(issue: Issue, idx: CorpusIndex, cfg: LinkConfig, cands: dict[Key, Candidate],
                 itoks: "_LazyTokens") -> None:
    """With no candidate at all, a PR merged within a second of the close that shares the
    issue's vocabulary and names no other issue is a candidate of its own."""
    close = issue.closed_at
    window = timedelta(seconds=cfg.timing_only_s)
    near = idx.merged_between(issue.repo, close - window, close + window)
    if not near:
        return
    issue_tokens = itoks.get()
    plausible = []
    for p in near:
        if any(m.ref.keyword for m in idx.pull_issue_refs.get((p.repo, p.number), [])):
            continue
        ov = overlap(issue_tokens, pull_tokens(p, idx))
        if ov >= cfg.timing_only_overlap:
            plausible.append((p, ov))
    if len(plausible) == 1:
        p, ov = plausible[0]
        lag = int((close - p.merged_at).total_seconds())
        c = cands.setdefault((p.repo, p.number), Candidate((p.repo, p.number), p))
        c.add(Signal("timing", f"only PR merged within {cfg.timing_only_s}s of the close ({lag}s), "
                               f"sharing {ov:.0%} of the issue's vocabulary", f"pulls/{p.number}, issues/{issue.number}"))
