"""A row's room is what a reader sees of it (issue #22, rows): the close is stated only when it tells
more than the fix's merge date, the cited document's name is read and so counted, code marks are
not, a discussion-stage label ("定位：") is not part of the point, and once a row says what was wrong
and what was done a further sentence earns its room only with a fact the row lacks."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fixlore.analyse.context import CaseContext
from fixlore.analyse.fit import ROW_CHARS, fit, fit_shown, shown_len
from fixlore.analyse.offline import EXPLAIN_BUDGET, OfflineAnalyst
from fixlore.compose.language import facts_in
from fixlore.core.enums import Timing, Trap
from fixlore.core.model import Case, Comment, Commit, FixRef, Issue, KbRef, Pull
from fixlore.rules.text import without_stage_label
from fixlore.wording.facts import cite_label, close_sentence, row_close

TZ = timezone(timedelta(hours=8))
REPO = "o/cluster"


def at(day: int, hh: int = 10) -> datetime:
    return datetime(2026, 9, day, hh, tzinfo=TZ)


def _pr(number: int, state: str = "merged") -> FixRef:
    return FixRef(repo=REPO, number=number, role="fix", state=state, merged_at=at(15) if state == "merged" else None,
                  url=f"https://gitcode.com/{REPO}/merge_requests/{number}", base_ref="master")


def _case(n: int, title: str, comments: list[str], pr_body: str, *, timing: Timing = Timing.SAME_SECOND,
          kb: list[KbRef] | None = None) -> tuple[Case, CaseContext]:
    fix = _pr(900 + n)
    issue = Issue(repo=REPO, number=n, title=title, body=title + "。", state="closed", created_at=at(1),
                  updated_at=at(16), closed_at=at(15), author="reporter1",
                  html_url=f"https://gitcode.com/{REPO}/issues/{n}")
    pull = Pull(repo=REPO, number=fix.number, title=f"fix #{n}", body=pr_body, state="merged", created_at=at(2),
                updated_at=at(15), merged_at=at(15), closed_at=at(15), author="dev1", base_ref="master", html_url=fix.url)
    talk = [Comment(repo=REPO, parent_kind="issue", parent_number=n, id=f"{n}-{i}", author="maintainer1", body=b,
                    created_at=at(3, 10 + i)) for i, b in enumerate(comments)]
    case = Case(repo=REPO, number=n, title=title, url=issue.html_url, closed_at=at(15), funnel="selected",
                fix=[fix], timing=timing, lag_s=0, kb_refs=kb or [])
    return case, CaseContext(issue=issue, comments=talk, pulls=[pull])


# -- the close, as a row states it --------------------------------------------------------------
def test_a_close_the_merge_made_is_not_restated_in_the_row_but_a_close_that_departs_from_it_is():
    same = Case(repo=REPO, number=1, url="u", fix=[_pr(5)], timing=Timing.SAME_SECOND, lag_s=0)
    auto = Case(repo=REPO, number=2, url="u", fix=[_pr(6)], timing=Timing.AUTO_CLOSE, lag_s=55)
    assert row_close(same, True) == "" and row_close(auto, True) == "" and row_close(auto, False) == ""
    assert close_sentence(same, True) == "合入当秒自动关单"       # the case's own fact sentence keeps it
    assert facts_in(same, "zh") == ["修复 !5（09-15 合入）"]      # the row: where and when the fix landed
    late = Case(repo=REPO, number=3, url="u", fix=[_pr(7)], timing=Timing.LATER, lag_s=3 * 86400)
    stale = Case(repo=REPO, number=4, url="u", fix=[_pr(8)], timing=Timing.STALE, lag_s=9 * 86400)
    early = Case(repo=REPO, number=5, url="u", pending_fix=[_pr(9)], timing=Timing.BEFORE_MERGE,
                 traps=[Trap.CLOSED_BEFORE_MERGE])
    unfixed = Case(repo=REPO, number=6, url="u", timing=Timing.NO_FIX)
    waiting = Case(repo=REPO, number=7, url="u", fix=[_pr(10, "open")], timing=Timing.NO_FIX)
    assert row_close(late, True) == "合入 3 天后关单"
    assert row_close(stale, True) == "stale 关单，晚于合入 9 天"
    assert row_close(early, True).startswith("关单早于修复合入")
    assert row_close(unfixed, True) == "无代码修复" and row_close(waiting, True) == "关单时修复未落地"


def test_a_fix_a_comment_claims_but_the_harvest_could_not_read_is_neither_a_fix_nor_no_fix():
    claimed = [{"repo": REPO, "number": 4747, "verdict": "missing", "signals": [{"kind": "comment", "claim": True}]}]
    case = Case(repo=REPO, number=4637, url="https://gitcode.com/o/cluster/issues/4637", timing=Timing.NO_FIX,
                candidates=claimed)
    assert case.unread_claims == [(REPO, 4747)]
    assert row_close(case, True) == "评论称已由 !4747 修复，该 PR 未能读取，状态未知"
    assert row_close(case, False) == "a comment says !4747 fixed it; that PR could not be read, its state is unknown"
    named = Case(repo=REPO, number=8, url="u", timing=Timing.NO_FIX,      # only named, never claimed: no fix said
                 candidates=[{**claimed[0], "signals": [{"kind": "comment", "claim": ""}]}])
    assert named.unread_claims == [] and row_close(named, True) == "无代码修复"


def test_a_merge_made_close_keeps_its_notes_on_other_issues_and_linked_prs():
    note = {Trap.ONE_PR_MANY_ISSUES.value: "!57 also fixes #32, #33"}
    case = Case(repo=REPO, number=31, url="u", fix=[_pr(57)], timing=Timing.SAME_SECOND, lag_s=1,
                traps=[Trap.ONE_PR_MANY_ISSUES], trap_notes=note)
    assert row_close(case, True) == "同一 PR 还修 #32、#33"
    assert row_close(case, False) == "the same PR also fixed #32, #33"
    linked = Case(repo=REPO, number=631, url="u", fix=[_pr(986)], timing=Timing.SAME_SECOND, lag_s=0,
                  candidates=[{"repo": REPO, "number": 1008, "verdict": "unrelated", "unrelated": "fixes #647",
                               "signals": [{"kind": "linked"}]}])
    assert row_close(linked, True) == "页面关联的 !1008 不是本单修复（它修 #647）"


# -- what the row's room counts ------------------------------------------------------------------
def test_code_marks_take_no_room_and_a_clause_is_never_split():
    text = "`no_save_optim=true` 存盘不写 optimizer；`save_ckpt_dtype` 生效点移到合并之后"
    assert shown_len(text) == len(text) - 4
    assert fit(text, shown_len(text)) != text                   # counted raw, the last clause would go
    assert fit_shown(text, shown_len(text)) == text             # counted as read, the row keeps it
    assert fit_shown(text, shown_len(text) - 1) == "`no_save_optim=true` 存盘不写 optimizer"
    assert fit_shown(text, 5) == ""


def test_the_cited_documents_name_is_read_and_so_counted_in_the_row():
    doc = KbRef(doc="docs/o/cluster/docs/zh/design/npu_exporter_metrics_and_utilization_rate_history.md",
                chunk="part0002", score=0.9)
    assert cite_label(Case(repo=REPO, number=1, url="u", kb_refs=[doc]), True) == \
        "KB：npu_exporter_metrics_and_utilization_rate_history.md"
    assert cite_label(Case(repo=REPO, number=1, url="u"), True) == ""
    facts = [f"原因{i}：指标 metric_name_{i} 在 hdk_version_{i} 之后改为按 rts_task_{i} 统计，阈值 {i}0s 不再适用。" for i in range(1, 7)]
    lengths = {}
    for kb in ([], [doc]):
        case, ctx = _case(8, "指标含义不一", facts, "无。", timing=Timing.SAME_SECOND, kb=kb)
        a = OfflineAnalyst().analyse(case, ctx)
        # as the digest shows the row: the close only where it tells more than the merge (row_close)
        answer = a.answer.replace(close_sentence(case, True), row_close(case, True))
        shown = shown_len(a.problem) + shown_len(answer) + len(cite_label(case, True))
        lengths[bool(kb)] = shown
        # the analyst's share is what the problem, the fact sentences and the citation leave of the row
        assert shown <= ROW_CHARS + 3 or len(a.answer) <= EXPLAIN_BUDGET + 40, (shown, a.answer)
    assert lengths[True] <= ROW_CHARS + 3 and lengths[False] <= ROW_CHARS + 3


# -- what earns a row's room ---------------------------------------------------------------------
def test_a_discussion_stage_label_is_not_part_of_the_point():
    assert without_stage_label("定位：minmax_config 初始化 dim=[]") == "minmax_config 初始化 dim=[]"
    assert without_stage_label("评估结论：26.2.0 删除 rootinfo 默认挂载") == "26.2.0 删除 rootinfo 默认挂载"
    assert without_stage_label("验收：64 卡 MFU 24.6") == "验收：64 卡 MFU 24.6"     # what the point is about stays
    assert without_stage_label("根因：route() 按全量 token 计算") == "根因：route() 按全量 token 计算"
    assert without_stage_label("确认：") == "确认："                                 # nothing follows: not a label
    case, ctx = _case(9, "resume 时训练发散", ["定位：resume 时 `no_load_optim=false`，DCP 静默跳过缺失分片导致发散。"],
                      "save 端在 extra_state 记录 `saved_optim`，load 端缺失即 warning。")
    a = OfflineAnalyst().analyse(case, ctx)
    assert "no_load_optim" in a.answer and "定位" not in a.answer, a.answer


def test_once_a_row_says_what_was_wrong_and_what_was_done_more_words_need_a_new_fact():
    case, ctx = _case(10, "health 探针污染压测测量",
                      ["原因是 MultiHostSimulator.health() 每秒发 completion 请求。",
                       "因为每次探针都占用一个推理槽位，吞吐被拉低，排队也变长。",
                       "原因还有 scheduler_interval_s 默认 1s，导致压测期间每秒轮询一次。"],
                      "health() 改为判断服务日志中的 startup complete，不再发 completion 请求。")
    a = OfflineAnalyst().analyse(case, ctx)
    assert "scheduler_interval_s" in a.answer and "startup complete" in a.answer, a.answer
    assert "推理槽位" not in a.answer, a.answer       # a second cause naming nothing: room spent, no fact gained


# -- a second measurement in the same words; a cause the reporter located -----------------------
def test_the_same_words_with_a_figure_the_row_lacks_are_a_second_measurement_not_a_repeat():
    from fixlore.analyse.room import figures, repeats
    first = "qwen3-vl-30B：loss rel. err vs bf16 0.33%，throughput 1.1× bf16"
    second = "qwen3.5-27B：loss rel. err vs bf16 0.25%，throughput 1.3× bf16"
    again = "qwen3-vl-30B 上 loss rel. err vs bf16 0.33%，throughput 1.1× bf16"
    assert figures(second, REPO) == {"0.25%", "1.3×"}
    taken = [(first, first)]
    assert not repeats(second, taken, "修复 !905（09-15 合入）", REPO)
    assert repeats(again, taken, "修复 !905（09-15 合入）", REPO)       # the same figures again: a repeat
    assert repeats(first, taken, "", REPO)
    # a new identifier in the same words is not a figure: it names another thing, the row has its point
    assert repeats("qwen3-vl-30B：loss rel. err vs bf16 0.33%，throughput 1.1× fp16_ref", taken, "", REPO)
    zh = ["qwen3-vl-30B：loss 相对 bf16 误差 0.33%，吞吐为 bf16 的 1.1×。", "qwen3.5-27B：loss 相对 bf16 误差 0.25%，吞吐为 bf16 的 1.3×。"]
    case, ctx = _case(11, "qwen3 mxfp8 训练", ["原因是 fsdp_turbo 没有 mxfp8 路径。"] + zh, "fsdp_turbo 新增 mxfp8 训练路径。")
    a = OfflineAnalyst().analyse(case, ctx)
    assert "0.33%" in a.answer and "0.25%" in a.answer, a.answer
    case, ctx = _case(11, "qwen3 mxfp8 训练", ["原因是 fsdp_turbo 没有 mxfp8 路径。", zh[0], zh[0].replace("qwen3-vl-30B", "qwen3-vl-8B")],
                      "fsdp_turbo 新增 mxfp8 训练路径。")
    assert "qwen3-vl-8B" not in OfflineAnalyst().analyse(case, ctx).answer     # the same figures: said once


def test_a_second_measurement_shows_its_subject_and_figures_not_the_column_names_again():
    from fixlore.analyse.room import figures_only
    first = "qwen3-vl-30B：loss rel. err vs bf16 0.33%，throughput 1.1× bf16"
    assert figures_only("qwen3.5-27B：loss rel. err vs bf16 0.25%，throughput 1.3× bf16", first) == "qwen3.5-27B：0.25%，1.3× bf16"
    assert figures_only("qwen3.5-27B：误差 0.25%，性能 1.3×bf16", "qwen3-vl-30B：误差 0.33%，性能 1.1×bf16") == "qwen3.5-27B：0.25%，1.3×bf16"
    # words the first line does not say stay; no "subject：" head, nothing left off
    assert figures_only("qwen3.5-27B：显存 36G，throughput 1.3× bf16", first) == "qwen3.5-27B：显存 36G，1.3× bf16"
    assert figures_only("26.2.0 起默认关闭", "26.1.0 起默认开启") == "26.2.0 起默认关闭"
    # in a row: the room the column names took is left for another fact
    table = ("Add mxfp8 training path to fsdp_turbo.\n\n| model | loss rel. err vs bf16 | throughput |\n|---|---|---|\n"
             "| qwen3-vl-30B | 0.33% | 1.1× bf16 |\n| qwen3.5-27B | 0.25% | 1.3× bf16 |\n")
    case, ctx = _case(12, "qwen3 mxfp8 训练", [], table)
    a = OfflineAnalyst().analyse(case, ctx)
    assert "0.33%" in a.answer and "qwen3.5-27B：0.25%，1.3× bf16" in a.answer, a.answer


def test_a_pr_line_pointing_to_other_work_is_a_fact_and_the_field_naming_this_issue_is_bookkeeping():
    from fixlore.analyse.room import points_elsewhere, without_own_reference
    assert without_own_reference("关联 issue：#13 ；实践文档另见 #498", REPO, 13) == "实践文档另见 #498"
    assert without_own_reference("修复 #13 的根因是 cache 未清理", REPO, 13) == "修复 #13 的根因是 cache 未清理"
    assert points_elsewhere("关联 issue：#13 ；实践文档另见 #498", REPO, 13)
    assert not points_elsewhere("关联 issue：#13", REPO, 13)
    assert not points_elsewhere("PR#913 回归通过，推理正常。", REPO, 13, "修复 !913（09-15 合入）")   # the fix, said already
    case, ctx = _case(13, "MagiHuman 迁移至 FSDP2", [],
                      "关联 issue：#13 ；实践文档另见 #498\n\n- 新增 fsdp/models/magihuman/，通过 @model_register 注册\n")
    a = OfflineAnalyst().analyse(case, ctx)
    assert "实践文档另见 #498" in a.answer and "关联 issue" not in a.answer, a.answer


def test_a_value_marked_measured_is_a_result():
    from fixlore.analyse.roles import is_measurement
    assert is_measurement("验收：MFU≥24（实测 24.6）") and is_measurement("measured 24.6 MFU")
    assert not is_measurement("实测 3 次都复现") and not is_measurement("版本 3.2.1")
    problem = "MagiHuman 15B 音视频 DiT 迁移至 MindSpeed-MM FSDP2"
    case, ctx = _case(14, problem, [],
                      "- 新增 fsdp/models/magihuman/，通过 @model_register 注册\n- 适配 CP / EP / chunkloss / recompute / 异步激活卸载\n"
                      "- video / audio / text 单流打包，flow-matching 联合训练\n验收：MFU≥24（实测 24.6）\n")
    ctx.commits = [Commit(repo=REPO, sha="a" * 40, pull_number=914, message="[FSDP2] 新增 MagiHuman 模型")]
    a = OfflineAnalyst().analyse(case, ctx)
    assert "实测 24.6" in a.answer, a.answer


def test_a_cause_the_reporter_located_and_a_maintainer_confirmed_is_the_rows_mechanism():
    from fixlore.analyse.confirmed import confirms, locates_cause
    assert confirms("确认，影响静态量化和敏感层分析。") and confirms("Confirmed. Will fix.") and confirms("是的")
    assert not confirms("确认一下版本？") and not confirms("请确认 CANN 版本") and not confirms("yesterday it worked")
    assert not confirms("确认：原因是 dim 取值不对")          # a stage label before the maintainer's own finding
    assert locates_cause("quant/observer/minmax.py L47-66：minmax_config 初始化时 dim=[]")
    assert locates_cause("原因是 dim=[] 时对整个 Tensor 求 min/max") and not locates_cause("Per Token 量化 scale 不对")
    located = "msmodelslim/quant/observer/minmax.py L47-66：minmax_config 初始化时 dim=[]，min/max 对整个 Tensor 求。"
    rows = {}
    for reply in ("确认，影响静态量化和敏感层分析，动态量化不受影响。", "请确认一下版本，影响静态量化和敏感层分析。"):
        case, ctx = _case(12, "Per Token 激活量化 scale 不对", [reply], "无。")
        ctx.issue.body = "Per Token 激活量化 scale 不对。" + located
        rows[reply[:2]] = OfflineAnalyst().analyse(case, ctx)
    confirmed, asked = rows["确认"], rows["请确"]
    assert confirmed.written.mechanism.startswith("msmodelslim/quant/observer/minmax.py L47-66"), confirmed.written
    assert "minmax_config" not in asked.written.mechanism, asked.written     # an unconfirmed guess stays a report


def test_a_written_reference_names_its_ticket_not_its_owner():
    """"PaddlePaddle/FastDeploy#1472" names the ticket #1472, which a row saying "同一 PR 还修 #1472"
    already names: the owner's name is no new fact that earns the sentence room."""
    from fixlore.analyse.room import named, worth_room

    repo = "PaddlePaddle/FastDeploy"
    assert named("PaddlePaddle/FastDeploy#1472", repo) == {(repo, 1472)}
    assert not worth_room("PaddlePaddle/FastDeploy#1472", {"mechanism", "change"}, ["先复现再修"],
                          "修复 PR#1516（06-01 合入）；同一 PR 还修 #1472", repo)
    assert worth_room("见 PaddlePaddle/FastDeploy#1490", {"mechanism", "change"}, ["先复现再修"],
                      "修复 PR#1516（06-01 合入）；同一 PR 还修 #1472", repo)


def test_two_unread_claimed_fixes_are_named_in_the_plural():
    claimed = [{"repo": REPO, "number": n, "verdict": "missing", "signals": [{"kind": "comment", "claim": True}]}
               for n in (1, 2)]
    case = Case(repo=REPO, number=8, url="https://gitcode.com/o/cluster/issues/8", timing=Timing.NO_FIX,
                candidates=claimed)
    assert row_close(case, True) == "评论称已由 !1、!2 修复，这些 PR 未能读取，状态未知"
    assert row_close(case, False) == "a comment says !1, !2 fixed it; those PRs could not be read, their state is unknown"
