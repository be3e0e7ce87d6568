"""What a colleague reading the digests as the seed's readers do found and we mended: a list's
ordinal or a greeting is no first sentence, a bullet without text shows no separator, a run with no
documents does not say its rows found nothing above the threshold, the agent pointer runs as printed."""

from __future__ import annotations

import json
from pathlib import Path

from fixlore.compose.themes import told


def test_a_bullet_is_told_from_the_first_sentence_that_says_something():
    assert told("根因： 1. 抢锁和健康检查共用 backendMutex_，互相阻塞。修改：超时 2s。", 90) == \
        "抢锁和健康检查共用 backendMutex_，互相阻塞"
    assert told("Apologies for the delayed response. The A5 build needs CANN 8.5.", 90) == "The A5 build needs CANN 8.5"
    assert told("感谢反馈。根因是驱动版本不匹配。", 90) == "根因是驱动版本不匹配"
    # a greeting that opens a sentence with something in it is kept whole
    assert told("Thanks, this is caused by the HCCL timeout default of 120s.", 90) == \
        "Thanks, this is caused by the HCCL timeout default of 120s"
    assert told("Yes, this is a bug in the allreduce path; fixed in !12.", 90) == "Yes, this is a bug in the allreduce path"


def test_a_run_without_documents_says_it_searched_none(tmp_path, demo_run):
    from conftest import fixlore_here
    world = Path(__file__).resolve().parents[1] / "worlds" / "pytest-threads"     # small, and no docs/
    out = tmp_path / "out"
    assert fixlore_here("run", "--world", str(world), "--out", str(out), "-q").returncode == 0
    zh = (out / "digest.zh.md").read_text("utf-8")
    kb = json.loads((out / "digest.json").read_text("utf-8"))["figures"]["kb"]
    assert kb["searched"] is False and "未做文档检索" in zh and "无高于阈值的命中" not in zh
    # the demo world has documents: its rows without one are below the threshold, as said
    demo = (demo_run / "digest.zh.md").read_text("utf-8")
    assert json.loads((demo_run / "digest.json").read_text("utf-8"))["figures"]["kb"]["searched"] is True
    assert "未做文档检索" not in demo
    # the pointer names the run's folder as OUT and says what it is
    assert "fixlore serve mcp --out OUT（MCP，由 Agent 启动此命令；OUT 为本次运行的输出目录）" in demo
    assert not any(")- [" in line for line in demo.splitlines()), "theme bullets run together on one line"
