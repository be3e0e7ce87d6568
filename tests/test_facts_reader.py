"""bench/facts_reader.py, the reader's count of hard facts (issue #22's second measure): what it
counts as a fact, how it reads the seed's run-together rows and our Markdown as a reader sees it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

spec = importlib.util.spec_from_file_location("facts_reader", Path(__file__).parents[1] / "bench" / "facts_reader.py")
reader = importlib.util.module_from_spec(spec)
sys.modules["facts_reader"] = reader
spec.loader.exec_module(reader)

SEED = """标题

demo（演示仓·说明）

小标题

编号Issue 问题内容解答总结
#279开 lora_save_only 后存盘仍 36G修复 PR !3109（09-16 合入）：新增 lora_save_only，跳过全量写；CANN 8.5.2 起可用。KG：文档（0.897）。
#4434fdcdefb 后 Qwen3Next 回归失败tmp/vllm/stop_vllm_process.sh 误杀；merged 2026-09-18 17:37:03 与关单秒级一致。
"""

MD = """# 标题

## demo（演示仓）

| 编号 | 问题 | 解答 |
|---|---|---|
| [#279](https://x/issues/279) | 开启 `lora_save_only` 后存盘仍 36G | 新增 lora_save_only。修复 [!3109](https://x/merge_requests/3109)（09-16 合入）。 |
| [#443](https://x/issues/443) | Qwen3Next 回归失败 | 详见 [stop_vllm_process.sh](https://x/blob/stop_vllm_process.sh)。 |
"""


def test_the_kinds_of_hard_fact_and_what_is_not_one():
    found = reader.facts("PR !3109 与 #810 修复；CANN 8.5.2、0.23.0rc1；--timeout 与 config.toml、VllmCommand、"
                         "lora_save_only；36G、0.25%、1.3×、137；09-16 合入，17:37:03；KG（0.897）；3 条", own=279)
    assert {("pr", "3109"), ("pr", "810"), ("version", "8.5.2"), ("version", "0.23.0rc1"), ("ident", "--timeout"),
            ("ident", "config.toml"), ("ident", "vllmcommand"), ("ident", "lora_save_only"), ("number", "36G"),
            ("number", "0.25%"), ("number", "1.3×"), ("number", "137")} == found


def test_the_seed_rows_number_run_into_the_problem_is_split_by_the_sections_numbers():
    rows = reader.seed_rows(SEED)
    assert set(rows) == {("demo", 279), ("demo", 443)}
    assert rows[("demo", 443)].startswith("4fdcdefb 后")


def test_recall_is_counted_on_the_text_a_reader_sees():
    ours = reader.our_rows(MD)
    assert "https" not in ours[("demo", 443)] and "stop_vllm_process.sh" in ours[("demo", 443)]
    result = reader.measure(reader.seed_rows(SEED), ours)
    # #279: lora_save_only, 36G, !3109 found, 8.5.2 missed (the score 0.897 is none); #443: the script's
    # name found (its path read part by part; the dates and the time are none)
    assert result["missed"] == {"demo#279": ["8.5.2"]}
    assert (result["recalled"], result["facts"], result["matched"]) == (4, 5, 2)


def test_each_figure_is_for_one_split_and_held_out_rows_are_never_listed(tmp_path, capsys):
    # a world of one repository: #279 and #443 held; the split of each by the SHA-1 rule (no truth)
    issues = tmp_path / "w" / "repos" / "b" / "demo" / "issues"   # b/demo#279 heldout, #443 tune
    issues.mkdir(parents=True)
    for n in (279, 443):
        (issues / f"{n}.json").write_text("{}", encoding="utf-8")
    seed, md = tmp_path / "seed.txt", tmp_path / "digest.zh.md"
    seed.write_text(SEED, encoding="utf-8")
    md.write_text(MD, encoding="utf-8")
    splits = reader.Splits(tmp_path / "w")
    assert {splits.of("demo", 279), splits.of("demo", 443)} == {"tune", "heldout"}
    tune_row = 279 if splits.of("demo", 279) == "tune" else 443
    counted = {}
    for split in ("tune", "heldout", "all"):
        assert reader.main(["--digest", str(md), "--seed", str(seed), "--world", str(tmp_path / "w"),
                            "--split", split, "--json", "--show"]) == 0
        counted[split] = __import__("json").loads(capsys.readouterr().out)
    assert counted["tune"]["seed_rows"] == counted["heldout"]["seed_rows"] == 1 and counted["all"]["seed_rows"] == 2
    assert counted["tune"]["facts"] + counted["heldout"]["facts"] == counted["all"]["facts"] == 5
    assert counted["heldout"]["missed"] == counted["all"]["missed"] == {}
    assert set(counted["tune"]["missed"]) <= {f"demo#{tune_row}"}


def test_the_split_rule_is_the_twins_truth():
    # the SHA-1 rule that splits a world without one (ascend-2026-09) is the rule seed-twin was split by
    import yaml
    truth = yaml.safe_load((Path(__file__).parents[1] / "worlds" / "seed-twin" / "truth.yaml").read_text(encoding="utf-8"))
    rows = [r for r in truth["issues"] if r.get("split")]
    assert len(rows) > 20 and all(reader.by_hash(r["repo"], r["number"]) == r["split"] for r in rows)


def test_a_hand_written_reference_is_read_by_its_split_with_this_readers_kinds(tmp_path, capsys):
    ref, md = tmp_path / "ref.yaml", tmp_path / "digest.zh.md"
    ref.write_text("world: demo\nrows:\n"
                   "- {repo: o/demo, number: 279, split: tune, problem: 存盘仍 36G, answer: 'lora_save_only；!3109', hard: [x]}\n"
                   "- {repo: o/demo, number: 443, split: heldout, problem: p, answer: 'CANN 8.5.2', hard: [y]}\n",
                   encoding="utf-8")
    md.write_text(MD, encoding="utf-8")
    assert reader.main(["--digest", str(md), "--reference", str(ref), "--json"]) == 0
    tune = __import__("json").loads(capsys.readouterr().out)
    assert (tune["recalled"], tune["facts"], tune["seed_rows"], tune["world"]) == (3, 3, 1, "demo")
    assert reader.main(["--digest", str(md), "--reference", str(ref), "--split", "heldout", "--json"]) == 0
    held = __import__("json").loads(capsys.readouterr().out)
    assert (held["recalled"], held["facts"], held["missed"]) == (0, 1, {})
