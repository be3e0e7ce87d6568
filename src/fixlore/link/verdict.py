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
later it is not back-filled as the fix (only a backport twin of a fix may merge after the
close); open or closed unmerged it did not land.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta

from fixlore.link.backport import find_twins
from fixlore.link.candidates import Candidate, Signal, _sentence_around, gather
from fixlore.link.config import LinkConfig
from fixlore.link.index import CorpusIndex, Key
from fixlore.rules.refs import KIND_ISSUE, KIND_PULL, find_refs
from fixlore.rules.answers import DECLINED
from fixlore.rules.bots import is_bot
from fixlore.rules.text import has_cue
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
    after_close_via: dict[Key, str] = field(default_factory=dict)  # how an indirect after-close fix was found
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
    key = (pull.repo, pull.number)
    cached = idx._pull_tokens.get(key)
    if cached is None:
        files = [f.filename for f in idx.files.get(key, [])]
        cached = tokens(f"{pull.title}\n{pull.body}") | path_tokens(files)
        idx._pull_tokens[key] = cached
    return cached


class _LazyTokens:
    """An issue's vocabulary, computed on first use (most issues never need it)."""

    __slots__ = ("_text", "_tokens")

    def __init__(self, text: str):
        self._text, self._tokens = text, None

    def get(self) -> set[str]:
        if self._tokens is None:
            self._tokens = tokens(self._text)
        return self._tokens


_CODE_SPAN = re.compile(r"`([^`\n]{3,60})`")
_FLAG = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]{2,})")


_IDENT = re.compile(r"^(?:--?)?[A-Za-z_][\w.\-/:]*$")


def _identifiers(text: str) -> set[str]:
    """What an issue names precisely: identifier-like inline code spans (no spaces, starting
    with a letter: a flag, a function, a file, a setting) and command-line flags."""
    found = {m.strip() for m in _CODE_SPAN.findall(text or "")}
    found |= set(_FLAG.findall(text or ""))
    return {x for x in found if len(x) >= 3 and _IDENT.match(x) and any(ch.isalpha() for ch in x)}


_BARE_FLAG = re.compile(r"(?<![\w`-])(--?[A-Za-z][\w-]{2,})")


def _title_spans(title: str) -> str:
    """A title rarely uses backticks: its flags count as quoted identifiers too."""
    return (title or "") + "\n" + " ".join(f"`{m}`" for m in _BARE_FLAG.findall(title or ""))


_JOINERS = re.compile(r"[-_\s]+")


def _touches(pull: Pull, idx: CorpusIndex, named: set[str]) -> bool:
    """Any named identifier in the PR's text or diff, hyphens and underscores aside
    (`--enable-prefix-caching` is `enable_prefix_caching` in the code)."""
    text = _JOINERS.sub("", _pull_text(pull, idx).casefold())
    return any(_JOINERS.sub("", x.casefold()).lstrip("-") in text for x in named)


def _pull_text(pull: Pull, idx: CorpusIndex) -> str:
    parts = [pull.title or "", pull.body or ""]
    for f in idx.files.get((pull.repo, pull.number), []):
        parts += [f.filename, f.patch or ""]
    parts += [c.message for c in idx.commits.get((pull.repo, pull.number), [])]
    return "\n".join(parts)


# A person other than the reporter saying the linked PR is not this issue's change.
_DENIES = re.compile(r"无关|不相关|没有关系|没关系|不是(?:这个|本|该)?(?:问题|issue|单)?的?(?:修复|解决)|关联错|误关联|错误关联|"
                     r"挂错|关联有误|not related|unrelated|doesn'?t fix|does not fix|wrong (?:pr|mr|link)|"
                     r"linked (?:by mistake|wrongly)|mis-?linked", re.IGNORECASE)


