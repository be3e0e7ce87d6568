"""A close whose own words decline the work or sweep old tickets is a close as not planned (issue #23)."""

from dataclasses import replace

import pytest
from hypothesis import given, strategies as st

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.rules.funnel.declined import closing_decline

from test_link_builders import SINCE, comment, issue, pull, t

CLOSE = t(18, 12)


@pytest.mark.parametrize("words", [
    "感谢反馈！910b NPU 支持目前不在主线规划上，团队没有设备。此 issue 先行关闭，有条件推进时欢迎 reopen。",
    "暂无适配计划，先关闭。", "NPU support is not planned for now, closing.", "We have no plans to support Windows.",
    "This is not on our roadmap; closing.", "Won't fix: the old API is going away.", "That is out of scope for this project.",
    "Old PRs and issues are being closed because they are no longer relevant. Please reopen if needed.",
    "Closing this due to inactivity.", "长期未更新的 issue 统一关闭。", "不予修复，该接口已废弃。",
    "It's not likely to happen. But we're open to community contributions.", "We don't plan to support RK3588.",
    "信息有限，没法提供帮助.", "Not enough information to investigate; closing.", "Closing due to lack of information.",
    "信息不足，无法定位问题，先关闭。", "Closing as there is insufficient information.",
    "Closing this issue as we don't have enough information to reproduce.", "由于缺少必要信息，无法复现，先关闭",
    "信息太少了，我们这边没法帮你定位",
    "Closing due to insufficient information. Please provide a minimal reproducer and we will reopen.",
    "Closing: insufficient information to determine the root cause. Feel free to reopen.",
    "Closing for lack of info, see https://example.org/faq?lang=en",
    "由于信息不足，无法定位问题，先关闭。", "因信息不足无法复现，关闭此 issue",
    "Won't fix. Please use GitHub Discussions for usage questions.", "不予支持，如有疑问可以用邮件联系我们。",
    "Closing due to lack of information. Please update to the latest release and reopen if it persists.",
    "This feature is unlikely to be supported.", "Support for Python 3.7 is unlikely to be added.",
    # off the tracker's purpose (accel-threads7, vllm-ascend #13541)
    "Thank you for sharing your test results; however, please note that this is NOT an nice way to participate in the "
    "community. Issues are intended fortrack bug reports, new features and ideas, but NOT for posting \"homework\".",
    "This is not the right place for usage questions; I am closing this.",
    "Issue是用来记录问题、新特性、新想法的，而不是承载“课后作业”的地方。这个问题我先关闭了。",
    "这里不是发布测试报告的地方，先关闭。",
])
def test_the_closers_decline_or_sweep_is_found(words):
    assert closing_decline("alice", "maint", CLOSE, [comment(1, words, author="maint", at=t(18, 11, 55))])


@pytest.mark.parametrize("words", [
    "暂不支持 bf16，可以先用 fp16 绕过，性能差距不大。",          # a capability's boundary, with a way round: an answer
    "The cache key ignores the device id; set CACHE_DIR per device.",
    "已在 !812 修复，升级到 2.1 即可。",
    "Please try the 8.3 driver, the planned release fixes this.",
    "With the larger buffer the OOM is not likely to happen again.",
    "The docs are missing information on this flag; the fix is to pass --device.",   # a gap named, with the way out
    # requests for the material, and a lack of information that is the bug's subject or is over
    "There's not enough information to reproduce. Could you share your script and CANN version?",
    "Missing info to debug: please post the full log.", "日志信息有限，无法判断，请提供plog",
    "lack of information in the log when closing the socket is a known gap; use DEBUG=1",
    "我们之前信息不足，无法定位，现在已经定位到是驱动版本问题，升级到 24.1 即可。",
    "原来的报错信息不足，无法定位问题，新版本已经增加了详细日志，升级即可。",
    "The error message had insufficient information; this PR adds the device id. Closing.",
    "This is unlikely to happen in practice, since the allocator retries; closing.",
    "It's not likely to happen in normal usage.",
    "We don't plan to support Python 3.7 anymore; please upgrade to 3.9, which fixes this.",
    # words about the thing, not the tracker's purpose
    "This issue is only seen for bf16 inputs; upgrading to CANN 8.0.RC2 fixes it.",
    "The issue is only formatting: run black and the CI passes.",
    "`.bashrc` is not the right place to set ASCEND_RT_VISIBLE_DEVICES; export it before `import torch_npu`.",
    "issues are used for tracking; this one is fixed by #12",
    "该 issue 用于跟踪 910B 的精度问题，而不是性能问题：精度问题已在 CANN 8.0 修复，请升级。",
])
def test_an_answer_is_no_decline(words):
    assert not closing_decline("alice", "maint", CLOSE, [comment(1, words, author="maint", at=t(18, 11, 55))])


