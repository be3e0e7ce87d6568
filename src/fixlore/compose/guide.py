"""The troubleshooting guide (排错指引): one row per cause, the symptom and the first thing to do.

Cases share a row when the same merged PR fixed them, when symptom and action are the same, or
when they share a cause: in one repository, both titles name the same specific identifier (a
config key, a file, a function that at most `SPECIFIC` kept cases name), or their problems and
mechanisms share two. The first action is a step for the reader, then what the fix changed or the
answer said, with the fix PRs that carry it in brackets. The step is the analyst's imperative
(`Written.action`, unless it is what the change did), else whether the cause the case found holds
for the reader (a clause of the mechanism, compose/steps.cause_check), else the code the cause
names as quoted terms, else whether the reader's build has the fix. The Chinese digest's cells are
Chinese: the thread's English appears only as a quoted term (compose/language.TERM, the same spans
the editorial check leaves out), never as a clause; the English digest marks a Chinese quote.
The change is the analyst's sentence that speaks most to the problem, never a measured result."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from fixlore.compose.editorial import Editorial
from fixlore.compose.figures import Refs
from fixlore.compose.language import quote
from fixlore.compose.render import safe_url
from fixlore.compose.steps import (PIPELINE_STEP, PLANNED, RESULT, cause_check, closest, fit, identifiers, imperative,
                                   ours, searchable, sentences, terms_check, version_check)
from fixlore.compose.wording import t as _t
from fixlore.core.enums import FixState
from fixlore.core.model import Case
from fixlore.rules.refs import find_refs
from fixlore.wording.facts import pr_label

# an identifier named by more kept cases than this is vocabulary (a product, a common API), not a cause
SPECIFIC = 3
_IDENT = re.compile(r"(?<![A-Za-z0-9_./-])(?:[A-Za-z_][A-Za-z0-9_]*_[A-Za-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9_]*"
                    r"|[A-Z][a-z]+[A-Z][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_.]*)")


def _marks(text: str, repo: str) -> set[str]:
    own = re.sub(r"[^a-z0-9]", "", repo.split("/")[-1].lower())    # the product's own name is no cause
    return {m for m in (x.group(0).lower().rstrip(".") for x in _IDENT.finditer(text or "")) if len(m) >= 5 and m != own}


def cause_marks(c: Case) -> tuple[set[str], set[str]]:
    """The identifiers a case's title names, and those its title, problem and mechanism name."""
    title = _marks(c.title, c.repo)
    return title, title | _marks(f"{c.problem} {c.written.mechanism}", c.repo)


def _share_a_cause(a: tuple[set[str], set[str]], b: tuple[set[str], set[str]], specific: set[str]) -> bool:
    """Both titles name the same specific identifier, or their explanations share two of them
    (one shared name in passing, "cutoff_len" as a setting in one case and a cause in the other, is not enough)."""
    return bool(a[0] & b[0] & specific) or len(a[1] & b[1] & specific) >= 2


