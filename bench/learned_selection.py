"""Benchmark: does ranking a world's pool by value weights learned from its editors' past
decisions agree better with the editors' choice on the half nobody learned from?

    PYTHONPATH=src .venv/bin/python bench/learned_selection.py [--world worlds/W ...] [--json] [--keep DIR]

Protocol (issue #23; docs/series.md "Learned value weights"; the decisions, the cut, the check and
the every-case run are `fixlore.series.selection`, which `fixlore weights learn` runs too), per bundled world with selection
labels (truth.yaml rows whose funnel is `selected`; every bundled world has some):

1. Splits. Each truth row's split is the one bench/splits.py gives every bench: the row's own
   `split:` when the truth names one (npu-threads: tune, tune2, heldout2..5; paddle-threads,
   pytest-threads, seed-twin, seed-twin2: tune, heldout), else the SHA-1 rule of
   worldgen/seed_twin.py (ascend-2026-09, demo, github-mini). A split whose name starts with
   "tune" is the editors' past; every other split is held out.
2. Candidates and features. The world is linked as `fixlore run` links it but with every pool
   case analysed (`--rank-top-k` larger than any pool), so no case's features depend on the
   default cut (a case below the cut loses its answer evidence); the features are
   `series.weights.case_features` of the linked case, what an edition's plan ranks by.
3. Decisions. The tune rows' pool cases, labelled 1 when the truth's funnel is `selected` (the
   editors published it) and 0 otherwise (analysed and dropped, or left below the cut). Cases
   the link stage keeps out of the pool (noise, internal, unresolved ...) are no candidates and
   no decisions. Held-out labels are read only to score, never to fit.
4. Fit. `series.weights.learn`, the series' own model (logistic regression on standardised
   features, L2 C = 1, balanced classes; docs/series.md), on every tune decision. No setting of
   it, of the features or of the cut was chosen by looking at a figure of this bench.
5. Apply. The pool is cut as a run cuts it (`rules.funnel.rank.pool_cut`: the world's
   rank_top_k, cases read only in part keeping a slot, ties by comments then close time),
   once ranked by the value (the default) and once by the learned probability; the whole pool
   competes, as in a run, which knows no splits. A case is selected when it is inside the cut
   and the analysis of the full run (step 2, the offline analyst, or the endpoint the
   environment names) keeps it: the analysis judges one case at a time, so its verdict on a
   case does not depend on which others were analysed (checked by tests/test_bench_learned_selection.py
   against a plain run).
6. Score. Selection agreement (`evaluate.score.selection_agreement`: selected or not, on
   every truth row of the split, a row outside the pool counting as not selected) per split:
   held-out figures beside the tune (fitted) figure. Also on the held-out pool candidates: the
   AUC of the learned score and of the value against the truth's selected (reported only) and
   the share of pairs the two order differently.

Three ways of using the weights, each a column:

- learned: the weights rank the pool for the world's top K (step 5), as an edition's plan uses
  them (`series.plan`, `series.stage`). Measured first.
- gate p>=0.5: the weights as the cut itself, the run's threshold cut (`value_min`) over the
  learned probability at 0.5, where the balanced model finds publishing as likely as not, and
  the analysis' verdict still applies. Added after the first column's held-out figures were
  read (they did not move: most worlds' K holds the whole pool the editors looked at, so a
  ranking cannot drop what the analysis keeps and the editors do not); 0.5 was not varied,
  and no other variant was tried.
- proposal: the threshold cut only when the editors' past says it helps: the tune decisions in
  four parts by key hash (`series.weights.fold`), each part judged by weights learned on the
  other three, the gate chosen when it agrees with more tune rows than the default does
  (strictly); else the default. Decided per world from tune labels alone. Written after the
  second column's held-out figures were read (the gate helped two worlds and hurt four), so
  the idea of testing the gate on the past is not blind to them; the test itself has no
  setting (the series' four hash parts, "more rows agree") and none was varied.

Measured 2026-12-07 (branch learnsel after 2c7e727a; the table and its reading are in
docs/series.md "Learned value weights"): held out, the top-K ranking moves nothing but ascend
(1.000 -> 0.987); the threshold cut lifts npu-threads and paddle-threads (0.727 -> 1.000) and
lowers ascend, demo, seed-twin, seed-twin2 (0.926 -> 0.852); the proposal picks the gate on
exactly npu-threads and paddle-threads and keeps the default elsewhere. The columns were
added in the order above; no setting was varied after reading a figure.

`--across` asks whether fixlore could ship one default model learned from the bundled worlds'
pasts: for each world, weights learned from the other worlds' tune decisions only (its own
labels never read), every one of its splits held out. Measured once, 2026-12-07: ranking by them
moves paddle-threads heldout 0.727 -> 0.773 and ascend 1.000 -> 0.979 (heldout) / 0.988 (tune),
nothing else; the gate lifts every npu-threads split (e.g. heldout3 0.864 -> 1.000) and
paddle-threads (0.727 -> 1.000) but drops seed-twin heldout 0.969 -> 0.875, seed-twin2 heldout
0.926 -> 0.704, ascend heldout 1.000 -> 0.975. The editors of the GitHub thread worlds and of the
seed's GitCode worlds publish by different standards, so no default model is shipped: a series
learns its own editors' weights (`fixlore weights learn`), a plain run keeps the value rule.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from splits import Splits  # noqa: E402  (bench/splits.py, the split rule every bench shares)

from fixlore.core.enums import FunnelStage  # noqa: E402
from fixlore.core.model import Case  # noqa: E402
from fixlore.evaluate.score import load_truth, selection_agreement  # noqa: E402
from fixlore.series import selection as lib  # noqa: E402  (the shared logic: `fixlore weights learn` runs it too)
from fixlore.rules.funnel.learned import EVEN, case_features, learned_score  # noqa: E402
from fixlore.series.weights import auc, reordered  # noqa: E402
from fixlore.sources.offline import read_world_meta  # noqa: E402

EVERY = lib.EVERY                      # a top K larger than any pool: every pool case is analysed
learned_or_none = lib.learned_or_none


def is_tune(split: str) -> bool:
    return split.startswith("tune")


@dataclass
class WorldData:
    """What the bench reads of one world: its truth rows by split, the linked pool, the analysis'
    verdicts, the comments each issue has (the cut's tie-break) and the world's top K."""
    name: str
    truth: dict[str, dict[str, Any]]
    split_of: dict[str, str]
    pool: list[Case]
    kept: set[str]
    comments: Any
    top_k: int

    def view(self) -> lib.PoolView:
        return lib.PoolView(self.pool, self.kept, self.comments, self.top_k)

    def tune_splits(self, train: bool = True) -> set[str]:
        return {s for s in self.split_of.values() if is_tune(s) == train}


def read_world(world: Path, runs: Path, reuse: bool = False) -> WorldData:
    """The world linked with every pool case analysed (`fixlore.series.selection.world_view`,
    its run made in runs/WORLD, or read from there with `reuse`)."""
    if read_world_meta(world).get("rank_top_k") is None:
        raise SystemExit(f"{world}: the bench compares rankings at the world's rank_top_k, and it names none")
    truth = load_truth(world / "truth.yaml")
    splits = Splits(world)
    split_of = {k: splits.of(row["repo"], int(row["number"])) for k, row in truth.items()}
    view = lib.world_view(world, runs / world.name, reuse)
    return WorldData(world.name, truth, split_of, view.pool, view.kept, view.comments, view.top_k)


def decisions(data: WorldData, train: bool = True) -> dict[str, tuple[dict[str, float], int]]:
    """Pool case key -> (features, 1 when the truth selected it) for the tune rows (or the held-out ones)."""
    return lib.truth_decisions(data.truth, data.pool, data.tune_splits(train))


def selected(data: WorldData, score: dict[str, float], at_least: float | None = None) -> set[str]:
    """The cases a run ranking its pool by `score` would publish (`fixlore.series.selection.selected`)."""
    return lib.selected(data.view(), score, at_least)


def agreement(data: WorldData, chosen: set[str], splits: set[str]) -> float:
    rows = {k: row for k, row in data.truth.items() if data.split_of[k] in splits}
    return selection_agreement(rows, [SimpleNamespace(key=k, funnel=FunnelStage.SELECTED) for k in chosen])


def gate_helps_on_tune(data: WorldData, default: set[str]) -> dict[str, int]:
    """The proposal's test on the tune split alone (`fixlore.series.selection.gate_check`, the
    check `fixlore weights learn` saves)."""
    return lib.gate_check(data.truth, data.view(), data.tune_splits(), default)


def world_rows(data: WorldData) -> list[dict[str, Any]]:
    """One row per held-out split of a world (figures rounded to 4 places)."""
    train = decisions(data)
    base = {"world": data.name, "top_k": data.top_k, "pool": len(data.pool), "train": len(train),
            "train_published": sum(y for _, y in train.values())}
    default_score = {c.key: c.value for c in data.pool}
    default = selected(data, default_score)
    tune = {s for s in data.split_of.values() if is_tune(s)}
    held = sorted({s for s in data.split_of.values() if not is_tune(s)})
    model = learned_or_none(train)
    why = "" if model else "the tune decisions hold one class only"
    learned_score_of = {c.key: learned_score(case_features(c), model) for c in data.pool} if model else {}
    learned = selected(data, learned_score_of) if model else set()
    gated = selected(data, learned_score_of, EVEN) if model else set()
    past = gate_helps_on_tune(data, default)
    use_gate = model is not None and past["gate"] > past["default"]
    proposal = gated if use_gate else default
    test = decisions(data, train=False)
    rows = []
    for split in held:
        keys = [k for k in sorted(test) if data.split_of[k] == split]
        labels = [test[k][1] for k in keys]
        row = base | {"split": split, "keys": sum(1 for s in data.split_of.values() if s == split),
                      "heldout_default": round(agreement(data, default, {split}), 4),
                      "tune_default": round(agreement(data, default, tune), 4) if tune else None,
                      "heldout_candidates": len(keys), "tune_cv": past, "gate_chosen": use_gate,
                      "heldout_proposal": round(agreement(data, proposal, {split}), 4)}
        if model:
            row |= {"heldout_learned": round(agreement(data, learned, {split}), 4),
                    "tune_learned": round(agreement(data, learned, tune), 4) if tune else None,
                    "heldout_gate": round(agreement(data, gated, {split}), 4),
                    "tune_gate": round(agreement(data, gated, tune), 4) if tune else None,
                    "heldout_auc_learned": auc([learned_score_of[k] for k in keys], labels),
                    "heldout_auc_value": auc([default_score[k] for k in keys], labels),
                    "heldout_pairs_reordered": reordered([learned_score_of[k] for k in keys],
                                                         [default_score[k] for k in keys])}
        else:
            row |= {"heldout_learned": None, "tune_learned": None, "heldout_gate": None,
                    "tune_gate": None, "not_learned": why}
        rows.append(row)
    return rows


def across_rows(datas: list[WorldData]) -> list[dict[str, Any]]:
    """`--across`: for each world, weights learned from the other worlds' tune decisions only (its
    own labels never read), applied to its pool; agreement on each of its splits, every one of
    them held out from this model. What a default model shipped with fixlore, learned from the
    bundled worlds' pasts, would do on a world it never saw."""
    rows = []
    for data in datas:
        train = {f"{other.name}:{k}": v for other in datas if other is not data
                 for k, v in decisions(other).items()}
        model = learned_or_none(train)
        default_score = {c.key: c.value for c in data.pool}
        default = selected(data, default_score)
        score = {c.key: learned_score(case_features(c), model) for c in data.pool} if model else {}
        learned = selected(data, score) if model else set()
        gated = selected(data, score, EVEN) if model else set()
        for split in sorted(set(data.split_of.values())):
            rows.append({"world": data.name, "split": split, "train": len(train),
                         "keys": sum(1 for s in data.split_of.values() if s == split),
                         "default": round(agreement(data, default, {split}), 4),
                         "learned": round(agreement(data, learned, {split}), 4) if model else None,
                         "gate": round(agreement(data, gated, {split}), 4) if model else None})
    return rows


