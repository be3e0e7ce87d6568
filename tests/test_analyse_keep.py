"""Keep/drop rules, one signal at a time, on small hand-written discussions."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from fixlore.analyse.context import CaseContext
from fixlore.analyse.keep import keep_or_drop
from fixlore.core.model import Case, Comment, FixRef, Issue, Pull

TZ = timezone(timedelta(hours=8))
WHEN = datetime(2026, 9, 18, 10, 0, tzinfo=TZ)
REPO = "Ascend/demo"


def ctx_for(title, body, comments=(), pulls=(), shared=None, author="user1"):
    issue = Issue(repo=REPO, number=1, title=title, body=body, state="closed", created_at=WHEN, updated_at=WHEN,
                  closed_at=WHEN, author=author)
    cs = [Comment(repo=REPO, parent_kind="issue", parent_number=1, id=str(i), author=who, body=text, created_at=WHEN)
          for i, (who, text) in enumerate(comments)]
    return CaseContext(issue=issue, comments=cs, pulls=list(pulls), shared_fix_cases=list((shared or {}).keys()),
                       shared_fix_titles=dict(shared or {}))


def merged_fix(n=10):
    return FixRef(repo=REPO, number=n, role="fix", state="merged", merged_at=WHEN,
                  url=f"https://gitcode.com/{REPO}/merge_requests/{n}")


def pull(n, title, body, state="merged"):
    return Pull(repo=REPO, number=n, title=title, body=body, state=state, created_at=WHEN, updated_at=WHEN,
                merged_at=WHEN if state == "merged" else None, closed_at=WHEN)


def verdict(title, body, comments=(), root="", **kw):
    fix = kw.pop("fix", [])
    traps = kw.pop("traps", [])
    case = Case(repo=REPO, number=1, title=title, fix=fix, traps=traps, evidence=kw.pop("evidence", []))
    v = keep_or_drop(case, ctx_for(title, body, comments, **kw), root_cause=root)
    return (v.keep, v.drop_reason)


def test_landed_fix_keeps():
    assert verdict("切分后 topk 偏大", "通信量翻倍", fix=[merged_fix()]) == (True, "")


def test_rejection_beats_not_a_problem():
    assert verdict("两个候选写同一目录", "推断会覆盖",
                   [("dev", "和创建人对齐，该构造场景实际不存在，不做修改，关闭。")]) == (False, "not_adopted")
    assert verdict("shape 校验报错", "自定义输入报错", [("dev", "核验后不是问题，输入本身不合法。")]) == (False, "not_a_problem")


def test_as_designed_with_explanation_and_advice_is_kept():
    answer = ("这是预期行为：开启 prefix cache 后每个请求都要计算前缀块哈希并写入缓存索引，命中率很低时开销得不到回报。"
              "建议只在多轮对话场景开启，或调大 --prefix-cache-min-tokens。")
    assert verdict("开启 prefix cache 后首 token 延迟反而变高", "TTFT 变高，请问是否正常？", [("dev", answer)]) == (True, "")
    assert verdict("延迟变高", "请问是否正常？", [("dev", "预期行为。")]) == (False, "not_a_problem")


def test_how_to_question_is_consultation_but_feature_request_is_not():
    how = verdict("How do I change the default font of charts?", "Is there a global setting?",
                  [("dev", "Set `theme.typography.fontFamily` on the ThemeProvider; charts inherit it.")])
    assert how == (False, "consultation_only")
    feature = verdict("希望 optx 能直接读取启动脚本", "能不能直接读 vLLM 启动脚本？",
                      [("dev", "感谢建议。直读脚本的变量展开与优先级规则很难做对，维护成本高，当前仍维持 config.toml 作为唯一入口；"
                               "DP/TP 组合寻优现在就能做：DP 用 enum，TP 用 factories 按 8/DP 派生。")])
    assert feature == (True, "")


def test_hedged_answer_to_a_question_teaches_nothing():
    assert verdict("请问是否支持 Kubernetes 1.30？", "计划升级集群，CRD 接口是否有变化",
                   [("dev", "目前正式验证过的是 1.26~1.28；1.30 有社区用户在用，但官方尚未验证。CRD 使用 v1，理论上兼容。")]
                   ) == (False, "consultation_only")


def test_closed_without_conclusion_unless_richly_explained():
    assert verdict("64 卡训练偶发 hang", "三次出现两次",
                   [("dev", "请提供 hang 住时各 rank 的 py-spy dump 和 plog。"), ("dev2", "一周无反馈，关闭。")]
                   ) == (False, "no_fix_evidence")
    rich = ("这个结论不成立：flash_attention_2 显存是 O(N)，不存在 2048 的硬上限；GDN/KDA 线性注意力、DSA 稀疏注意力都有融合算子，"
            "GDN/KDA 已适配 Ulysses 等 CP，context_parallel_size 可配，再叠加 recompute/TP/PP 还能继续降显存，请补充复现信息。")
    assert verdict("视觉长序列超过 2048 就 OOM", "和宣传的能力不符", [("dev", rich), ("dev2", "超过一周未回复，关闭。")]) == (True, "")


def test_environment_workaround_only():
    assert verdict("import 报 No module named 'megatron'", "ModuleNotFoundError",
                   [("dev", "需要先 pip install -e 安装 Megatron-LM 或把其路径加入 PYTHONPATH。")]) == (False, "env_workaround")
    # a workaround beside an acknowledged defect is an answer, not an environment issue
    assert verdict("升级后启动报 permission denied", "CrashLoopBackOff",
                   [("dev", "1.4.0 起默认以非 root 运行，socket 权限没有同步调整。临时规避：设置 runAsUser: 0。正式修复 PR 在提交中。")]
                   ) == (True, "")


def test_fix_pending_unless_a_solution_is_laid_out():
    open_fix = [FixRef(repo=REPO, number=3054, role="fix", state="open")]
    assert verdict("算子精度偏差", "误差 3e-2", [("dev", "收到，!3054 在处理。")], fix=open_fix) == (False, "fix_pending")
    plan = "确认 master 现状如你所述。方案：按完整文档 packing，生成 cu_seqlens 隔离跨文档注意力，文档内重计 position_ids。"
    assert verdict("packing 硬切泄漏", "跨文档注意力", [("dev", plan)], fix=open_fix) == (True, "")
    # the plan may say where it lives before its colon
    where = "方案在 !3054：按完整文档切分样本，cu_seqlens 把注意力限制在文档内，文档内重算位置编号。"
    assert verdict("packing 硬切泄漏", "跨文档注意力", [("dev", where)], fix=open_fix) == (True, "")


def test_a_pending_fix_whose_scope_the_owners_confirmed_is_kept():
    """Who is affected, said by the people who own the code, is worth a row while the fix waits;
    the analyst hands it over as `established`."""
    open_fix = [FixRef(repo=REPO, number=883, role="fix", state="open")]
    said = [("dev", "确认，影响静态量化和敏感层分析，动态量化不受影响。")]
    case = Case(repo=REPO, number=1, title="激活量化 scale 失真", fix=open_fix)
    ctx = ctx_for("激活量化 scale 失真", "min/max 按整 tensor 算", said)
    assert keep_or_drop(case, ctx).drop_reason == "fix_pending"
    assert keep_or_drop(case, ctx, established="影响静态量化和敏感层分析，动态量化不受影响").keep


def test_review_ticket_naming_its_pr():
    body = "1. 第 88 行异常分支没有打印原始行\n2. __all__ 未更新\n3. 单测缺少空日志用例\n4. 魔鬼数字建议改为常量"
    assert verdict("检测结果解析几处问题汇总（PR 4716）", body, [("dev", "已在后续提交中修改。")],
                   fix=[merged_fix(4716)]) == (False, "internal_process")


def test_issue_folded_into_a_shared_fix():
    pr = pull(3157, "统一 triton-ascend 版本为 3.2.2 并补齐章节",
              "- README 两处 triton-ascend 版本统一为 3.2.2\n- 补齐 LoRA 章节\n- 顺带修正目录中的锚点错误")
    shared = {f"{REPO}#520": "qwen3_6 README 中 triton-ascend 版本前后不一致"}
    folded = verdict("qwen3_6 README 目录跳转失效", "目录里 LoRA 微调点击无法跳转。", fix=[merged_fix(3157)],
                     pulls=[pr], shared=shared)
    assert folded == (False, "merged_into_other")
    main = verdict("qwen3_6 README 中 triton-ascend 版本前后不一致", "3.2.0 与 3.2.1", fix=[merged_fix(3157)], pulls=[pr],
                   shared={f"{REPO}#542": "qwen3_6 README 目录跳转失效"})
    assert main == (True, "")
    named = pull(57, "参数校验", "修复 #1 #2：拒绝空 prompt")
    assert verdict("空 prompt 崩溃", "进程崩溃", fix=[merged_fix(57)], pulls=[named],
                   shared={f"{REPO}#2": "stop 为空返回 500"}) == (True, "")


def test_self_corrected_slip():
    assert verdict("文档中 TTOT 应为 TPOT", "第 3 节写的是 TTOT，应为 TPOT。",
                   [("dev", "TTOT 是笔误，公式本身没问题。")]) == (False, "self_answered")


@pytest.mark.parametrize("word, text", [("hang", "How do I change the default font?"), ("oom", "a room with a view")])
def test_latin_cues_match_word_starts_only(word, text):
    from fixlore.rules.words import has_cue

    assert not has_cue(text, (word,))
    assert has_cue("RuntimeError: boom", ("error",))


def test_a_link_is_no_content_an_answer_that_only_points_is_thin():
    link = "https://github.com/verl-project/verl/blob/main/docs/ascend_tutorial/dockerfile_build_guidance.md"
    pointer = f"镜像已提供，见 {link}"
    said = "镜像已提供：拉取 ascend 目录下的 Dockerfile 构建，驱动需 25.0 以上，CANN 用 8.2，构建后设 ASCEND_RT_VISIBLE_DEVICES。"
    title, body = "容器里 import torch_npu 报错", "找不到 libhccl.so，有没有能用的镜像？"
    assert verdict(title, body, [("dev", pointer)]) == (False, "consultation_only")
    assert verdict(title, body, [("dev", said + " " + link)]) == (True, "")


def test_a_workaround_word_in_a_long_explanation_does_not_make_it_only_a_workaround():
    title, body = "DP/TP 组合下 optix 搜索结果不可复现", "同样的配置两次搜索得到不同的 (DP,TP)，请问是否正常？"
    short = "环境问题，重装 CANN 后再试。"
    long_ = ("搜索空间里 (DP,TP) 的候选按显存上限过滤后再按吞吐排序，吞吐相同的候选顺序取决于枚举顺序，"
             "所以两次结果可能不同：(4,2) 与 (2,4) 在 8 卡上吞吐一致。要固定结果可以设 search_seed，"
             "或临时方案：把 tp_candidates 只留一个值规避。26Q3 计划给并列候选加确定的次序。")
    assert verdict(title, body, [("dev", short)]) == (False, "env_workaround")
    assert verdict(title, body, [("dev", long_)])[1] != "env_workaround"


def test_an_english_answer_is_measured_in_what_it_says_not_in_letters():
    from fixlore.analyse.keep import _content_len

    assert _content_len("Please install torch_npu and try again.") < _content_len("请先安装 torch_npu 再重试，并确认驱动版本与 CANN 配套。")
    zh = "flash_attention_2 的显存开销是 O(N)，不存在 2048 的硬上限；长序列请打开 context_parallel_size 并配合重计算降低显存。"
    assert _content_len(zh) == len("".join(zh.split()))            # a Chinese answer's identifiers count as written
    title, body = "import torch_npu fails on 910B", "ImportError: libhccl.so not found, is there an image?"
    thin = "Ascend has already provided the image. Docker guidance doc: https://github.com/o/r/blob/main/docs/docker.md"
    assert verdict(title, body, [("dev", thin)])[0] is False


def test_the_reporters_own_environment_step_is_an_env_workaround():
    bug = ("[Bug]: transfer failed on 910B A2", "put_start success, transfer failed")
    assert verdict(*bug, [("user1", "with CANN 9.1.0"),
                          ("user1", "forget set env:\nexport ASCEND_BUFFER_POOL=0:0\nexport HCCL_INTRA_ROCE_ENABLE=1")]
                   ) == (False, "env_workaround")
    assert verdict(*bug, [("user1", "忘了配置环境变量，加上后正常")]) == (False, "env_workaround")
    # the step that did not help, or one from someone else, is not the reporter's fix
    assert verdict(*bug, [("user1", "export HCCL_INTRA_ROCE_ENABLE=1 and it still fails")]) == (False, "no_fix_evidence")
    assert verdict(*bug, [("user1", "export HCCL_INTRA_ROCE_ENABLE=1"), ("user1", "same error after a reboot")]
                   ) == (False, "no_fix_evidence")


def test_a_pasted_script_a_question_or_a_failure_is_no_environment_fix():
    bug = ("[Bug]: HCCL timeout on 8 cards", "the job hangs at init")
    for last in ("my launch script:\nexport HCCL_CONNECT_TIMEOUT=1200\npython train.py\nTraceback: RuntimeError: hccl",
                 "是不是忘了配置什么环境变量？", "Did I forget to set something?",
                 "export HCCL_BUFFSIZE=400 but it fails with the same timeout", "export X=1 之后报错依旧"):
        assert verdict(*bug, [("user1", last)]) == (False, "no_fix_evidence"), last
    # a step in a code fence is still the reporter's step
    assert verdict(*bug, [("user1", "```\nexport HCCL_INTRA_ROCE_ENABLE=1\n```\nworks now")]) == (False, "env_workaround")


def test_a_step_that_worked_is_read_whatever_it_quotes_or_links():
    bug = ("[Bug]: HCCL timeout on 8 cards", "the job hangs at init")
    for last in ("Turned out I forgot to set the env var; `export HCCL_CONNECT_TIMEOUT=1200` and training no longer fails",
                 "忘了设置环境变量 export HCCL_X=1，不再报错了",
                 "> Did you set HCCL_INTRA_ROCE_ENABLE?\n\nYes, I forgot. export HCCL_INTRA_ROCE_ENABLE=1 and it works",
                 "export HF_ENDPOINT=https://hf-mirror.com/?x=1 fixed the download",
                 "<!-- Did you set it? -->\nexport HCCL_X=1 works",
                 "export PYTHONPATH=/opt/lib (the default is empty) fixed it",
                 "Forgot to set HCCL_X, works now", "env: export HCCL_X=1",
                 "export HCCL_X=1 后就不报错了", "export HCCL_X=1 之后未再报错", "export HCCL_X=1 fixed it; tested against 8 cards",
                 "export HCCL_X=1 works, the distilled model loads now"):
        assert verdict(*bug, [("user1", last)]) == (False, "env_workaround"), last
    for last in ("export HCCL_CONNECT_TIMEOUT=1200 无果，还是 hang", "设置了：export HCCL_CONNECT_TIMEOUT=1200，没变，依旧卡住",
                 "I tried `export HCCL_CONNECT_TIMEOUT=1200`, no change.", "export HCCL_X=1 didn't work"):
        assert verdict(*bug, [("user1", last)]) == (False, "no_fix_evidence"), last
