from fixlore.evaluate.score import _adjusted_rand, score
from fixlore.core.model import Case, Evidence, FixRef


def _truth(**kw):
    base = {"repo": "o/r", "number": 1, "funnel": "selected", "fix": [], "evidence": [], "timing": "no_fix",
            "traps": [], "kb_refs": [], "theme": ""}
    base.update(kw)
    return {f"{base['repo']}#{base['number']}": base}


def test_perfect_export_scores_one():
    truth = _truth(fix=[{"repo": "o/r", "number": 5, "role": "fix"}], evidence=["keyword", "auto_close"],
                   timing="same_second", traps=["one_pr_many_issues"], kb_refs=["docs/o/r/a.md"])
    case = Case("o/r", 1, funnel="selected", fix=[FixRef("o/r", 5, "fix")], timing="same_second",
                evidence=[Evidence("keyword", "", ""), Evidence("auto_close", "", "")], traps=["one_pr_many_issues"])
    from fixlore.core.model import KbRef
    case.kb_refs = [KbRef("docs/o/r/a.md", "part0001", 0.9)]
    rep = score(truth, [case]).as_dict()
    assert rep["funnel_accuracy"] == 1.0 and rep["timing_accuracy"] == 1.0
    for key in ("evidence", "traps", "kb_refs"):
        assert rep[key]["precision"] == 1.0 and rep[key]["recall"] == 1.0
    assert rep["fix"]["repo_number_role"] == {"precision": 1.0, "recall": 1.0, "tp": 1, "fp": 0, "fn": 0}
    assert rep["mismatches"] == []


def test_missing_key_counts_as_window_and_wrong_role_only_hurts_role_level():
    truth = {**_truth(number=1, funnel="window"),
             **_truth(number=2, fix=[{"repo": "o/r", "number": 9, "role": "backport"}], timing="later")}
    case = Case("o/r", 2, funnel="selected", fix=[FixRef("o/r", 9, "fix")], timing="later")
    rep = score(truth, [case]).as_dict()
    assert rep["funnel_accuracy"] == 1.0
    assert rep["fix"]["repo_number"]["precision"] == 1.0
    assert rep["fix"]["repo_number_role"]["precision"] == 0.0 and rep["fix"]["repo_number_role"]["recall"] == 0.0
    assert rep["timing_total"] == 1


def test_analysis_and_selected_merge_before_deep_analysis():
    rep = score(_truth(funnel="analysis"), [Case("o/r", 1, funnel="selected")]).as_dict()
    assert rep["funnel_accuracy"] == 0.0 and rep["funnel_accuracy_pre_analysis"] == 1.0
    assert rep["funnel_confusion"] == {"analysis->selected": 1}


def test_evidence_and_trap_precision_recall_counts():
    truth = _truth(evidence=["keyword", "linked"], traps=["stale_close"])
    case = Case("o/r", 1, funnel="selected", evidence=[Evidence("keyword", "", ""), Evidence("comment", "", "")],
                traps=["stale_close", "close_storm"])
    rep = score(truth, [case]).as_dict()
    assert rep["evidence"] == {"precision": 0.5, "recall": 0.5, "tp": 1, "fp": 1, "fn": 1}
    assert rep["traps"]["precision"] == 0.5 and rep["traps"]["recall"] == 1.0
    assert rep["traps_by_kind"]["close_storm"]["fp"] == 1


def test_theme_grouping_is_label_free():
    assert _adjusted_rand(["a", "a", "b", "b"], ["x", "x", "y", "y"]) == 1.0
    assert _adjusted_rand(["a", "a", "b", "b"], ["x", "y", "x", "y"]) < 0.0
    truth = {}
    for n, th in ((1, "a"), (2, "a"), (3, "b")):
        truth.update(_truth(number=n, theme=th))
    cases = [Case("o/r", 1, funnel="selected", theme="p"), Case("o/r", 2, funnel="selected", theme="p"),
             Case("o/r", 3, funnel="selected", theme="q")]
    rep = score(truth, cases).as_dict()
    assert rep["themes"] == {"pairs": 3, "pair_agreement": 1.0, "adjusted_rand": 1.0}
