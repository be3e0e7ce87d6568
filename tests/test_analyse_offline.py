"""The offline analyst on a hand-made world: realistic Chinese (and one English) issues with the
linker's conclusions filled in as the linker would. `build_world()` is shared by the analyse and
digest tests."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from fixlore.analyse import OfflineAnalyst, analyse_cases, candidates_of
from fixlore.analyse.context import ContextIndex
from fixlore.core.model import Case, Comment, Commit, Corpus, Evidence, FixRef, Issue, KbRef, Pull

TZ = timezone(timedelta(hours=8))
SIM, QNT, ENG = "Ascend/msdemo", "Ascend/quantkit", "octo/engine"


def t(day: int, hh: int = 10, mm: int = 0, ss: int = 0) -> datetime:
    return datetime(2026, 9, day, hh, mm, ss, tzinfo=TZ)


class World:
    def __init__(self):
        self.corpus = Corpus(platform="gitcode")
        self.cases: list[Case] = []
        self._cid = 0

    def issue(self, repo, n, title, body, *, author="reporter1", closed=None, comments=(), funnel="selected",
              **case_fields) -> Case:
        self.corpus.issues.append(Issue(repo=repo, number=n, title=title, body=body, state="closed",
                                        created_at=t(1), updated_at=closed or t(18), closed_at=closed or t(18),
                                        author=author, html_url=self.issue_url(repo, n)))
        for i, (who, text) in enumerate(comments):
            self._cid += 1
            self.corpus.comments.append(Comment(repo=repo, parent_kind="issue", parent_number=n,
                                                id=str(self._cid), author=who, body=text,
                                                created_at=t(2) + timedelta(hours=i)))
        case = Case(repo=repo, number=n, title=title, url=self.issue_url(repo, n), closed_at=closed or t(18),
                    funnel=funnel, **case_fields)
        self.cases.append(case)
        return case

    @staticmethod
    def issue_url(repo, n):
        host = "github.com" if repo == ENG else "gitcode.com"
        return f"https://{host}/{repo}/issues/{n}"

    def pull(self, repo, n, title, body, *, state="merged", merged=None, base="master", head="", author="dev1"):
        self.corpus.pulls.append(Pull(repo=repo, number=n, title=title, body=body, state=state,
                                      created_at=t(1), updated_at=merged or t(10), merged_at=merged,
                                      closed_at=merged, author=author, base_ref=base, head_ref=head,
                                      html_url=self.pull_url(repo, n)))

    @staticmethod
    def pull_url(repo, n):
        if repo == ENG:
            return f"https://github.com/{repo}/pull/{n}"
        return f"https://gitcode.com/{repo}/merge_requests/{n}"

    def fix(self, repo, n, *, role="fix", state="merged", merged=None, base="master"):
        return FixRef(repo=repo, number=n, role=role, state=state, merged_at=merged,
                      url=self.pull_url(repo, n), base_ref=base)


def ev(kind, detail="", source=""):
    return Evidence(kind=kind, detail=detail, source=source)


TEMPLATE = """### 问题描述
{desc}

### 环境信息
- [x] 已搜索过已有 issue
软件版本：CANN 8.5.RC1，torch_npu 2.7.1

