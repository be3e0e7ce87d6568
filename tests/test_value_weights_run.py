"""`fixlore weights learn` from a truth file, then `fixlore run --value-weights` on github-mini:
the run analyses exactly the cases the saved check says (gate favoured: the learned p >= 0.5
ones; not favoured: the world's top K by learned p), the analysis still judging them; the
digest's methods and `fixlore explain` say so; `fixlore score` says whether the split scored
was held out from the weights. Expectations are computed from the learned file, not copied."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fixlore.cli.commands import main
from fixlore.core.enums import FunnelStage
from fixlore.edges.caseexport import read_cases_jsonl
from fixlore.evaluate.score import load_truth, selection_agreement, split_truth
from fixlore.series import selection as lib
from fixlore.rules.funnel.learned import EVEN, case_features, gate_favoured, learned_score
from fixlore.settings.valueweights import read_weights

ROOT = Path(__file__).parents[1]
WORLD = ROOT / "worlds" / "github-mini"


def cli(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    out, err = capsys.readouterr()
    assert done.value.code == 0, err[-500:]
    return out


@pytest.fixture(scope="module")
def learned(tmp_path_factory):
    """The weights learned by the command from the tune rows, and the pool view it read."""
    tmp = tmp_path_factory.mktemp("learn")
    with pytest.raises(SystemExit) as done:
        main(["weights", "learn", "--truth", str(WORLD / "truth.yaml"), "--split", "tune",
              "--to", str(tmp / "w.json"), "--run-dir", str(tmp / "every")])
    assert done.value.code == 0
    view = lib.world_view(WORLD, tmp / "every")        # reads the run the command made
    return read_weights(tmp / "w.json"), view, tmp


def analysed_expected(view: lib.PoolView, saved: dict, gate: bool) -> set[str]:
    """The pool cases a run given `saved` sends to analysis: the K highest learned p, or (gate)
    every case of learned p >= 0.5; no case of this world is read in part."""
    assert not any(c.unread for c in view.pool)
    p = {c.key: learned_score(case_features(c), saved) for c in view.pool}
    if gate:
        return {k for k, x in p.items() if x >= EVEN}
    return {c.key for c in sorted(view.pool, key=lambda c: -p[c.key])[:view.top_k]}


def weighted_run(tmp: Path, saved: dict, name: str) -> Path:
    path = tmp / f"{name}.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    out = tmp / name
    with pytest.raises(SystemExit) as done:
        main(["run", "--world", str(WORLD), "--out", str(out), "-q", "--value-weights", str(path)])
    assert done.value.code == 0
    return out


def analysed(out: Path) -> set[str]:
    return {c.key for c in read_cases_jsonl(out / "cases.jsonl")
            if c.funnel in (FunnelStage.SELECTED, FunnelStage.ANALYSIS)}


def test_the_file_holds_the_weights_and_the_tune_check(learned):
    saved, view, _ = learned
    truth = load_truth(WORLD / "truth.yaml")
    tune = split_truth(truth, "tune")
    decisions = [k for k in tune if k in {c.key for c in view.pool}]
    assert saved["decisions"] == len(decisions) > 0 and saved["splits"] == ["tune"]
    assert saved["published"] == sum(tune[k].get("funnel") == "selected" for k in decisions)
    check = saved["check"]
    assert check["rows"] == len(tune) and check["threshold"] == EVEN
    assert 0 <= check["default"] <= check["rows"] and 0 <= check["gate"] <= check["rows"]
    assert saved["gate_favoured"] == gate_favoured(saved) == (check["gate"] > check["default"])
    assert len(saved["features"]) == len(saved["coef"]) == len(saved["mean"]) == len(saved["scale"])


def test_not_favoured_ranks_only(learned, capsys):
    saved, view, tmp = learned
    saved = {**saved, "check": {**saved["check"], "gate": saved["check"]["default"]}}   # a tie: no gate
    out = weighted_run(tmp, saved, "ranked")
    want = analysed_expected(view, saved, gate=False)
    assert analysed(out) == want
    assert want != analysed_expected(view, saved, gate=True)      # the gate would have cut something here
    info = json.loads((out / "run.json").read_text(encoding="utf-8"))["value_weights"]
    assert info["gate"] is False and info["analysed"] == len(want)
    cases = read_cases_jsonl(out / "cases.jsonl")
    kept = {c.key for c in cases if c.funnel == FunnelStage.SELECTED}
    assert kept == want & view.kept                               # the analysis still judges them
    assert "ranked by value weights learned" in (out / "digest.en.md").read_text(encoding="utf-8")
    assert "未按其截断" in (out / "digest.zh.md").read_text(encoding="utf-8")
    low = min((c for c in cases if c.key in want), key=lambda c: c.value_weights["p"])
    assert low.value_weights["p"] < EVEN and low.value_weights["analysed"]   # the gate would have cut it
    assert "no gate" in low.value_weights["why"]


def test_favoured_cuts_at_half(learned, capsys):
    saved, view, tmp = learned
    saved = {**saved, "check": {**saved["check"], "gate": saved["check"]["default"] + 1}}
    out = weighted_run(tmp, saved, "gated")
    want = analysed_expected(view, saved, gate=True)
    assert analysed(out) == want
    cases = read_cases_jsonl(out / "cases.jsonl")
    assert {c.key for c in cases if c.funnel == FunnelStage.SELECTED} == want & view.kept
    cut = sorted(analysed_expected(view, saved, gate=False) - want)
    assert cut                                                    # a case the top K held, the gate cut
    en = (out / "digest.en.md").read_text(encoding="utf-8")
    assert "ranked and cut by value weights" in en and f"{len(view.pool) - len(want)} were cut" in en
    assert "学得概率 ≥ 0.5" in (out / "digest.zh.md").read_text(encoding="utf-8")
    shown = cli(capsys, "explain", cut[0], "--out", str(out))
    assert "value weights" in shown and "the gate cut it" in " ".join(shown.split())
    report = json.loads(cli(capsys, "score", "--truth", str(WORLD / "truth.yaml"), "--out", str(out),
                            "--split", "heldout", "--json"))
    assert report["value_weights"]["held_out"] is True and report["value_weights"]["gate"] is True
    held = split_truth(load_truth(WORLD / "truth.yaml"), "heldout")
    assert report["selection_agreement"] == round(selection_agreement(held, cases), 4)
    fitted = json.loads(cli(capsys, "score", "--truth", str(WORLD / "truth.yaml"), "--out", str(out),
                            "--split", "tune", "--json"))
    assert fitted["value_weights"]["held_out"] is False


def test_the_check_reads_the_tune_rows_only(learned):
    """Flipping every held-out label leaves the saved weights and check as they were."""
    saved, view, _ = learned
    truth = load_truth(WORLD / "truth.yaml")
    of = lib.splits_by_key(truth)
    flipped = {k: ({**row, "funnel": "rank" if row.get("funnel") == "selected" else "selected"}
                   if of[k] != "tune" else row) for k, row in truth.items()}
    again = lib.learn_with_check(flipped, view, ["tune"], truth_name=str(WORLD / "truth.yaml"))
    assert {k: v for k, v in again.items() if k != "file"} == {k: v for k, v in saved.items() if k != "file"}


def test_a_bad_weights_file_is_one_line_before_anything_runs(tmp_path, capsys):
    bad = tmp_path / "w.json"
    bad.write_text('{"features": ["value"]}', encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["run", "--world", str(WORLD), "--out", str(tmp_path / "o"), "-q", "--value-weights", str(bad)])
    assert done.value.code == 2
    assert "value weights" in capsys.readouterr().err and not (tmp_path / "o").exists()


def test_a_series_weights_file_gates_its_plan_only_when_its_check_favours_it(tmp_path):
    """A series ranks by OUT/value-weights-NAME.json as before; the plan cuts at p >= 0.5 only when
    that file carries a check favouring the gate (one `fixlore weights learn` wrote)."""
    from datetime import datetime, timedelta, timezone

    from fixlore.core.model import Case
    from fixlore.series.plan import LedgerView, plan_edition
    from fixlore.series.weights import learned_ranker, weights_file

    plain = {"features": ["value"], "mean": [0.5], "scale": [0.1], "coef": [3.0], "intercept": 0.0}
    t0 = datetime(2026, 9, 17, tzinfo=timezone.utc)
    cases = [Case(repo="o/a", number=n, title=f"t{n}", closed_at=t0 + timedelta(hours=n), funnel="rank", value=v)
             for n, v in ((1, 0.9), (2, 0.6), (3, 0.45), (4, 0.1))]
    args = dict(since=t0, until=t0 + timedelta(days=1), top_k=3)
    for check, gated in ((None, False), ({"rows": 9, "default": 7, "gate": 7}, False),
                         ({"rows": 9, "default": 7, "gate": 8}, True)):
        weights_file(tmp_path, "s").write_text(json.dumps(plain | ({"check": check} if check else {})), encoding="utf-8")
        rank, about = learned_ranker(tmp_path, "s")
        assert about.get("gate", False) is gated
        extra = {"at_least": EVEN} if about.get("gate") else {}
        analysed = plan_edition(cases, LedgerView(), value=rank, **extra, **args).analyse
        p = {c.key: rank(c) for c in cases}
        want = {k for k, x in p.items() if x >= EVEN} if gated else set(sorted(p, key=lambda k: -p[k])[:3])
        assert set(analysed) == want
    assert want == {"o/a#1", "o/a#2"}                     # the gate left out o/a#3, which the top 3 held


def test_an_overrides_files_keep_and_drop_are_decisions_too(learned, tmp_path, capsys):
    saved, view, tmp = learned
    by_p = sorted(view.pool, key=lambda c: learned_score(case_features(c), saved))
    keep, drop = [c.key for c in by_p[-3:]], [c.key for c in by_p[:3]]
    ov = tmp_path / "overrides.yaml"
    ov.write_text("version: 1\ncases:\n" + "".join(f"  {k}: {{keep: the editors' pick}}\n" for k in keep)
                  + "".join(f"  {k}: {{drop: not for readers}}\n" for k in drop), encoding="utf-8")
    out = json.loads(cli(capsys, "weights", "learn", "--overrides", str(ov), "--world", str(WORLD),
                         "--to", str(tmp_path / "w.json"), "--run-dir", str(tmp / "every")))
    assert out["decisions"] == 6 and out["published"] == 3 and out["splits"] == ["overrides"]
    assert out["check"]["rows"] == 6
    learned_again = read_weights(tmp_path / "w.json")
    assert learned_again["source"] == "overrides"
    p = {c.key: learned_score(case_features(c), learned_again) for c in view.pool}
    assert min(p[k] for k in keep) > max(p[k] for k in drop)      # the keeps outrank the drops
