"""Candidate fix PRs of one issue, from every signal, each with what was seen and where.

Signals (internal names; `conclude.EVIDENCE_OF` maps them to the exported evidence kinds):
  linked        the platform's issue<->PR link (issue pulls, PR issues, operate-log link events)
  keyword       a PR title/body/commit names the issue with a closing keyword, an issue URL or "issue #N"
  mention       a PR title/body/commit names the issue as a bare #N
  branch_name   the PR's source branch names the issue (bugfix/issue558)
  commit_close  GitHub: the issue was closed by a commit of the PR
  cross_ref     GitHub: a cross-reference from the PR, or a commit `referenced` event, on the issue's timeline
  comment       an issue comment cites the PR (claim=True when it says the PR fixed/merged)
  timing        the PR merged within the auto-close window before the close
  files         no reference: the merge that changed the files the issue names (link.named_files)
  quoted        no reference: the reporter's own PR repeating the report (link.quoted_fix)
  landing       a strong claimant merged after the close by the author of a fix merged before it
                (`rules.landings`): a second landing of that fix, not exported as evidence
  background    a PR title/body/commit names the issue as background ("前序 #631", "see also #7",
                "related: #5"): never a fix signal; it refutes a platform link on its own
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fixlore.core.model import EV_CLOSED, Issue, Pull
from fixlore.link.carried import carried_from, commit_list
from fixlore.link.credited import credited_fixes
from fixlore.link.index import CorpusIndex, Key
from fixlore.link.set_aside import called_stopgap, revert_of
from fixlore.rules.refs import KIND_EITHER, KIND_ISSUE, KIND_PULL, find_refs, related_only

# A comment that says the PR merged / fixed it (what `claimed_unmerged` checks against the PR's state).
# "修复见 PR#826" points at where the fix is, and says nothing of its state: only a fix said done
# ("已修复", "修复了", "修好") or merged is a claim.
_CLAIM_FIX = re.compile(r"合入|已合|合并|已修复|修复了|修复完成|修好|已解决|解决了|fixed|fixes|merged|landed|resolved",
                        re.IGNORECASE)
# A comment that points at the PR as where the change is made ("see !N", "changed in !N", "submitted !N").
_CITE = re.compile(r"修改|改了|改动|整改|已提交|提交了|提了|实现", re.IGNORECASE)
_CITE_BEFORE = re.compile(r"(?:见|详见|参见|参考|在|随|由|通过|see|in|via|by)\s*(?:PR|MR)?\s*[:：]?\s*$", re.IGNORECASE)
_NOT_LANDED = re.compile(r"未合|没合|尚未|还没|待合|not (?:yet )?merged|unmerged|abandon|放弃|废弃|撤回|未通过|"
                         r"\bWIP\b|在做|进行中|草稿|draft|不采纳|不予采纳|拒绝|rejected|关了|被关", re.IGNORECASE)
_PR_CONTEXT = re.compile(r"\b(?:pr|mr|pull|merge)\b|合入|合并|提交|补丁|patch", re.IGNORECASE)
_SENTENCE = re.compile(r"[^。；;！!？?\n]*")
# a signal that settles a candidate alone, and those of which two independent ones do (link.verdict)
STRONG = frozenset({"keyword", "branch_name", "commit_close"})
MEDIUM = frozenset({"mention", "cross_ref", "comment", "timing"})
# Signals kept for the trail only: a clause that names the PR and withholds credit from it
# (rules.refs `withheld_cue`: "is this fixed by #12?" asks, "not fixed by #12" denies, "caused by
# #12" blames). `fixlore explain` shows them with the reason; they count as no evidence.
TRAIL = frozenset({"withheld"})
# a reporter saying they submitted the change
_SUBMITTED = re.compile(r"\b(?:submit(?:ted)?|open(?:ed)?|creat(?:ed|e)|raised?|sent|fil(?:ed|e)|propos(?:ed|e)|made)\b"
                        r"[^.。]{0,20}\b(?:PR|pull request|patch|fix)\b|here is (?:a|the|my) (?:PR|fix|patch)|"
                        r"已?(?:提交|提了|发起|提出)了?[^。，]{0,10}(?:PR|MR|合入请求|修复|补丁)", re.IGNORECASE)


@dataclass(slots=True)
class Signal:
    kind: str
    detail: str
    source: str
    claim: bool = False      # a comment saying the PR merged / fixed the issue
    cite: bool = False       # a comment pointing at the PR as where the change is
    withheld: str = ""       # asked | denied | blamed: the clause withholds credit (a TRAIL signal)


@dataclass(slots=True)
class Candidate:
    key: Key
    pull: Pull | None
    signals: list[Signal] = field(default_factory=list)
    unrelated: str = ""          # why a linked PR is not about this issue
    set_aside: str = ""          # why a PR that names the issue is not its fix (a revert, a stopgap)
    stopgap: str = ""            # the thread's sentence calling the PR a workaround for now
    related: str = ""            # the soft cue when the PR names the issue only as related work (rules.refs.related_only)
    verdict: str = ""            # fix | backport | after_close | pending | weak | unrelated | set_aside | missing

    def kinds(self) -> set[str]:
        """The kinds of the signals that are evidence (`TRAIL` signals are not)."""
        return {s.kind for s in self.signals if s.kind not in TRAIL}

    def add(self, signal: Signal) -> None:
        if not any(s.kind == signal.kind and s.source == signal.source and s.detail == signal.detail
                   for s in self.signals):
            self.signals.append(signal)


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(ch, 0, start) for ch in "。；;！!？?\n")
    right_candidates = [i for i in (text.find(ch, end) for ch in "。；;！!？?\n") if i != -1]
    right = min(right_candidates) if right_candidates else len(text)
    return text[left + 1:right]


def gather(issue: Issue, idx: CorpusIndex) -> dict[Key, Candidate]:
    key = (issue.repo, issue.number)
    n = issue.number
    cands: dict[Key, Candidate] = {}

    def cand(pk: Key) -> Candidate:
        if pk not in cands:
            cands[pk] = Candidate(pk, idx.pulls.get(pk))
        return cands[pk]

    for pk, sources in idx.links.get(key, {}).items():
        cand(pk).add(Signal("linked", f"platform link ({', '.join(sorted(sources))})",
                            f"issues/{n}/pull_requests"))
    mentions = idx.mentions.get(key, [])
    claimants = [(idx.pulls[m.pull], bool(m.ref.keyword) and m.where in ("title", "body")
                  and not commit_list(idx.pulls[m.pull].body or "")) for m in mentions if m.pull in idx.pulls]
    for m in mentions:
        pull = idx.pulls.get(m.pull)
        if pull is None:
            continue
        undone = revert_of(pull)
        if undone:
            cand(m.pull).set_aside = undone
            cand(m.pull).add(Signal("background", f"PR {m.where} names #{n}, but the PR is {undone}: {m.quote}",
                                    f"pulls/{m.pull[1]}"))
            continue
        earlier = carried_from(pull, m.where, m.where[len("commit "):] if m.where.startswith("commit ") else "",
                               claimants, idx.commits)
        if earlier is not None:
            cand(m.pull).add(Signal("background", f"PR {m.where} names #{n} in a commit it carries from "
                                                  f"#{earlier.number} (merged earlier, into the same branch): "
                                                  f"{m.quote}", f"pulls/{m.pull[1]}"))
            continue
        credits = [] if m.ref.keyword else credited_fixes(
            f"{pull.title or ''}\n{pull.body or ''}", pull.repo, n, m.pull,
            lambda pk: pk in idx.pulls and idx.pulls[pk].merged, pull.platform)
        if m.ref.background or credits:
            cue = m.ref.background or "beside the fix it credits to " + ", ".join(f"#{k[1]}" for k, _ in credits)
            cand(m.pull).add(Signal("background", f"PR {m.where} names #{n} as background ('{cue}'), "
                                                  f"not as what it fixes: {m.quote}", f"pulls/{m.pull[1]}"))
            for pk, sentence in credits:
                quote = " ".join(sentence.split())[:120]
                cand(pk).add(Signal("comment", f"PR #{m.pull[1]} names #{n} and credits the fix to #{pk[1]}: "
                                               f"'{quote}'", f"pulls/{m.pull[1]}", claim=True, cite=True))
            continue
        # An issue URL or "issue #N" names the ticket as what the PR is about, unless a pointer
        # stands before it ("reported in …/issues/12", "see issue #4"): that only says where to read.
        strong = bool(m.ref.keyword) or (m.ref.kind == KIND_ISSUE and not m.ref.pointer)
        kind = "keyword" if strong else "mention"
        how = (f"'{m.ref.keyword}'" if m.ref.keyword else f"pointer '{m.ref.pointer}'" if m.ref.pointer
               else "issue URL/name" if m.ref.kind == KIND_ISSUE else "bare #N")
        if m.ref.withheld:
            how += f", {m.ref.withheld}: credit withheld"
        cand(m.pull).add(Signal(kind, f"PR {m.where} names #{n} ({how}): {m.quote}", f"pulls/{m.pull[1]}",
                                withheld=m.ref.withheld))
        if (cue := related_only(m.ref)):
            cand(m.pull).related = cue
    for pk in idx.branch_refs.get(key, []):
        pull = idx.pulls.get(pk)
        if pull is not None:
            cand(pk).add(Signal("branch_name", f"source branch '{pull.head_ref}' names #{n}", f"pulls/{pk[1]}"))
    connected = idx.connected(key)
    for pk, ev in idx.cross_refs(key):
        if ev.action == EV_CLOSED and connected:
            cand(pk).add(Signal("linked", "issue connected to the PR by hand (timeline 'connected') and closed by "
                                          f"its commit {str((ev.detail or {}).get('commit_id') or '')[:10]}",
                                f"issues/{n}/timeline"))
        elif ev.action == EV_CLOSED:
            sha = str((ev.detail or {}).get("commit_id") or "")[:10]
            cand(pk).add(Signal("commit_close", f"issue closed by commit {sha} of the PR", f"issues/{n}/timeline"))
        else:
            cand(pk).add(Signal("cross_ref", f"timeline {ev.action} from the PR", f"issues/{n}/timeline"))

    for c in idx.issue_comments.get(key, []):
        body = c.body or ""
        for ref in find_refs(body, issue.repo, issue.platform):
            pk = (ref.repo, ref.number)
            if ref.kind == KIND_ISSUE or pk == key and ref.kind != KIND_PULL:
                continue
            if ref.kind == KIND_EITHER:
                if pk not in idx.pulls:
                    continue
                sentence = _sentence_around(body, *ref.span)
                if pk in idx.issues and not _PR_CONTEXT.search(sentence):
                    continue
            sentence = _sentence_around(body, *ref.span)
            if ref.withheld:
                # "is this fixed by #12?" asks, "not fixed by #12" denies, "caused by #12" blames: no
                # credit and no evidence. An asked PR is kept in the trail; a denied or blamed one
                # only beside other evidence for it (alone it would hide a timing-only candidate).
                if ref.withheld == "asked" or pk in cands:
                    cand(pk).add(Signal("withheld", f"comment by {c.author or '?'} {ref.withheld} "
                                                    f"(credit withheld): '{' '.join(sentence.split())[:120]}'",
                                        f"issues/{n}/comments/{c.id}", withheld=ref.withheld))
                continue
            landed_denied = bool(_NOT_LANDED.search(sentence))
            claim = bool(_CLAIM_FIX.search(sentence)) and not landed_denied
            line_start = max(body.rfind(ch, 0, ref.span[0]) for ch in "。；;！!？?\n，,") + 1
            cite = not landed_denied and (claim or bool(_CITE.search(sentence))
                                          or bool(_CITE_BEFORE.search(body[line_start:ref.span[0]])))
            quote = " ".join(sentence.split())[:120]
            cand(pk).add(Signal("comment", f"comment by {c.author or '?'}: '{quote}'",
                                f"issues/{n}/comments/{c.id}", claim=claim, cite=cite))
            if called_stopgap(sentence):
                cand(pk).stopgap = quote
    _pulls_in_description(issue, idx, cand)
    return cands


def _pulls_in_description(issue: Issue, idx: CorpusIndex, cand) -> None:
    """The reporter says, in the issue's own description, that they submitted a PR they wrote
    ("I submitted a PR to enable …", "已提交 !12 修复"): an outside contributor filing the problem
    with its change. The thread points at the PR as where the change is (a `comment` signal that
    cites it); the same sentence calling it a stopgap marks it one instead. Any other PR a report
    names (the change under review, the one that regressed it, someone else's attempt) is context,
    unless the description calls it a stopgap, whoever wrote it."""
    body = issue.body or ""
    if "#" not in body and "!" not in body and "/pull" not in body and "merge_requests" not in body:
        return      # names no PR (the common case: most reports name none)
    for ref in find_refs(body, issue.repo, issue.platform):
        pk = (ref.repo, ref.number)
        pull = idx.pulls.get(pk)
        if ref.kind == KIND_ISSUE or pull is None:
            continue
        sentence = _sentence_around(body, *ref.span)
        quote = " ".join(sentence.split())[:120]
        if called_stopgap(sentence):
            cand(pk).stopgap = quote
        elif issue.author and pull.author == issue.author and _SUBMITTED.search(sentence):
            cand(pk).add(Signal("comment", f"the description by {issue.author}, who wrote the PR: '{quote}'",
                                f"issues/{issue.number}", cite=True))
