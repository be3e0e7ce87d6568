"""A theme's paragraph gives two examples of the cases' causes (compose/themes.py). Read apart from
its row, an example must be a whole sentence of the case's cause: not the first clause of a longer
sentence, not a list's ordinal, not a plan or a pointer from the answer (read on ascend-2026-09 and
seed-twin: "如 MindSpeed-Bridge#41：Qwen3VLModel.forward 以 dtype=int32 创建 attention_mask", "如
memfabric_hybrid#472：1", "如 msmodeling#279：后续会提供 Agent 辅助"). The other worlds are held out."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fixlore.compose.figures import Refs
from fixlore.compose.themes import _paragraph, said_whole
from fixlore.core.enums import Timing
from fixlore.core.model import Case, Written

AT = datetime(2026, 9, 10, 10, tzinfo=timezone(timedelta(hours=8)))


def _case(repo: str, n: int, mechanism: str = "", answer: str = "", value: float = 1.0) -> Case:
    return Case(repo=repo, number=n, title=f"t{n}", problem=f"t{n}", funnel="selected", closed_at=AT,
                timing=Timing.NO_FIX, value=value, answer=answer, url=f"https://gitcode.com/{repo}/issues/{n}",
                written=Written(lang="zh", mechanism=mechanism, change=answer))


def test_an_example_is_a_whole_sentence_or_nothing():
    long = ("Qwen3VLModel.forward 以 dtype=int32 创建 attention_mask，preprocess_packed_seqs 中 input_ids[i, mask[i]] "
            "把 int 当行号索引而非掩码，embedding 与 position_ids 都被毁掉。")
    assert said_whole(long, 80) == ""
    assert said_whole("1. 抢锁和健康检查共用 backendMutex_ 互相阻塞；2. 旧主降级被短路。", 80) == "抢锁和健康检查共用 backendMutex_ 互相阻塞"
    assert said_whole("根因：端口表被覆盖。", 80) == "端口表被覆盖"


def test_the_paragraph_shows_causes_never_a_plan_or_a_clause():
    cs = [_case("o/a", 1, mechanism="Qwen3VLModel.forward 以 dtype=int32 创建 attention_mask，preprocess_packed_seqs 中 "
                "input_ids[i, mask[i]] 把 int 当行号索引而非掩码，embedding 与 position_ids 都被毁掉。", value=3),
          _case("o/b", 2, answer="后续会提供 Agent 辅助：把你的启动命令交给 Agent，生成并校验 config.toml。", value=2),
          _case("o/c", 3, mechanism="1. SocketAddressParserMgr 按端口缓存 parser，同端口不同 IP 时端口表被覆盖。", value=1)]
    para = _paragraph(cs, Refs(cs), "zh", [])
    assert "如 c#3：SocketAddressParserMgr 按端口缓存 parser，同端口不同 IP 时端口表被覆盖。" in para, para
    assert "attention_mask" not in para and "Agent" not in para and "：1" not in para
