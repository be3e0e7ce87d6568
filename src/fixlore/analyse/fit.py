"""Fitting what an analyst writes into a row: whole clauses (rules/clauses.py), and the row's share."""

from __future__ import annotations

from fixlore.rules.clause_choice import choose_clauses
from fixlore.rules.clauses import DANGLING, clause_ends, dangles, fit, without_dangling
from fixlore.rules.text import hard_facts, overlap, tokens

# a sentence cut to fewer characters than this says too little to keep
MIN_PIECE = 24
# a clause whose words a clause already in the row holds this much of says it again
RESTATED = 0.8


def fit_cell(text: str, limit: int, fallback: str = "") -> str:
    """A short cell (an action): `text` whole or its first whole clauses, without an announcing
    ending; `fallback` when not even its first clause fits."""
    text = without_dangling((text or "").strip().rstrip("。. "))
    return fit(text, limit) or fallback


# A row is read at a glance: problem and answer together. Issue #22's readers of the seed digest accept
# a median of 220 visible characters; that bound is the row's, not a fitted number.
ROW_CHARS = 220


def shown_len(text: str) -> int:
    """The characters a reader sees of `text`: code marks (`` ` ``) render as type, not as text."""
    return len((text or "").replace("`", ""))


def fit_shown(text: str, limit: int) -> str:
    """`fit` measured in the characters a reader sees (`shown_len`): `text` whole or its first whole
    clauses within `limit` of them, "" when not even the first clause fits."""
    marks = len(text or "") - shown_len(text)
    for room in range(limit + marks, limit - 1, -1):
        cut = fit(text, room)
        if shown_len(cut) <= limit:
            return cut
    return ""


def fit_facts(text: str, limit: int, facts=hard_facts, known: set | None = None, needed=None) -> str:
    """`text` within `limit` characters a reader sees (`shown_len`) by whole clauses chosen for the
    facts (`facts`) the row lacks (`known`: what it states), its head and the clauses a reader
    `needed` kept (rules/clause_choice.py); "" when not even its head fits."""
    return choose_clauses(text, limit, facts=facts, known=known, measure=shown_len, needed=needed)


def row_budget(problem: str, stated: str, least: int) -> int:
    """The characters an analyst may write in a row: what the problem cell and what the row shows
    besides (`stated`: the fact sentences as the row states them, the cited document's name) leave of
    ROW_CHARS, counted as a reader sees them (`shown_len`), never less than `least`. Measured once,
    2026-12-06 (bench/rows.py, fixed 150 -> this): ascend-2026-09 (fitted world) recall 0.845 -> 0.849,
    median row 202 -> 208; held out: seed-twin 0.748 -> 0.756, seed-twin2 0.635 -> 0.643, npu-threads
    heldout 0.550 -> 0.550. Then (issue #22, same day) counting the citation and the row's close
    (`wording.facts.row_close`) and measuring in shown characters, with offline.worth_room and
    rules/text.STAGE_LABEL: ascend-2026-09 (fitted) bench/rows.py 0.853 -> 0.861 at median 208 -> 198,
    bench/facts_reader.py 0.874 -> 0.878 at median visible 225.5 -> 219.0; held out: seed-twin 0.756 ->
    0.748 / 0.832 -> 0.824, seed-twin2 0.643 -> 0.643 / 0.764 -> 0.764, npu-threads heldout 0.550 -> 0.550."""
    return max(least, ROW_CHARS - shown_len(problem) - shown_len(stated) - 2)


def without_restated(text: str, said: list[str]) -> str:
    """`text` without the clauses that say again what a clause of `said` (the row so far) says:
    nearly all their words there and no hard fact (a number, a name, a version) of their own. People
    lead a PR's sentence with the cause the reply already gave ("交换机等嵌入式设备认证响应慢：协议
    阶段超时放宽至 30s" after "交换机这类嵌入式设备认证响应慢，…"); the row says the cause once."""
    before = [(set(tokens(c)), hard_facts(c)) for s in said for c in clauses(s)]
    kept = []
    for clause in clauses(text):
        words = tokens(clause)
        again = len(words) >= 3 and any(overlap(words, list(w)) >= RESTATED and hard_facts(clause) <= f
                                        for w, f in before)
        if not again:
            kept.append(clause)
    return "".join(kept).strip().rstrip("，,、；;：:").strip()


def clauses(text: str) -> list[str]:
    """The clauses of `text`, each with its closing mark."""
    cuts = [0] + clause_ends(text) + [len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:]) if text[a:b].strip()]


__all__ = ["DANGLING", "MIN_PIECE", "ROW_CHARS", "clause_ends", "dangles", "fit", "fit_cell", "fit_facts", "fit_shown", "clauses", "row_budget", "shown_len", "without_dangling", "without_restated"]