### 日志信息
```
{log}
```
"""


def build_world() -> World:
    w = World()
    # --- Ascend/msdemo: routing, scripts, config ------------------------------------------------
    w.pull(SIM, 795, "修复 shared-expert-tp 下 MoE 路由 topk 未随 TP 切分",
           "Closes #101\n\n根因：route() 在 _dp_transform_enter 之前按全量 token 计算 topk，hidden 已按 tp 切分而 topk 仍为 N×k，"
           "导致 init_routing_v2 按 numel 驱动的 all_to_all 分发量膨胀约 2 倍。\n本 PR 将路由计算移到 token 切片之后，并补充单测。",
           merged=t(8, 10, 12, 3))
    w.issue(SIM, 101, "【Bug】开启 shared-expert-tp 时 MoE topk 未随 TP 切分，分发量高估 tp 倍",
            TEMPLATE.format(desc="仿真 DeepSeek-V3 时开启 shared-expert-tp=4，all_to_all 通信量约为理论值的 2 倍。",
                            log="WARNING dispatch numel mismatch: expected 4096 got 8192"),
            closed=t(8, 10, 12, 3),
            comments=[("maintainer-a", "已复现，定位中。"),
                      ("maintainer-a", "根因是 route() 在 TP 切分前计算 topk，导致分发量按 tp 倍高估；!795 已修复。")],
            fix=[w.fix(SIM, 795, merged=t(8, 10, 12, 3))],
            evidence=[ev("keyword", "PR body: 'Closes #101'", "pulls/795"),
                      ev("auto_close", "merged 10:12:03, closed 10:12:03", "pulls/795, issues/101")],
            timing="same_second", lag_s=0, value=0.9,
            kb_refs=[KbRef("docs/Ascend/msdemo/docs/moe.md", "part0003", 0.912)])
    w.pull(SIM, 796, "MoE 路由统计在 TP=4 时对齐 token 切片", "Fixes #102。路由统计改为按本地 token 计数。",
           merged=t(9, 9, 0, 0))
    w.issue(SIM, 102, "MoE 路由在 TP=4 时 topk 统计偏大，通信量估计失真",
            "开启 TP=4 后 MoE topk 统计值是 TP=1 的 4 倍，报告中的通信量不可信。",
            closed=t(9, 9, 2, 0),
            comments=[("maintainer-b", "原因是路由统计在切分前进行，与 #101 同源，已由 !796 修复。")],
            fix=[w.fix(SIM, 796, merged=t(9, 9, 0, 0))],
            evidence=[ev("keyword", "PR body: 'Fixes #102'", "pulls/796"),
                      ev("auto_close", "merged 09:00:00, closed 09:02:00", "pulls/796, issues/102")],
            timing="auto_close", lag_s=120, value=0.8)
    w.pull(SIM, 850, "stop 脚本自排除 + health 探针改判日志",
           "修复 #103 #104：stop_vllm_process.sh 增加 protected_pids 自排除逻辑；health() 改为判断日志 start up 完成，不再发真实推理请求。",
           merged=t(10, 15, 0, 0))
    w.issue(SIM, 103, "stop_vllm_process.sh 按 pkill -f 匹配，清理链误杀自身进程",
            "调用 bash -c 'bash /tmp/vllm/stop_vllm_process.sh vllm' 时脚本把自己也杀掉了，退出码 137。",
            closed=t(10, 15, 2, 0),
            comments=[("maintainer-a", "因为 pkill -f 的模式也出现在脚本自身命令行里，首轮 pkill -9 会命中脚本与会话 shell。")],
            fix=[w.fix(SIM, 850, merged=t(10, 15, 0, 0))],
            evidence=[ev("keyword", "PR body: '修复 #103 #104'", "pulls/850"),
                      ev("auto_close", "merged 15:00:00, closed 15:02:00", "pulls/850")],
            timing="auto_close", lag_s=120, traps=["one_pr_many_issues"], value=0.7)
    w.issue(SIM, 104, "压测期间 scheduler 每秒调用 health() 发真实推理请求，污染测量",
            "8×910B2 实机抓包显示压测窗口内每秒 1 条 completion 请求。",
            closed=t(10, 15, 0, 55),
            comments=[("maintainer-c", "MultiHostSimulator.health() 在 /health 返回 200 后仍无条件发 completion 请求，导致压测数据被污染。")],
            fix=[w.fix(SIM, 850, merged=t(10, 15, 0, 0))],
            evidence=[ev("keyword", "PR body: '修复 #103 #104'", "pulls/850"),
                      ev("auto_close", "merged 15:00:00, closed 15:00:55", "pulls/850")],
            timing="auto_close", lag_s=55, traps=["one_pr_many_issues"], value=0.7)
    w.issue(SIM, 105, "profiling_database 缺 A2 实机与新版 vllm 数据，何时更新？",
            "数据库里只有 A3 的数据，A2 用户没法参考。",
            comments=[("maintainer-b", "官方排期 26Q3 分三批补充实测数据：GLM 5.1 + vllm-ascend 0.18.0，"
                                       "GLM 5.2 + 0.23.0rc1，Kimi k3 + 0.23.0rc1，覆盖 A2 与 A3 机型。")],
            evidence=[ev("answer", "official schedule in comment", "issues/105/comments")],
            timing="no_fix", value=0.5)
    w.issue(SIM, 106, "optx 配置繁琐，建议直接读取 vLLM 启动脚本",
            "希望 optx 能直接解析 vllm serve 启动命令，不想再写 config.toml。",
            comments=[("maintainer-a", "经讨论不采纳：脚本优先级与变量展开规则会推高维护成本，维持 config.toml 单一入口。")],
            timing="no_fix", value=0.4)
    w.pull(SIM, 3054, "预训练 packing 按文档边界隔离", "按完整文档 packing，生成 cu_seqlens 隔离跨文档注意力。", state="open")
    w.issue(SIM, 107, "预训练 packing 按 cutoff_len 硬切，跨文档注意力泄漏",
            "多文档拼接后直接按 cutoff_len 切分，注意力会跨文档。",
            comments=[("maintainer-c", "确认 master 现状：文档拼接后按 cutoff_len 切分，没有边界隔离，导致跨文档注意力与位置状态泄漏。方案见 !3054。")],
            fix=[w.fix(SIM, 3054, state="open")], timing="no_fix",
            traps=["fix_not_landed"], trap_notes={"fix_not_landed": "!3054 open at snapshot"}, value=0.6)
    w.pull(SIM, 880, "算子精度修复（WIP）", "WIP", state="open")
    w.issue(SIM, 108, "GroupedMatmul 在 bf16 下精度偏差", "对比 CPU 结果最大误差 3e-2。",
            comments=[("maintainer-b", "收到，!880 在处理。")],
            fix=[w.fix(SIM, 880, state="open")], timing="no_fix", traps=["fix_not_landed"], value=0.45)
    w.issue(SIM, 109, "【代码检视】对 !4716 的检视意见", "1. 变量命名不规范 2. 缺少单测", author="maintainer-a",
            comments=[("dev2", "已按意见修改。")], timing="no_fix", value=0.3)
    w.pull(SIM, 810, "修复 Qwen3.5 量化内存溢出", "Fixes #110：分块加载权重，避免一次性 materialize。", merged=t(1, 11, 0, 0))
    w.issue(SIM, 110, "Qwen3.5-397B 量化时内存溢出", "量化到第 30 层时 host 内存 OOM 被 kill。",
            closed=t(23, 3, 0, 0),
            comments=[("maintainer-b", "bug 已由提出人修复，根因是权重一次性 materialize 导致内存峰值翻倍。"),
                      ("stale-bot", "该 issue 4 天无更新，自动关闭。")],
            fix=[w.fix(SIM, 810, merged=t(1, 11, 0, 0))],
            evidence=[ev("keyword", "PR body: 'Fixes #110'", "pulls/810")],
            timing="stale", lag_s=int((t(23, 3) - t(1, 11)).total_seconds()),
            traps=["stale_close"], trap_notes={"stale_close": "closed by stale-bot"}, value=0.6)
    w.issue(SIM, 111, "构造 attention 输入时 shape 校验报错", "用自定义构造的输入时报 shape mismatch。",
            comments=[("maintainer-c", "与创建人对齐，该构造场景实际不存在，不是问题。")], timing="no_fix", value=0.3)
    w.issue(SIM, 112, "安装后 import 报错 libascend_hal.so 找不到",
            TEMPLATE.format(desc="pip 安装后 import 失败。", log="ImportError: libascend_hal.so: cannot open shared object file"),
            comments=[("maintainer-a", "请先 source /usr/local/Ascend/ascend-toolkit/set_env.sh 设置环境变量规避。")],
            timing="no_fix", value=0.3)
    w.issue(SIM, 113, "shared-expert-tp 通信量翻倍", "同 #101 的现象。",
            comments=[("maintainer-a", "与 #101 重复，合并到 #101 跟踪。")], timing="no_fix", value=0.3)
    w.issue(SIM, 114, "请问支持 Python 3.12 吗？", "想在新环境里装。", comments=[("maintainer-b", "支持。")],
            timing="no_fix", value=0.2)
    w.pull(SIM, 902, "FX 编译前先做 stable_topo_sort", "Fixes #115", merged=t(12, 12, 0, 0))
    w.issue(SIM, 115, "DeepSeek PD ratio 编译失败：FX 在 pow_2 定义前使用",
            TEMPLATE.format(desc="编译阶段报错。", log="RuntimeError: node pow_2 used before definition"),
            closed=t(12, 9, 0, 0),
            comments=[("maintainer-b", "根因：AOT Autograd 的 FX 图里符号 shape 节点可能排在其消费的 view 之后，rewrite 前未做拓扑归一化。")],
            fix=[w.fix(SIM, 902, merged=t(12, 12, 0, 0))],
            evidence=[ev("keyword", "PR body: 'Fixes #115'", "pulls/902")],
            timing="before_merge", lag_s=-3 * 3600,
            traps=["closed_before_merge"], trap_notes={"closed_before_merge": "closed 09:00, !902 merged 12:00"}, value=0.6)
    # --- Ascend/quantkit: storms, claimed-unmerged, linked-unrelated --------------------------------
    w.pull(QNT, 964, "修复 W8A8DynamicPerChannelFakeQuantLinear 前向", "修复 #564 伪量化前向计算错误。", merged=t(16, 10, 0, 0),
           head="bugfix/issue564")
    w.issue(QNT, 564, "Qwen3-32B W8A8C8 伪量化推理对话重复回答", "伪量化后推理输出不断重复同一句话。",
            closed=t(18, 13, 39, 56),
            comments=[("maintainer-q", "定位：异常由 IR 图 W8A8DynamicPerChannelFakeQuantLinear 前向错误引起。")],
            fix=[w.fix(QNT, 964, merged=t(16, 10, 0, 0))],
            evidence=[ev("branch_name", "branch bugfix/issue564", "pulls/964"), ev("keyword", "修复 #564", "pulls/964")],
            timing="later", lag_s=int((t(18, 13, 39, 56) - t(16, 10)).total_seconds()),
            traps=["close_storm"], trap_notes={"close_storm": "closer-bot closed 3 issues 13:39:56-13:40:00"}, value=0.7)
    w.pull(QNT, 976, "多卡伪量化样本分片越界修复", "修复 #567", merged=t(16, 11, 0, 0), head="bugfix/issue567")
    w.issue(QNT, 567, "DeepSeek-V3.1 4 卡伪量化推理 list 越界",
            "IndexError: list index out of range", closed=t(18, 13, 40, 0),
            comments=[("maintainer-q", "根因：多卡场景样本分片在样本数不能整除卡数时数组越界。")],
            fix=[w.fix(QNT, 976, merged=t(16, 11, 0, 0))],
            evidence=[ev("branch_name", "branch bugfix/issue567", "pulls/976")],
            timing="later", lag_s=int((t(18, 13, 40) - t(16, 11)).total_seconds()),
            traps=["close_storm"], trap_notes={"close_storm": "closer-bot closed 3 issues 13:39:56-13:40:00"}, value=0.7)
    w.pull(QNT, 54, "attention_mask dtype 调整", "尝试修复 #41", state="closed")
    w.pull(QNT, 55, "attention_mask 改为 bool", "Fixes #41：attention_mask 改为 bool。", merged=t(14, 10, 0, 0))
    w.issue(QNT, 41, "thd 格式训练 loss 飙至 21、grad_norm 570+",
            "Qwen3.5-9B 用 thd 格式训练，loss 从 2 飙到 21。", closed=t(18, 13, 39, 58),
            comments=[("maintainer-q", "!54 已合入，请更新后重试。"),
                      ("maintainer-r", "定位：attention_mask 以 int32 创建，input_ids[i, mask[i]] 把 int 当行号索引而非掩码，导致 embedding 与 position_ids 全毁。")],
            fix=[w.fix(QNT, 55, merged=t(14, 10, 0, 0))],
            evidence=[ev("keyword", "Fixes #41", "pulls/55"), ev("comment", "comment cites !54", "issues/41/comments")],
            timing="later", lag_s=int((t(18, 13, 39, 58) - t(14, 10)).total_seconds()),
            traps=["claimed_unmerged", "close_storm"],
            trap_notes={"claimed_unmerged": "!54 closed unmerged; real fix !55",
                        "close_storm": "closer-bot closed 3 issues 13:39:56-13:40:00"}, value=0.8)
    w.pull(QNT, 1008, "修复 #647 的 kv 对齐", "Fixes #647", merged=t(17, 10, 0, 0))
    w.pull(QNT, 986, "HBM 续查按 instance/dp 对齐", "Closes #631。HBM 续查按 instance/dp 对齐，亲和调度支持阈值配置。",
           merged=t(18, 20, 10, 39))
    w.issue(QNT, 631, "kv-conductor HBM→CPU 续查未按 instance/dp 对齐，cpu_blocks 虚高",
            "cpu_blocks 指标比实际大很多。", closed=t(18, 20, 10, 39),
            comments=[("maintainer-q", "原因是 HBM 续查未按 instance/dp 对齐，同一 block 被重复计数。")],
            fix=[w.fix(QNT, 986, merged=t(18, 20, 10, 39))],
            evidence=[ev("keyword", "Closes #631", "pulls/986"), ev("auto_close", "same second", "pulls/986"),
                      ev("linked", "platform link to !1008 checked: unrelated", "issues/631/pull_requests")],
            timing="same_second", lag_s=0, traps=["linked_unrelated"],
            trap_notes={"linked_unrelated": "linked !1008 fixes #647"}, value=0.7)
    w.pull(QNT, 990, "量化配置 backport", "Backport of !958 to release/26.2.0", merged=t(15, 10, 20, 0), base="release/26.2.0")
    w.pull(QNT, 958, "权重转换校验逻辑修复", "Fixes #558：check_model_type_transformers 与转换流程冲突。",
           merged=t(14, 10, 0, 0), head="bugfix/issue558")
    w.issue(QNT, 558, "权重量化转换报 BaseModelAdapter 无 get_model_type 属性",
            "AttributeError: 'BaseModelAdapter' object has no attribute 'get_model_type'", closed=t(15, 10, 20, 30),
            comments=[("maintainer-q", "根因：check_model_type_transformers 校验逻辑与权重转换流程冲突，致转换入口不可用。")],
            fix=[w.fix(QNT, 958, merged=t(14, 10, 0, 0)),
                 w.fix(QNT, 990, role="backport", merged=t(15, 10, 20, 0), base="release/26.2.0")],
            evidence=[ev("branch_name", "branch bugfix/issue558", "pulls/958"), ev("keyword", "Fixes #558", "pulls/958"),
                      ev("backport", "!990 on release/26.2.0", "pulls/990"), ev("auto_close", "30 s after backport", "pulls/990")],
            timing="auto_close", lag_s=30, value=0.65)
    # --- octo/engine: an English GitHub repo ------------------------------------------------------
    w.pull(ENG, 12, "Fix bf16 checkpoint loading segfault", "Fixes #7. The loader casts bf16 tensors through a float16 view, "
           "which reads past the buffer because the element count is computed from the wrong dtype.",
           merged=t(11, 8, 0, 0))
    w.pull(ENG, 13, "[release/2.1] Fix bf16 checkpoint loading segfault", "Backport of #12", merged=t(11, 9, 0, 0),
           base="release/2.1")
    w.issue(ENG, 7, "Segfault when loading a checkpoint with bf16 weights",
            "Loading a bf16 checkpoint crashes.\n\nSegmentation fault (core dumped) in load_state_dict",
            author="alice", closed=t(11, 8, 0, 0),
            comments=[("bob-maintainer", "The root cause is that the loader computes the element count from the float16 view, "
                                         "so it reads past the end of the buffer. Fixed in #12, backported in #13.")],
            fix=[w.fix(ENG, 12, merged=t(11, 8, 0, 0)),
                 w.fix(ENG, 13, role="backport", merged=t(11, 9, 0, 0), base="release/2.1")],
            evidence=[ev("keyword", "Fixes #7", "pulls/12"), ev("auto_close", "same second", "pulls/12"),
                      ev("backport", "#13 on release/2.1", "pulls/13")],
            timing="same_second", lag_s=0, value=0.75)
    # --- not candidates: the funnel's earlier stages and the backlog ------------------------------
    for n, stage in [(201, "window"), (202, "window"), (203, "unresolved"), (204, "internal"), (205, "cve"),
                     (206, "empty_title"), (207, "noise"), (208, "noise"), (209, "noise"),
                     (210, "rank"), (211, "rank"), (212, "rank")]:
        title = {"noise": "API一致性任务", "empty_title": "", "cve": "CVE-2026-0001 openssl 漏洞通告"}.get(
            stage, f"其他问题 {n}：日志格式优化建议")
        w.issue(SIM, n, title, "", funnel=stage, value=0.1 * (n % 5))
    return w


# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def analysed():
    w = build_world()
    summary = analyse_cases(w.cases, w.corpus, OfflineAnalyst(), workers=2)
    return w, summary, {c.key: c for c in w.cases}


def test_only_candidates_are_analysed(analysed):
    w, summary, by = analysed
    cands = [c for c in w.cases if c.funnel in ("selected", "analysis")]
    assert summary["candidates"] == summary["analysed"] == len(cands) == 21
    assert by[f"{SIM}#210"].funnel == "rank" and by[f"{SIM}#210"].answer == ""
    assert summary["kept"] + summary["dropped"] == summary["analysed"]


def test_keep_drop_reasons_follow_the_signals(analysed):
    _, summary, by = analysed
    expect = {106: "not_adopted", 108: "fix_pending", 109: "internal_process", 111: "not_a_problem",
              112: "env_workaround", 113: "merged_into_other", 114: "consultation_only"}
    for n, reason in expect.items():
        c = by[f"{SIM}#{n}"]
        assert (c.funnel, c.drop_reason) == ("analysis", reason), (n, c.drop_reason, c.analysed_by)
    for n in (101, 102, 103, 104, 105, 107, 110, 115):
        assert by[f"{SIM}#{n}"].funnel == "selected", n
    assert by[f"{QNT}#41"].funnel == "selected" and by[f"{ENG}#7"].funnel == "selected"
    assert summary["drop_reasons"] == {r: 1 for r in expect.values()}


def test_answer_states_root_cause_fix_and_close(analysed):
    _, _, by = analysed
    a = by[f"{SIM}#101"].answer
    assert "根因" in a and "route()" in a
    assert "!795" in a and "09-08 合入" in a and "合入当秒自动关单" in a
    # the kb ref stays structured (digests render it apart); no chunk id or score in the prose
    assert [(k.doc.rsplit("/", 1)[-1], round(k.score, 3)) for k in by[f"{SIM}#101"].kb_refs][:1] == [("moe.md", 0.912)]
    assert "moe.md" not in a and "0.912" not in a and "KB" not in a
    stale = by[f"{SIM}#110"].answer
    assert "stale" in stale and "22 天" in stale                                # lag from the case, not invented
    early = by[f"{SIM}#115"].answer
    assert "关单早于修复合入" in early and "不倒填" in early
    pending = by[f"{SIM}#107"].answer
    assert "!3054" in pending and "待合入" in pending     # an open PR waits to land (issue #22: 待合入 / 未落地)
    assert "!54" in by[f"{QNT}#41"].answer and "!55" in by[f"{QNT}#41"].answer
    bp = by[f"{QNT}#558"].answer
    assert "backport !990" in bp and "release/26.2.0" in bp


def test_problem_is_de_templated_and_english_case_in_english(analysed):
    _, _, by = analysed
    assert by[f"{SIM}#101"].problem.startswith("开启 shared-expert-tp")
    assert "【Bug】" not in by[f"{SIM}#101"].problem
    en = by[f"{ENG}#7"]
    assert "root cause" in en.answer.lower() and "PR#12" in en.answer and "backport PR#13" in en.answer
    assert "Closed in the same second" in en.answer and "。" not in en.answer


def test_symptom_and_first_action(analysed):
    _, _, by = analysed
    assert "ImportError" in by[f"{SIM}#112"].symptom or "RuntimeError" in by[f"{SIM}#115"].symptom
    assert "pow_2" in by[f"{SIM}#115"].symptom
    assert by[f"{SIM}#101"].first_action.startswith("升级到含 !795")
    assert by[f"{SIM}#107"].first_action.startswith("关注 !3054")
    assert by[f"{ENG}#7"].first_action.startswith("upgrade to a build with PR#12")
    assert all(c.symptom and c.first_action for c in by.values() if c.funnel == "selected")


def test_themes_group_related_cases(analysed):
    _, summary, by = analysed
    moe = {by[f"{SIM}#101"].theme, by[f"{SIM}#102"].theme}
    assert len(moe) == 1
    assert by[f"{SIM}#101"].theme != by[f"{SIM}#103"].theme
    assert set(summary["themes"]) == {c.theme for c in by.values() if c.funnel == "selected"}
    assert all(c.analysed_by == "offline" for c in by.values() if c.funnel in ("selected", "analysis"))


def test_offline_is_deterministic():
    runs = []
    for workers in (1, 3):
        w = build_world()
        analyse_cases(w.cases, w.corpus, OfflineAnalyst(), workers=workers)
        runs.append([c.to_export() for c in w.cases])
    assert runs[0] == runs[1]


def test_candidate_marker_takes_precedence():
    ranked = Case(repo=SIM, number=1, funnel="rank")
    dropped = Case(repo=SIM, number=2, funnel="analysis")
    assert candidates_of([ranked, dropped]) == [dropped]           # no marker: funnel stages
    marked = Case(repo=SIM, number=3, funnel="selected", provisional=True)
    plain = Case(repo=SIM, number=4, funnel="selected")
    assert candidates_of([marked, plain, ranked]) == [marked]      # marker in use: only marked cases


def test_pending_fix_from_the_linker_counts_as_not_landed():
    w = build_world()
    case = next(c for c in w.cases if c.number == 107)
    case.pending_fix, case.fix = list(case.fix), []
    analyse_cases([case], w.corpus, OfflineAnalyst())
    assert case.funnel == "selected" and "!3054" in case.answer and "待合入" in case.answer   # open: waits to land (issue #22)
    assert not case.provisional


def test_context_collects_shared_fix():
    w = build_world()
    from fixlore.analyse.context import fix_users

    idx = ContextIndex(w.corpus)
    case = next(c for c in w.cases if c.number == 103)
    ctx = idx.context(case, fix_users(w.cases))
    assert [p.number for p in ctx.pulls] == [850]
    assert ctx.shared_fix_cases == [f"{SIM}#104"]
    assert [c.author for c in ctx.maintainer_comments()] == ["maintainer-a"]


def test_digest_sized_themes_split_repos_and_pool_small_ones():
    from fixlore.analyse.themes import assign_digest_themes

    big = [Case(repo="o/big", number=i, title=t, problem=t) for i, t in enumerate(
        ["MoE 路由 topk 高估", "MoE 路由 token 切分错误", "MoE 路由 all_to_all 膨胀", "MoE 路由 专家负载不均",
         "MoE 路由 gating 误报", "MoE 路由 TP 切分",
         "配置 注入 env 语义混用", "配置 注入 命令行 参数", "配置 注入 MindIE 路径", "配置 注入 toml 校验",
         "配置 注入 默认值 覆盖", "配置 注入 环境变量 丢失"], 1)]
    small = [Case(repo="o/tiny", number=1, title="etcd 双主 不降级"), Case(repo="p/mini", number=2, title="bind 地址 失败")]
    themes = assign_digest_themes(big + small, size=6)
    groups = sorted(sorted(c.number for c in big + small if c.theme == t and c.repo == "o/big") for t in themes)
    groups = [g for g in groups if g]
    assert groups == [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]
    assert small[0].theme == small[1].theme and small[0].theme not in {c.theme for c in big}


def test_documentation_slips_share_one_theme_across_repos():
    from fixlore.analyse.themes import assign_themes

    slips = [Case(repo="a/x", number=1, title="README 安装命令少了 -e"), Case(repo="b/y", number=2, title="Typo in README"),
             Case(repo="c/z", number=3, title="部署文档中 metrics 端口写成了 9090")]
    other = Case(repo="a/x", number=4, title="8 卡以上 ring allreduce 偶发超时")
    themes = assign_themes(slips + [other])
    assert {c.theme for c in slips} == {"docs-typo"} and other.theme != "docs-typo"
    assert themes["docs-typo"] == ["a/x#1", "b/y#2", "c/z#3"]


def test_dropped_cases_join_the_closest_kept_theme_of_their_repo():
    from fixlore.analyse.themes import attach_to_themes

    kept = [Case(repo="o/r", number=1, title="MoE 路由 topk 高估", theme="r-moe"),
            Case(repo="o/r", number=2, title="配置 注入 env 语义混用", theme="r-config")]
    dropped = [Case(repo="o/r", number=3, title="MoE 路由 topk 统计偏大"), Case(repo="o/other", number=4, title="无关")]
    left = attach_to_themes(dropped, kept)
    assert dropped[0].theme == "r-moe" and left == [dropped[1]]


def test_bots_stale_notices_are_not_answers():
    w = World()
    w.pull(ENG, 7, "Release listeners on dispose", "Listeners were kept after dispose; release them.", merged=t(10))
    case = w.issue(ENG, 6, "Memory leak in EventBus.subscribe", "Heap grows by 2 MB per widget.",
                   comments=[("stale[bot]", "This issue has been automatically marked as stale because it has not "
                                            "had recent activity. It will be closed if no further activity occurs."),
                             ("github-actions[bot]", "This issue is stale because it has been open 30 days with no "
                                                     "activity."),
                             ("maint2", "The cause is that listeners were kept after the widget was disposed.")],
                   fix=[w.fix(ENG, 7, merged=t(10))], evidence=[ev("keyword", "PR body", "pulls/7")],
                   timing="later", lag_s=8 * 86400)
    analyse_cases([case], w.corpus, OfflineAnalyst())
    assert "stale" not in case.answer.lower().split("fix:")[0]
    assert "listeners were kept" in case.answer.lower()


def test_a_dead_pr_is_told_apart_by_repository_and_number():
    from fixlore.analyse.offline import _pulls_named

    assert _pulls_named("已通过 PR#54 合入修复，见 other/repo!47 和 #12", SIM) == {(SIM, 54), ("other/repo", 47), (SIM, 12)}
    assert _pulls_named("影响 issue 关联的 https://gitcode.com/a/b/issues/12", SIM) == set()


def test_symptom_line_is_the_exception_not_the_traceback_header():
    from fixlore.rules.text import error_lines

    body = ("训练时报错\n```\nTraceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
            "    main()\nDuring handling of the above exception, another exception occurred:\n"
            "torch_npu.NPUError: NPU out of memory. Tried to allocate 2.00 GiB\n```\n执行失败")
    lines = error_lines(body)
    assert lines[0] == "torch_npu.NPUError: NPU out of memory. Tried to allocate 2.00 GiB"
    assert not any(line.startswith(("Traceback", "File ", "During handling")) for line in lines)
    # a bare header with nothing after it gives no symptom line rather than a useless one
    assert error_lines("Traceback (most recent call last):") == []


def test_the_mechanism_comes_before_an_aside_and_the_change_is_stated():
    """A maintainer explains with code names and no cue word, then adds a side note that has one;
    the PR says what changed. The row states the mechanism, then the change; the aside may follow
    only if there is room, never instead."""
    w = World()
    w.pull(SIM, 31, "HA：抢锁与健康检查解耦", "抢锁超时 30s→2s，且不再与健康检查共用 backendMutex_。\n"
                                          "BecomeFollower 改为无条件幂等并通知上层。", merged=t(17, 11))
    case = w.issue(SIM, 30, "主节点断链恢复后出现双主，旧主不降级", "三节点 HA，拔网线 15s 后恢复，两个 leader 同时写元数据。",
                   comments=[("maint1", "抢锁(30s)和健康检查共用 backendMutex_ 互相阻塞；旧主降级被 reElectionInProgress_ "
                                        "短路；BecomeFollower 失败不上报。另外 etcd 瞬时读超时还会让旧主自我降级导致无主。")],
                   fix=[w.fix(SIM, 31, merged=t(17, 11))], evidence=[ev("keyword", "PR body", "pulls/31")],
                   timing="same_second", lag_s=0)
    analyse_cases([case], w.corpus, OfflineAnalyst())
    a = case.answer
    assert a.startswith("抢锁(30s)和健康检查共用 backendMutex_ 互相阻塞；旧主降级被 reElectionInProgress_ 短路")
    # what the change does, in the PR's words (one of its statements that the mechanism does not repeat)
    assert "BecomeFollower 改为无条件幂等并通知上层" in a or "30s→2s" in a
    assert a.index("backendMutex_") < a.find("另外") if "另外" in a else True
    assert "!31" in a
    # the analyst's own words stay apart from the pipeline's facts (fix PRs, dates, the close)
    w = case.written
    assert w.lang == "zh" and w.mechanism.startswith("抢锁(30s)和健康检查共用 backendMutex_")
    assert w.change and w.change in a and "!31" not in w.text() and "合入" not in w.change
    assert type(case).from_export(case.to_export()).written == w


def test_a_change_statement_is_not_the_mechanism_even_with_a_cause_word():
    """A PR sentence saying what no longer happens ("…不再触发…") names a cause word but states the
    change; the row opens with the maintainer's mechanism and states the change after it."""
    w = World()
    w.pull(SIM, 41, "HA：读超时不再降级", "etcd 瞬时读超时不再触发自我降级。\n抢锁超时 30s→2s，且不再与健康检查共用 backendMutex_。",
           merged=t(17, 11))
    case = w.issue(SIM, 40, "主节点断链恢复后出现双主", "三节点 HA，拔网线 15s 后恢复，两个 leader。",
                   comments=[("maint1", "抢锁(30s)和健康检查共用 backendMutex_ 互相阻塞；BecomeFollower 失败不上报。")],
                   fix=[w.fix(SIM, 41, merged=t(17, 11))], evidence=[ev("keyword", "PR body", "pulls/41")],
                   timing="same_second", lag_s=0)
    analyse_cases([case], w.corpus, OfflineAnalyst())
    assert case.written.mechanism.startswith("抢锁(30s)和健康检查共用 backendMutex_")
    assert "不再" not in case.written.mechanism
    assert "不再" in case.written.change


