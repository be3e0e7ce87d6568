"""Rows written in the tense the fix's state allows, never cut mid-fact, without boilerplate
(issue #22): the offline analyst on small hand-made cases, and the fact chooser (analyse/fit.py)
under Hypothesis."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings, strategies as st

from fixlore.analyse.context import CaseContext
from fixlore.analyse.fit import dangles, fit, without_dangling
from fixlore.analyse.fit import ROW_CHARS
from fixlore.analyse.offline import EXPLAIN_BUDGET, OfflineAnalyst
from fixlore.analyse.tense import in_tense
from fixlore.core.enums import Timing, Trap
from fixlore.core.model import Case, Comment, FixRef, Issue, Pull
from fixlore.rules.text import hard_facts

TZ = timezone(timedelta(hours=8))
REPO = "Ascend/msdemo"


def at(day: int, hh: int = 10) -> datetime:
    return datetime(2026, 9, day, hh, tzinfo=TZ)


def _case(n: int, title: str, body: str, comments: list[str], pr_body: str, *, state: str = "merged",
          timing: Timing = Timing.SAME_SECOND, traps: list[Trap] | None = None) -> tuple[Case, CaseContext]:
    merged = at(15) if state == "merged" else None
    fix = FixRef(repo=REPO, number=900 + n, role="fix", state=state, merged_at=merged,
                 url=f"https://gitcode.com/{REPO}/merge_requests/{900 + n}", base_ref="master")
    issue = Issue(repo=REPO, number=n, title=title, body=body, state="closed", created_at=at(1), updated_at=at(16),
                  closed_at=at(16), author="reporter1", html_url=f"https://gitcode.com/{REPO}/issues/{n}")
    pull = Pull(repo=REPO, number=900 + n, title=f"fix #{n}", body=pr_body, state=state, created_at=at(2),
                updated_at=at(15), merged_at=merged, closed_at=merged, author="dev1", base_ref="master",
                html_url=fix.url)
    talk = [Comment(repo=REPO, parent_kind="issue", parent_number=n, id=f"{n}-{i}", author="maintainer1", body=b,
                    created_at=at(3, 10 + i)) for i, b in enumerate(comments)]
    case = Case(repo=REPO, number=n, title=title, url=issue.html_url, closed_at=at(16), funnel="selected",
                fix=[fix], timing=timing if state == "merged" else Timing.NO_FIX, lag_s=0, traps=traps or [])
    return case, CaseContext(issue=issue, comments=talk, pulls=[pull])


def test_a_merged_fix_reads_as_done_not_as_a_plan():
    case, ctx = _case(1, "npu-exporter 的 network 指标组混装带宽和链路指标", "两类指标混在一组，难以分别设置周期。",
                      ["计划拆成 network_bandwidth（带宽类，60s）与 network_link（链路类，600s）两组，修复中。",
                       "check_model_type 校验与采集流程冲突，PR 检视中。"],
                      "拆分 network 指标组，旧组保留一个版本兼容。")
    a = OfflineAnalyst().analyse(case, ctx)
    assert "network_bandwidth" in a.answer and "network_link" in a.answer     # the change, whole
    for plan in ("计划", "修复中", "检视中", "准备"):
        assert plan not in a.answer, a.answer
    assert "09-15 合入" in a.answer


def test_a_fix_that_did_not_land_never_reads_as_done():
    case, ctx = _case(2, "packing 按 cutoff_len 硬切，跨文档注意力泄漏", "文档拼接后按 cutoff_len 切分。",
                      ["根因是 packing 没有 cu_seqlens 边界隔离，修复已合入。", "方案：按完整文档 packing，生成 cu_seqlens。"],
                      "按完整文档 packing，生成 cu_seqlens 隔离跨文档 attention。", state="open")
    a = OfflineAnalyst().analyse(case, ctx)
    assert "cu_seqlens" in a.answer and "待合入" in a.answer
    assert "已合入" not in a.answer and "修复已" not in a.answer, a.answer
    assert "合入）" not in a.answer.replace("待合入）", "")      # no merge date beside an open PR


def test_a_long_case_keeps_whole_facts_within_budget_and_no_ellipsis():
    long = ("定位：Qwen3VLModel.forward 以 dtype=int32 创建 attention_mask，preprocess_packed_seqs 中 input_ids[i, mask[i]] "
            "把 int 当行号索引而非掩码，embedding_table 与 position_ids 都被毁掉，grad_norm 升到 570 以上，"
            "loss_scale 与 micro_batch_size 无关，例如")
    case, ctx = _case(3, "thd 格式训练 loss 飙到 21", "用 thd 格式训练 loss 飙到 21。",
                      [long, long.replace("定位：", "另外 ") + "：", "second_reason_here 同样会在 seq_len_limit 超过 4096 时触发越界。"],
                      "attention_mask 改为 bool；补 packed_seq_unit_test 回归。")
    a = OfflineAnalyst().analyse(case, ctx)
    w = a.written
    explained = "。".join(p for p in (w.mechanism, w.change, w.workaround, w.scope) if p)
    # the analyst's share of the row: what the problem and the pipeline's facts leave of ROW_CHARS,
    # never less than EXPLAIN_BUDGET (issue #22: a row read at a glance, facts chosen to fit it)
    assert explained and (len(explained) <= EXPLAIN_BUDGET + 3 or len(a.problem) + len(a.answer) <= ROW_CHARS + 3)
    assert "…" not in a.answer and "..." not in a.answer and "…" not in a.problem
    assert not a.answer.rstrip("。").endswith("例如")
    sources = "\n".join([ctx.body] + [c.body for c in ctx.comments] + [p.body for p in ctx.pulls])
    assert hard_facts(explained) <= hard_facts(sources)           # never a partial identifier


def test_no_boilerplate_repeats_across_rows():
    rows = []
    for n in (4, 5, 6):
        case, ctx = _case(n, f"采集组件 {n} 缺少 volcano_type_{n} 参数校验", "缺参数校验。",
                          [f"共享设备场景不支持 volcano_type_{n}，这里缺参数校验。"],
                          f"【自检】main.go 修改，无 UT/ST 需求。\n补充 volcano_type_{n} 参数校验逻辑。",
                          timing=Timing.LATER, traps=[Trap.CLOSE_STORM])
        case.lag_s = 3 * 86400
        rows.append(OfflineAnalyst().analyse(case, ctx).answer)
    for r in rows:
        assert "自检" not in r and "UT/ST" not in r and "批量关单" not in r, r
    # every sentence a row says about its own case; none comes back in every row but the pipeline's facts
    said = [set(s for s in r.split("。") if s and not s.startswith(("修复 !", "合入 "))) for r in rows]
    assert not (said[0] & said[1] & said[2])


def test_tests_added_are_not_the_fix():
    case, ctx = _case(7, "MoE topk 没有随 TP 切分，dispatch 通信量高估", "dispatch 字节数是预期的 tp 倍。",
                      ["根因：route() 在 _dp_transform_enter 之前按全量 token 计算。"],
                      "新增 tp=2/4 下 dispatch_bytes 断言。\n改为在 _dp_transform_enter 之后按本 rank 的 token 切片计算 topk_ids。")
    a = OfflineAnalyst().analyse(case, ctx)
    # the change in the code comes first; the tests, if room is left, only after it
    assert a.written.change.startswith("改为") and "topk_ids" in a.written.change


def test_tense_clause_by_clause():
    assert in_tense("计划拆成 a_b 与 c_d 两组，修复中", merged=True, pending=False) == "拆成 a_b 与 c_d 两组"
    assert in_tense("方案评审通过，PR 合入后请按新格式迁移配置", True, False) == "方案评审通过，请按新格式迁移配置"
    assert in_tense("bug 已由提出人修复，PR#810 检视中", True, False) == "bug 已由提出人修复"
    assert in_tense("根因是 foo_bar 越界，修复已合入", merged=False, pending=True) == "根因是 foo_bar 越界"
    assert in_tense("计划下个版本支持", merged=False, pending=False) == "计划下个版本支持"   # no fix: as said


def test_dangling_endings():
    assert dangles("TP 用 factories 按 8/DP 派生，例如") and not dangles("资料也没有")
    assert without_dangling("DP 用 enum，TP 按 8/DP 派生，例如：") == "DP 用 enum，TP 按 8/DP 派生"
    assert without_dangling("例如：") == ""


_WORD = st.sampled_from(["route()", "topk_ids", "init_routing_v2", "3.2.2", "36G", "0.25%", "!795", "ip:port",
                         "input_ids[i, mask[i]]", "a,b", "根因", "对齐", "切分", "每个 token", "例如", "e.g.",
                         "Qwen3VLModel.forward", "30s→2s", "v1/v2", "（自身、父进程）"])
_SEP = st.sampled_from(["，", "；", "：", "、", ", ", "; ", " ", ""])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_WORD, _SEP), min_size=1, max_size=25), st.integers(min_value=0, max_value=160))
def test_fit_never_exceeds_the_budget_nor_splits_a_fact(parts, limit):
    text = "".join(w + s for w, s in parts).strip()
    out = fit(text, limit)
    assert len(out) <= limit or out == ""
    assert "…" not in out
    normal = " ".join(text.split())
    assert normal.startswith(out)                                 # its first clauses, in order
    assert hard_facts(out) <= hard_facts(normal)                  # no identifier or number cut in half
    if out and out != normal:
        assert not dangles(out)
