"""Cue words are read by one matcher (rules.words): as words, an identifier's parts as words, a
cue's non-letter edge bounding itself. Every stage's cue lists go through it; no second copy."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fixlore.rules.words import cue_count, has_cue

SRC = Path(__file__).resolve().parents[1] / "src" / "fixlore"


@pytest.mark.parametrize("text, cue, found", [
    ("RuntimeError: boom", "error", True), ("HTTPError", "error", True), ("The terror", "error", False),
    ("Warning  FailedScheduling  pod group", "failed", True), ("loss is NaNs", "nan", True),
    ("a fixture with params", "fix", False), ("fixed in !12", "fix", True),
    ("minmax_config 初始化时", "config*", True), ("profiling_database 缺少", "profiling", True),
    ("the bootstrap_timeout is", "timeout", True), ("fix T.tile.atomic_add", "add ", False),
    ("reElectionInProgress_ 短路", "in progress", False), ("source set_env.sh", "set ", False),
    ("ascendAtomicAdd::Lower", "add ", False), ("the PR is in progress", "in progress", True),
    ("returns wrong results", "wrong result", True),
    ("updating the docs", "update", True), ("updated the docs", "update ", False), ("pypinyin is used", "use ", False),
    ("please use the v2 flag", "use ", True), ("pinning hcomm to 8.5.0", "pin", True),
    ("a regression since 2.1", "regress*", True), ("chunkmbs.md 中", ".md", True),
    ("docs/zh/install.md 跳转链接错误", "docs/", True), ("是否支持 kubernetes 1.30？", "？", True),
    ("mfu≥24", "≥", True), ("reason: the cache", "reason:", True), ("启动就报错", "报错", True),
])
def test_a_cue_is_found_as_a_word(text, cue, found):
    assert has_cue(text, (cue,)) is found


def test_cue_count_counts_the_cues_used():
    assert cue_count("Fixed the loader; use the new flag, RuntimeError gone", ("fix", "use ", "error", "nan")) == 3


def test_one_cue_matcher():
    defs = [f"{p.relative_to(SRC)}" for p in SRC.rglob("*.py")
            for node in ast.walk(ast.parse(p.read_text("utf-8")))
            if isinstance(node, ast.FunctionDef) and node.name in ("has_cue", "cue_count")]
    assert sorted(defs) == ["rules/words.py", "rules/words.py"], defs