def test_official_advice_is_kept_beside_the_explanation():
    """The maintainer explains (a reason, no cause word) and then says what to do: both reach the
    row, the advice as the workaround, whole; the side note comes last if at all."""
    w = World()
    case = w.issue(SIM, 50, "容器里 hccl_rootinfo.json 是只读挂载，无法修改", "vim 保存时报 E212: Can't open file for writing。",
                   comments=[("maint1", "ascend-docker-runtime 出于安全考虑默认以只读方式挂载默认挂载项。"
                                        "修改请在宿主机上改文件再同步进容器；用 vim 需要在 ~/.vimrc 里配置 `set backupcopy=yes` "
                                        "保证原地修改。另外同主题的 #51 会在 26.2.0 删除默认挂载。")],
                   timing="no_fix")
    analyse_cases([case], w.corpus, OfflineAnalyst())
    assert "出于安全考虑" in case.written.mechanism
    assert "set backupcopy=yes" in case.written.workaround
    assert case.answer.index("出于安全考虑") < case.answer.index("backupcopy")
    assert "另外" not in case.written.mechanism


def test_a_version_requirement_is_kept_whole_or_not_at_all():
    """A bound on two versions joined by "；" is one requirement: the row never states half of it."""
    w = World()
    w.pull(SIM, 61, "删除 rootinfo 默认挂载", "删除 hccl_rootinfo.json 默认挂载，通信域改由 CANN 自协商创建。", merged=t(18, 9))
    case = w.issue(SIM, 60, "26.1.0 之前默认挂载 hccl_rootinfo.json，UB 场景训练拉起失败", "UB 场景训练拉起失败。",
                   comments=[("maint1", "UB 网卡设备需要 MindCluster ≥ 26.2.0；且 CANN ≥ 9.2.0。")],
                   fix=[w.fix(SIM, 61, merged=t(18, 9))], evidence=[ev("keyword", "PR body", "pulls/61")],
                   timing="same_second", lag_s=0)
    analyse_cases([case], w.corpus, OfflineAnalyst())
    if "26.2.0" in case.answer:
        assert "9.2.0" in case.answer
    assert "≥ 26.2.0" in case.written.scope and "9.2.0" in case.written.scope


