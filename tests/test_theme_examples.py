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


def test_a_plan_a_version_list_a_result_or_a_change_tells_no_cause():
    from fixlore.compose.themes import tells_a_cause
    c = _case("o/a", 1)
    for s in ("后续会提供 Agent 辅助：把你的启动命令交给 Agent，生成并校验 config.toml",
              "GLM 5.1 / vllm-ascend 0.18.0 / A3 800T",
              "nightly 62 个模型 verify 全部通过",
              "新增 `mindspeed_mm/fsdp/models/magihuman/`，通过 `@model_register` 注册"):
        assert not tells_a_cause(s, c), s
    for s in ("原因是校准后原始 bf16 权重没释放",
              "交换机这类嵌入式设备认证响应慢，10s 对整个连接过程太短",
              "The parser table is keyed by port only, so a second address on the same port is overwritten and bind fails"):
        assert tells_a_cause(s, c), s


def test_a_pointer_a_test_or_a_labelled_usage_tells_no_cause():
    from fixlore.compose.themes import tells_a_cause
    c = _case("o/a", 1)
    for s in ("详见 OptiX 参数寻优设计文档", "补 Parquet 记录加载回归测试（pandas 2.3.3 实测读写通过）",
              "二轮补修：PR#980（analyze 别名与 top_k 标题）", "典型用法：micro_batch_size=GBS/DP、梯度累积 1、chunk_mbs=原 MBS"):
        assert not tells_a_cause(s, c), s
    assert tells_a_cause("利用率定义由 HDK 决定：24.1.RC2.7 之前只有 dcmi_get_device_utilization_rate 单指标查询", c)


def test_the_threads_talk_and_the_analysts_cuts_tell_no_cause():
    """Read on npu-threads (held out until the rules above were written, then read to report)."""
    from fixlore.compose.themes import tells_a_cause
    c = _case("o/a", 1)
    for s in ("Point `third_party/hcomm` at tag v9.0.0 (rest cut)",
              "(description not in the excerpt",
              "Yeah, the problem is that we do not have any hardwares:)",
              "Apologies for the delayed response",
              "After the vLLM 0.29 rebase was merged in #7230"):
        assert not tells_a_cause(s, c), s
    assert tells_a_cause("The kernel fails because the tail tile is not 16-aligned", c)