def _denied_by_comment(issue: Issue, pull: Pull, idx: CorpusIndex) -> str:
    for c in idx.issue_comments.get((issue.repo, issue.number), []):
        if not c.author or c.author == issue.author or is_bot(c.author):
            continue
        body = c.body or ""
        for ref in find_refs(body, issue.repo):
            if (ref.repo, ref.number) != (pull.repo, pull.number) or ref.kind == KIND_ISSUE:
                continue
            sentence = _sentence_around(body, *ref.span)
            if _DENIES.search(sentence):
                return f"{c.author} says so: '{' '.join(sentence.split())[:100]}' [issues/{issue.number}/comments/{c.id}]"
    return ""


def _declined_by_owner(issue: Issue, idx: CorpusIndex) -> str:
    """Someone other than the reporter declines what the issue asks ("改名代价大于收益，不采纳"):
    nothing was changed for it, so a PR the platform links to it is some other change. A
    sentence that names a PR is about that PR, not the request, and says nothing here."""
    for c in idx.issue_comments.get((issue.repo, issue.number), []):
        if not c.author or c.author == issue.author or is_bot(c.author):
            continue
        # a bare "!" is GitCode's PR sigil ("!2948 不采纳"): it ends a sentence only before a space
        for sentence in re.split(r"[。！？\n]|[!?](?=\s|$)|(?<=[.])\s", c.body or ""):
            if has_cue(sentence, DECLINED) and not find_refs(sentence, issue.repo):
                return f"{c.author} declined the request: '{' '.join(sentence.split())[:100]}' [issues/{issue.number}/comments/{c.id}]"
    return ""


def _dirs(paths: list[str]) -> set[str]:
    return {p.rsplit("/", 1)[0] if "/" in p else "" for p in paths}


def _other_fix_area(pull: Pull, idx: CorpusIndex, cands: dict[Key, Candidate]) -> str:
    """The linked PR's files share no file and no folder with what the issue's own fix (a PR that
    names it with a keyword, its branch or a closing commit) changes."""
    mine = [f.filename for f in idx.files.get((pull.repo, pull.number), [])]
    if not mine:
        return ""
    for key, c in sorted(cands.items()):
        if c.pull is None or key == (pull.repo, pull.number) or not c.kinds() & STRONG:
            continue
        theirs = [f.filename for f in idx.files.get(key, [])]
        if theirs and not set(mine) & set(theirs) and not _dirs(mine) & _dirs(theirs):
            return (f"touches {', '.join(sorted(mine)[:3])}, while the issue's own fix "
                    f"{idx.pr_label(key, pull.repo)} changes {', '.join(sorted(theirs)[:3])}")
    return ""


