"""What earns a sentence room in a digest row (issue #22: facts chosen to fit the length, never cut).

A row says what was wrong and what was done; every further sentence is room spent, so a sentence
is taken only for what the row does not say yet. Two rules, pure functions over the sentence, the
sentences taken (as written in the thread and as shown) and the pipeline's own fact sentences
(`stated`: the fix, where it landed, the close):

- a repeat (`repeats`): a sentence worded like one already taken, or naming nothing new in words
  mostly said already ("backport !855 到 release/26.2.0" beside the fix sentence), goes. But a
  sentence worded like one taken that carries a figure the row lacks (a number, a version, a PR:
  "qwen3.5-27B：loss rel. err vs bf16 0.25%，throughput 1.3× bf16" beside the same line for
  qwen3-vl-30B) is a second measurement, not a repeat. It is taken within the row's own room
  (what ROW_CHARS leaves: the analyst's floor, EXPLAIN_BUDGET, does not stretch for it) and cut
  only where the cut keeps a figure the row lacks (analyse/offline.py). Written from how release
  notes and PR descriptions list results, one line per model or version in the same words; read on
  seed-twin2's tune rows (bench/splits.py): bench/rows.py 0.711 -> 0.737, facts_reader 0.773 ->
  0.795; held out (measured at the end only) and ascend-2026-09 unchanged.
- a second measurement shows its figures (`figures_only`): beside the line it repeats, the column
  names said once are not said again ("qwen3.5-27B：0.25%，1.3× bf16" after "qwen3-vl-30B：loss rel. err
  vs bf16 0.33%，throughput 1.1× bf16"), as people write the next line of a results list; the room
  saved goes to a further fact. Read on seed-twin2's tune rows (MindSpeed-MM#716): bench/rows.py
  0.737 -> 0.763, facts_reader 0.795 -> 0.818; held out and ascend-2026-09 (tune and heldout) unchanged.
- a pointer elsewhere (`points_elsewhere`, `without_own_reference`): a PR's line that sends the reader
  to another issue or PR ("实践文档另见 #498", "see #512 for the CLI part") names a fact the row lacks,
  though it has no identifier or figure of its own; the bookkeeping clause beside it that names only
  this issue ("关联 issue：#357") goes. Written from how PR templates link related work; read on
  seed-twin2's tune rows (MindSpeed-MM#357): bench/rows.py 0.763 -> 0.789, facts_reader 0.818 ->
  0.841; held out and ascend-2026-09 (tune and heldout) unchanged.
- (not a rule: a commit's title naming only the problem cell's names was once kept out of the room left
  over; it also dropped titles that were the only words saying what a fix does, github-mini widgets#98
  "Respect min_size in Widget.resize (1.x)", so it went, seed-twin2 tune facts_reader 0.864 -> the
  figure in CHANGELOG)
- worth the room (`worth_room`): once the row has a mechanism and a change (or advice), a sentence
  more only for a fact (a number, a name, a version, a PR) the row does not state yet.
"""

from __future__ import annotations

import re

from fixlore.analyse.roles import pulls_named, states_cause, states_change, states_reason
from fixlore.rules.refs import find_refs, without_written_refs
from fixlore.rules.text import hard_facts, overlap, tokens

# wording shared beyond this share of either sentence's words is the same wording
SAME_WORDING = 0.5


def figures(text: str, repo: str) -> set[str]:
    """The figures `text` states: numbers with a unit, versions, PR references (not identifiers)."""
    nums = {f for f in hard_facts(text) if re.match(r"v?\d", f)}
    return nums | {f"{r}#{n}" for r, n in pulls_named(text, repo)}


def named(text: str, repo: str) -> set:
    """Every hard fact `text` names: identifiers, figures, PRs and issues. A written reference
    counts once, as the ticket it names: the owner in "PaddlePaddle/FastDeploy#1472" is no name
    of its own beside "#1472". Read on paddle-threads (FastDeploy, while checking the exports of a
    rule fitted on the tune rows of ascend-2026-09, seed-twin and seed-twin2); no bench figure moves."""
    return hard_facts(without_written_refs(text)) | pulls_named(text, repo)


def same_wording(text: str, other: str) -> bool:
    toks, o = tokens(text), tokens(other)
    return text == other or max(overlap(toks, o), overlap(o, toks)) > SAME_WORDING


def new_figures(text: str, shown: list[str], stated: str, repo: str) -> set[str]:
    """The figures of `text` that neither the row's sentences as shown nor `stated` give."""
    return figures(text, repo) - figures(" ".join([stated] + shown), repo)


