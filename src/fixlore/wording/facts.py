"""Facts a reader must see in an answer, stated from the linker's conclusions (never guessed):
which PRs fixed the case and where they landed, and how the close relates to the merge."""

from __future__ import annotations

import re
from collections.abc import Iterable

from fixlore.core.enums import FixState, Timing, Trap
from fixlore.core.model import Case, FixRef, pull_label
from fixlore.rules.refs import note_issue_numbers, note_pull_labels


def pr_label(f: FixRef, case_repo: str = "") -> str:
    """The label prose gives a fix (`model.pull_label` with `prose`: `!795` on GitCode, `PR#795`
    otherwise, since a bare `#795` in a sentence reads as an issue); foreign repos are named by
    their last part. Tables and notes use the platform's own form."""
    return f.label(case_repo, prose=True, name=_last_part)


def _last_part(repo: str) -> str:
    return repo.split("/")[-1]


def is_merged(f: FixRef) -> bool:
    return f.merged                     # the one rule: fixlore.core.model.merge_variant


def format_lag(seconds: int | None, zh: bool) -> str:
    """The lag inside a fact sentence (`close_sentence`: "closed 43.5 h after the merge"): one
    rounded figure that reads as a phrase, minutes with padded seconds under the hour (`2 min 05 s`),
    tenths of an hour under two days, whole days beyond; None reads "".

    Not `units.human_lag` on purpose: that one writes the largest two exact units (`1 d 19 h`) for
    pages and for the methods' lists, where lags stand side by side to be compared; a sentence
    wants the single figure. Making either the rule for both would change the digests' answers
    or their methods section (22 selected cases of the three bundled worlds read differently)."""
    if seconds is None:
        return ""
    s = abs(int(seconds))
    if s < 60:
        return f"{s} 秒" if zh else f"{s} s"
    if s < 3600:
        m, r = divmod(s, 60)
        if zh:
            return f"{m} 分 {r:02d} 秒" if r else f"{m} 分钟"
        return f"{m} min {r:02d} s" if r else f"{m} min"
    if s < 86400 * 2:
        h = round(s / 3600, 1)
        return f"{h:g} 小时" if zh else f"{h:g} h"
    d = round(s / 86400)
    return f"{d} 天" if zh else f"{d} days"


# the branches a fix lands on by default: naming one tells a reader nothing a release branch would
DEFAULT_BRANCHES = ("master", "main")


def _where(f: FixRef, zh: bool, beside_landed: bool = False) -> str:
    """Where and when the PR landed: its branch when it is not the default one (a backport's
    release branch is news, "master" is not), then the merge date; for a PR that did not land, its
    state and "待合入" (open) or "未合入" (closed), never a date. An open PR beside a fix that landed
    (`beside_landed`: a follow-up, another issue's PR the page links) is "未合入": "待合入" beside
    "09-18 合入" reads as if the case's fix still waited."""
    branch = f.base_ref if f.base_ref not in DEFAULT_BRANCHES else ""
    parts = [p for p in (branch,) if p]
    if is_merged(f):
        date = f.merged_at.strftime("%m-%d")
        parts.append(f"{date} 合入" if zh else f"merged {date}")
    else:
        state = f.state or ("未知" if zh else "unknown")
        waiting = state == "open"
        parts.append((f"{state}，待合入" if waiting and not beside_landed else f"{state}，未合入") if zh else
                     (f"{state}, not merged yet" if waiting else f"{state}, not merged"))
    return ("，" if zh else ", ").join(parts)


def unlanded(case: Case) -> list[FixRef]:
    """Fix PRs that did not land: unmerged ones in the fix set plus the linker's `pending_fix`."""
    out = [f for f in case.fix if not is_merged(f)]
    seen = {(f.repo, f.number) for f in out} | {(f.repo, f.number) for f in case.fix}
    for f in getattr(case, "pending_fix", []) or []:
        if (f.repo, f.number) not in seen and not is_merged(f):
            seen.add((f.repo, f.number))
            out.append(f)
    return out


def fix_sentence(case: Case, zh: bool) -> str:
    shown = [f for f in case.fix if is_merged(f)] + unlanded(case)
    if not shown:
        return ""
    parts = []
    merged = any(is_merged(f) for f in shown)
    for f in shown:
        role = ("backport " if f.role == "backport" else "") if zh else ("backport " if f.role == "backport" else "")
        label = pr_label(f, case.repo)
        where = _where(f, zh, merged)
        parts.append(f"{role}{label}（{where}）" if zh else f"{role}{label} ({where})")
    head = "修复 " if zh else "Fix: "
    return head + ("；".join(parts) if zh else "; ".join(parts))


# Timings of a close the platform made when the fix merged (it closes the issues a PR names): the
# close time is the fix time, and the fix sentence's merge date already says when that was.
CLOSED_BY_MERGE = (Timing.SAME_SECOND, Timing.AUTO_CLOSE)


