"""What the knowledge base says about one case, as plain data for people and agents.

Pure functions over `Case` objects: a short card for search results, the fix status of an
issue, the full evidence chain with what to cite. Every URL a view carries comes from the
case (the platform's own issue and PR pages); nothing here is invented.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from fixlore.core.enums import EvidenceKind, FunnelStage, Trap
from fixlore.core.model import Case, FixRef, IssueText, pull_label
from fixlore.retrieval.base import case_text
from fixlore.rules.answers import ANSWER_MIN_CHARS, best_answer
from fixlore.rules.refs import issue_key
from fixlore.rules.text import clean_body, error_lines, shorten
from fixlore.rules.unread import fix_unknown

POOL_STAGES = (FunnelStage.SELECTED, FunnelStage.ANALYSIS, FunnelStage.RANK)     # resolved user-side issues the funnel kept



def parse_key(text: str) -> tuple[str, int]:
    """`owner/repo#N` or an issue URL -> (repo, number); ValueError with the accepted forms."""
    key = issue_key(text)
    if key is None:
        raise ValueError(f"not an issue key: {text!r} (use OWNER/REPO#N or the issue's URL)")
    return key


@dataclass
class Lookups:
    """What the views quote beside a case, read once when the knowledge base opens: the fix
    PRs' own titles and descriptions, and where each cited document can be read."""
    pulls: dict[tuple[str, int], tuple[str, str]] = field(default_factory=dict)
    doc_link: Callable[[str, str], dict[str, str]] = lambda doc, chunk: {
        "doc": doc, "chunk": chunk, "url": "", "ref": "", "path": ""}


NO_LOOKUPS = Lookups()


def _prs(refs: list[FixRef], case: Case, look: Lookups) -> list[dict[str, Any]]:
    return [_pr(ref, case.repo, case.platform, look) for ref in refs]


def _pr(ref: FixRef, issue_repo: str, platform: str, look: Lookups) -> dict[str, Any]:
    """One PR, the same shape in every view: what the platform says it is and what it says it does."""
    title, body = look.pulls.get((ref.repo, ref.number), ("", ""))
    return {"pr": pull_label((ref.repo, ref.number), issue_repo, platform), "repo": ref.repo,
            "number": ref.number, "role": ref.role, "state": ref.state,
            "merged_at": ref.merged_at.isoformat() if ref.merged_at else "", "base_ref": ref.base_ref, "url": ref.url,
            "title": title, "summary": shorten(clean_body(body), 280)}


def traps_of(case: Case) -> list[dict[str, str]]:
    """The traps, one shape everywhere: [{name, note}] in the order the linker named them."""
    return [{"name": t, "note": case.trap_notes.get(t, "")} for t in case.traps]


def doc_refs(case: Case, look: Lookups) -> list[dict[str, Any]]:
    """The documents a case cites: platform link, local path, chunk and score."""
    return [{**look.doc_link(k.doc, k.chunk), "score": round(k.score, 3)} for k in case.kb_refs]


def status_of(case: Case) -> str:
    """One word for where the fix stands.

    not_traced         the issue was not closed inside the run's window: the linker did not judge it
    fixed              a merged fix (or backport) is in the fix set
    fix_not_landed     a fix was proposed but never merged before the close
    closed_before_merge  the issue was closed before its fix merged (the fix is not back-filled)
    answered           no code change: a maintainer's answer closed it
    fix_unknown        no merged fix traced, and a part that may name one could not be read
    no_fix_found       neither a fix nor an answer was traced
    """
    if case.funnel == FunnelStage.WINDOW:
        return "not_traced"
    if any(f.merged for f in case.fix):
        return "fixed"
    if fix_unknown(case.unread, False):
        return "fix_unknown"
    if Trap.CLOSED_BEFORE_MERGE in case.traps:
        return "closed_before_merge"
    if case.pending_fix or Trap.FIX_NOT_LANDED in case.traps:
        return "fix_not_landed"
    if any(e.kind == EvidenceKind.ANSWER for e in case.evidence):
        return "answered"
    return "no_fix_found"


def fix_status(case: Case, look: Lookups = NO_LOOKUPS) -> dict[str, Any]:
    """Was the issue really fixed, by what, where did it land, and what should make a reader wary."""
    return {
        "key": case.key, "title": case.title, "url": case.url,
        "closed_at": case.closed_at.isoformat() if case.closed_at else "", "closed_by": case.closed_by,
        "status": status_of(case), "funnel": case.funnel, "drop_reason": case.drop_reason,
        "fix": _prs([f for f in case.fix if f.role == "fix"], case, look),
        "backports": _prs([f for f in case.fix if f.role != "fix"], case, look),
        "not_landed": _prs(case.pending_fix, case, look),
        "timing": case.timing, "lag_s": case.lag_s, "timing_note": case.timing_note,
        "evidence": sorted({e.kind for e in case.evidence}),
        "traps": traps_of(case),
        "audit": dict(case.audit),
    }


