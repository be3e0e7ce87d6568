"""Rows a reader would not send back (issue #22, rows): a sentence that ends at the colon
introducing what the thread showed next is dropped, a question or a courtesy is not an answer, a fix
merged after an early close reads as landed, an open PR beside a merged fix is not "待合入", the same
fact formula is not repeated word for word across the rows a PR fixed, a clause already said is not
said again."""

from __future__ import annotations

import json

from fixlore.analyse.context import CaseContext
from fixlore.analyse.fit import without_dangling, without_restated
from fixlore.analyse.offline import OfflineAnalyst
from fixlore.analyse.roles import says_something, without_merge_news
from fixlore.analyse.tense import in_tense
from fixlore.compose.check import check_digest
from fixlore.core.enums import Timing, Trap
from fixlore.core.model import Case, Comment, Issue
from fixlore.wording.facts import close_sentence, fix_sentence

from case_builders import REPO, at, pr as _pr


# -- what the analyst picks -------------------------------------------------------------------
def test_a_sentence_ending_at_the_colon_that_introduced_a_dropped_log_or_link_is_not_kept():
    assert without_dangling("从 1.3.2 升级到 1.4.0 后 agent 一直 CrashLoopBackOff：") == ""
    # the labels of two links the row does not carry go; the sentence before them stays
    assert without_dangling("Ascend has already provided the image. docker guidance doc:  Image pull site:") == \
        "Ascend has already provided the image."
    assert without_dangling("Ascend provide dockerfile :  dockerfile build guidance:") == ""
    # a comma left by a link after it: the clause before it is whole
    assert without_dangling("This is a fix for the CacheBlend layer-wise adaptation，") == \
        "This is a fix for the CacheBlend layer-wise adaptation"
    # a label colon inside the text is not an ending
    text = "临时规避：在 values.yaml 中设置 securityContext.runAsUser: 0，或把 agent 用户加入 HwHiAiUser 组"
    assert without_dangling(text) == text
    assert without_dangling("v1.4.0 起默认非 root 运行") == "v1.4.0 起默认非 root 运行"     # "1.4.0" is no sentence end


def test_a_question_or_a_bare_courtesy_is_not_an_answer():
    assert not says_something("Could you please let us know whether it has been fixed at present?")
    assert not says_something("请问这是什么原因呢？")
    assert not says_something("Thanks for your feedback")
    assert says_something("原因是校准后原始 bf16 权重没释放")


def test_a_merged_fix_leaves_no_progress_note_to_do_or_backport_request():
    for stale, kept in (("正式修复 PR 在提交中", ""),
                        ("原因是校准后原始 bf16 权重没释放，我提了 PR#810", "原因是校准后原始 bf16 权重没释放"),
                        ("共享设备场景不支持 volcanoType，这里缺参数校验，资料也需要补", "共享设备场景不支持 volcanoType，这里缺参数校验"),
                        ("cherry-pick !870 到 release/26.2.0", "")):
        assert in_tense(stale, True, False) == kept
        assert in_tense(stale, False, False) == stale          # nothing linked: the thread's words stand
    assert in_tense("UB 网卡设备需要 MindCluster ≥ 26.2.0", True, False) == "UB 网卡设备需要 MindCluster ≥ 26.2.0"


def test_a_clause_the_row_already_says_is_not_said_again():
    said = ["交换机这类嵌入式设备认证响应慢，10s 对整个连接过程太短"]
    assert without_restated("交换机等嵌入式设备认证响应慢：协议/认证阶段超时放宽至 30s", said) == "协议/认证阶段超时放宽至 30s"
    # a clause with a fact of its own stays
    assert without_restated("交换机等嵌入式设备认证响应慢（30s）", said) == "交换机等嵌入式设备认证响应慢（30s）"


def _closed_early(comments: list[str]) -> tuple[Case, CaseContext]:
    """cluster-agent#95's shape: closed with a workaround, the fix merged two days later."""
    issue = Issue(repo=REPO, number=95, title="升级到 1.4.0 后 agent 启动报 permission denied",
                  body="升级后 agent 一直 CrashLoopBackOff：\n```\nError: open /var/run/npu.sock: permission denied\n```",
                  state="closed", created_at=at(1), updated_at=at(16), closed_at=at(14),
                  author="reporter1", html_url=f"https://gitcode.com/{REPO}/issues/95")
    talk = [Comment(repo=REPO, parent_kind="issue", parent_number=95, id=f"95-{i}", author="maintainer1", body=b,
                    created_at=at(3, 10 + i)) for i, b in enumerate(comments)]
    case = Case(repo=REPO, number=95, title=issue.title, url=issue.html_url, closed_at=at(14), funnel="selected",
                pending_fix=[_pr(145, day=16)], timing=Timing.BEFORE_MERGE, traps=[Trap.CLOSED_BEFORE_MERGE])
    return case, CaseContext(issue=issue, comments=talk, pulls=[])