def unrelated_reason(issue: Issue, pull: Pull, idx: CorpusIndex, cfg: LinkConfig, itoks: "_LazyTokens",
                     cands: dict[Key, Candidate] | None = None) -> str:
    """Why a platform-linked PR is not about this issue ("" when nothing positive says so).

    A platform link is the tracker's own record, and a close seconds or minutes after the
    linked PR merged is the platform carrying out the PR's closing claim. Real PR titles are
    terse ("fix bug", "修复问题", "补充参数说明"), so vocabulary alone never refutes a link;
    it takes positive contrary evidence, and the reason says which:
      - the PR's text names this issue only as background ("前序 #631");
      - someone other than the reporter says in the issue that the PR is not its change, or
        declines what the issue asks (nothing was changed for it);
      - the PR names other issues with a closing keyword (not within `minutes_s` after its
        merge: then the platform closed this issue on the PR's claim too);
      - its change touches an area the issue does not: none of the identifiers the issue
        names occurs in its diff, or its files share no file and no folder with the issue's
        own keyword/branch-named fix.
    The last three hold only while the issue and the PR share less than `unrelated_overlap` of
    their vocabulary (a guard against refuting a link that reads as the issue's own change).
    """
    key = (issue.repo, issue.number)
    label = idx.pr_label((pull.repo, pull.number), issue.repo)
    refs = idx.pull_issue_refs.get((pull.repo, pull.number), [])
    if any((m.ref.repo, m.ref.number) == key and not m.ref.background for m in refs):
        return ""
    others = sorted({f"#{m.ref.number}" if m.ref.repo == issue.repo else f"{m.ref.repo}#{m.ref.number}"
                     for m in refs if (m.ref.keyword or m.ref.kind == KIND_ISSUE) and not m.ref.background
                     and (m.ref.repo, m.ref.number) != key})
    cues = sorted({m.ref.background for m in refs if (m.ref.repo, m.ref.number) == key and m.ref.background})
    if cues:
        # The PR's own text says what this issue is to it: background, not its target.
        return (f"linked {label} names this issue only as background ({', '.join(repr(c) for c in cues)})"
                + (f" and names {', '.join(others[:4])} as what it fixes" if others else ""))
    denied = _denied_by_comment(issue, pull, idx)
    if denied:
        return f"linked {label} is not this issue's change: {denied}"
    declined = _declined_by_owner(issue, idx)
    if declined:
        return f"linked {label} cannot be this issue's change: {declined}"
    ov = overlap(itoks.get(), pull_tokens(pull, idx))
    has_diff = bool(idx.files.get((pull.repo, pull.number)))
    subject = _identifiers(_title_spans(issue.title)) if has_diff else set()
    if subject and not _touches(pull, idx, subject):
        # What the title names is what the issue is about; a diff that touches none of it is
        # about something else, however the PR is worded.
        return (f"linked {label} touches none of what the issue's title names "
                f"({', '.join(sorted(subject)[:4])}); it shares {ov:.0%} of the issue's vocabulary")
    if ov >= cfg.unrelated_overlap:
        return ""
    chain = (pull.merged and issue.closed_at is not None
             and -cfg.clock_slack_s <= (issue.closed_at - pull.merged_at).total_seconds() <= cfg.minutes_s)
    if others and not chain:
        return (f"linked {label} names {', '.join(others[:4])} as what it fixes, not this issue, "
                f"and shares {ov:.0%} of its vocabulary (title/body/files)")
    if has_diff and (named := _identifiers(f"{issue.title}\n{issue.body}")) and not _touches(pull, idx, named):
        return (f"linked {label} touches none of what the issue names "
                f"({', '.join(sorted(named)[:4])}) and shares {ov:.0%} of its vocabulary")
    area = _other_fix_area(pull, idx, cands or {})
    if area:
        return f"linked {label} {area}; it shares {ov:.0%} of the issue's vocabulary"
    return ""


def decide(issue: Issue, idx: CorpusIndex, cfg: LinkConfig, resolved: bool = True) -> FixVerdict:
    """`resolved`: the issue was closed as resolved (not rejected / duplicate); only then can
    an answer that defers the change to another ticket make it "closed before the fix merged"."""
    cands = gather(issue, idx)
    close = issue.closed_at if issue.state == "closed" else None
    slack = timedelta(seconds=cfg.clock_slack_s)
    itoks = _LazyTokens(f"{issue.title}\n{issue.body}")

    if close is not None and not any(c.pull is not None for c in cands.values()):
        _timing_only(issue, idx, cfg, cands, itoks)

    if close is not None:
        timing_from, timing_to = close - timedelta(seconds=cfg.auto_close_s) - slack, close + slack
    for c in cands.values():
        if c.pull is None:
            c.verdict = "missing"
            continue
        kinds = c.kinds()
        if "linked" in kinds and not kinds & STRONG:
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
        elif strong(c) or len(medium) >= 2 or k == {"timing"} or cited:
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

    if resolved and close is not None and not verdict.fix and not verdict.after_close and not verdict.pending:
        _deferred_fix(issue, idx, cfg, verdict)

    if close is not None:
        merged_before = [p for p, _ in verdict.fix if p.merged_at is not None and p.merged_at <= close + slack]
        if merged_before:
            verdict.last_fix = max(merged_before, key=lambda p: p.merged_at)
            verdict.lag_s = int(round((close - verdict.last_fix.merged_at).total_seconds()))
    return verdict


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
        for ref in find_refs(body, issue.repo):
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
