"""The pool's cut: which pool cases go to the analysis (the top K by value, or by the probability
learned from the editors' decisions, `--value-weights`, with its gate when the weights' own check
favours it). A case whose own thread was read in part always keeps a slot."""

from __future__ import annotations

from typing import Any

from fixlore.core.model import Case
from fixlore.rules.funnel.learned import EVEN, case_features, cut_note, gate_favoured, learned_score
from fixlore.rules.funnel.rank import pool_cut


def rank_pool(pool: list[tuple[Case, str]], comments: dict, cfg: Any) -> set[str]:
    """The keys of the pool cases inside the cut; with learned weights, each pool case's
    `value_weights` note says how the cut treated it (shown by `fixlore explain`)."""
    # A case whose own thread was read in part is analysed, never left in the backlog: its value cannot
    # be read from what was not read, so it keeps one of the K slots rather than losing it to a case
    # behind it (the analysis then names the gap: fix_unknown). The other cases are cut as before.
    read_in_part = {k for c, k in pool if any(u.startswith("issues/") for u in c.unread)}
    # the ranking: the value, or the probability learned from the editors' decisions (and then
    # the gate, a cut at series.weights.EVEN, when the weights' own check favours it)
    score, at_least = {k: c.value for c, k in pool}, cfg.funnel.value_min
    weights = cfg.value_weights
    if weights is not None:
        score = {k: learned_score(case_features(c), weights) for c, k in pool}
        at_least = EVEN if gate_favoured(weights) else at_least
    items = [(k, score[k], len(comments.get((c.repo, c.number), ())), c.closed_at.timestamp() if c.closed_at else 0.0)
             for c, k in pool]
    top_set = pool_cut(items, cfg.funnel.rank_top_k, at_least, read_in_part)
    if weights is not None:
        how = f"the top {cfg.funnel.rank_top_k}" if at_least is None else f"the cases of learned p >= {at_least}"
        for c, k in pool:
            c.value_weights = cut_note(weights, score[k], k in top_set, k in read_in_part, how)
    return top_set