def repeats(text: str, taken: list[tuple[str, str]], stated: str, repo: str, like: list[str] | None = None) -> bool:
    """Whether `text` repeats the row: `taken` holds (sentence as in the thread, as shown) pairs;
    `like`, the sentences of `taken` in `text`'s words (`same_wording`), when the caller has them."""
    said = " ".join([stated] + [shown for _, shown in taken])
    if like is None:
        like = [orig for orig, _ in taken if same_wording(text, orig)]
    if like:
        # the same words with a figure the row does not state: a second measurement, not a repeat
        return text in like or not new_figures(text, [shown for _, shown in taken], stated, repo)
    return bool(taken or stated) and not named(text, repo) - named(said, repo) \
        and overlap(tokens(text), tokens(said)) >= SAME_WORDING


_HEAD = re.compile(r"^([^：:，,；;]{1,40})([：:]\s*)(.+)$", re.S)
_CLAUSE = re.compile(r"([，,；;]\s*)")


def figures_only(text: str, like: str) -> str:
    """`text`, a second measurement in the words of `like`, with the words `like` already says
    left off the head of each of its clauses: its subject and its figures stay. `text` unchanged
    when it has no "subject：" head or nothing would be left off."""
    m = _HEAD.match(text or "")
    if not m:
        return text
    said = {w.casefold() for w in re.split(r"[\s：:，,；;]+", like or "") if w}
    out, dropped = [], False
    for piece in _CLAUSE.split(m.group(3)):
        if _CLAUSE.fullmatch(piece):
            out.append(piece)
            continue
        words = piece.split()
        i = 0
        while i < len(words) - 1 and words[i].casefold() in said and not re.match(r"v?\d", words[i]):
            i += 1
        dropped |= i > 0
        out.append(" ".join(words[i:]))
    return f"{m.group(1)}{m.group(2)}{''.join(out)}" if dropped else text


# what is left of a clause without its references and the label words that introduce them
_LABEL = re.compile(r"(?:关联|相关|对应|修复|解决)?\s*(?:issue|issues|pr|mr|问题单|需求单|单号)?\s*[：:]?", re.I)


def points_elsewhere(text: str, repo: str, number: int, stated: str = "") -> bool:
    """Whether `text` names an issue or PR other than the case's own (`repo`#`number`) and the
    ones the row's fact sentences (`stated`: the fix) name already ("PR#964 回归通过" is news of the fix)."""
    known = {(r.repo, r.number) for r in find_refs(stated, repo)} | {(repo, number)}
    return bool({(r.repo, r.number) for r in find_refs(text, repo)} - known)


def without_own_reference(text: str, repo: str, number: int) -> str:
    """`text` without the clauses that only name the case's own issue ("关联 issue：#357")."""
    kept = []
    for clause in re.split(r"(?<=[；;，,。])", text or ""):
        refs = {(r.repo, r.number) for r in find_refs(clause, repo)}
        rest = _LABEL.sub("", without_written_refs(clause)).strip(" ，,；;。.：:")
        if refs == {(repo, number)} and len(rest) <= 2:
            continue
        kept.append(clause)
    return "".join(kept).strip().lstrip("，,；;").strip() if kept else ""


def cut_terms(said: list[str], repo: str) -> dict:
    """How a sentence that must shrink chooses its clauses (analyse/fit.fit_facts, issue #22): by
    the facts it `named` that the row (`said`: the title, the fact sentences, the sentences taken)
    does not, a clause stating the cause or what the change does kept first: the names a row
    lists mean nothing to a reader who is not told what was wrong or what was done."""
    return {"facts": lambda s: named(s, repo), "known": named(" ".join(said), repo),
            "needed": lambda s: states_cause(s) or states_reason(s) or states_change(s)}


def worth_room(text: str, roles: set[str], shown: list[str], stated: str, repo: str) -> bool:
    """Whether `text` earns room in a row that already says what was wrong and what was done (a
    mechanism, and the change or the advice): only by naming a fact (a number, a name, a version,
    a PR) the row does not state yet. A row still short of either takes it.
    With the row budget's other rules (2026-12-06, issue #22): ascend-2026-09 (fitted)
    bench/rows.py 0.853 -> 0.861 at median 208 -> 198, reader's count 0.874 -> 0.878 at
    219 visible; held out seed-twin 0.756 -> 0.748 / 0.832 -> 0.824, seed-twin2 0.643 /
    0.764 unchanged, npu-threads reference 0.550 unchanged."""
    if "mechanism" not in roles or not roles & {"change", "workaround"}:
        return True
    return bool(named(text, repo) - named(" ".join([stated] + shown), repo))


__all__ = ["SAME_WORDING", "cut_terms", "figures", "figures_only", "named", "new_figures", "points_elsewhere", "repeats", "same_wording", "without_own_reference", "worth_room"]