def test_an_english_commit_title_never_stands_for_the_mechanism_of_a_chinese_row():
    w = World()
    w.pull(SIM, 71, "修复路由", "开启 shared_expert_tp 时 route() 在 _dp_transform_enter 之前按全量 token 计算。", merged=t(8, 10))
    w.corpus.commits.append(Commit(repo=SIM, pull_number=71, sha="a" * 40,
                                   message="fix(route): compute topk after the TP slice in route()"))
    case = w.issue(SIM, 70, "开启 shared-expert-tp 时 MoE topk 没有随 TP 切分", "dispatch 通信量高估 tp 倍。",
                   fix=[w.fix(SIM, 71, merged=t(8, 10))], evidence=[ev("keyword", "PR body", "pulls/71")],
                   timing="same_second", lag_s=0)
    analyse_cases([case], w.corpus, OfflineAnalyst())
    assert case.written.mechanism.startswith("开启 shared_expert_tp 时 route()")
    assert "compute topk" not in case.answer


def test_bookkeeping_logs_and_commands_are_no_explanation():
    """"修复已合入，关闭", a pasted log line and a test-plan command say nothing a row should repeat;
    the PR's sentence about the change does."""
    w = World()
    w.pull(ENG, 81, "Port the connector mixin to NPU runners",
           "vllm serve Qwen/Qwen3-Omni --omni --port 8091 --no-async-chunk\n"
           "(VllmWorker rank=1) [MY_DEBUG] device_index = 1, phy_device_id = 7\n"
           "Align with the GPU runners: ports OmniConnectorModelRunnerMixin onto NPUARModelRunner so full-payload "
           "delivery works on NPU.", merged=t(8, 10))
    case = w.issue(ENG, 80, "Server hangs with async_chunk false on NPU", "The server hangs after returning text.",
                   comments=[("maint1", "Fixed by #81, merged, closing.")],
                   fix=[w.fix(ENG, 81, merged=t(8, 10))], evidence=[ev("keyword", "PR body", "pulls/81")],
                   timing="same_second", lag_s=0)
    analyse_cases([case], w.corpus, OfflineAnalyst())
    text = case.written.text()
    assert "OmniConnectorModelRunnerMixin" in text
    assert "vllm serve" not in text and "MY_DEBUG" not in text and "closing" not in text


