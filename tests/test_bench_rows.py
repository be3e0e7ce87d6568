"""bench/rows.py's fact extraction and seed parsing (the measure #14 is judged by)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

spec = importlib.util.spec_from_file_location("bench_rows", Path(__file__).parents[1] / "bench" / "rows.py")
rows = importlib.util.module_from_spec(spec)
sys.modules["bench_rows"] = rows  # dataclasses look their module up
spec.loader.exec_module(rows)


def kinds(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for fact in rows.facts_in(text):
        out.setdefault(fact.kind, set()).add(fact.key)
    return out


def test_facts_cover_refs_versions_identifiers_and_measures():
    found = kinds("PR 986 与 !1008 对齐；triton-ascend 统一为 3.2.2，设 lora_save_only，"
                  "读 config.toml 与 --timeout，VllmCommand 引入；实测 36G、1.3×、0.25%，见 #498。")
    assert found["ref"] == {"986", "1008", "498"}
    assert found["version"] == {"3.2.2"}
    assert {"lora_save_only", "config.toml", "--timeout", "vllmcommand"} <= found["ident"]
    assert {"36g", "1.3×", "0.25%"} <= found["measure"]


def test_plain_words_dates_and_scores_are_not_facts():
    found = kinds("官方答复 09-08 合并，KG 0.897 命中，README 已更新 fix bug")
    assert "version" not in found and "ref" not in found
    assert not found.get("ident")


def test_carried_matches_refs_by_number_not_by_prefix():
    assert rows.carried(rows.Fact("ref", "47"), "修复 !47（master）")
    assert not rows.carried(rows.Fact("ref", "47"), "修复 !470")
    assert rows.carried(rows.Fact("ref", "55"), "pr 55 改 bool")


def test_seed_rows_take_the_longest_issue_number_the_world_knows():
    seed = "\n".join([
        "msmodeling（建模·回归）", "", "副标题", "", "编号Issue 问题内容解答总结",
        "#4434fdcdefb 后三条回归失败!870 修三条路径",
        "#390topk 未随 TP 切分!795 对齐",
        "", "mind-cluster（调度）", "", "副标题", "", "编号Issue 问题内容解答总结",
        "#1162关键字改 DetectRankTableImpl!4683",
    ])
    parsed = rows.parse_seed(seed, {"msmodeling": {443, 390, 44}, "mind-cluster": {1162}})
    assert [r.key for r in parsed] == ["msmodeling#443", "msmodeling#390", "mind-cluster#1162"]
    assert parsed[0].text.startswith("4fdcdefb")
    assert rows.Fact("ref", "870") in parsed[0].facts


def test_the_hand_written_reference_reads_by_split_and_matches_listed_facts(tmp_path):
    ref = tmp_path / "reference_rows.yaml"
    ref.write_text("world: demo\nrows:\n"
                   "- {repo: o/r, number: 5, split: tune, problem: p, answer: a, hard: [max_local_cpu_size, '#259', LNK2038]}\n"
                   "- {repo: o/r, number: 6, split: heldout, problem: p, answer: a, hard: [0.27.0]}\n", encoding="utf-8")
    tune = rows.parse_reference(ref, "tune")
    assert [r.key for r in tune] == ["o/r#5"]
    assert {f.kind for f in tune[0].facts} == {"ident", "ref", "literal"}
    text = rows.fold("RegisterMem fails: max_local_cpu_size too large; !259 stages it (LNK2038)")
    assert all(rows.carried(f, text) for f in tune[0].facts)
    assert [r.key for r in rows.parse_reference(ref, "all")] == ["o/r#5", "o/r#6"]


def test_a_broken_reference_file_is_one_clear_line(tmp_path, capsys):
    ref = tmp_path / "reference_rows.yaml"
    ref.write_text("world: demo\nrows:\n- repo: o/r\n  answer: a: b: c\n", encoding="utf-8")
    digest = tmp_path / "digest.json"
    digest.write_text('{"digests": {"zh": {"repos": []}}, "cases": []}', encoding="utf-8")
    assert rows.main(["--reference", str(ref), "--reference-digest", str(digest)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a reference file" in err


def test_the_bundled_reference_is_half_held_out_and_lists_facts():
    path = Path(__file__).parents[1] / "bench" / "reference" / "npu-threads.yaml"
    assert rows.reference_world(path).name == "npu-threads" and rows.reference_world(path).is_dir()
    every = rows.parse_reference(path, "all")
    held = rows.parse_reference(path, "heldout")
    assert len(every) >= 20 and 0.4 <= len(held) / len(every) <= 0.6
    assert all(r.facts for r in every)


def test_held_out_figures_do_not_name_the_rows_we_lack(tmp_path, capsys):
    """`heldout`/`all` print figures only: the count of reference rows without a row of ours, not their keys."""
    ref = tmp_path / "reference_rows.yaml"
    ref.write_text("world: demo\nrows:\n"
                   "- {repo: o/r, number: 5, split: tune, problem: p, answer: a, hard: ['#259']}\n"
                   "- {repo: o/r, number: 6, split: heldout, problem: p, answer: a, hard: ['#260']}\n", encoding="utf-8")
    digest = tmp_path / "digest.json"
    digest.write_text('{"digests": {"zh": {"repos": []}}, "cases": []}', encoding="utf-8")
    for split, named in (("tune", "o/r#5"), ("heldout", None), ("all", None)):
        assert rows.main(["--reference", str(ref), "--reference-digest", str(digest), "--split", split]) == 0
        out = capsys.readouterr().out
        assert "with a row of ours: 0" in out
        assert ("missing: " + named in out) if named else ("o/r#" not in out)