def close_sentence(case: Case, zh: bool) -> str:
    """How the issue's close relates to the fix, from timing, lag and traps."""
    return ("；" if zh else "; ").join(p for p in [_close_state(case, zh)] + _close_notes(case, zh) if p)


def row_facts(case: Case, zh: bool) -> list[str]:
    """The pipeline's sentences a digest row states beside the analyst's words: where and when the
    fix landed (`fix_sentence`), and the close when it tells more (`row_close`)."""
    return [s for s in (fix_sentence(case, zh), row_close(case, zh)) if s]


def row_close(case: Case, zh: bool) -> str:
    """The close as a table row states it: what the close tells a reader beyond the fix sentence's
    merge date. A close the merge itself made (`CLOSED_BY_MERGE`) tells nothing more: the row
    keeps only its notes (another issue the PR fixes, a linked PR that is not the fix), and the
    digest says once, in its themes and figures, that those closes are the fixes' merges. A late,
    stale or early close, a fix that did not land and no fix at all are each a state a reader
    must see in the row (issue #22: rows written from the case's facts with their state)."""
    notes = _close_notes(case, zh)
    if case.timing in CLOSED_BY_MERGE and any(is_merged(f) for f in case.fix):
        return ("；" if zh else "; ").join(notes)
    return close_sentence(case, zh)


def _close_state(case: Case, zh: bool) -> str:
    lag = format_lag(case.lag_s, zh)
    t = case.timing
    if t == Timing.SAME_SECOND:
        s = "合入当秒自动关单" if zh else "closed in the same second as the merge"
    elif t in (Timing.AUTO_CLOSE, Timing.MINUTES):
        s = f"合入 {lag}后关单" if zh else f"closed {lag} after the merge"
    elif t == Timing.LATER:
        # the lag is the fact; who closed is not (a bot that closes a day after the merge closes
        # late too: three npu-threads rows closed 24 h after their merges by one account)
        s = f"合入 {lag}后关单" if zh else f"closed {lag} after the merge"
    elif t == Timing.STALE:
        s = (f"stale 关单，晚于合入 {lag}" if zh else f"stale close {lag} after the fix merged")
    elif t == Timing.BEFORE_MERGE:
        later = [f for f in getattr(case, "pending_fix", []) or [] if is_merged(f)]
        if later:
            what = "、".join(f"{pr_label(f, case.repo)} {f.merged_at.strftime('%m-%d')} 合入" for f in later) if zh else \
                ", ".join(f"{pr_label(f, case.repo)} merged {f.merged_at.strftime('%m-%d')}" for f in later)
            s = (f"关单早于修复合入（{what}），不倒填" if zh else f"closed before the fix merged ({what}); not back-filled")
        else:
            s = (f"关单早于修复合入{(' ' + lag) if lag else ''}，不倒填" if zh
                 else f"closed before the fix merged{(' (' + lag + ')') if lag else ''}; not back-filled")
    else:
        # the fix sentence names the PRs and their state; the close says what that means
        if unlanded(case):
            s = "关单时修复未落地" if zh else "closed before any fix landed"
        elif case.unread_claims:
            # a claimed fix the harvest could not read: neither "no code change" nor a fix
            said = ("、" if zh else ", ").join(pull_label(k, case.repo, case.platform, prose=True, name=_last_part)
                                               for k in case.unread_claims)
            one = len(case.unread_claims) == 1
            s = (f"评论称已由 {said} 修复，{'该' if one else '这些'} PR 未能读取，状态未知" if zh
                 else f"a comment says {said} fixed it; {'that PR' if one else 'those PRs'} could not be read, "
                      f"{'its' if one else 'their'} state is unknown")
        else:
            s = "无代码修复" if zh else "no code change"
    return s


def _close_notes(case: Case, zh: bool) -> list[str]:
    """What the close sentence adds to its state: PRs cited or linked that are not the fix, other
    issues the same PR fixed."""
    # a close storm is said once, in the disclosure, with its span: the same note in every row of
    # the storm is boilerplate (issue #22)
    extra = []
    if Trap.CLAIMED_UNMERGED in case.traps:
        note = case.trap_notes.get(Trap.CLAIMED_UNMERGED, "")
        extra.append(("评论所称已合入的 PR 实为未合" if zh else "a PR cited as merged was closed unmerged")
                     + note_in(note, zh))
    if Trap.LINKED_UNRELATED in case.traps:
        note = case.trap_notes.get(Trap.LINKED_UNRELATED, "")
        extra.append(("页面关联的 PR 与本单无关" if zh else "the linked PR is unrelated")
                     + note_in(note, zh, own_fix_labels(case)))
    if Trap.ONE_PR_MANY_ISSUES in case.traps:
        # which other issues: the same bare "一 PR 修多单" in every row the PR fixed is boilerplate
        others = shared_with(case.trap_notes.get(Trap.ONE_PR_MANY_ISSUES, ""))
        if others:
            extra.append(f"同一 PR 还修 {'、'.join(others)}" if zh else f"the same PR also fixed {', '.join(others)}")
        else:
            extra.append("一 PR 修多单" if zh else "one PR fixed several issues")
    extra += _linked_but_not_the_fix(case, zh)
    return extra