def best_reply(text: IssueText) -> str:
    """The linker's best answer (`rules.answers.best_answer`): for a case the analysis never
    summarised, the nearest thing to its answer. Canned replies count here: for a search,
    "check LD_LIBRARY_PATH" posted on many issues still says what the reporter was told."""
    found = best_answer(text.author, text.comments, ANSWER_MIN_CHARS)
    return found[1].body if found else ""


def report_gist(text: IssueText) -> dict[str, str]:
    """What the reporter saw and what they were told, for a card: the first error line, the
    start of the report and the best reply, in plain text (most cases in the pool were never
    analysed, and a title alone says little)."""
    errors = error_lines(text.body, limit=1)
    return {"error": shorten(errors[0], 200) if errors else "", "report": shorten(clean_body(text.body), 280),
            "reply": shorten(clean_body(best_reply(text)), 280)}


def analysed(case: Case) -> bool:
    return bool(case.analysed_by or case.problem or case.answer)


def _fix_pr_summary(case: Case, look: Lookups) -> str:
    """What the fix PR says it fixes (its title and the start of its description): the
    nearest thing to a root cause for a case nobody analysed."""
    merged = [f for f in case.fix if f.state == "merged"] or case.fix
    for ref in merged:
        title, body = look.pulls.get((ref.repo, ref.number), ("", ""))
        summary = shorten(clean_body(body), 280)
        if title or summary:
            return f"{title}: {summary}" if title and summary else (title or summary)
    return ""


def card(case: Case, score: float | None = None, gist: dict[str, str] | None = None,
         look: Lookups = NO_LOOKUPS) -> dict[str, Any]:
    """A search result: enough to decide whether to open the case.

    For a case the analysis never summarised, `problem` is the fix PR's own summary and
    `answer` the best reply to the report; `problem_from` / `answer_from` say which
    ("analysis", "fix_pr", "best_reply", or "" when there is nothing)."""
    gist = gist or {"error": "", "report": "", "reply": ""}
    problem, problem_from = case.problem, "analysis" if case.problem else ""
    if not problem and not analysed(case):
        problem = _fix_pr_summary(case, look)
        problem_from = "fix_pr" if problem else ""
    answer, answer_from = case.answer, "analysis" if case.answer else ""
    if not answer and not analysed(case) and gist.get("reply"):
        answer, answer_from = gist["reply"], "best_reply"
    out = {
        "key": case.key, "title": case.title, "url": case.url,
        "closed_at": case.closed_at.isoformat() if case.closed_at else "",
        "status": status_of(case), "funnel": case.funnel, "analysed": analysed(case),
        "fix": _prs(case.fix, case, look),
        "timing": case.timing, "traps": traps_of(case), "theme": case.theme,
        "problem": problem, "problem_from": problem_from, "answer": answer, "answer_from": answer_from,
        "symptom": case.symptom, "first_action": case.first_action,
        "docs": doc_refs(case, look),
        **gist,
    }
    if score is not None:
        out["score"] = round(score, 4)
    return out


def evidence_chain(case: Case, look: Lookups = NO_LOOKUPS) -> dict[str, Any]:
    """The whole case as exported, in the served shapes (PRs, traps and documents as in every
    other view), plus what to cite: the issue, the fix PRs, the documents as platform links."""
    out = case.to_export()
    out["key"] = case.key
    out["fix"] = _prs(case.fix, case, look)
    out["pending_fix"] = _prs(case.pending_fix, case, look)
    for entry in out["candidates"]:
        if "repo" in entry and "number" in entry:
            entry["pr"] = pull_label((entry["repo"], int(entry["number"])), case.repo, case.platform)
    out["traps"] = traps_of(case)
    del out["trap_notes"]
    out["kb_refs"] = doc_refs(case, look)
    out["status"] = status_of(case)
    out["analysed"] = analysed(case)
    out["cite"] = {"issue": case.url, "fix": [f.url for f in case.fix if f.url], "docs": out["kb_refs"]}
    return out


def search_text(case: Case, text: IssueText | None = None, body_chars: int = 1500, reply_chars: int = 600) -> str:
    """What a symptom search matches a case on: its title, the analysis (problem, answer,
    symptom, first action), the start of the report, where error messages usually are, and,
    when nobody analysed the case, the best reply (what the reporter was told)."""
    report = (text.body[:body_chars].strip() if text else "")
    reply = best_reply(text)[:reply_chars].strip() if text and not case.answer else ""
    return "\n\n".join(p for p in (case_text(case), report, reply) if p)


def related_query(case: Case, gist: dict[str, str]) -> str:
    """What `related_cases` searches with: the case's own words (title, analysis) and its
    report's first error line and start (`report_gist`). The case index keeps this query's
    vector (`index_cases`), so asking costs no embedding."""
    return "\n\n".join(p for p in (search_text(case), gist.get("error", ""), gist.get("report", "")) if p)
