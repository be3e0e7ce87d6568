"""`bench/rows.py --llm-script` on the demo world (#14's acceptance): `fixlore run` against a
loopback stand-in for a model that answers one case with an invented number, one with a PR that
does not exist, one with malformed JSON and one too slowly. The grounding check keeps the first
two out of the digest, the other two fall back to the offline analyst, the run exits 0, and the
disclosure and run.json say what fell back and why."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parents[1] / "bench"
WORLD = Path(__file__).parents[1] / "worlds" / "demo"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module           # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


rows_llm = load("rows_llm")


@pytest.fixture(scope="module")
def scripted(tmp_path_factory):
    return rows_llm.run_scripted(WORLD, tmp_path_factory.mktemp("rows-llm"), timeout=1.5)


def by_key(digest: dict) -> dict[str, dict]:
    return {f"{c['repo']}#{c['number']}": c for c in digest["cases"]}


def test_both_runs_finish_and_the_four_wrong_answers_were_really_sent(scripted):
    assert scripted.offline_code == 0 and scripted.llm_code == 0
    assert set(scripted.wrong) == {"number", "pr", "malformed", "timeout"}
    assert len(set(scripted.wrong.values())) == 4
    assert set(scripted.invented) == {"number", "pr"}       # the stand-in did write both inventions
    assert scripted.refused > 0                             # kb check and editorial asked and were refused


def test_the_invented_number_and_the_wrong_pr_never_reach_the_rows(scripted):
    digest = scripted.digest("llm")
    rows = rows_llm.rows_text(digest)
    number, pr = scripted.invented["number"], scripted.invented["pr"]
    assert number.rstrip("%") not in rows and pr.lstrip("!") not in rows
    # the export names what the check removed (written.removed, issue #22) and nothing else says it
    lines = [json.loads(line) for line in (scripted.llm_dir / "cases.jsonl").read_text("utf-8").splitlines()]
    removed = {f"{c['repo']}#{c['number']}": c["written"].pop("removed") for c in lines if "removed" in c["written"]}
    assert removed == {scripted.wrong["pr"]: [f"{pr}: not in the material"]}
    exported = json.dumps(lines, ensure_ascii=False)
    assert number.rstrip("%") not in exported and pr.lstrip("!") not in exported
    cases = by_key(digest)
    assert cases[scripted.wrong["number"]]["analysed_by"] == f"llm:{rows_llm.MODEL}"       # repaired in one round
    assert cases[scripted.wrong["pr"]]["analysed_by"] == f"llm:{rows_llm.MODEL} (claims dropped)"
    # the check caught exactly the two inventions: every other stand-in row copies its material
    assert scripted.caught == {scripted.wrong["number"]: [number], scripted.wrong["pr"]: [pr]}
    llm = scripted.analyse_summary()["llm"]
    assert llm["grounding"]["repaired"] == 1 and llm["grounding"]["dropped"] == 1


def test_the_malformed_and_the_timed_out_cases_fall_back_to_the_offline_analyst(scripted):
    llm, offline = by_key(scripted.digest("llm")), by_key(scripted.digest("offline"))
    bad_json, slow = scripted.wrong["malformed"], scripted.wrong["timeout"]
    assert llm[bad_json]["analysed_by"].startswith("offline (llm failed: malformed reply")
    assert llm[slow]["analysed_by"] == "offline (llm failed: timeout)"
    for key in (bad_json, slow):                      # the offline analyst's row stands in, unchanged
        assert llm[key]["answer"] == offline[key]["answer"] and llm[key]["problem"] == offline[key]["problem"]
    others = [c for k, c in llm.items() if k not in (bad_json, slow) and c["funnel"] in ("selected", "analysis")]
    assert others and all(c["analysed_by"].startswith(f"llm:{rows_llm.MODEL}") for c in others)


def test_the_disclosure_and_run_json_say_what_fell_back_and_why(scripted):
    digest = scripted.digest("llm")
    zh = rows_llm.disclosure(digest, "zh", "分析方式")
    en = rows_llm.disclosure(digest, "en", "Analysis")
    assert "LLM 失败回退离线 2 条（malformed reply 1、timeout 1）" in zh
    assert "2 fell back to offline after an LLM failure (malformed reply 1, timeout 1)" in en
    assert "返修后通过 1 条" in zh and "删去无据陈述 1 条" in zh
    summary = scripted.analyse_summary()
    assert sorted(summary["fallbacks"]) == sorted([scripted.wrong["malformed"], scripted.wrong["timeout"]])
    llm = summary["llm"]
    assert llm["llm_failures"] == {"malformed reply": 1, "timeout": 1}
    assert llm["tokens"]["prompt"] > 0 and llm["tokens"]["completion"] > 0 and llm["requests"] > 0
    offline_summary = json.loads((scripted.offline_dir / "run.json").read_text("utf-8"))
    assert "LLM" not in rows_llm.disclosure(scripted.digest("offline"), "zh", "分析方式")
    assert offline_summary["status"] == "ok"


def test_the_report_prints_the_measures_and_what_became_of_each_wrong_answer(scripted, capsys):
    rows = load("rows")
    rows_llm.report(scripted, rows.measure, [], WORLD, show=3)
    out = capsys.readouterr().out
    assert out.count("facts in our rows found in the case's sources") == 2
    assert "in the rows!" not in out and out.count("not in the rows") == 2
    assert "fell back to offline after an LLM failure (malformed reply 1, timeout 1)" in out
