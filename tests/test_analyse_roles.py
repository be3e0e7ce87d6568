"""What a sentence does for a reader (analyse/roles.py): the rules the offline analyst picks by."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixlore.rules.answers import is_me_too

from fixlore.analyse.roles import (facts_kept, is_log_line, is_scope, is_workaround, says_something, states_cause,
                                   states_change, states_reason)


def test_a_change_is_told_by_what_now_differs():
    assert states_change("etcd 瞬时读超时不再触发自我降级")
    assert states_change("The NPU runner no longer drops the payload")
    assert not states_change("抢锁(30s)和健康检查共用 backendMutex_ 互相阻塞")


def test_an_explicit_cause_and_a_reason_without_cause_words():
    assert states_cause("Root cause: the vllm in the CI image no longer matches vllm-omni")
    assert states_reason("ascend-docker-runtime 出于安全考虑默认以只读方式挂载")
    assert states_reason("The problem comes from the Ascend Docker image itself")
    assert not states_cause("升级到 26.2.0 即可") and not states_reason("升级到 26.2.0 即可")


def test_advice_counts_only_from_people_who_answer():
    advice = "修改请在宿主机上改文件再同步进容器"
    assert is_workaround(advice, "maintainer") and is_workaround(advice, "pull_comment")
    assert not is_workaround(advice, "body") and not is_workaround(advice, "reporter")
    assert is_workaround("Add `import vllm_ascend.vllm_ascend_C` before the call; you should upgrade", "maintainer")


def test_scope_is_a_version_with_a_bound_or_who_is_affected():
    assert is_scope("UB 网卡设备需要 MindCluster ≥ 26.2.0 且 CANN ≥ 9.2.0")
    assert is_scope("affects all gated MoE models")
    assert not is_scope("环境：CANN 8.5.0")      # a version with no bound is the environment


def test_bookkeeping_says_nothing_a_row_should_repeat():
    assert not says_something("修复已合入，今晚 nightly 观察")
    assert not says_something("master 与 26.2.0 均已合入，关闭")
    assert not says_something("Fixed by #81, merged, closing.")
    assert not says_something("After personal discussion, it has been solved.")
    assert says_something("rewrite 前 stable_topo_sort + graph.lint()")
    assert says_something("单文件挂载受 inode 限制，改完容器里看不到")


def test_logs_commands_and_template_fields_are_not_statements():
    assert is_log_line("(VllmWorker rank=1) [MY_DEBUG] device_index = 1")
    assert is_log_line("vllm serve Qwen/Qwen3-Omni --omni --port 8091")
    assert is_log_line("vLLM Version: v0.27.0")
    assert not is_log_line("qwen3-vl-30B：0.33%，1.1×bf16")      # a measured table row is data to keep
    assert not is_log_line("Root cause: Worker failed with error 'MultiModalConfig' has no attribute")


def test_a_cut_keeps_its_facts_or_is_not_kept():
    whole = "需要 MindCluster ≥ 26.2.0；且 CANN ≥ 9.2.0"
    assert facts_kept(whole, whole)
    assert not facts_kept(whole, "需要 MindCluster ≥ 26.2.0")


def test_a_labelled_change_line_states_the_change():
    from fixlore.analyse.roles import states_change
    assert states_change("修改：matcher 跳过 bookkeeping 边，同时识别两代 copy")
    assert states_change("Fix: skip bookkeeping edges in the matcher")
    assert not states_change("matcher 把 bookkeeping 用户当成数据路径用户")
    assert not states_change("修改前的日志如下")


def test_one_more_reporter_and_a_request_to_the_reporter_say_nothing_a_row_should_state():
    # another person with the problem, whatever versions come with it
    for text in ("version(v0.18.0)   same issue", "Same problem here!", "+1", "I have the same issue on v2.1.0",
                 "我也遇到了同样的问题", "同问", "遇到了相同的报错"):
        assert not says_something(text), text
    # a request for what the report lacks
    for text in ("We notice that you only recorded the issue without providing detailed reproduction steps",
                 "请提供 hang 住时各 rank 的 py-spy dump 和 plog", "Could you please share the full log",
                 "麻烦补充一下完整日志"):
        assert not says_something(text), text
    # advice in the imperative and statements of a cause are no requests, whatever words they share
    for text in ("Please verify that HCCL_BUFFSIZE is at least 200", "请确认 CANN 版本 ≥ 8.0.RC2，否则会报错",
                 "根因是缺少版本校验，旧 CANN 下调用了新接口", "缺少环境变量 ASCEND_HOME_PATH 导致 so 加载失败",
                 "It now works without sharing code between ranks", "Please post-process the output first"):
        assert says_something(text), text
    # a sentence that says more than "me too" stays
    assert says_something("Same error on 910B; setting HCCL_BUFFSIZE=400 fixed it")
    assert says_something("Same root cause as #12: the cache key ignores `dtype`")


@given(st.sampled_from(["same issue", "me too", "+1", "我也遇到了同样的问题"]),
       st.lists(st.sampled_from(["v0.18.0", "version 2.1.3", "(8.0.RC1)", "，", "!", " "]), max_size=3))
def test_me_too_stays_me_too_whatever_versions_surround_it(core, noise):
    assert is_me_too(" ".join([*noise[:1], core, *noise[1:]]))


@given(st.sampled_from(["same issue", "同问"]), st.sampled_from(["setting X=1 fixes it", "根因是 tiling 未对齐"]))
def test_me_too_with_an_answer_is_not_me_too(core, more):
    assert not is_me_too(f"{core}; {more}")


def test_a_me_too_or_a_request_naming_another_ticket_still_withholds():
    from fixlore.analyse.roles import withholds

    for text in ("我也遇到了，见 #77", "+1 #77", "请提供完整日志，采集方法见 #498", "Please share the full log, as in #12"):
        assert withholds(text), text
    assert not withholds("See #77 for the root cause: the cache key ignores dtype")


@pytest.mark.parametrize("talk", ["I've addressed both comments: added the @triton.jit decorator to _fallback_erfc",
                                  "I've addressed both comments: added the decorator, and fixed the code style",
                                  "Merged the latest changes — this is ready again now", "rebased onto main",
                                  "PTAL", "已按检视意见修改", "Addressed all review comments."])
def test_talk_of_a_prs_review_round_says_nothing_a_row_keeps(talk):
    from fixlore.analyse.roles import says_something
    assert not says_something(talk)


@pytest.mark.parametrize("fact", ["A3 双机自验证：put/get 256MB 对象 1000 次通过",
                                  "The fix merged the latest upstream tokenizer into the cache",
                                  "addressed the race in the allocator by taking the lock first"])
def test_a_prs_comment_that_states_a_fact_still_says_something(fact):
    from fixlore.analyse.roles import says_something
    assert says_something(fact)


@pytest.mark.parametrize("reply, kept", [
    ("Could you provide more details?\n1. Which model?\n2. How was it exported?\n4. Full terminal output or logs",
     ["Could you provide more details?"]),
    ("The cause is the int32 mask.\n1. Upgrade to 2.1\n2. Set FOO=1", ["The cause is the int32 mask.", "Upgrade to 2.1", "Set FOO=1"])])
def test_the_items_of_a_list_a_question_opens_are_part_of_the_question(reply, kept):
    from fixlore.analyse.roles import told
    assert told(reply) == kept


@pytest.mark.parametrize("reply, kept", [
    ("Could you try the following workaround?\n1. export HCCL_CONNECT_TIMEOUT=1800\n2. upgrade CANN to 8.0.RC3",
     ["Could you try the following workaround?", "export HCCL_CONNECT_TIMEOUT=1800", "upgrade CANN to 8.0.RC3"]),
    ("可以试试下面的方法吗？\n1. export HCCL_CONNECT_TIMEOUT=1800\n2. 升级 CANN 到 8.0.RC3",
     ["可以试试下面的方法吗？", "export HCCL_CONNECT_TIMEOUT=1800", "升级 CANN 到 8.0.RC3"])])
def test_the_steps_of_a_list_a_question_offers_to_try_are_kept(reply, kept):
    """'Could you try the following?' offers steps, it asks for nothing: its items are the workaround."""
    from fixlore.analyse.roles import told
    assert told(reply) == kept


@pytest.mark.parametrize("reply", ["Fixed by #12. Can you confirm?", "已由 #12 修复。可以确认一下吗？",
                                   "Is this fixed? Yes, by #12."])
def test_a_reply_naming_its_fix_before_a_question_is_not_questions_only(reply):
    """The filing sentence ('Fixed by #12.') is no sentence a row keeps (rules.refs.files_only), yet the
    reply says where the fix is: it is not made only of questions."""
    from fixlore.rules.answers import questions_only
    assert not questions_only(reply)
    assert questions_only("Is this the same as #12? Could you confirm?")


@pytest.mark.parametrize("fact", ["Merged the latest upstream fix for the tokenizer into our fork, which resolves the OOM",
                                  "rebased onto main, which already contains the HCCL timeout fix",
                                  "合并最新主线后 HCCL 超时问题消失", "已合并最新 CANN 8.0.RC3 后问题解决"])
def test_review_round_words_that_go_on_to_a_fix_or_cause_still_say_something(fact):
    from fixlore.analyse.roles import review_round, says_something
    assert not review_round(fact) and says_something(fact)
    assert review_round("Merged the latest changes — this is ready again now")
