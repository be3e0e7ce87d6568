"""Process tickets on a tracker without issue types (issue #13): title tags and process labels."""

import pytest
from hypothesis import given, strategies as st

from fixlore.rules.funnel import FunnelConfig, cheap_funnel
from fixlore.rules.funnel.titles import leading_tags

from test_link_builders import SINCE, issue, t


def _stage(one):
    return cheap_funnel([one], SINCE, FunnelConfig())[one.key]


@pytest.mark.parametrize("title", ["[RFC]: unified KV offload API", "RFC: unified KV offload API",
                                   "【RFC】统一 KV 卸载接口", "[rfc] unified KV offload API", "(Roadmap) 2026 H2",
                                   "Tracking issue - NPU graph mode", "[Tracker] NPU graph mode", "[Task] bump CANN",
                                   "[TODO] drop the py3.9 wheels", "【任务】适配新版驱动", "Epic: multi-node serving"])
def test_a_process_tag_in_front_makes_an_untyped_issue_internal(title):
    assert _stage(issue(1, title, closed=t(18))) == "internal"


@pytest.mark.parametrize("title", ["Crash when the RFC parser meets a tab", "roadmap page 404s",
                                   "[Bug][RFC] wrong dtype", "[Bug]: tracking id lost after restart",
                                   "fix: task queue deadlock", "Task failed: OOM at step 3", "[Feature] RFC 7231 dates"])
def test_the_words_elsewhere_in_a_title_keep_it_a_report(title):
    assert _stage(issue(1, title, closed=t(18))) == "pool"


def test_process_labels_mark_internal_in_any_spelling():
    for label in ("RFC", "roadmap", "Tracking Issue", "tracking-issue", "epic"):
        assert _stage(issue(1, "unified KV offload API", closed=t(18), labels=[label])) == "internal", label
    assert _stage(issue(2, "unified KV offload API", closed=t(18), labels=["ci-failure"])) == "pool"


def test_a_set_issue_type_decides_over_the_title_tag():
    assert _stage(issue(1, "[RFC] 流式数据加载", closed=t(18), issue_type="Feature")) == "pool"
    assert _stage(issue(2, "[RFC] 流式数据加载", closed=t(18), issue_type="任务")) == "internal"


def test_title_tags_are_configurable():
    cfg = FunnelConfig(internal_title_tags=("chore",))
    one = issue(1, "[Chore] rotate keys", closed=t(18))
    assert cheap_funnel([one], SINCE, cfg)[one.key] == "internal"
    assert cheap_funnel([issue(2, "[RFC] x y", closed=t(18))], SINCE, cfg)["Ascend/toolkit#2"] == "pool"


@given(st.text(max_size=80))
def test_title_tag_is_a_piece_of_the_title(title):
    tag = (leading_tags(title) or [""])[0]
    assert tag == "" or tag in title


@given(st.sampled_from(["[{}]", "【{}】", "({})", "{}:", "{}：", "[{}]:", " [{}] "]),
       st.sampled_from(["RFC", "rfc", "Roadmap", "TRACKING", "Tracking Issue", "tracking_issue", "Task"]),
       st.text(alphabet="abc xyz", min_size=1, max_size=30))
def test_metamorphic_respelling_the_tag_keeps_the_verdict(shape, tag, rest):
    assert _stage(issue(1, shape.format(tag) + " " + rest, closed=t(18))) == "internal"


# ---------------------------------------------------------------- tags read in order, commit-style titles

@pytest.mark.parametrize("title", ["[NPU] [Roadmap] NPU MoE 2026 Q2 Roadmap", "[Ascend][RFC] 统一量化接口",
                                   "【昇腾】【任务】适配 CANN 8.3", "[v0.9] Tracking: graph mode gaps",
                                   "feat(ascend): port the E2E-verified support to v0.3", "refactor: split the loader",
                                   "chore(ci)!: drop py3.9"])
def test_a_process_tag_after_component_tags_or_a_commit_style_title_is_internal(title):
    assert _stage(issue(1, title, closed=t(18))) == "internal"


@pytest.mark.parametrize("title", ["[NPU][Bug] [RFC] wrong dtype", "[Ascend] [Usage]: roadmap of graph mode?",
                                   "【昇腾】【问题】任务下发失败", "fix(ascend): crash on 910B", "test: the e2e case fails",
                                   "Feature: support feat(x) syntax", "[NPU] task queue deadlock",
                                   "docs: the install page 404s"])
def test_a_report_tag_first_or_a_users_wording_keeps_it_a_report(title):
    assert _stage(issue(1, title, closed=t(18))) == "pool"


@given(st.text(max_size=80))
def test_leading_tags_are_pieces_of_the_title(title):
    assert all(tag and tag in title for tag in leading_tags(title))


# ---------------------------------------------------------------- plans written in sentences, tickets that say they track

ROADMAP = """### Motivation

SGLang has accumulated some MoE-related issues on NPU:

1. Support on Ascend:
- [x] GLM-5 - https://github.com/sgl-project/sglang/issues/22709

2. Bugs:
- [x] DeepEp BF16 dispatcher fix - https://github.com/sgl-project/sglang/pull/23815
- [ ] W4A8 MoE gives 0 accuracy (#23901)
"""