def test_a_long_title_keeps_its_specific_error():
    title = ("[NPU]: Nightly / CI failed - all 14 steps of NPU nightly build 5228 fail at server startup - "
             "ImportError: cannot import name 'MistralToolCall' from 'vllm.parser.mistral'")
    assert OfflineAnalyst._title_within(title, 90) == \
        "ImportError: cannot import name 'MistralToolCall' from 'vllm.parser.mistral'"
    assert OfflineAnalyst._title_within("短标题 - 没有事实", 90) == "短标题 - 没有事实"


def test_a_title_that_only_names_the_thing_gets_the_error_the_reporter_saw():
    w = World()
    case = w.issue(ENG, 90, "Qwen3-TTS-12Hz-1.7B-Base",
                   "vllm serve /data/model --omni\n"
                   "ERROR 06-04 05:01:35 [executor.py:932] RuntimeError: Expected all tensors to be on the same device",
                   comments=[("maint1", "Please upgrade to: cann 9.0.0, vllm v0.22.0")], timing="no_fix")
    analyse_cases([case], w.corpus, OfflineAnalyst())
    assert case.problem == "Qwen3-TTS-12Hz-1.7B-Base：RuntimeError: Expected all tensors to be on the same device"
    assert "9.0.0" in case.answer


def test_a_pr_sentence_that_only_repeats_the_title_is_not_the_answer():
    """The PR opens by saying the issue's title again (it names code, so it looks like a mechanism);
    the problem cell shows the title already, so the row opens with the maintainer's explanation."""
    w = World()
    w.pull(SIM, 91, "fix(export): 合并前先 stable_sort",
           "ExportJob 夜间批量导出 CSV 任务在空分组场景编译失败：`grp_2` 在定义前被使用。\n\n- 合并前 stable_sort\n- 补空分组单测",
           merged=t(9, 10))
    case = w.issue(SIM, 90, "ExportJob 夜间批量导出 CSV 任务在空分组场景编译失败：表中 grp_2 在定义前被使用",
                   "```\nRuntimeError: grp_2 used before it is defined\n```",
                   comments=[("maint1", "GroupIndexer 产出的编号表里空分组可能排在引用它的行之后，MergeRowsPass 合并时没恢复顺序。")],
                   fix=[w.fix(SIM, 91, merged=t(9, 10))], evidence=[ev("keyword", "PR body", "pulls/91")],
                   timing="same_second", lag_s=0)
    analyse_cases([case], w.corpus, OfflineAnalyst())
    assert case.answer.startswith("GroupIndexer 产出的编号表里")
    assert "在定义前被使用" not in case.answer and "stable_sort" in case.answer


