"""The troubleshooting guide (排错指引): one row per cause, the symptom and the first thing to do.

Cases share a row when the same merged PR fixed them, when symptom and action are the same, or
when they share a cause: in one repository, both titles name the same specific identifier (a
config key, a file, a function that at most `SPECIFIC` kept cases name), or their problems and
mechanisms share two. The symptom is the error the report quotes, else the failing clause of the
problem (compose/steps.searchable). The first action is a step for the reader, then what the fix
changed or the answer said, labelled by its role (compose/roles: 方案 / 原因 / 答复), with the fix
PRs in brackets in the tense of their state (已合入 / 待合入). The step is, in this order: the
thread's imperative (the analyst's `Written.action` or the maintainers' advice, unless it is what
the change did or news about the thread), the versions an answer asks to install ("先装 `cann
9.0.0`"), whether the cause the case found holds for the reader (compose/steps.cause_check), the
code the cause names when the case's words say what it is (compose/kinds.py); never a bare
"先核对 `x`". The change is the analyst's sentence of role change that speaks most to the problem
(never a measured result, never status: "你好", "This pull request fixes #29"), else the fix PR's
own title (in the Chinese digest an English title only after a check, never the whole action), else
what was wrong (labelled 原因). A PR is named as the rest of the digest names it (`labelled`). The Chinese digest's cells are Chinese: the
thread's English appears only as a quoted term (compose/language.TERM, the same spans the
editorial check leaves out), never as a clause; the English digest marks a Chinese quote.

Read on ascend-2026-09, npu-threads and paddle-threads (fitted: their guides were read while the
role cues and the order were written). Plain "先核对 `x`" steps in the Chinese guide, 2026-12-07:
ascend 19 -> 0 of 48, npu-threads 21 -> 0 of 50, paddle-threads 7 -> 0 of 15; held out (never
read): seed-twin 12 -> 0 of 22, seed-twin2 8 -> 0 of 23, demo 1 -> 0, github-mini 2 -> 0,
pytest-threads 1 -> 0; no action verbatim more than twice in any world, before or after."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from fixlore.compose.editorial import Editorial
from fixlore.compose.figures import Refs
from fixlore.compose.language import TERM, quote, term
from fixlore.compose.links import pr_links
from fixlore.compose.render import safe_url
from fixlore.compose.roles import CAUSE, CHANGE, STATUS, content, label, restates, role
from fixlore.compose.setup_step import setup_check, setup_facts
from fixlore.compose.steps import (PIPELINE_STEP, PLANNED, RESULT, cause_check, closest, fit, identifiers, imperative,
                                   ours, pr_title, searchable, sentences, terms_check, version_check)
from fixlore.compose.wording import t as _t
from fixlore.core.enums import FixState
from fixlore.core.model import Case, pr_sigil
from fixlore.rules.refs import KIND_EITHER, KIND_PULL, find_refs
from fixlore.wording.facts import pr_label

# where the row's first check comes from (guide._check): the thread's own step, the versions an
# answer asks to install, whether the cause holds (compose/steps.cause_check); else the kind of
# name the cause names (compose/kinds.STEP: "switch", "setting", ...)
STEP_THREAD, STEP_INSTALL, STEP_CAUSE = "thread", "install", "cause"
# a check that asks whether the cause holds, or whether the switch it names is on, says the cause
# already: the row does not add it as 原因
ON_THE_CAUSE = (STEP_CAUSE, "switch")
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


def _names(text: str, label: str, c: Case) -> bool:
    """`text` names the PR `label` ("!810") in any of the ways people write it ("!810", "#810",
    "PR#810", "MR !810", GitHub's "GH-810"): the reference reader every stage uses, on case `c`'s platform."""
    number = int(re.sub(r"\D", "", label) or 0)
    return any(r.number == number for r in find_refs(text, c.repo, c.platform))


def labelled(text: str, cs: list[Case]) -> str:
    """`text` with each reference to one of the row's PRs written as the digest names that PR
    everywhere else (wording/facts.pr_label: `PR#2353` on GitHub, `!57` on GitCode), not as the thread
    wrote it ("#2353", "!2353", "PR 2353"). A bare `#N` is that PR only where PRs and issues share
    one numbering (GitHub's `#`); on GitCode it is an issue. GitHub's `GH-N` is read on a GitHub case only
    (rules.refs.find_refs). A quoted term (a PR title) stays as written."""
    prs = {(f.repo, f.number): (f, c) for c in cs for f in (*c.fix, *c.pending_fix)}
    quoted = [m.span() for m in TERM.finditer(text)]
    for r in sorted(find_refs(text, cs[0].repo, cs[0].platform), key=lambda r: -r.span[0]):
        f, c = prs.get((r.repo, r.number), (None, None))
        if f is None or any(a <= r.span[0] < b for a, b in quoted):
            continue
        if r.kind == KIND_PULL or (r.kind == KIND_EITHER and pr_sigil(f.platform) == "#"):
            text = text[:r.span[0]] + pr_label(f, c.repo) + text[r.span[1]:]
    return text


def _own_step(c: Case, lang: str) -> str:
    """The reader's step the thread gives: the analyst's imperative (`Written.action`), else an
    imperative sentence of the official answer (`Written.workaround`), else for a case with no fix
    the pipeline's answer. With a fix, not when the row's change states it (then it is what the
    change did: "删除 docs 中旧参数示例"); in the Chinese digest only when written in Chinese; never
    news about the thread (compose/roles: "请关注 !N 合入" is not a step)."""
    texts = [c.written.action] + sentences(c.written.workaround) + [
        c.first_action if c.fix_state == FixState.NO_FIX else ""]
    for text in (content(t) for t in texts if t):
        if not imperative(text) or not ours(text, lang) or role(text, "workaround", c.repo, f"{c.title} {c.problem}") == STATUS:
            continue
        if c.fix_state != FixState.NO_FIX and text.strip().rstrip("。. ") in (c.written.change or ""):
            continue
        return text
    return ""


def _check(cs: list[Case], lang: str, said: list[str], ed: Editorial) -> tuple[str, Case | None, str]:
    """The first thing to check, the case whose words it is, and where it comes from
    (`STEP_THREAD`, `STEP_INSTALL`, `STEP_CAUSE`, or the kind of name compose/kinds.py gives), in
    this order: a step for the reader from the thread (the analyst's or the maintainers'
    imperative), else the versions the answer names to install, else whether the cause the case
    found holds for the reader, else the code the cause names when the case's words say what it is
    (a switch, a setting, a log keyword: compose/kinds.py); never a bare "先核对 `x`" (a name the
    case says nothing more about asks the reader nothing)."""
    for c in cs:
        if text := ed.case_text(c, "action", lang) if imperative(c.written.action) else "":
            return text, c, STEP_THREAD
        if text := _own_step(c, lang):
            return quote(fit(text, 90) or text.strip().rstrip("。. "), lang, said), c, STEP_THREAD
    for c in cs:
        if step := version_check(c, lang):
            return step, None, STEP_INSTALL
    for c in cs:
        if step := cause_check(c, lang):
            return step, None, STEP_CAUSE
    names = list(dict.fromkeys(n for c in cs for n in identifiers(c)))[:2]
    if names:
        step, what = terms_check(cs[0], names, lang)
        if step:
            return step, None, what
    return "", None, ""


def _change(cs: list[Case], used: Case | None, lang: str, said: list[str], ed: Editorial, wanted: str) -> str:
    """What the fix or the answer does (`wanted` CHANGE), or what was wrong (CAUSE), as the
    analyst's sentences say it by their role (compose/roles), in one sentence or clause that fits (never cut): of what
    the analyst wrote, the one that speaks most to the problem (the change that fixes what the
    reader sees, not a side change of the same PR), never a measured result or news about the
    thread ("你好", "This pull request fixes #29"); a plan is not said of a fix that merged, nor the
    pipeline's own step; in the Chinese digest only Chinese."""
    for c in cs:
        if c is used:
            continue
        landed = c.fix_state == FixState.LANDED
        texts = [(c.written.action, "action")] + [(x, "change") for x in sentences(c.written.change)] + [
            (x, "workaround") for x in sentences(c.written.workaround)] + [
            (c.first_action if c.fix_state == FixState.NO_FIX else "", "workaround")]
        shown = []
        for text, field in dict.fromkeys((content(t), f) for t, f in texts if t):
            if role(text, field, c.repo, f"{c.title} {c.problem}") != wanted or imperative(text) or text.strip().lower().startswith(PIPELINE_STEP) or RESULT.search(text):
                continue
            if landed and any(w in text.lower() for w in PLANNED):
                continue
            if (fitted := fit(text, 70)) and ours(fitted, lang) and fitted not in shown:
                shown.append(fitted)
        if shown:
            best = closest(shown, f"{c.title} {c.problem}")[0]
            if ed.case_text(c, "action", lang) and c.written.action and fit(c.written.action, 70) == best:
                return ed.case_text(c, "action", lang) or ""
            return quote(best, lang, said)
    return ""


def _titled(cs: list[Case], lang: str, said: list[str], alone: bool = False) -> str:
    """What the fix PR says it does (its title, compose/steps.pr_title), when the analyst wrote
    nothing that fits: Chinese as it is, another language quoted as a term in the Chinese digest
    after a check ("先确认是否…；方案：`Fix pto codegen …`"), a Chinese title marked as a quote in
    the English one. A title in another language is never the Chinese cell's whole action (`alone`:
    "`Upgrade CI IMAGE to v0.25.0`（PR#5095 已合入）" tells a Chinese reader nothing to do; npu-threads
    had 12 such rows of 50): the row takes the next kind of first step instead."""
    for c in cs:
        for f in [f for f in c.landed_fixes if f.role == "fix"] + list(c.landed_fixes) + [
                f for f in c.fix + c.pending_fix if not f.merged and f.state == "open"]:
            title = pr_title(c, f)
            if not title or (alone and lang == "zh" and not ours(title, lang)):
                continue
            title = term(title) if lang == "zh" and not ours(title, lang) else quote(title, lang, said)
            if title:
                return title
    return ""


def _action(cs: list[Case], lang: str, said: list[str], ed: Editorial, ref: Refs) -> str:
    """The row's first action: what to check first, then what the fix changes (labelled by its
    role, compose/roles: 方案, 原因, or 答复 for an answer with no code change), with the landed
    PRs (or the open ones to watch) in brackets in the tense of their state unless the text names
    them already; the fix PR's title says what it changes when the analyst wrote nothing that fits."""
    labels = list(dict.fromkeys(pr_label(f, c.repo) for c in cs for f in c.landed_fixes if f.role == "fix"))
    labels = labels or list(dict.fromkeys(pr_label(f, c.repo) for c in cs for f in c.landed_fixes))
    # a PR still open is watched only while the case's fix has not landed
    pending = list(dict.fromkeys(pr_label(f, c.repo) for c in cs if c.fix_state == FixState.NOT_LANDED
                                 for f in c.fix + c.pending_fix if not f.merged and f.state == "open"))
    check, used, asks = _check(cs, lang, said, ed)
    # what the fix does: the analyst's change, else the fix PR's own title, else what was wrong
    kind, change = CHANGE, _change(cs, used, lang, said, ed, CHANGE)
    if not change and (labels or pending):
        change = _titled(cs, lang, said, alone=not check)
    if not change and asks not in ON_THE_CAUSE:
        kind, change = CAUSE, _change(cs, used, lang, said, ed, CAUSE)
    if asks == STEP_INSTALL and all(t.strip("`") in change for t in TERM.findall(check)):
        change = ""       # the answer only asks for the versions the check names
    if check and change and restates(change, check, verb=False):
        change = ""       # the fix says again what the step says ("add initial support for Ascend 310P NPU")
    fixed = any(c.fix_state != FixState.NO_FIX for c in cs)
    if not check and not change and labels:
        check = setup_check(next((c for c in cs if any(setup_facts(c))), cs[0]), lang, labels)
    word = label(kind if kind == CAUSE else CHANGE if fixed else "answer", lang)
    lead = (f"；{word}：" if lang == "zh" else f"; {word}: ") if check else (
        f"{word}：" if lang == "zh" else f"{word[:1].upper()}{word[1:]}: ") if kind == CAUSE else ""
    text = check + (lead + change if change else "")
    if not text and not labels and not pending:
        # nothing in the digest's language to go on: where the reader finds the maintainers' answer
        text = setup_check(next((c for c in cs if any(setup_facts(c))), cs[0]), lang, answer_in=ref(cs[0]))
    # the PRs named as the digest names them, in the cell and in the quotes it records as untranslated
    text, said[:] = labelled(text, cs), [labelled(q, cs) for q in said]
    raw = text      # the cell names the PR itself, or the brackets do (not a state clause it left out)
    if labels and not any(_names(raw, lb, cs[0]) for lb in labels):
        landed = "、".join(labels) if lang == "zh" else ", ".join(labels)
        return text + _t(lang, f"（{landed} 已合入）", f" (landed in {landed})")
    if pending and not any(_names(raw, lb, cs[0]) for lb in pending):
        waiting = "、".join(pending) if lang == "zh" else ", ".join(pending)
        return (text or _t(lang, "先按官方答复规避", "Work around it as the maintainers advise")) + _t(
            lang, f"（{waiting} 待合入）", f" ({waiting} not merged yet)")
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
                     "cases": [{"ref": ref(c), "url": safe_url(c.url)} for c in cs], "untranslated": said,
                     "links": {lb: url for c in cs for lb, url in pr_links(c).items()}})
    return rows
