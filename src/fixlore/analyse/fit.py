"""Fitting what an analyst writes into a row: whole clauses (rules/clauses.py), and the row's share."""

from __future__ import annotations

from fixlore.rules.clauses import DANGLING, clause_ends, dangles, fit, without_dangling


def fit_cell(text: str, limit: int, fallback: str = "") -> str:
    """A short cell (an action): `text` whole or its first whole clauses, without an announcing
    ending; `fallback` when not even its first clause fits."""
    text = without_dangling((text or "").strip().rstrip("。. "))
    return fit(text, limit) or fallback


# A row is read at a glance: problem and answer together. Issue #22's readers of the seed digest accept
# a median of 220 visible characters; that bound is the row's, not a fitted number.
ROW_CHARS = 220


def row_budget(problem: str, stated: str, least: int) -> int:
    """The characters an analyst may write in a row: what the problem cell and the pipeline's facts
    (`stated`) leave of ROW_CHARS, never less than `least`. Measured once, 2026-12-06 (bench/rows.py,
    fixed 150 -> this): ascend-2026-09 (fitted world) recall 0.845 -> 0.849, median row 202 -> 208;
    held out: seed-twin 0.748 -> 0.756, seed-twin2 0.635 -> 0.643, npu-threads heldout 0.550 -> 0.550."""
    return max(least, ROW_CHARS - len(problem or "") - len(stated or "") - 2)


__all__ = ["DANGLING", "ROW_CHARS", "clause_ends", "dangles", "fit", "fit_cell", "row_budget", "without_dangling"]