def _f(x: Any) -> str:
    if isinstance(x, bool):
        return "yes" if x else "no"
    return "—" if x is None else f"{x:.3f}" if isinstance(x, float) else str(x)


def print_rows(rows: list[dict[str, Any]]) -> None:
    cols = [("world", "world"), ("split", "held out"), ("keys", "keys"), ("heldout_default", "default"),
            ("heldout_learned", "learned"), ("train", "train"), ("train_published", "of them sel."),
            ("tune_default", "tune default"), ("tune_learned", "tune learned (fitted)"),
            ("heldout_gate", "gate p>=0.5"), ("tune_gate", "tune gate (fitted)"),
            ("gate_chosen", "gate (tune CV)"), ("heldout_proposal", "proposal"),
            ("heldout_auc_value", "AUC value"), ("heldout_auc_learned", "AUC learned"),
            ("heldout_pairs_reordered", "pairs reordered")]
    table = [[h for _, h in cols]] + [[_f(r.get(k)) for k, _ in cols] for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(cols))]
    for line in table:
        print("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths))))
    for r in rows:
        if r.get("not_learned"):
            print(f"{r['world']}: no weights learned ({r['not_learned']})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--world", type=Path, action="append", default=[],
                    help="A world folder (repeatable); default every world under worlds/ with a truth.yaml.")
    ap.add_argument("--json", action="store_true", help="Print the rows as JSON.")
    ap.add_argument("--keep", type=Path, help="Keep the analysed runs in this folder (default: a temporary one).")
    ap.add_argument("--reuse", action="store_true", help="With --keep: read the runs an earlier --keep left there "
                    "(made from the same sources) instead of running again.")
    ap.add_argument("--across", action="store_true", help="Instead: for each world, weights learned from the "
                    "other worlds' tune decisions only, scored on every split of this world (all held out).")
    args = ap.parse_args(argv)
    worlds = args.world or sorted(p for p in (ROOT / "worlds").iterdir() if (p / "truth.yaml").is_file())
    with tempfile.TemporaryDirectory(prefix="learned-selection-") as tmp:
        runs = args.keep or Path(tmp)
        datas = [read_world(w, runs, args.reuse and args.keep is not None) for w in worlds]
        rows = across_rows(datas) if args.across else [row for d in datas for row in world_rows(d)]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    elif args.across:
        for r in rows:
            print(f"{r['world']:16s} {r['split']:9s} keys {r['keys']:3d}  default {_f(r['default'])}  "
                  f"learned elsewhere {_f(r['learned'])}  gate p>=0.5 {_f(r['gate'])}  (trained on {r['train']})")
    else:
        print_rows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
