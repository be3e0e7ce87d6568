"""The editorial check catches each defect class planted in a real demo digest; the clean rows pass."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fixlore.compose.check import check_digest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def digest(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("demo") / "run"
    subprocess.run([sys.executable, "-m", "fixlore", "run", "--world", str(ROOT / "worlds" / "demo"),
                    "--out", str(out), "-q"], check=True, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    return json.loads((out / "digest.json").read_text(encoding="utf-8"))


def _zh_only(data: dict) -> dict:
    data = copy.deepcopy(data)
    data["digests"] = {"zh": data["digests"]["zh"]}
    return data


def _row(data: dict, case: str) -> dict:
    return next(r for repo in data["digests"]["zh"]["repos"] for r in repo["rows"] if r["case"] == case)


def _kinds(data: dict, where: str) -> set[str]:
    return {f.kind for f in check_digest(data) if f.where.startswith(where)}


def test_the_chinese_demo_rows_pass_as_written(digest):
    assert _kinds(_zh_only(digest), "zh infer-serve#31") == set()


@pytest.mark.parametrize("answer, kind", [
    ("空 prompt 越界，计划拆成两步校验。修复 !57。", "tense"),
    ("在 API 层增加参数校验，例如。", "cut"),
    ("在 API 层增加参数校验，非法参数返回 400…", "cut"),
    ("参数校验在 API 层完成。修复 !60（master）。", "credit"),
    ("Validate the request at the API layer and return 400 for an empty prompt.", "language"),
    ("【自检】main.go 修改。修复 !57。", "boilerplate"),
])
def test_each_planted_defect_is_caught_by_its_class(digest, answer, kind):
    data = _zh_only(digest)
    _row(data, "infer-serve#31")["answer"] = answer
    assert kind in _kinds(data, "zh infer-serve#31")


def test_an_unlanded_fix_told_as_merged_is_a_tense_finding(digest):
    data = _zh_only(digest)
    _row(data, "infer-serve#35")["answer"] = "问题已修复，09-18 合入。"
    assert "tense" in _kinds(data, "zh infer-serve#35")


def test_a_sentence_repeated_across_rows_is_boilerplate(digest):
    data = _zh_only(digest)
    for case in ("infer-serve#31", "infer-serve#32", "infer-serve#33"):
        _row(data, case)["answer"] += "属批量关单簇，关单时刻不说明修复。"
    assert any(f.kind == "boilerplate" and "批量关单簇" in f.text for f in check_digest(data))


def test_theme_counts_that_do_not_add_up(digest):
    data = _zh_only(digest)
    theme = data["digests"]["zh"]["themes"][0]
    theme["paragraph"] = f"本组 {len(theme['bullets'])} 案：2 案修复已合入、1 未落地、1 无代码修复。"
    assert "arithmetic" in _kinds(data, "zh theme 1")


def test_a_disclosure_count_that_differs_from_the_rows(digest):
    data = _zh_only(digest)
    data["digests"]["zh"]["disclosure"].append({"label": "x", "text": "按价值取头部 12 条深析，留 11 条入选。"})
    assert "disclosure" in _kinds(data, "zh disclosure")


def test_a_file_that_is_not_a_digest_is_refused():
    with pytest.raises(ValueError):
        check_digest({"format": "something-else"})


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fixlore", "check", *args], capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})


def test_check_command_exit_codes(digest, tmp_path):
    clean = {**_zh_only(digest), "digests": {"zh": {**digest["digests"]["zh"], "repos": [], "themes": [],
                                                     "guide": [], "disclosure": []}}}
    (tmp_path / "clean").mkdir()
    (tmp_path / "clean" / "digest.json").write_text(json.dumps(clean), encoding="utf-8")
    assert _cli(str(tmp_path / "clean")).returncode == 0
    planted = _zh_only(digest)
    _row(planted, "infer-serve#31")["answer"] = "在 API 层增加参数校验，例如。"
    (tmp_path / "planted.json").write_text(json.dumps(planted), encoding="utf-8")
    found = _cli(str(tmp_path / "planted.json"), "--json")
    assert found.returncode == 1
    assert json.loads(found.stdout)["by_class"]["cut"] >= 1
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    assert _cli(str(tmp_path / "bad.json")).returncode == 2
    (tmp_path / "other.json").write_text('{"format": "x"}', encoding="utf-8")
    assert _cli(str(tmp_path / "other.json")).returncode == 2


def test_a_sentence_cut_inside_the_cell_is_caught(digest):
    data = _zh_only(digest)
    _row(data, "infer-serve#31")["answer"] = "1.4.0 起 agent 默认以非 root…。升级后一直崩溃：。修复 !57。"
    assert "cut" in _kinds(data, "zh infer-serve#31")
