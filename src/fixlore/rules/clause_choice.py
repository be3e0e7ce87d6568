"""Which whole clauses of a sentence a row keeps when the sentence does not fit (issue #22: facts
chosen to fit the length, never cut).

Cutting a sentence after its first whole clauses (rules/clauses.fit) keeps what comes first, and
engineers often write the facts last: "修改：matcher 跳过 bookkeeping 边，同时识别 v1/v2 两代 copy；断言
改查 `npu_grouped_matmul_swiglu_quant`" names its operator in the last clause. A reader of a row acts
on the names, versions, PRs and numbers it states, so when a sentence must shrink, its clauses are
chosen, never cut mid-way, and what is kept reads in the order it was written:

- the sentence's head (its first clause) stays: it says what the sentence is about, and the
  clauses after it elaborate it; without it a list of identifiers says nothing. So does a clause
  the caller says a reader needs (`needed`: the cause or what the change does, analyse/fit.py):
  names without what was wrong or what the fix does leave the reader nothing to act on;
- then the clauses that name a fact the row does not state yet (`known`), the most such facts per
  character a reader sees first, each taken when it still fits;
- then, with room left, the clauses without a new fact in the order written.

A clause is never separated from what it leans on: a part that announces what follows (a colon,
"例如": rules/clauses.leaves_open) goes with the next clause, an enumeration's items ("A、B、C")
are one part, and inside one statement (up to a semicolon) a clause is kept only with every clause
before it: commas carry one statement on ("…可以解决上面的问题，但是新版本又会导致新的问题：…，error
code is …": the last clause without the turn before it misstates), while a semicolon starts a
statement of its own ("…跳过 bookkeeping 边；断言改查 `npu_…`"). So a statement is cut only after its
first whole clauses, and whole statements are chosen for their facts. Written from how engineers write a cause or a change in one sentence
(a statement, then its particulars); no world's figure chose it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from fixlore.rules.clauses import clause_ends, leaves_open, turns_on
from fixlore.rules.text import hard_facts

# where one statement ends and the next begins inside a sentence: a semicolon (or a full stop)
_STATEMENT_END = ("；", ";", "。")
_MARKS = " ，,、：:；;。."


def parts(text: str) -> list[str]:
    """`text`'s clauses (each with its closing mark) joined where one cannot stand without the
    next: a part that `leaves_open` with it, an enumeration's items ("、") together, a contrast's
    halves ("不再 X，而是 Y": rules/clauses.turns_on)."""
    cuts = [0] + clause_ends(text) + [len(text)]
    pieces = [text[a:b] for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]
    out: list[str] = []
    for piece in pieces:
        if out and (leaves_open(out[-1]) or out[-1].rstrip().endswith("、") or turns_on(out[-1], piece)):
            out[-1] += piece
        else:
            out.append(piece)
    return out


def _statements(units: list[str]) -> list[int]:
    """The statement each part belongs to: a new one after a part ending on a semicolon."""
    out, at = [], 0
    for unit in units:
        out.append(at)
        at += unit.rstrip().endswith(_STATEMENT_END)
    return out


def _render(units: list[str], kept: set[int], statement: list[int]) -> str:
    """Kept parts in their order, each with its own mark, the last without one; a statement cut
    short ends on the mark that ended it in the text ("…跳过 bookkeeping 边；断言改查 …")."""
    order = sorted(kept)
    out = []
    for i, nxt in zip(order, order[1:] + [None]):
        piece = units[i]
        if nxt is not None and statement[nxt] != statement[i] and not piece.rstrip().endswith(_STATEMENT_END):
            last = max(j for j in range(len(units)) if statement[j] == statement[i])
            mark = units[last].rstrip()[-1:]
            mark = mark if mark in _STATEMENT_END else "；"
            piece = piece.rstrip().rstrip(_MARKS) + (mark + " " if mark.isascii() else mark)
        out.append(piece)
    return "".join(out).strip().rstrip(_MARKS).strip()


def choose_clauses(text: str, limit: int, facts: Callable[[str], set] = hard_facts, known: set | None = None,
                   measure: Callable[[str], int] = len, needed: Callable[[str], bool] | None = None) -> str:
    """`text` whole when `measure(text)` is within `limit` and it does not `leaves_open`; else its head, the parts a reader
    `needed`, then the parts naming the most facts (`facts`) not in `known` per character, then
    the other parts, each while it fits, in the order written; "" when the head (with the parts
    needed) does not fit or what is kept would end announcing what it no longer has."""
    text = re.sub(r"\s+", " ", text or "").strip()
    # a text that stops at a colon announces what followed it (a code block, a list): whole or not,
    # it is cut by the same rule as its parts ("例如在gen_duration_from_textgrid.py中：" before the code)
    if measure(text) <= limit and not leaves_open(text):
        return text
    units = parts(text)
    known = set(known or ())
    kept: set[int] = set()
    statement = _statements(units)

    def with_before(i: int) -> set[int]:
        # a clause goes with the clauses before it in its statement: "…，但是新版本又会导致新的问题：
        # …，error code is 500002" read without the turn says the upgrade fails
        return {j for j in range(i + 1) if statement[j] == statement[i]}

    def fits(more: set[int]) -> bool:
        return measure(_render(units, more, statement)) <= limit and not leaves_open(units[max(more)])

    if not fits({0}):
        return ""
    kept.add(0)
    for i in range(1, len(units)):      # the head, then what a reader needs, as long as it fits
        if needed and needed(units[i]) and fits(kept | with_before(i)):
            kept |= with_before(i)
    news = {i: facts(u) - known for i, u in enumerate(units)}

    def density(i: int) -> float:
        group = with_before(i) - kept
        return len(set().union(*(news[j] for j in group))) / max(1, sum(measure(units[j]) for j in group))

    for i in sorted((i for i in range(len(units)) if i not in kept and news[i]), key=lambda i: (-density(i), i)):
        if i not in kept and fits(kept | with_before(i)):
            kept |= with_before(i)
    for i in range(len(units)):
        if i not in kept and fits(kept | with_before(i)):
            kept |= with_before(i)
    return _render(units, kept, statement)


__all__ = ["choose_clauses", "parts"]
