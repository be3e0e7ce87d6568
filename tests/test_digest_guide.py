"""Guide cells a reader would not send back (issue #22, guide): the Chinese guide writes its steps
in Chinese, quoting the thread's English only as terms (compose/language.TERM); a step is the cause
to check, not a measured result or what the change did; the change named is the one that fixes what
the reader sees; the symptom is the outcome a user searches, not a raw error line."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from fixlore.compose.figures import Refs
from fixlore.compose.guide import guide, labelled
from fixlore.compose.language import foreign_prose
from fixlore.compose.steps import searchable
from fixlore.core.model import Case, FixRef, Written

from case_builders import REPO, pr as _pr



def _english_case() -> Case:
    return Case(repo=REPO, number=29, title="Ignore numa_node being returned as -1 for NPUs not attached to CPUs",
                problem="Ignore numa_node being returned as -1 for NPUs not attached to CPUs", funnel="selected",
                url=f"https://gitcode.com/{REPO}/issues/29", fix=[_pr(34)],
                written=Written(lang="en", mechanism="read_numa_node returns -1 when the NPU is not attached to a CPU",
                                change="Treat a numa_node of -1 as unknown and fall back to node 0",
                                action="Treat a numa_node of -1 as unknown and fall back to node 0"))


def _candidate(number: int, title: str, state: str = "merged") -> dict:
    return {"repo": REPO, "number": number, "verdict": "fix", "state": state, "merged_at": "", "base_ref": "",
            "title": title, "unrelated": "", "set_aside": "", "signals": []}


def test_a_chinese_guide_step_for_an_english_thread_is_chinese_with_quoted_terms():
    c = _english_case()
    c.candidates = [_candidate(34, "[Bug Fix] Treat numa_node -1 as unknown")]
    zh = guide([c], Refs([c]), [REPO], "zh")[0]["first_action"]
    assert re.search(r"[\u4e00-\u9fff]", zh) and not foreign_prose(zh, "zh"), zh
    assert "!34" in zh and "Treat" not in zh, zh          # an English title is no Chinese action (issue #22)
    en = guide([c], Refs([c]), [REPO], "en")[0]["first_action"]
    assert "numa_node" in en and "!34" in en


def test_a_name_the_case_says_nothing_more_about_is_no_step():
    """"先核对 `numa_node`" asks the reader nothing (27 of 48 Ascend rows were such steps, issue #22):
    with nothing else to go on the row asks whether the reader's setup is the case's (the name its
    report gives), then whether the reader's build has the fix."""
    c = _english_case()
    zh = guide([c], Refs([c]), [REPO], "zh")[0]["first_action"]
    assert "先核对" not in zh and zh == "先确认是否用到 `numa_node`，再确认所用版本是否含 !34", zh


def test_the_fallback_step_draws_on_the_cases_own_version_names_and_error():
    """npu-threads' Chinese guide said "先确认所用版本是否含 PR#N" 21 times with only N changing (issue
    #22): a case that names a version, a name or an error is checked on it first; the bare form only
    for a case that names none."""
    def case(title: str, number: int = 262) -> Case:
        return Case(repo=REPO, number=number, title=title, problem=title, funnel="selected",
                    url=f"https://gitcode.com/{REPO}/issues/{number}", fix=[_pr(number + 5)])
    rows = {title: guide([c], Refs([c]), [REPO], lang)[0]["first_action"]
            for title in ("Segfault in CANN 9.0.0 when using Ascend p2p", "NameError in the qwen2 sample",
                          "test_smoke fails in CI", "Sub operation returns wrong results")
            for c in [case(title)] for lang in ("zh",)}
    assert rows["Segfault in CANN 9.0.0 when using Ascend p2p"] == "先确认环境是否为 `CANN 9.0.0`，再确认所用版本是否含 !267"
    assert rows["NameError in the qwen2 sample"] == "先确认报错是否为 `NameError`，再确认所用版本是否含 !267"
    # a test's name is what CI ran, not the reader's setup; with nothing else the bare form stays
    assert rows["test_smoke fails in CI"] == rows["Sub operation returns wrong results"] == "先确认所用版本是否含 !267"
    en = guide([case("Segfault in CANN 9.0.0 when using Ascend p2p")], Refs([case("x")]), [REPO], "en")[0]["first_action"]
    assert en == "Check whether you run `CANN 9.0.0`, then whether your build includes !267", en
    assert not foreign_prose(rows["Segfault in CANN 9.0.0 when using Ascend p2p"], "zh")


def test_a_guide_step_is_the_cause_to_check_not_a_result_or_what_the_change_did():
    mm716 = Case(repo=REPO, number=716, title="请求支持 mxfp8 训练", problem="请求支持 mxfp8 训练", funnel="selected",
                 url="u716", fix=[_pr(3158)],
                 written=Written(lang="zh", mechanism="qwen3.5-27B：误差 0.25%，性能 1.3×bf16",
                                 change="qwen3.5-27B：误差 0.25%，性能 1.3×bf16。fsdp_turbo 接入 mxfp8 线性层"))
    row = guide([mm716], Refs([mm716]), [REPO], "zh")[0]["first_action"]
    assert "0.25%" not in row and "fsdp_turbo 接入 mxfp8 线性层" in row, row
    slim536 = Case(repo=REPO, number=536, title="帮助参数未对齐，文档残留旧参数", problem="帮助参数未对齐，文档残留旧参数",
                   funnel="selected", url="u536", fix=[_pr(983)],
                   written=Written(lang="zh", change="删除 docs 中 --model_type 旧参数示例。analyze 子命令增加 ana 别名",
                                   action="删除 docs 中 --model_type 旧参数示例"))
    row = guide([slim536], Refs([slim536]), [REPO], "zh")[0]["first_action"]
    assert not row.startswith("删除"), row                      # what the PR did is not the reader's step
    mm621 = Case(repo=REPO, number=621, title="resume 时 optimizer 存取标志不对称，训练发散", funnel="selected",
                 problem="resume 时 optimizer 存取标志不对称，训练发散", url="u621", fix=[_pr(2983)],
                 written=Written(lang="zh", mechanism="resume 时 DCP `allow_partial_load` 会静默跳过缺失分片，AdamW 冷启动没有任何提示"))
    row = guide([mm621], Refs([mm621]), [REPO], "zh")[0]["first_action"]
    assert row.startswith("先确认是否") and "allow_partial_load" in row, row


def test_the_change_a_guide_row_names_is_the_one_that_fixes_what_the_reader_sees():
    c = Case(repo=REPO, number=631, title="kv-conductor 续查未按 instance/dp 对齐，cpu_blocks 虚高", funnel="selected",
             problem="kv-conductor 续查未按 instance/dp 对齐，cpu_blocks 虚高", url="u631", fix=[_pr(986)],
             written=Written(lang="zh", change="亲和调度支持阈值配置。续查按 instance/dp 对齐，cpu_blocks 不再跨 dp 累加",
                             action="亲和调度支持阈值配置"))
    row = guide([c], Refs([c]), [REPO], "zh")[0]["first_action"]
    assert "续查按 instance/dp 对齐" in row and "阈值" not in row, row


def test_a_symptom_is_the_error_the_report_quotes_without_the_log_noise():
    """Issue #22: a guide's symptom is what a user pastes into a search box: the exception and its
    message as the report quotes it (after the failing clause when that is short), never the log
    line's timestamps, paths and pids, a long message shortened to its first clause or at a word."""
    c = Case(repo=REPO, number=412, title="DeepSeek PD ratio 用例编译失败：FX 图中 pow_2 在定义前被使用",
             problem="DeepSeek PD ratio 用例编译失败：FX 图中 pow_2 在定义前被使用", url="u",
             symptom="RuntimeError: Node pow_2 used before it is defined")
    assert searchable(c) == "DeepSeek PD ratio 用例编译失败：`RuntimeError: Node pow_2 used before it is defined`"
    log = Case(repo=REPO, number=4133, title="[Bug]: Qwen3-TTS-12Hz-1.7B-Base", url="u",
               problem="Qwen3-TTS-12Hz-1.7B-Base：RuntimeError: Expected all tensors",
               symptom="ERROR 06-04 05:01:35 [multiproc executor.py:932] RuntimeError: Expected all tensors to be on "
                       "the same device, but got weight is on cpu, different from other tensors on npu:0")
    assert searchable(log) == "`RuntimeError: Expected all tensors to be on the same device`", searchable(log)
    long = Case(repo=REPO, number=3444, title="ModuleNotFoundError", url="u",
                symptom="ModuleNotFoundError: No module named 'paddlespeech.s2t.transform'")
    assert searchable(long) == "`No module named 'paddlespeech.s2t.transform'`（ModuleNotFoundError）", searchable(long)
    path = Case(repo=REPO, number=9, title="加载失败", url="u",
                symptom="OSError: cannot open /usr/local/lib/python3.10/site-packages/x/libfoo.so at 0x7f3a2b")
    assert "/usr/local" not in searchable(path) and "0x7f" not in searchable(path), searchable(path)
    d = Case(repo=REPO, number=1162, title="hccl 建链日志关键字改成 DetectRankTableImpl 后建链信息解析失效",
             problem="hccl 建链日志关键字改成 DetectRankTableImpl 后建链信息解析失效", url="u")
    assert searchable(d) == "建链信息解析失效（DetectRankTableImpl）"


def test_with_nothing_chinese_to_go_on_the_step_names_the_versions_or_where_the_answer_is():
    upgrade = Case(repo=REPO, number=4133, title="Qwen3-TTS-12Hz-1.7B-Base RuntimeError", funnel="selected", url="u4133",
                   first_action="please upgrade to: cann 9.0.0, vllm v0.22.0",
                   written=Written(lang="en", workaround="please upgrade to: cann 9.0.0, vllm v0.22.0"))
    step = guide([upgrade], Refs([upgrade]), [REPO], "zh")[0]["first_action"]
    assert step == "先装 `cann 9.0.0`、`vllm v0.22.0`", step
    bare = Case(repo=REPO, number=294, title="the ascend example fails to compile", funnel="selected", url="u294",
                first_action="It is recommended that you use the new version",
                written=Written(lang="en", workaround="It is recommended that you use the new version"))
    step = guide([bare], Refs([bare]), [REPO], "zh")[0]["first_action"]
    assert step and "#294" in step and not foreign_prose(step, "zh"), step


def _named(number: int, title: str, mechanism: str = "", change: str = "") -> Case:
    return Case(repo=REPO, number=number, title=title, problem=title, funnel="selected", url=f"u{number}",
                fix=[_pr(number + 400)], written=Written(lang="zh", mechanism=mechanism, change=change))


def test_a_first_check_says_what_the_name_it_quotes_is_from_the_cases_words():
    """Ascend's guide was "先核对 `x`" in 27 of 48 rows: check what about it? The case's own words
    say what a name is (msmodeling#390, MindSpeed-MM#577, mind-cluster#1162 as the world has them):
    a switch turned on, a setting given a value, a log keyword; a name they say nothing more about
    is no step (issue #22: never a bare "先核对 `x`")."""
    switch = _named(390, "开启 shared-expert-tp 时 MoE topk 没有随 TP 切分，dispatch 通信量高估 tp 倍",
                    mechanism="开启 `shared_expert_tp` 时 `route()` 在 `_dp_transform_enter` 之前按全量 token 计算，"
                              "hidden 已按 tp 切成 N/tp，而 topk_ids 仍为 N×k", change="去掉末尾的截断兜底（它掩盖了问题）")
    setting = _named(577, "LoRA adapter-only 存盘仍走全量 DCP 写，每次多写约 36G 冻结的基模型",
                     mechanism="`lora_save_only=true` 只存 LoRA 权重和 adapter.json。`lora_save_only=false` 且 "
                               "`save_format=dcp`：保存全量，供断点续训",
                     change="`save_ckpt_dtype` 生效点移到 LoRA 合并之后，提升融合精度")
    log = _named(1162, "hccl 建链日志关键字改成 DetectRankTableImpl 后建链信息解析失效",
                 change="确认：A5 配套的 hcomm 把建链检测日志统一到 rank_info_detect 模块，关键字由 RankInfoDetect "
                        "改为 DetectRankTableImpl。提取逻辑适配新关键字（保留旧关键字兼容），checker 检查逻辑同步调整")
    plain = _named(631, "续查未对齐，cpu_blocks 虚高", mechanism="cpu_blocks 跨 dp 累加")
    steps = {c.number: guide([c], Refs([c]), [REPO], "zh")[0]["first_action"] for c in (switch, setting, log, plain)}
    assert steps[390].startswith("先确认是否开启了 `shared_expert_tp`"), steps[390]
    assert steps[577].startswith("先核对 `lora_save_only` 的取值"), steps[577]
    assert steps[1162].startswith("先在日志中搜索 `DetectRankTableImpl`"), steps[1162]
    assert not steps[631].startswith("先核对"), steps[631]       # a bare name asks the reader nothing
    en = guide([switch], Refs([switch]), [REPO], "en")[0]["first_action"]
    assert "shared_expert_tp" in en and "turned on" in en, en
    en = guide([setting], Refs([setting]), [REPO], "en")[0]["first_action"]
    assert en.startswith("Check the value of `lora_save_only`"), en


def test_a_short_failing_clause_that_names_its_subject_is_the_symptom_on_its_own():
    """MindIE-Motor#631's title: the symptom a user searches is "cpu_blocks 虚高", not the whole title;
    a bare error name after the model ("Qwen3-TTS-12Hz-1.7B-Base，RuntimeError") keeps the model."""
    title = "kv-conductor HBM→CPU 续查未按 instance/dp 对齐，cpu_blocks 虚高"
    c = Case(repo=REPO, number=631, title=title, problem=title, funnel="selected", url="u")
    assert searchable(c) == "cpu_blocks 虚高"
    title = "Qwen3-TTS-12Hz-1.7B-Base，RuntimeError"
    c = Case(repo=REPO, number=4133, title=title, problem=title, funnel="selected", url="u")
    assert searchable(c).startswith("Qwen3-TTS-12Hz-1.7B-Base")


def test_only_an_answer_that_asks_for_versions_makes_an_install_step():
    """"先装 `pkg ver`" comes from an answer that asks to install, upgrade or require; the version
    the report or the mechanism names is as often the one that fails ("Segfault in CANN 9.0.0"),
    and a landed fix's "支持 Python 3.8 及以上" says what it supports, not what to install."""
    failing = Case(repo=REPO, number=262, title="Segfault in CANN 9.0.0 when using p2p", funnel="selected", url="u262",
                   written=Written(lang="en", mechanism="hcomm 8.5.0 does not match CANN 9.0.0 in the p2p path"))
    assert "先装" not in guide([failing], Refs([failing]), [REPO], "zh")[0]["first_action"]
    bound = Case(repo=REPO, number=1185, title="3.9 下运行报错", problem="3.9 下运行报错", funnel="selected", url="u1185",
                 fix=[_pr(4718)], written=Written(lang="zh", change="类型注解改回 `typing.Union`，支持 Python 3.8 及以上",
                                                   action="类型注解改回 `typing.Union`，支持 Python 3.8 及以上"))
    assert "先装" not in guide([bound], Refs([bound]), [REPO], "zh")[0]["first_action"]
    asked = Case(repo=REPO, number=1167, title="UB 场景训练拉起失败", problem="UB 场景训练拉起失败", funnel="selected",
                 url="u1167", written=Written(lang="zh", workaround="UB 场景需要 MindCluster 26.2.0 与 CANN 9.2.0 以上"))
    assert guide([asked], Refs([asked]), [REPO], "zh")[0]["first_action"].startswith(
        "先装 `MindCluster 26.2.0`、`CANN 9.2.0`")


def test_a_guide_cell_names_the_rows_pr_as_the_digest_does_for_its_platform():
    """npu-threads/github-mini (issue #22): a thread's "Fixed by #105" stood in the guide while the
    rows wrote PR#105 (wording/facts.pr_label); on GitHub a bare #N of the case's PR is that PR, a
    GitCode thread's "!N" stays "!N" and its "#N" is an issue. The cell links the PR as the rows do."""
    gh = "minilab/widgets"
    fix = FixRef(repo=gh, number=105, role="fix", state="merged", merged_at=datetime(2026, 9, 5, tzinfo=timezone.utc),
                 url=f"https://github.com/{gh}/pull/105")
    c = Case(repo=gh, number=104, title="Memory leak in EventBus.subscribe", problem="Memory leak in EventBus.subscribe",
             funnel="selected", url=f"https://github.com/{gh}/issues/104", fix=[fix],
             written=Written(lang="en", action="Fixed by #105, please try main"))
    row = guide([c], Refs([c]), [gh], "en")[0]
    assert "PR#105" in row["first_action"] and not re.search(r"(?<!PR)#105", row["first_action"]), row
    assert row["links"] == {"PR#105": f"https://github.com/{gh}/pull/105"}
    assert labelled("已由 !105 修复；见 PR 105", [c]) == "已由 PR#105 修复；见 PR#105"
    assert labelled("`Fix leak (#105)` 与 #104", [c]) == "`Fix leak (#105)` 与 #104"     # a quoted title, an issue
    gc = _english_case()                                   # GitCode: !34 is the MR, #34 an issue
    assert labelled("请升级到含 MR 34 的版本，见 #34", [gc]) == "请升级到含 !34 的版本，见 #34"
    # GitHub autolinks GH-105 (rules.refs: GitHub only): the row names it PR#105; in a GitCode case GH-34 is a name
    assert labelled("Fixed in GH-105", [c]) == "Fixed in PR#105"
    assert labelled("Fixed in GH-34", [gc]) == "Fixed in GH-34"
    c.written.action = "Fixed by GH-105, please try main"       # the cell names the fix: no bracket repeats it
    assert guide([c], Refs([c]), [gh], "en")[0]["first_action"].count("105") == 1


def test_an_english_pr_title_is_not_the_chinese_rows_whole_action():
    """npu-threads' Chinese guide gave 12 rows of 50 an English PR title as the whole action
    ("`Upgrade CI IMAGE to v0.25.0`（PR#5095 已合入）", issue #22): the row takes the next step of the
    order (whether the reader's build has the fix); a Chinese title, and the English digest, keep it."""
    c = Case(repo=REPO, number=5094, title="NPU CI failure", problem="NPU CI failure", funnel="selected",
             url=f"https://gitcode.com/{REPO}/issues/5094", fix=[_pr(5095)])
    c.candidates = [_candidate(5095, "[CI] Upgrade CI IMAGE to v0.25.0")]
    zh = guide([c], Refs([c]), [REPO], "zh")[0]["first_action"]
    assert zh == "先确认所用版本是否含 !5095", zh
    en = guide([c], Refs([c]), [REPO], "en")[0]["first_action"]
    assert "Upgrade CI IMAGE to v0.25.0" in en and "!5095" in en, en
    c.candidates = [_candidate(5095, "[CI] 升级 CI 镜像到 v0.25.0 版本")]
    zh = guide([c], Refs([c]), [REPO], "zh")[0]["first_action"]
    assert zh.startswith("升级 CI 镜像到") and "!5095 已合入" in zh, zh


def test_the_guide_knows_where_its_first_check_comes_from_without_reading_its_wording():
    """A thread's own step worded like a cause check ("先确认是否…") is still the thread's step, and
    the cause check is known as one by where it came from (compose/steps.cause_check), not by its
    first words (guide._check)."""
    from fixlore.compose.editorial import Editorial
    from fixlore.compose.guide import STEP_CAUSE, STEP_INSTALL, STEP_THREAD, _check

    def case(**written) -> Case:
        return Case(repo=REPO, number=621, title="resume 时 optimizer 存取标志不对称，训练发散", funnel="selected",
                    problem="resume 时 optimizer 存取标志不对称，训练发散", url="u621", written=Written(lang="zh", **written))

    cause = "resume 时 DCP `allow_partial_load` 会静默跳过缺失分片，AdamW 冷启动没有任何提示"
    step, _, asks = _check([case(mechanism=cause)], "zh", [], Editorial())
    assert step.startswith("先确认是否") and asks == STEP_CAUSE, (step, asks)
    own = case(action="先确认是否在 yaml 里写了 `allow_partial_load: true`", mechanism=cause)
    step, used, asks = _check([own], "zh", [], Editorial())
    assert step.startswith("先确认是否") and asks == STEP_THREAD and used is own, (step, asks)
    install = case(workaround="UB 场景需要 MindCluster 26.2.0 与 CANN 9.2.0 以上")
    assert _check([install], "zh", [], Editorial())[2] == STEP_INSTALL


def test_an_english_check_keeps_names_in_their_case_and_needs_a_clause():
    from fixlore.compose.steps import _has_subject
    from fixlore.wording.sentence import within as _in_sentence

    assert _in_sentence("DataLoader fails to pickle the sampler") == "DataLoader fails to pickle the sampler"
    assert _in_sentence("Qwen3VLModel.forward builds the mask") == "Qwen3VLModel.forward builds the mask"
    assert _in_sentence("The cache is stale") == "the cache is stale"
    assert _has_subject("Early stopping fails") and _has_subject("torch.compile hangs")
    assert not _has_subject("AssertionError") and not _has_subject("currently results in a failure")


def test_an_english_cause_check_takes_the_cause_not_its_because():
    from fixlore.compose.steps import cause_check
    c = _english_case()
    c.written.mechanism = ("Because MIOpen builds with `-Werror`, the `[-Woption-ignored]` diagnostic becomes a "
                           "fatal error and kills the entire build")
    step = cause_check(c, "en")
    assert step.startswith("Check whether MIOpen builds with `-Werror`"), step


def test_with_no_fix_the_step_to_the_maintainers_answer_also_starts_from_the_cases_setup():
    """"先对照 #N 的维护者答复排查" with only N changing (npu-threads: 5 of 43 rows): a case that names
    its version or a name is checked on it first; the bare pointer only for one that names none."""
    c = Case(repo=REPO, number=88, title="Segfault in CANN 9.0.0 with `hccl_buffsize` set", funnel="selected",
             problem="Segfault in CANN 9.0.0 with `hccl_buffsize` set", url=f"https://gitcode.com/{REPO}/issues/88")
    zh = guide([c], Refs([c]), [REPO], "zh")[0]["first_action"]
    assert zh.startswith("先确认环境是否为 `CANN 9.0.0`、是否用到 `hccl_buffsize`，再对照 ") and zh.endswith("的维护者答复排查"), zh
    en = guide([c], Refs([c]), [REPO], "en")[0]["first_action"]
    assert en.startswith("Check whether you run `CANN 9.0.0` and you use `hccl_buffsize`, then read the maintainers' answer in"), en
    c.title = c.problem = "Segfault with large batches"
    assert guide([c], Refs([c]), [REPO], "zh")[0]["first_action"].startswith("先对照 ")


def test_a_first_check_is_the_failure_a_lead_in_announces_not_the_lead_in():
    """Ascend #405: the mechanism opens "nightly 20260908 失败两项：" and names the failures after the colon;
    the reader checks a failure, not the heading that counts them."""
    ms405 = Case(repo=REPO, number=405, title="nightly 回归失败：SP Replay 后仍残留 all_reduce", funnel="selected",
                 problem="nightly 回归失败：SP Replay 后仍残留 all_reduce", url="u405", fix=[_pr(797)],
                 written=Written(lang="zh", mechanism="nightly 20260908 失败两项：SP Replay P3 matcher 把 "
                                 "`_internal_copy_region_v2` 的 bookkeeping 用户当成数据路径用户，all_reduce 未被替换"))
    row = guide([ms405], Refs([ms405]), [REPO], "zh")[0]["first_action"]
    assert row.startswith("先确认是否") and "失败两项" not in row and ("all_reduce" in row or "_internal_copy" in row), row
