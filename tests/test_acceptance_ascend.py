"""`fixlore run` end to end on worlds/ascend-2026-09 (replay server, harvest, funnel, link, kb,
offline analysis, compose), checked against the world's truth and the seed's figures.

One run (about 40 s on 2 cores) is shared by every test of the module.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from fixlore.evaluate.score import load_truth

from conftest import fixlore_here

ROOT = Path(__file__).resolve().parents[1]
WORLD = ROOT / "worlds" / "ascend-2026-09"

pytestmark = pytest.mark.skipif(not (WORLD / "truth.yaml").is_file(), reason="ascend world not generated")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ascend-run")
    proc = fixlore_here("run", "--world", str(WORLD), "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "cases.jsonl").read_text("utf-8").splitlines()]
    return {"out": out, "rows": rows, "by_key": {f"{r['repo']}#{r['number']}": r for r in rows},
            "truth": load_truth(WORLD / "truth.yaml"),
            "run": json.loads((out / "run.json").read_text("utf-8")),
            "digest": json.loads((out / "digest.json").read_text("utf-8"))}


def test_funnel_counts_are_the_seeds(run):
    stages = Counter(r["funnel"] for r in run["rows"])
    assert stages == Counter({"window": 81, "unresolved": 420, "internal": 230, "cve": 70, "empty_title": 18,
                              "noise": 38, "rank": 180, "selected": 50, "analysis": 13})
    funnel = run["digest"]["figures"]["funnel"]
    assert (funnel["closed_in_window"], funnel["resolved_user_side"], funnel["pool"], funnel["analysed"],
            funnel["kept"], funnel["dropped"]) == (1019, 281, 243, 63, 50, 13)


def test_every_issue_lands_in_its_truth_stage_with_its_drop_reason(run):
    wrong = [(k, run["by_key"][k]["funnel"], t["funnel"]) for k, t in run["truth"].items()
             if run["by_key"][k]["funnel"] != t["funnel"]]
    assert not wrong
    reasons = {k: run["by_key"][k]["drop_reason"] for k, t in run["truth"].items() if t["funnel"] == "analysis"}
    assert reasons == {k: t["drop_reason"] for k, t in run["truth"].items() if t["funnel"] == "analysis"}


def test_fix_links_and_traps_meet_the_bar(run):
    truth, by_key = run["truth"], run["by_key"]
    ours = {(k, f["repo"], f["number"], f["role"]) for k, r in by_key.items() for f in r["fix"]}
    want = {(k, f["repo"], f["number"], f["role"]) for k, t in truth.items() for f in t["fix"]}
    assert len(ours & want) / len(ours) >= 0.98 and len(ours & want) / len(want) >= 0.95
    our_traps = {(k, t) for k, r in by_key.items() for t in r["traps"]}
    true_traps = {(k, t) for k, row in truth.items() for t in row["traps"]}
    assert our_traps == true_traps


def test_auto_close_chains(run):
    kept = [r for r in run["rows"] if r["funnel"] == "selected"]
    chains = [r for r in kept if r["timing"] in ("same_second", "auto_close")]
    assert len(chains) == 19 and sum(r["timing"] == "same_second" for r in chains) == 14
    assert all(any(e["kind"] == "auto_close" for e in r["evidence"]) for r in chains)


def test_no_timing_or_trap_claim_without_evidence_in_the_export(run):
    for r in run["rows"]:
        if r["timing"] != "no_fix":
            assert r["timing_note"] and (r["fix"] or r["pending_fix"]), (r["repo"], r["number"])
        for trap in r["traps"]:
            assert r["trap_notes"].get(trap), (r["repo"], r["number"], trap)
        for e in r["evidence"]:
            assert e["kind"] and e["detail"] and e["source"], (r["repo"], r["number"])


def test_digest_rows_drops_and_backlog_match_the_export(run):
    rows, figures = run["rows"], run["digest"]["figures"]
    kept = {f'{r["repo"].split("/")[1]}#{r["number"]}' for r in rows if r["funnel"] == "selected"}
    dropped = {f'{r["repo"].split("/")[1]}#{r["number"]}': r["drop_reason"] for r in rows if r["funnel"] == "analysis"}
    assert {d["case"]: d["reason"] for d in figures["drops"]["cases"]} == dropped
    assert figures["backlog"]["count"] == sum(r["funnel"] == "rank" for r in rows) == 180
    assert figures["kb"]["rows"] == len(kept) == 50
    assert figures["kb"]["with_refs"] == sum(bool(r["kb_refs"]) for r in rows if r["funnel"] == "selected")
    zh = (run["out"] / "digest.zh.md").read_text("utf-8")
    en = (run["out"] / "digest.en.md").read_text("utf-8")
    for case in kept:
        repo, number = case.split("#")
        assert f"#{number}" in zh and f"#{number}" in en, case
    assert "考据与口径披露" in zh and "1,019" in zh and "243" in zh


def _kb_figures(run) -> dict:
    truth, by_key = run["truth"], run["by_key"]
    kept = [k for k, t in truth.items() if t["funnel"] == "selected"]
    with_doc = [k for k in kept if truth[k]["kb_refs"]]
    without = [k for k in kept if not truth[k]["kb_refs"]]
    first = {k: (by_key[k]["kb_refs"][0]["doc"] if by_key[k]["kb_refs"] else None) for k in kept}
    return {"right_first": sum(first[k] in truth[k]["kb_refs"] for k in with_doc), "with_doc": len(with_doc),
            "wrong_first": sum(first[k] is not None and first[k] not in truth[k]["kb_refs"] for k in with_doc),
            "none_when_none": sum(first[k] is None for k in without), "without_doc": len(without)}


def test_kb_refs_right_document_first(run):
    kb = _kb_figures(run)
    assert (kb["with_doc"], kb["without_doc"]) == (37, 13)
    assert kb["right_first"] >= 34 and kb["wrong_first"] == 0


@pytest.mark.xfail(strict=True, reason="the default threshold (calibrated on the demo world) cites a near-topic "
                                       "document for 5 of the 13 cases that have none; see docs/kb.md")
def test_kb_refs_none_for_11_of_the_13_without_a_document(run):
    assert _kb_figures(run)["none_when_none"] >= 11
