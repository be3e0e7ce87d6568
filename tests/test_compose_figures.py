"""Disclosure figures are computed from the cases: checked against independent counts over the
same cases, and shown to move when the cases change."""

from __future__ import annotations

from collections import Counter

import pytest

from fixlore.analyse import OfflineAnalyst, analyse_cases
from fixlore.compose import compute_figures
from fixlore.compose.figures import Refs, stage_summary
from fixlore.core.model import KbRef
from test_analyse_offline import QNT, SIM, build_world


@pytest.fixture()
def analysed():
    w = build_world()
    summary = analyse_cases(w.cases, w.corpus, OfflineAnalyst())
    return w.cases, summary


def test_funnel_counts_follow_the_cases(analysed):
    cases, _ = analysed
    by = Counter(c.funnel for c in cases)
    f = compute_figures(cases)["funnel"]
    assert f["considered"] == len(cases)
    assert f["closed_in_window"] == len(cases) - by["window"]
    assert f["pool"] == by["rank"] + by["analysis"] + by["selected"]
    assert f["resolved_user_side"] == f["pool"] + by["noise"]
    assert (f["kept"], f["dropped"], f["backlog"]) == (by["selected"], by["analysis"], by["rank"])
    assert f["analysed"] == f["kept"] + f["dropped"]


def test_figures_move_with_the_input(analysed):
    cases, _ = analysed
    before = compute_figures(cases)
    kept = [c for c in cases if c.funnel == "selected"]
    no_ref = next(c for c in kept if not c.kb_refs)
    no_ref.kb_refs = [KbRef("docs/Ascend/quantkit/docs/fakequant.md", "part0001", 0.88)]
    gone = next(c for c in kept if c is not no_ref)
    gone.funnel, gone.drop_reason = "analysis", "no_fix_evidence"
    after = compute_figures(cases)
    assert after["kb"]["with_refs"] == before["kb"]["with_refs"] + 1 - (1 if gone.kb_refs else 0)
    assert after["kb"]["rows"] == before["kb"]["rows"] - 1
    assert after["funnel"]["kept"] == before["funnel"]["kept"] - 1
    assert after["drops"]["count"] == before["drops"]["count"] + 1
    assert after["drops"]["by_reason"].get("no_fix_evidence", 0) == before["drops"]["by_reason"].get("no_fix_evidence", 0) + 1


def test_carriers_storms_stale_and_tiers(analysed):
    cases, _ = analysed
    fig = compute_figures(cases)
    car = fig["carriers"]
    assert [x["case"] for x in car["claimed_unmerged"]] == ["quantkit#41"]
    assert [x["case"] for x in car["closed_before_merge"]] == ["msdemo#115"]
    assert {x["case"] for x in car["fix_not_landed"]} == {"msdemo#107", "msdemo#108"}
    storms = fig["timing"]["close_storms"]
    assert len(storms) == 1 and storms[0]["count"] == 3 and storms[0]["span_s"] == 4
    stale = fig["timing"]["stale"]
    assert [s["case"] for s in stale] == ["msdemo#110"] and stale[0]["lag_s"] == next(
        c.lag_s for c in cases if c.number == 110)
    ev = fig["evidence"]
    same = [c for c in cases if c.funnel == "selected" and c.timing == "same_second"]
    assert ev["auto_close_chains"]["same_second"] == len(same)
    assert ev["one_pr_many_issues"] == [{"pr": "!850", "repo": "msdemo", "cases": ["msdemo#103", "msdemo#104"]}]
    assert {b["branch"] for b in ev["backports"]} == {"release/26.2.0", "release/2.1"}
    assert fig["merge"]["merged"] + sum(fig["merge"]["not_merged"].values()) == fig["merge"]["fix_refs"]


def test_merge_rule_needs_the_merge_time(analysed):
    cases, _ = analysed
    c = next(c for c in cases if c.number == 101 and c.repo == SIM)
    c.fix[0].merged_at = None            # "merged" without a time is not merged
    fig = compute_figures(cases)
    assert fig["merge"]["state_merged_without_time"] == 1
    assert fig["merge"]["not_merged"].get("merged") is None and fig["merge"]["not_merged"].get("unknown") is None