@pytest.mark.parametrize("body", [ROADMAP, "Release tracking issue for the `2.2-rc2` release.\n\nLinked PR: #387",
                                  "This issue tracks the graph-mode gaps on 910B.", "Tracking issue for the v1 API.",
                                  "本 issue 用于跟踪 CANN 8.3 适配进展。", "该需求跟踪 MoE 算子的精度问题。",
                                  "### ROCm ASAN Packaging\n\nParent ticket for tracking shipping ASAN packages.",
                                  "Umbrella issue for the 2.0 release.", "This is an epic issue to track the port."])
def test_a_plan_in_sentences_or_a_ticket_that_says_it_tracks_is_internal(body):
    assert _stage(issue(1, "NPU MoE work", body=body, closed=t(18))) == "internal"


@pytest.mark.parametrize("body", [
    "- [x] I searched the existing issues\n- [x] I read the FAQ\n\nvllm crashes on start",
    "- [x] I tried the workaround of #12\n\nstill crashes with OOM",
    "I am tracking down a crash where the dispatcher hangs, see #12 and #13.",
    "<!-- - [ ] #12\n- [ ] #13 -->\nThe loader hangs.",
    "Tracking the memory: it grows by 2 GB per step.",
    "The parent issue for this bug is #12; the child process crashes.",
    "## Describe the bug\nThe parent process hangs when a worker dies.",
])
def test_a_report_that_mentions_issues_or_tracking_stays_a_report(body):
    assert _stage(issue(1, "dispatcher hangs", body=body, closed=t(18))) == "pool"


# ---------------------------------------------------------------- the tracking words as a report template's field

@pytest.mark.parametrize("body", [
    "**Describe the bug**\nTracking issue (if any):\nvllm crashes on start",
    "### Bug\nParent issue for this bug (optional): \nthe loader hangs",
    "Umbrella issue for this report, if any: #\nthe loader hangs",
    "A tracking issue for this bug? Link it below.\nThe loader hangs",
    "Tracking issue: #100\n## Describe the bug\nloader hangs",
    "Parent issue: <link>\n## Describe the bug\nloader hangs",
    "Parent issue for this bug: acme/core#4\nloader hangs",
    "Tracking issue for this bug (optional)\n\n### Describe the bug\nloader hangs",
    "Umbrella issue for grouping related bugs? Link it here.\n### Steps\n1. run",
    "本 issue 跟踪的父任务（如有）：\n### 问题描述\n加载卡住",
    "- [ ] This is a tracking issue for several bugs\n- [x] I searched the parent issue for this bug\nThe loader hangs",
])
def test_a_report_templates_tracking_field_or_checkbox_leaves_the_report_a_report(body):
    assert _stage(issue(1, "loader hangs", body=body, closed=t(18))) == "pool"


@pytest.mark.parametrize("body", [
    "This is a tracking issue for the new scheduler.",
    "Parent issue for the following sub-tasks:\n- [ ] #12",
    "Parent issue for the following sub-tasks:\n\n1. the cache\n2. the loader",
    "Tracking issue for optional dependencies support.",
    "本 issue 用于跟踪可选算子的适配。",
    "Umbrella issue for regressions if any appear after the 2.0 release.",
    # a plan asks or sets things aside inside brackets or mid-sentence, not as a field's hint
    "This issue tracks the NPU MoE work (what's left? see the list below).",
    "Umbrella issue for FP8 (which kernels? which cards?)",
    "Tracking issue for the new scheduler (optional features listed below).",
    "本 issue 用于跟踪 910B 适配，可选算子见下表。",
    "This issue tracks work for 2.0, if any slips we move it.",
])
def test_a_ticket_that_says_it_tracks_is_still_a_plan_beside_those_words(body):
    assert _stage(issue(1, "NPU MoE work", body=body, closed=t(18))) == "internal"


def test_a_hostile_first_line_costs_nothing():
    import time

    from fixlore.rules.funnel.planned import is_tracking_ticket
    start = time.process_time()
    for body in ("Tracking issue: " + "x://" * 16_000 + " y", "Tracking issue for " + "a" * 65_000 + "?",
                 "Tracking issue " + "(" * 65_000):
        is_tracking_ticket(body)
    assert time.process_time() - start < 1          # a URL placeholder backtracked: 16 s on 64 KB


# ---------------------------------------------------------------- a failure reported under the generic task type

def test_a_failure_filed_under_the_generic_task_type_is_a_users_report_unless_marked_internal():
    failing = "26.1.0 前默认挂载 hccl_rootinfo.json，UB 场景训练拉起失败"
    assert _stage(issue(1, failing, closed=t(18), issue_type="任务")) == "pool"
    assert _stage(issue(2, "适配 CANN 8.3 的新接口", closed=t(18), issue_type="任务")) == "internal"
    assert _stage(issue(3, failing, closed=t(18), issue_type="任务", labels=["内部测试"])) == "internal"
    assert _stage(issue(4, "【转测】分布式优化器用例失败", closed=t(18), issue_type="任务")) == "internal"
    assert _stage(issue(5, "内部测试：投机推理偶现失败", closed=t(18), issue_type="Task")) == "internal"
    assert _stage(issue(6, failing, closed=t(18), issue_type="内部任务")) == "internal"   # not the generic type