def test_the_symptom_is_said_whole_and_news_about_the_fix_is_no_action():
    """The guide's symptom is the error line when it fits, else the title without its tags, never a
    message cut mid-word; "修复已合入，今晚 nightly 观察" reports news, so the action is what the PR changed."""
    w = World()
    w.pull(SIM, 101, "fix(loader): 分片索引按 world_size 取模", "分片索引改为按 world_size 取模，最后一张卡不再越界。", merged=t(9, 10))
    long_error = "IndexError: list index out of range while slicing calibration samples for rank 3 of 4"
    case = w.issue(SIM, 100, "[Bug][Quant] 4 卡伪量化推理 list 越界", f"```\n{long_error}\n```",
                   comments=[("maint1", "修复已合入，今晚 nightly 观察。")],
                   fix=[w.fix(SIM, 101, merged=t(9, 10))], evidence=[ev("keyword", "PR body", "pulls/101")],
                   timing="same_second", lag_s=0)
    short = w.issue(SIM, 102, "导出任务卡住", "```\nKeyError: 'grp_2'\n```", timing="no_fix")
    analyse_cases([case, short], w.corpus, OfflineAnalyst())
    assert case.symptom == "4 卡伪量化推理 list 越界" and "…" not in case.symptom
    assert short.symptom == "KeyError: 'grp_2'"
    assert "不再越界" in case.written.action and "nightly" not in case.written.action