def _groups(kept: list[Case]) -> list[list[Case]]:
    """Cases joined by a shared merged fix PR, the same symptom and action, or a shared cause."""
    parent = list(range(len(kept)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    marks = [cause_marks(c) for c in kept]
    common = Counter(m for _, ms in marks for m in ms)
    specific = {m for m, n in common.items() if n <= SPECIFIC}
    owner: dict[Any, int] = {}
    for i, c in enumerate(kept):
        keys = [("pr", f.repo, f.number) for f in c.landed_fixes if f.role == "fix"]
        keys.append(("same", re.sub(r"\s+", "", (c.symptom or c.problem or c.title).lower()), c.first_action))
        for k in keys:
            if k in owner:
                parent[find(i)] = find(owner[k])
            else:
                owner[k] = i
        for j in range(i):
            if kept[j].repo == c.repo and _share_a_cause(marks[i], marks[j], specific):
                parent[find(i)] = find(j)
    out: dict[int, list[Case]] = {}
    for i, c in enumerate(kept):
        out.setdefault(find(i), []).append(c)
    return list(out.values())


def _names(text: str, label: str, repo: str) -> bool:
    """`text` names the PR `label` ("!810") in any of the ways people write it ("!810", "#810",
    "PR#810", "MR !810"): the reference reader every stage uses."""
    number = int(re.sub(r"\D", "", label) or 0)
    return any(r.number == number for r in find_refs(text, repo))


def _own_step(c: Case, lang: str) -> str:
    """The analyst's imperative step, when it tells the reader what to do: with a fix, not when the
    row's change states it (then it is what the change did: "删除 docs 中旧参数示例"); in the Chinese
    digest only when written in Chinese."""
    text = c.written.action or (c.first_action if c.fix_state == FixState.NO_FIX else "")
    if not imperative(text) or not ours(text, lang):
        return ""
    if c.fix_state != FixState.NO_FIX and text.strip().rstrip("。. ") in (c.written.change or ""):
        return ""
    return text


def _check(cs: list[Case], labels: list[str], lang: str, said: list[str], ed: Editorial) -> tuple[str, Case | None]:
    """The first thing to check: an analyst's imperative step, else whether the cause the case
    found holds for the reader, else the code the cause names (quoted terms), else (a fix with
    nothing else to go on) whether the reader's build has it."""
    for c in cs:
        if text := ed.case_text(c, "action", lang) if imperative(c.written.action) else "":
            return text, c
        if text := _own_step(c, lang):
            return quote(fit(text, 90) or text.strip().rstrip("。. "), lang, said), c
    for c in cs:
        if step := cause_check(c, lang):
            return step, None
    names = list(dict.fromkeys(n for c in cs for n in identifiers(c)))[:2]
    if names and (step := terms_check(cs[0], names, lang)):
        return step, None
    if labels:
        return _t(lang, f"先确认所用版本是否含 {'、'.join(labels)}",
                  f"Check whether your build includes {', '.join(labels)}"), None
    return "", None


def _change(cs: list[Case], used: Case | None, lang: str, said: list[str], ed: Editorial) -> str:
    """What the fix or the answer does, in one sentence or clause that fits (never cut): of what
    the analyst wrote, the one that speaks most to the problem (the change that fixes what the
    reader sees, not a side change of the same PR), never a measured result; a plan is not said of
    a fix that merged, nor the pipeline's own step; in the Chinese digest only Chinese."""
    for c in cs:
        if c is used:
            continue
        landed = c.fix_state == FixState.LANDED
        texts = [c.written.action] + sentences(c.written.change) + [
            c.written.workaround, c.first_action if c.fix_state == FixState.NO_FIX else ""]
        shown = []
        for text in dict.fromkeys(t for t in texts if t):
            if imperative(text) or text.strip().lower().startswith(PIPELINE_STEP) or RESULT.search(text):
                continue
            if landed and any(w in text.lower() for w in PLANNED):
                continue
            if (fitted := fit(text, 70)) and ours(fitted, lang):
                shown.append(fitted)
        if shown:
            best = closest(shown, f"{c.title} {c.problem}")[0]
            if ed.case_text(c, "action", lang) and c.written.action and fit(c.written.action, 70) == best:
                return ed.case_text(c, "action", lang)
            return quote(best, lang, said)
    return ""


def _action(cs: list[Case], lang: str, said: list[str], ed: Editorial, ref: Refs) -> str:
    """The row's first action: what to check first, then what the fix changes, with the landed
    PRs (or the open ones to watch) in brackets unless the text names them already."""
    labels = list(dict.fromkeys(pr_label(f, c.repo) for c in cs for f in c.landed_fixes if f.role == "fix"))
    labels = labels or list(dict.fromkeys(pr_label(f, c.repo) for c in cs for f in c.landed_fixes))
    # a PR still open is watched only while the case's fix has not landed
    pending = list(dict.fromkeys(pr_label(f, c.repo) for c in cs if c.fix_state == FixState.NOT_LANDED
                                 for f in c.fix + c.pending_fix if not f.merged and f.state == "open"))
    check, used = _check(cs, labels, lang, said, ed)
    change = _change(cs, used, lang, said, ed)
    if check.startswith(("先确认所用版本是否含", "Check whether your build")) and \
            any(_names(change, lb, cs[0].repo) for lb in labels):
        check = ""        # the change names the fix already: asking for it again says nothing
    fixed = any(c.fix_state != FixState.NO_FIX for c in cs)
    lead = _t(lang, "；修复：" if fixed else "；答复：", "; the fix: " if fixed else "; the answer: ")
    text = check + (lead + change if check and change else change)
    if not text and not labels and not pending:
        # nothing in the digest's language to go on: the versions the answer names, else the answer
        # itself, where the reader finds it
        text = version_check(cs[0], lang) or _t(lang, f"先对照 {ref(cs[0])} 的维护者答复排查",
                                                f"Read the maintainers' answer in {ref(cs[0])} first")
    raw = " ".join(c.written.action or "" for c in cs) + " " + text
    if labels and not any(_names(raw, lb, cs[0].repo) for lb in labels):
        landed = "、".join(labels) if lang == "zh" else ", ".join(labels)
        return text + _t(lang, f"（{landed} 已合入）", f" (landed in {landed})")
    if pending and not any(_names(raw, lb, cs[0].repo) for lb in pending):
        waiting = "、".join(pending) if lang == "zh" else ", ".join(pending)
        return (text or _t(lang, "先按官方答复规避", "Work around it as the maintainers advise")) + _t(
            lang, f"（{waiting} 未合入，关注）", f" ({waiting} not merged yet: watch it)")
    return text


def guide(kept: list[Case], ref: Refs, repo_order: list[str], lang: str, ed: Editorial | None = None) -> list[dict[str, Any]]:
    ed = ed or Editorial()
    ordered = sorted(kept, key=lambda c: (repo_order.index(c.repo), c.number))
    rows = []
    for cs in _groups(ordered):
        said: list[str] = []
        symptoms: list[str] = []
        for c in cs:
            s = searchable(c)
            shown = ed.case_text(c, "symptom", lang) or quote(s, lang, said)
            if s and shown not in symptoms:
                symptoms.append(shown)
        rows.append({"symptom": " / ".join(symptoms), "first_action": _action(cs, lang, said, ed, ref),
                     "cases": [{"ref": ref(c), "url": safe_url(c.url)} for c in cs], "untranslated": said})
    return rows