def test_run_summary_feeds_analysis_and_audit(analysed):
    cases, summary = analysed
    run = {"stages": [{"name": "analyse", "summary": {**summary, "llm": {"llm_failures": {"timeout": 2}, "tokens":
                                                                           {"prompt": 10, "completion": 3}, "cost": 0.5}}},
                      {"name": "link", "summary": {"audit": {"checked": 21, "passed": 21}}}]}
    assert stage_summary(run, "analyse")["kept"] == summary["kept"]
    fig = compute_figures(cases, run)
    assert fig["analysis"]["llm_failures"] == {"timeout": 2} and fig["analysis"]["cost"] == 0.5
    assert fig["timing"]["audit"] == {"checked": 21, "passed": 21, "failed": []}


def test_refs_are_short_and_unique():
    from fixlore.core.model import Case

    cases = [Case(repo="a/tools", number=1), Case(repo="b/tools", number=2), Case(repo=QNT, number=3)]
    ref = Refs(cases)
    assert [ref(c) for c in cases] == ["a/tools#1", "b/tools#2", "quantkit#3"]


def test_close_before_a_pending_merge_gets_its_lag(analysed):
    cases, _ = analysed
    c = next(c for c in cases if c.number == 115)
    c.pending_fix, c.fix, c.lag_s = list(c.fix), [], None
    before = compute_figures(cases)["timing"]["before_merge"]
    assert before == [{"case": "msdemo#115", "lag_s": -3 * 3600, "note": c.trap_notes["closed_before_merge"]}]


def test_the_widened_rows_are_disclosed_published_ones_only(analysed):
    from fixlore.compose.disclosure import disclosure
    from fixlore.core.enums import FunnelStage

    cases, summary = analysed
    kept = [c for c in cases if c.funnel == FunnelStage.SELECTED]
    dropped = [c for c in cases if c.funnel == FunnelStage.ANALYSIS]
    assert kept and dropped
    widened = [kept[0].key, dropped[0].key]          # a dropped row is not in the digest: not disclosed
    run = {"stages": [{"name": "analyse", "summary": {**summary, "widened": widened, "widen_chars": 80}}]}
    fig = compute_figures(cases, run)
    ref = Refs(cases)
    assert fig["analysis"]["widened"] == [ref(kept[0])] and fig["analysis"]["widen_chars"] == 80
    text = next(i["text"] for i in disclosure(fig, run, "zh") if i["label"] == "分析方式")
    assert f"事实较多的 1 条解答放宽至多 80 字" in text and ref(kept[0]) in text and ref(dropped[0]) not in text
    plain = compute_figures(cases, {"stages": [{"name": "analyse", "summary": {**summary, "widened": []}}]})
    assert "放宽" not in next(i["text"] for i in disclosure(plain, run, "zh") if i["label"] == "分析方式")


def test_the_rows_widened_below_the_middle_are_disclosed_apart_with_the_bound(analysed):
    """A row widened below the middle moves the median (analyse/widen.below_the_middle): the
    disclosure does not say the median stayed put for it, it says the bound the median kept."""
    from fixlore.compose.disclosure import disclosure
    from fixlore.core.enums import FunnelStage

    cases, summary = analysed
    kept = [c for c in cases if c.funnel == FunnelStage.SELECTED]
    run = {"stages": [{"name": "analyse", "summary": {**summary, "widened": [kept[0].key], "widen_chars": 80,
                                                      "widened_below": [kept[1].key], "widen_bound": 220}}]}
    fig = compute_figures(cases, run)
    ref = Refs(cases)
    assert fig["analysis"]["widened_below"] == [ref(kept[1])] and fig["analysis"]["widen_bound"] == 220
    zh = next(i["text"] for i in disclosure(fig, run, "zh") if i["label"] == "分析方式")
    assert "中位以下 1 条解答也放宽至多 80 字（中位行仍不超过 220 字" in zh and ref(kept[1]) in zh
    assert zh.index(ref(kept[0])) < zh.index("中位以下")     # the rows above the middle said apart
    en = next(i["text"] for i in disclosure(fig, run, "en") if i["label"] == "Analysis")
    assert "1 answers below the median length" in en and "within 220 characters" in en