def _two_issues_one_pr(pr_body: str):
    w = World()
    w.pull(SIM, 120, "fix(ops): 停止脚本与健康检查", pr_body, merged=t(9, 10))
    cases = [w.issue(SIM, n, title, body, fix=[w.fix(SIM, 120, merged=t(9, 10))],
                     evidence=[ev("keyword", "PR body", "pulls/120")], timing="same_second", lag_s=0)
             for n, title, body in ((110, "停止脚本用 pkill -f 匹配，把自己也杀掉了", "stop.sh 里 pkill -f worker 命中了脚本自身，退出码 137。"),
                                    (111, "压测期间健康检查发真实推理请求，污染吞吐", "health() 在 /health 返回 200 后还发 completion 请求。"))]
    analyse_cases(cases, w.corpus, OfflineAnalyst())
    return {c.number: c for c in cases}


def test_a_pr_fixing_two_named_issues_tells_each_row_its_own_part():
    c = _two_issues_one_pr("修复 #110 #111。\n"
                           "stop.sh 先收集 protected_pids（自身、父进程）再逐个 kill，不再用 pkill -f worker。\n"
                           "health() 改为判断服务日志 startup 完成，不再发 completion 请求。")
    assert "protected_pids" in c[110].answer and "protected_pids" not in c[111].answer
    assert "startup 完成" in c[111].answer and "startup 完成" not in c[110].answer


def test_an_issue_the_pr_does_not_name_keeps_the_whole_change():
    """#111 rode along (the PR names #110 only; keep.py folds it into #110's row): #110's row
    says what the PR did, all of it."""
    c = _two_issues_one_pr("修复 #110。\n"
                           "stop.sh 先收集 protected_pids（自身、父进程）再逐个 kill，不再用 pkill -f worker。\n"
                           "health() 改为判断服务日志 startup 完成，不再发 completion 请求。")
    assert "protected_pids" in c[110].answer and "startup 完成" in c[110].answer


def test_a_waiting_fix_with_its_scope_confirmed_keeps_the_row():
    w = World()
    w.pull(SIM, 131, "per-token 激活量化按 token 统计 min/max", "改为逐 token 统计。", state="open")
    case = w.issue(SIM, 130, "Per Token 激活量化 min/max 按整 Tensor 计算，scale 失真", "精度掉了 2 个点。",
                   comments=[("maint1", "确认，影响静态量化和敏感层分析，动态量化不受影响。")],
                   fix=[w.fix(SIM, 131, state="open")], timing="no_fix")
    analyse_cases([case], w.corpus, OfflineAnalyst())
    assert case.funnel == "selected" and "不受影响" in case.written.scope


