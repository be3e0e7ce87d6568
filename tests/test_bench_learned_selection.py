"""bench/learned_selection.py on a small world (github-mini): its figures are counted from the
world, not asserted; the default ranking's figure is a plain `fixlore run`'s; the weights never
read a held-out label."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from fixlore.core.enums import FunnelStage
from fixlore.edges.caseexport import read_cases_jsonl
from fixlore.rules.funnel.learned import case_features, learned_score
from fixlore.series.weights import learn

from conftest import fixlore_here

ROOT = Path(__file__).parents[1]
WORLD = ROOT / "worlds" / "github-mini"

spec = importlib.util.spec_from_file_location("bench_learned_selection", ROOT / "bench" / "learned_selection.py")
bench = importlib.util.module_from_spec(spec)
sys.modules["bench_learned_selection"] = bench  # dataclasses look their module up
spec.loader.exec_module(bench)


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    runs = tmp_path_factory.mktemp("runs")
    data = bench.read_world(WORLD, runs)
    plain = tmp_path_factory.mktemp("plain")
    done = fixlore_here("run", "--world", str(WORLD), "--out", str(plain), "-q")
    assert done.returncode == 0, done.stderr[-500:]
    return data, bench.world_rows(data), read_cases_jsonl(plain / "cases.jsonl")


def hand_count(data, chosen: set[str], want_tune: bool) -> float:
    """Rows of the split(s) on which truth's `selected` and the choice agree, over the rows."""
    rows = [k for k, s in data.split_of.items() if s.startswith("tune") == want_tune]
    agree = sum((data.truth[k].get("funnel") == "selected") == (k in chosen) for k in rows)
    return round(agree / len(rows), 4)


def test_default_figures_are_a_plain_runs(measured):
    data, rows, plain = measured
    (row,) = rows
    published = {c.key for c in plain if c.funnel == FunnelStage.SELECTED}
    assert row["heldout_default"] == hand_count(data, published, want_tune=False)
    assert row["tune_default"] == hand_count(data, published, want_tune=True)
    assert row["keys"] == sum(1 for s in data.split_of.values() if not s.startswith("tune"))


def test_learned_figures_are_counted_from_the_learned_order(measured):
    data, rows, _ = measured
    (row,) = rows
    tune_pool = [c for c in data.pool if c.key in data.truth and data.split_of[c.key].startswith("tune")]
    assert row["train"] == len(tune_pool) > 0
    assert row["train_published"] == sum(data.truth[c.key]["funnel"] == "selected" for c in tune_pool)
    model = learn({c.key: (case_features(c), int(data.truth[c.key]["funnel"] == "selected")) for c in tune_pool})
    # no case of this world is read in part: the cut is the K highest learned probabilities
    assert not any(c.unread for c in data.pool)
    order = sorted(data.pool, key=lambda c: -learned_score(case_features(c), model))
    chosen = {c.key for c in order[:data.top_k]} & data.kept
    assert row["heldout_learned"] == hand_count(data, chosen, want_tune=False)
    assert row["tune_learned"] == hand_count(data, chosen, want_tune=True)
    even = {c.key for c in data.pool if learned_score(case_features(c), model) >= 0.5} & data.kept
    assert row["heldout_gate"] == hand_count(data, even, want_tune=False)
    assert row["tune_gate"] == hand_count(data, even, want_tune=True)
    assert row["tune_cv"]["rows"] == sum(1 for s in data.split_of.values() if s.startswith("tune"))
    assert row["heldout_proposal"] == (row["heldout_gate"] if row["gate_chosen"] else row["heldout_default"])


def test_held_out_labels_never_reach_the_fit(measured):
    data, _, _ = measured
    before = learn(bench.decisions(data))
    flipped = {k: ({**row, "funnel": "rank" if row.get("funnel") == "selected" else "selected"}
                   if not data.split_of[k].startswith("tune") else row) for k, row in data.truth.items()}
    data_flipped = bench.WorldData(**{**vars(data), "truth": flipped})
    assert learn(bench.decisions(data_flipped)) == before
    default = bench.selected(data, {c.key: c.value for c in data.pool})
    assert bench.gate_helps_on_tune(data_flipped, default) == bench.gate_helps_on_tune(data, default)
    assert bench.decisions(data_flipped, train=False) != bench.decisions(data, train=False)


def test_across_worlds_a_world_is_scored_by_weights_learned_from_the_other_worlds_alone(measured, tmp_path):
    data, _, _ = measured
    other = bench.read_world(ROOT / "worlds" / "demo", tmp_path)
    rows = [r for r in bench.across_rows([data, other]) if r["world"] == data.name]
    assert {r["split"] for r in rows} == set(data.split_of.values())      # every split of it is held out
    assert all(r["train"] == len(bench.decisions(other)) for r in rows)
    # the figures are those of a model fitted on demo's tune decisions only, whatever github-mini's truth says
    model = bench.learned_or_none({f"demo:{k}": v for k, v in bench.decisions(other).items()})
    score = {c.key: learned_score(case_features(c), model) for c in data.pool}
    for r in rows:
        assert r["learned"] == round(bench.agreement(data, bench.selected(data, score), {r["split"]}), 4)
        assert r["gate"] == round(bench.agreement(data, bench.selected(data, score, bench.EVEN), {r["split"]}), 4)
        assert r["default"] == round(bench.agreement(data, bench.selected(data, {c.key: c.value for c in data.pool}),
                                                     {r["split"]}), 4)
