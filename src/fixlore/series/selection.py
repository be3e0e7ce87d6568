"""Value weights learned from editors' decisions kept outside a series ledger (a world's
truth.yaml), the check that says whether a run may cut by them, and the selection a run makes
with them (issue #23; docs/series.md "Learned value weights").

Decisions. The truth rows of the splits named (`fixlore.evaluate.splits.splits_by_key`: the
row's own `split:`, or the SHA-1 rule in a truth naming none) whose case is in the run's pool: 1 when the truth's funnel is
`selected` (the editors published it), 0 otherwise (analysed and dropped, or left below the
cut). Rows the link stage keeps out of the pool (noise, internal, unresolved ...) are no
candidates and no decisions. The other splits' labels are never read here.

Features. `series.weights.case_features` of each pool case as the link stage leaves it when
every pool case is an analysis candidate (`EVERY`), so no feature depends on the default cut
(a case below the cut loses its answer evidence); this is the state a run ranks its pool in.

Fit. `series.weights.learn` on every decision.

Selection. A run cuts its pool with `rules.funnel.rank.pool_cut` (the world's top K, or every
case scoring at least a threshold; cases read only in part keep a slot; ties by comments, then
close time) and the analysis then keeps or drops each case it was given. `selected` is that
choice for any scoring, given the analysis' verdict on every pool case (a run that analysed
them all: the analysis judges one case at a time, so its verdict does not depend on which
others were analysed).

The check (`gate_check`). The gate is the run's threshold cut over the learned probability at
`EVEN` (0.5), the analysis' verdict still applying. Whether a run uses it is decided from the
training decisions alone: they are split in `HOLD_OUT_EVERY` parts by key hash
(`series.weights.fold`), each part's rows judged by weights learned on the other parts (the
default's choice where those hold one class only), and the rows agreeing with the editors are
counted for the gate and for the default cut (the value's top K). The gate is favoured when it
agrees with strictly more rows. The test has no setting of its own; it was written after the
gate's held-out figures were read (bench/learned_selection.py's docstring says in which order).
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fixlore.core.enums import FunnelStage
from fixlore.core.errors import ConfigError
from fixlore.core.model import Case
from fixlore.evaluate.splits import splits_by_key
from fixlore.rules.funnel.rank import pool_cut
from fixlore.rules.funnel.learned import EVEN, case_features, learned_score
from fixlore.series.weights import HOLD_OUT_EVERY, fold, learn

EVERY = 1_000_000                      # a top K larger than any pool: every pool case is analysed
POOL = (FunnelStage.SELECTED, FunnelStage.ANALYSIS, FunnelStage.RANK)
SOURCE = "truth"                       # a weights file learned from a truth file (a series' own says nothing)


@dataclass
class PoolView:
    """What a selection needs of one run: its pool cases (linked with every pool case an analysis
    candidate), the keys the analysis kept when it analysed them all, the comments of each issue
    (the cut's tie-break), and the run's cut (top K, or a threshold on the value)."""
    pool: list[Case]
    kept: set[str]
    comments: Mapping[tuple[str, int], int]
    top_k: int
    value_min: float | None = None

    def scores(self, saved: Mapping[str, Any] | None = None) -> dict[str, float]:
        """Each pool case's value, or its learned probability under `saved` weights."""
        if saved is None:
            return {c.key: c.value for c in self.pool}
        return {c.key: learned_score(case_features(c), saved) for c in self.pool}


def selected(view: PoolView, score: Mapping[str, float], at_least: float | None = None) -> set[str]:
    """The cases a run ranking its pool by `score` publishes: inside the cut (the top K, or every
    case scoring `at_least` when given), kept by the analysis."""
    items = [(c.key, score[c.key], view.comments.get((c.repo, c.number), 0),
              c.closed_at.timestamp() if c.closed_at else 0.0) for c in view.pool]
    read_in_part = {c.key for c in view.pool if any(u.startswith("issues/") for u in c.unread)}
    return pool_cut(items, view.top_k, at_least, read_in_part) & view.kept


def default_selected(view: PoolView) -> set[str]:
    return selected(view, view.scores(), view.value_min)


def truth_decisions(truth: Mapping[str, Mapping[str, Any]], pool: Iterable[Case],
                    splits: Iterable[str]) -> dict[str, tuple[dict[str, float], int]]:
    """Pool case key -> (features, 1 when the truth selected it) for the truth rows of `splits`."""
    wanted, of = set(splits), splits_by_key(truth)
    return {c.key: (case_features(c), int(truth[c.key].get("funnel") == FunnelStage.SELECTED))
            for c in pool if c.key in truth and of[c.key] in wanted}


def learned_or_none(labelled: Mapping[str, tuple[Mapping[str, float], int]],
                    keys: list[str] | None = None) -> dict[str, Any] | None:
    try:
        return learn(labelled, keys)
    except ConfigError:                               # one class only: nothing to learn from
        return None


def gate_check(truth: Mapping[str, Mapping[str, Any]], view: PoolView, splits: Iterable[str],
               default: set[str] | None = None) -> dict[str, int]:
    """The check (module docstring), on the rows of `splits` alone: counts of rows agreeing with
    the truth under the default cut and under the gate, and of rows. Also counted, for the
    reader only (no choice reads it): ``ranked``, the rows agreeing when the learned probability
    only ranks the pool for the top K (what a run does when the gate is not favoured)."""
    wanted, of = set(splits), splits_by_key(truth)
    default = default_selected(view) if default is None else default
    train = truth_decisions(truth, view.pool, wanted)
    out = {"rows": 0, "default": 0, "gate": 0, "ranked": 0}
    for part in range(HOLD_OUT_EVERY):
        model = learned_or_none(train, [k for k in train if fold(k) != part])
        scores = view.scores(model) if model else None
        gated = selected(view, scores, EVEN) if scores else default
        ranked = selected(view, scores, view.value_min) if scores else default
        for key, row in truth.items():
            if of[key] in wanted and fold(key) == part:
                want = row.get("funnel") == FunnelStage.SELECTED
                out["rows"] += 1
                out["default"] += want == (key in default)
                out["gate"] += want == (key in gated)
                out["ranked"] += want == (key in ranked)
    return out


def learn_with_check(truth: Mapping[str, Mapping[str, Any]], view: PoolView, splits: Iterable[str],
                     truth_name: str = "", source: str = SOURCE) -> dict[str, Any]:
    """The weights learned on every decision of `splits`, with the gate's check: the mapping
    `fixlore weights learn` saves (`series.weights.read_weights` reads it back)."""
    wanted = sorted(set(splits))
    train = truth_decisions(truth, view.pool, wanted)
    saved = learn(train)              # ConfigError when the decisions hold one class only
    check = gate_check(truth, view, wanted)
    return saved | {"source": source, "truth": truth_name, "splits": wanted, "decisions": len(train),
                    "published": sum(y for _, y in train.values()), "pool": len(view.pool), "top_k": view.top_k,
                    "check": check | {"threshold": EVEN, "parts": HOLD_OUT_EVERY},
                    "gate_favoured": check["gate"] > check["default"]}


OVERRIDES_SPLIT = "overrides"          # the one split of the decisions an overrides file holds


def overrides_truth(keep: Iterable[str], drop: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The editors' keep / drop (an overrides file) as truth rows: a kept case published, a
    dropped one not, every row in the split `OVERRIDES_SPLIT` (a key both kept and dropped is
    no decision)."""
    keep, drop = set(keep), set(drop)
    rows: dict[str, dict[str, Any]] = {}
    for key in sorted(keep ^ drop):
        repo, _, number = key.rpartition("#")
        rows[key] = {"repo": repo, "number": int(number), "split": OVERRIDES_SPLIT,
                     "funnel": FunnelStage.SELECTED if key in keep else FunnelStage.RANK}
    return rows


# --- a world's pool, as the check reads it -------------------------------------------------

def analysed_run(world: Path, out: Path, reuse: bool = True) -> list[Case]:
    """A `fixlore run` of the world with every pool case analysed (``reuse``: read the one `out`
    already holds, when its run.json names a top K of at least `EVERY`); its case export."""
    from fixlore.edges.caseexport import read_cases_jsonl

    done = out / "run.json"
    if reuse and done.is_file() and (out / "cases.jsonl").is_file():
        try:
            info = json.loads(done.read_text(encoding="utf-8"))
            top = int((info.get("settings") or {}).get("rank_top_k") or 0)
        except (ValueError, TypeError):
            top = 0
        if top >= EVERY and info.get("status") == "ok":
            return read_cases_jsonl(out / "cases.jsonl")
    from fixlore.pipeline import RunRequest, run_pipeline
    from fixlore.settings.config import SettingFlags

    run_pipeline(RunRequest(out=out, world=world, settings=SettingFlags(rank_top_k=EVERY), quiet=True))
    return read_cases_jsonl(out / "cases.jsonl")


def world_view(world: Path, runs: Path | None = None, reuse: bool = True) -> PoolView:
    """The pool view of a world (`runs`: the folder the every-case run is made in, or reused from
    unless ``reuse`` is False; default a temporary one)."""
    from fixlore.link.cli import load_or_build_cases
    from fixlore.sources.offline import load_world, read_world_meta

    meta = read_world_meta(world)
    linked = load_or_build_cases(world=world, top_k=EVERY)
    pool = [c for c in linked if c.funnel in POOL]
    if runs is None:
        with tempfile.TemporaryDirectory(prefix="fixlore-weights-") as tmp:
            analysed = analysed_run(world, Path(tmp) / "run")
    else:
        analysed = analysed_run(world, runs, reuse)
    kept = {c.key for c in analysed if c.funnel == FunnelStage.SELECTED}
    comments = Counter((c.repo, c.parent_number) for c in load_world(world).comments if c.parent_kind == "issue")
    top_k = meta.get("rank_top_k")
    return PoolView(pool, kept, comments, EVERY if top_k is None else int(top_k), meta.get("value_min"))


__all__ = ["EVERY", "POOL", "SOURCE", "PoolView", "analysed_run", "default_selected", "gate_check",
           "learn_with_check", "learned_or_none", "selected", "truth_decisions", "world_view"]