def test_too_little_information_counts_only_as_the_closers_last_word():
    asked = comment(1, "Not enough information to investigate.", author="maint", at=t(18, 9))
    answered = comment(2, "It is the driver: upgrade to 24.1, the ring buffer size changed.", author="maint", at=t(18, 11))
    assert not closing_decline("alice", "maint", CLOSE, [asked, answered])
    assert closing_decline("alice", "maint", CLOSE, [answered, replace(asked, created_at=t(18, 11, 30))])
    # a bare "/close" after the words is the act of closing, not a later word
    bare = comment(3, "/close", author="maint", at=t(18, 11, 59))
    assert closing_decline("alice", "maint", CLOSE, [answered, replace(asked, created_at=t(18, 11, 30)), bare])


def test_only_the_closers_own_words_at_the_close_count():
    said = "not planned, closing"
    assert not closing_decline("alice", "maint", CLOSE, [comment(1, said, author="bob", at=t(18, 11))])      # someone else
    assert not closing_decline("alice", "alice", CLOSE, [comment(1, said, author="alice", at=t(18, 11))])    # the reporter
    assert not closing_decline("alice", "stale-bot", CLOSE, [comment(1, said, author="stale-bot", at=t(18, 11))])
    assert not closing_decline("alice", "maint", CLOSE, [comment(1, said, author="maint", at=t(15))])      # days before
    assert closing_decline("alice", "maint", CLOSE, [comment(1, said, author="maint", at=t(18, 11))])


@given(st.text(max_size=300))
def test_never_raises(text):
    assert isinstance(closing_decline("alice", "maint", CLOSE, [comment(1, text, at=t(18, 11))]), str)


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


def test_the_linker_closes_a_declined_ticket_as_unresolved_unless_a_fix_landed():
    decline = "NPU support is not on our roadmap, closing. PRs welcome."
    corpus = Corpus(issues=[issue(1, "support 910B", closed=CLOSE, closed_by="maint"),
                            issue(2, "crash on 910B", closed=CLOSE, closed_by="maint")],
                    comments=[comment(1, decline, at=t(18, 11, 58)),
                              comment(2, decline + " Fixed by !7 anyway.", at=t(18, 11, 58))],
                    pulls=[pull(7, "fix crash on 910B", body="Fixes #2", merged=t(18, 11, 59))])
    cases = _cases(corpus)
    assert cases[1].funnel == "unresolved" and not cases[1].fix
    assert "closer's words" in cases[1].timing_note and "not on our roadmap" in cases[1].timing_note   # explain shows why
    assert cases[2].funnel != "unresolved" and [f.number for f in cases[2].fix] == [7]


@pytest.mark.parametrize("words", ["Duplicate of #2512", "duplicate with https://github.com/o/r/issues/2512",
                                   "与 #2512 重复，关闭", "重复：#2512", "dup of o/r#7"])
def test_a_duplicate_named_by_the_closer_is_found(words):
    assert closing_decline("alice", "maint", CLOSE, [comment(1, words, author="maint", at=t(18, 11, 55))])


@pytest.mark.parametrize("words", ["the duplicate buffer object is freed twice, see #527",
                                   "重复调用 init 会报错，已在 #12 修复", "<!-- Duplicate of #12 -->thanks"])
def test_the_word_duplicate_about_the_bug_is_no_duplicate_close(words):
    assert not closing_decline("alice", "maint", CLOSE, [comment(1, words, author="maint", at=t(18, 11, 55))])