def test_the_problem_names_the_exception_the_reporter_hit():
    w = World()
    hit = w.issue(SIM, 140, "4 卡伪量化推理 list 越界", "```\nTraceback (most recent call last):\n"
                  "  File \"calib.py\", line 9, in <module>\nIndexError: list index out of range\n```", timing="no_fix")
    named = w.issue(SIM, 141, "加载时报 KeyError: 'lm_head.weight'", "```\nKeyError: 'lm_head.weight'\n```", timing="no_fix")
    english = w.issue(ENG, 142, "Decoding fails after the first token.", "```\nRuntimeError: shape mismatch\n```",
                      timing="no_fix")
    analyse_cases([hit, named, english], w.corpus, OfflineAnalyst())
    assert hit.problem == "4 卡伪量化推理 list 越界（IndexError）"
    assert named.problem.count("KeyError") == 1
    assert english.problem == "Decoding fails after the first token (RuntimeError)."


def test_without_an_exception_the_problem_names_the_exit_code_the_reporter_quoted():
    """"退出码 137" is what a reader searches for when a process was killed (seed-twin msmodeling#410);
    a bare number, or a code the title already names, adds nothing."""
    w = World()
    killed = w.issue(SIM, 150, "清理脚本把自己也杀掉了", "脚本里是 `pkill -9 -f vllm`，第一轮就把外层 shell 一起杀了，退出码 137。",
                     timing="no_fix")
    english = w.issue(ENG, 151, "Worker dies during warmup", "The worker process exited with exit code 137 after 2 min.",
                      timing="no_fix")
    bare = w.issue(SIM, 152, "压测跑到一半进程就退出了", "跑到第 137 步时进程没了，日志里没有报错。", timing="no_fix")
    named = w.issue(SIM, 153, "启动失败，错误码 EZ9999", "报错：错误码 EZ9999，算子编译失败", timing="no_fix")
    analyse_cases([killed, english, bare, named], w.corpus, OfflineAnalyst())
    assert killed.problem == "清理脚本把自己也杀掉了（退出码 137）"
    assert english.problem == "Worker dies during warmup (exit code 137)"
    assert bare.problem == "压测跑到一半进程就退出了"
    assert named.problem.count("EZ9999") == 1


def test_a_short_whole_sentence_fits_the_room_a_cut_could_not_use():
    """What is left of a row after its change may be less than a cut must keep (MIN_PIECE), yet a
    whole short sentence that points elsewhere ("实践文档另见 #498") fits it (seed-twin2
    MindSpeed-MM#357, a feature's row: no mechanism, two sentences of change)."""
    from fixlore.analyse.offline import MIN_PIECE
    from fixlore.analyse.scored import Scored

    change = "新增 fsdp/models/magihuman/，通过 @model_register 注册"
    more = "适配 CP / EP / chunkloss / recompute / 异步激活卸载"
    pointer = "关联 issue：#357 ；实践文档另见 #498"
    cands = [Scored(change, "pull", 0, 0, 1, 0, 4.0, facts=2, changed=True),
             Scored(more, "pull", 1, 0, 1, 0, 3.0, changed=True),
             Scored(pointer, "pull", 2, 0, 0, 0, 1.0)]
    case = Case(repo=SIM, number=357, title="MagiHuman 迁移至 FSDP2", url=World.issue_url(SIM, 357),
                fix=[FixRef(repo=SIM, number=2813, role="fix", state="merged", merged_at=t(17))])
    budget = len(change) + len(more) + 2 + MIN_PIECE - 5     # room left after both: less than a cut keeps
    picked = OfflineAnalyst()._explanation(case, cands, budget, case.title, "修复 !2813（09-17 合入）", room=budget)
    assert [text for _, _, text in picked] == [change, more, "实践文档另见 #498"]


def test_a_pointer_to_another_ticket_says_where_more_is():
    """"实践文档见 #498" has few words of its own, but it names a ticket a reader can open
    (ascend-2026-09 MindSpeed-MM#357); a question about another ticket, or bookkeeping about the
    row's own fix, still says nothing."""
    from fixlore.analyse.scored import Scored

    change = "新增 fsdp/models/magihuman/，通过 @model_register 注册"
    cands = [Scored(change, "pull", 0, 0, 1, 0, 4.0, facts=2, changed=True),
             Scored("实践文档见 #498。", "pull", 1, 0, 0, 0, 1.0),
             Scored("和 #12 是同一个问题吗？", "maintainer", 2, 0, 0, 0, 1.0),
             Scored("已随 !2813 合入。", "maintainer", 3, 0, 0, 0, 1.0)]
    case = Case(repo=SIM, number=357, title="MagiHuman 迁移至 FSDP2", url=World.issue_url(SIM, 357),
                fix=[FixRef(repo=SIM, number=2813, role="fix", state="merged", merged_at=t(17))])
    picked = OfflineAnalyst()._explanation(case, cands, 150, case.title, "修复 !2813（09-17 合入）", room=150)
    assert [text for _, _, text in picked] == [change, "实践文档见 #498"]


def test_a_sentence_whose_only_name_the_title_shows_earns_no_room():
    """"统一 OptiX 参数注入语义" beside a row that says its mechanism and change names only what the
    problem cell (the title) already shows: it does not take the row's last characters."""
    from fixlore.analyse.scored import Scored

    mech = "!778 引入 VllmCommand 后 update_data_field 不再区分注入位置"
    change = "env = 子进程环境变量（新增 [vllm.env] 块）"
    again = "统一 OptiX 参数注入语义"
    cands = [Scored(mech, "pull", 0, 1, 0, 0, 4.0, facts=3, cause=True),
             Scored(change, "pull", 1, 0, 1, 0, 4.0, facts=1),
             Scored(again, "commit", 2, 0, 1, 0, 2.0, facts=1)]
    case = Case(repo=SIM, number=430, title="OptiX vLLM 参数注入语义混用", url=World.issue_url(SIM, 430),
                fix=[FixRef(repo=SIM, number=825, role="fix", state="merged", merged_at=t(16))])
    picked = OfflineAnalyst()._explanation(case, cands, 150, case.title, "修复 !825（09-16 合入）", room=150)
    assert [text for _, _, text in picked] == [mech, change]
