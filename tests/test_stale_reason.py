"""A stale process's "not planned" close is unresolved only when the thread settled nothing."""

from hypothesis import given, strategies as st

from fixlore.core.model import REASON_NOT_PLANNED, Corpus
from fixlore.link import build_cases
from fixlore.rules.funnel import FunnelConfig, cheap_funnel
from fixlore.rules.funnel.stale_reason import says_solved, settled, stale_default_close

from test_link_builders import SINCE, comment, issue, t

STALE = ("stale",)


def _closed(n: int, labels=("Stale",), reason=REASON_NOT_PLANNED, **kw):
    return issue(n, closed=t(18), labels=list(labels), state_reason=reason, author="alice", **kw)


def test_only_a_stale_labelled_not_planned_close_is_the_process_default():
    assert stale_default_close(_closed(1), STALE)
    assert stale_default_close(_closed(2, reason="NOT_PLANNED"), STALE)
    assert not stale_default_close(_closed(3, labels=()), STALE)              # a person's "not planned"
    assert not stale_default_close(_closed(4, reason="completed"), STALE)


def test_cheap_funnel_leaves_the_stale_default_to_the_linker_but_not_other_marks():
    stages = cheap_funnel([_closed(1), _closed(2, labels=()), _closed(3, labels=("stale", "wontfix")),
                           _closed(4, reason="duplicate")], SINCE, FunnelConfig())
    assert stages["Ascend/toolkit#1"] == "pool"
    assert stages["Ascend/toolkit#2"] == stages["Ascend/toolkit#3"] == stages["Ascend/toolkit#4"] == "unresolved"


def test_says_solved_reads_negation_and_questions():
    assert says_solved("问题已解决 1. 安装paddlepaddle2.3.2版本")
    assert says_solved("This is resolved now, thanks")
    assert not says_solved("still not solved")
    assert not says_solved("没有解决")
    assert not says_solved("is it solved?")


def test_a_statement_or_a_solved_word_settles_a_question_or_me_too_does_not():
    answer = comment(1, "目前没有专门处理多音字的情况，您可以训练一个简单的 bert 模型来处理多音字", author="maint")
    assert settled("alice", [answer], 12)
    assert settled("alice", [comment(1, "问题已解决，换成2.3版本", author="alice")], 12)
    asking = [comment(1, "have the same bug how to deal with it ?", author="bob"),
              comment(1, "what?????还有人维护吗", author="carol"),
              comment(1, "same problem here on 2.6", author="dan")]
    assert not settled("alice", asking, 12)
    assert not settled("alice", [], 12)
    # a bot's stale notice settles nothing, whatever it says
    assert not settled("alice", [comment(1, "This issue is resolved automatically as stale.", author="github-actions[bot]")], 12)


@given(st.text(max_size=200))
def test_rules_never_raise(text):
    assert says_solved(text) in (True, False)
    assert settled("alice", [comment(1, text, author="bob")], 12) in (True, False)


def test_linker_keeps_an_answered_stale_close_and_drops_an_unanswered_one():
    corpus = Corpus(issues=[_closed(1), _closed(2)],
                    comments=[comment(1, "the cache key ignores the device id; set CACHE_DIR per device", author="maint"),
                              comment(2, "same here, any update?", author="bob")])
    cases, _ = build_cases(corpus, SINCE)
    stage = {c.number: str(c.funnel) for c in cases}
    assert stage[2] == "unresolved"
    assert stage[1] != "unresolved"


def test_a_fix_put_off_to_a_later_update_settles_nothing_until_it_lands():
    """accel-threads7, MNN #3726: a guess and a promise, then the stale process's close."""
    later = "像是内存溢出了，当前 opencl 在 intel gpu 上会优先使用浮点方式推理，后续更新后会更正"
    assert not settled("alice", [comment(1, later, author="maint")], 12)
    assert not settled("alice", [comment(1, "Thanks, this will be fixed in a future release.", author="maint")], 12)
    # where it landed is an answer
    assert settled("alice", [comment(1, "后续更新后会更正：已在 !812 修复，升级到 2.1 即可。", author="maint")], 12)
    assert settled("alice", [comment(1, "The float path overflows on Intel GPUs; set precision=high instead.",
                                     author="maint")], 12)