def shared_with(note: str) -> list[str]:
    """The other issues a one-PR-many-issues note names ("!57 also fixes #32, org/repo#7"), as written."""
    out: list[str] = []
    for part in (note or "").split(";"):
        _, sep, rest = part.partition(" also fixes ")
        if sep:
            out += [x.strip() for x in rest.split(",") if x.strip()]
    return list(dict.fromkeys(out))


def _linked_but_not_the_fix(case: Case, zh: bool) -> list[str]:
    """A PR the issue page links that the linker judged not to be the fix (it names the issue as
    background, it fixes another issue): a reader sees the link on the page and would take it for
    the fix. Said only when no linked_unrelated trap already says it."""
    if Trap.LINKED_UNRELATED in case.traps:
        return []
    out = []
    for cand in case.candidates:
        if cand.get("verdict") != "unrelated" or not any(s.get("kind") == "linked" for s in cand.get("signals", [])):
            continue
        label = pull_label((cand["repo"], cand["number"]), case.repo, case.platform, prose=True, name=_last_part)
        if zh:
            others = [f"#{n}" for n in note_issue_numbers(cand.get("unrelated", "")) if n != case.number]
            out.append(f"页面关联的 {label} 不是本单修复" + (f"（它修 {'、'.join(others)}）" if others else ""))
        else:
            out.append(f"the linked {label} is not this issue's fix" + note_in(cand.get("unrelated", ""), False))
    return out


def readable_note(note: str) -> str:
    """A linker note as a reader takes it: lags in human units ("10 h later", not "(36300s
    later)"), times to the minute, without the evidence ids a note keeps for the export
    ("[issues/41/comments/167110044]", "comment 161988694")."""
    from fixlore.core.units import human_lag

    text = re.sub(r"\s*\[(?:issues|pulls)/[^\]]*\]", "", note)
    text = re.sub(r"\bcomment \d{5,}\b", "a comment", text)
    text = re.sub(r"\((\d+)s (later|earlier|early|late)\)",
                  lambda m: f"({human_lag(int(m.group(1)), 'en')} {m.group(2)})", text)
    text = re.sub(r"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}):\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})", r"\1 \2", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def note_in(note: str, zh: bool, besides: Iterable[str] = ()) -> str:
    """A linker note in brackets. The notes are written in English, so a Chinese text names only
    the PRs the note cites (the full note stays in the export's trap_notes), leaving out those in
    `besides` (the case's own fix, which a note names beside the PR it is about: "linked !60 …
    while the issue's own fix !61 …"); an English text reads it as `readable_note` words it."""
    if not note:
        return ""
    if not zh:
        return f" ({readable_note(note)})"
    left_out = set(besides)
    prs = [p for p in note_pull_labels(note) if p not in left_out]
    return f"（{'、'.join(prs)}）" if prs else ""


def own_fix_labels(case: Case) -> list[str]:
    """The case's own fix and pending fix PRs as a linker note writes them (`!N`, this repository's)."""
    return [f"!{f.number}" for f in case.fix + case.pending_fix if f.repo == case.repo]


def cited_doc(case: Case):
    """The document a row cites: the best-scoring kb_ref, as the analysts cite it; None without one."""
    return max(case.kb_refs, key=lambda k: k.score) if case.kb_refs else None


def cite_label(case: Case, zh: bool) -> str:
    """The citation as a reader of the row sees it: the label and the document's file name (its
    path, chunk and score stay in the link and the tooltip); "" without a cited document."""
    best = cited_doc(case)
    if best is None:
        return ""
    return ("KB：" if zh else "KB: ") + best.doc.split("/")[-1]


def kb_sentence(case: Case, zh: bool) -> str:
    best = cited_doc(case)
    if best is None:
        return ""
    doc = best.doc.split("/", 3)[-1] if best.doc.startswith("docs/") else best.doc
    chunk = f" {best.chunk}" if best.chunk else ""
    return f"KB：{doc}{chunk}（{best.score:.3f}）" if zh else f"KB: {doc}{chunk} ({best.score:.3f})"


def landed(case: Case) -> bool:
    """A fix of the case merged, before the close or after it (`Case.fix_state`)."""
    return case.fix_state == FixState.LANDED


def any_fix_merged(case: Case) -> bool:
    """A fix of the case merged, before the close or after it: a fix that merged after an early
    close stays in `pending_fix` (the close is not back-filled), yet a reader reads the thread after
    the merge, so "PR 在提交中" is as stale as for a fix that closed the issue."""
    return case.fix_state == FixState.LANDED