def test_a_fix_merged_after_an_early_close_reads_as_landed():
    case, ctx = _closed_early(["1.4.0 起 agent 默认以非 root 用户运行，socket 权限不够。正式修复 PR 在提交中。",
                               "从 1.3.2 升级到 1.4.0 后 agent 一直 CrashLoopBackOff："])
    a = OfflineAnalyst().analyse(case, ctx)
    assert "提交中" not in a.answer and "CrashLoopBackOff" not in a.answer, a.answer
    assert "非 root" in a.answer and "!145" in a.answer


# -- the pipeline's fact sentences ------------------------------------------------------------
def test_an_open_pr_beside_a_merged_fix_is_not_waiting_to_merge():
    case = Case(repo=REPO, number=631, url="u", fix=[_pr(986)], pending_fix=[_pr(1008, "open")])
    zh = fix_sentence(case, True)
    assert "!986（09-15 合入）" in zh and "!1008（open，未合入）" in zh and "待合入" not in zh
    alone = Case(repo=REPO, number=536, url="u", fix=[_pr(3054, "open")])
    assert "!3054（open，待合入）" == fix_sentence(alone, True).removeprefix("修复 ")     # nothing landed: it waits


def test_the_rows_one_pr_fixed_each_name_the_others_and_a_late_close_states_the_lag_only():
    note = {Trap.ONE_PR_MANY_ISSUES.value: "!57 also fixes #32, #33"}
    case = Case(repo=REPO, number=31, url="u", fix=[_pr(57)], timing=Timing.SAME_SECOND, lag_s=1,
                traps=[Trap.ONE_PR_MANY_ISSUES], trap_notes=note)
    assert close_sentence(case, True) == "合入当秒自动关单；同一 PR 还修 #32、#33"
    assert close_sentence(case, False) == "closed in the same second as the merge; the same PR also fixed #32, #33"
    late = Case(repo=REPO, number=1, url="u", fix=[_pr(5)], timing=Timing.LATER, lag_s=86401)
    assert close_sentence(late, True) == "合入 24 小时后关单" and close_sentence(late, False) == "closed 24 h after the merge"


# -- the editorial check on the demo run ---------------------------------------------------------
def test_the_demo_digest_passes_the_editorial_check(demo_run):
    data = json.loads((demo_run / "digest.json").read_text(encoding="utf-8"))
    found = [f for f in check_digest(data) if f.kind in ("tense", "cut", "language", "boilerplate")]
    assert found == [], [(f.where, f.why) for f in found]


def test_a_merge_note_the_fact_sentence_states_is_not_said_twice():
    case = Case(repo=REPO, number=577, url="u", fix=[_pr(3109)])
    stated = fix_sentence(case, True)

    def strip_news(text: str, case: Case, stated: str) -> str:
        return without_merge_news(text, case.repo, stated)

    assert strip_news("!3109 已合入：`lora_save_only=true` 只存 LoRA 权重", case, stated) == "`lora_save_only=true` 只存 LoRA 权重"
    assert strip_news("异常由 IR 图 FakeQuantLinear 前向错误引起，PR#3109 修复", case, stated) == "异常由 IR 图 FakeQuantLinear 前向错误引起"
    assert strip_news("已合入，nightly 62 个模型 verify 全部通过", case, stated) == "nightly 62 个模型 verify 全部通过"
    # a PR the row does not state, or a clause that says what, stays
    assert strip_news("PR#983（帮助旧参数）已合入", case, stated) == "PR#983（帮助旧参数）已合入"
    assert strip_news("补齐 EP、MoE aux loss、LoRA 章节", case, stated) == "补齐 EP、MoE aux loss、LoRA 章节"


def test_a_list_cut_after_its_first_number_and_a_question_without_its_mark_are_not_kept():
    assert without_dangling("910b NPU 支持目前不在主线规划上，主要原因是：1") == "910b NPU 支持目前不在主线规划上"
    assert without_dangling("版本 1:1 对齐") == "版本 1:1 对齐"
    assert not says_something("最新的VLM模型可以在NPU上运行吗")
