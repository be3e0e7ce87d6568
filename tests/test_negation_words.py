"""One list of negations (rules.words.NEGATION) for the rules that ask whether a word is denied, and the
shorter one stale_reason reads across a word (NEGATION_ACROSS_A_WORD), with why it is shorter."""

from __future__ import annotations

import re

from fixlore.analyse.keep import _clear_of_over
from fixlore.rules.funnel.bookkeeping import _tells_what_went_wrong
from fixlore.rules.funnel.stale_reason import says_solved
from fixlore.rules.words import NEGATION, NEGATION_ACROSS_A_WORD, NEGATIONS_ACROSS_A_WORD, NEGATIONS_EN, NEGATIONS_ZH


def test_the_shorter_list_is_part_of_the_whole_and_english_ones_are_whole_words():
    assert set(NEGATIONS_ACROSS_A_WORD) < set(NEGATIONS_EN) | set(NEGATIONS_ZH)
    whole = re.compile(rf"(?:{NEGATION})$", re.IGNORECASE)
    assert whole.search("it is not") and whole.search("it didn't") and whole.search("问题不再")
    assert not whole.search("a knot") and not whole.search("piano") and not whole.search("Arduino")
    assert re.search(rf"(?:{NEGATION})\s+fails", "it no  longer fails")
    assert not re.search(rf"(?:{NEGATION_ACROSS_A_WORD})$", "不再")


def test_each_rule_reads_the_whole_list():
    # bookkeeping's failure words, denied by a negation only analyse.keep had listed before (无)
    assert not _tells_what_went_wrong("W8A8 校准无 NaN，精度一致", 0)
    assert _tells_what_went_wrong("W8A8 校准出现 NaN", 0)
    # keep's failure words said to be over, by a negation only bookkeeping had listed before (without)
    assert "error" not in _clear_of_over("ran without errors").lower()
    assert "报错" not in _clear_of_over("之后未再报错") and "报错" in _clear_of_over("之后还是报错")


def test_solved_after_a_failure_said_over_is_solved_and_not_yet_solved_is_not():
    # the whole list would read 不再 across 报错 to the solved (ascend-2026-09, memfabric_hybrid#479)
    assert says_solved("去掉后推理不再报错，已解决，关闭。")
    assert not says_solved("还是没解决") and not says_solved("无法解决了") and not says_solved("not yet solved")
    assert says_solved("Thanks, solved.")


def test_a_question_asked_by_a_negation_repeated_is_not_a_failure_said_over():
    """The one list gave analyse.keep 不会 and kept 没有: "会不会报错" / "有没有报错" (will it / does it fail?, the
    A-not-A question, often written without a question mark) is asked, not a step that worked; "不会报错了" is."""
    from fixlore.analyse.keep import _reporters_step

    assert _reporters_step("export ASCEND_RT_VISIBLE_DEVICES=0,1 之后不会报错了")
    assert not _reporters_step("export ASCEND_RT_VISIBLE_DEVICES=0,1 之后会不会报错")
    assert not _reporters_step("忘了设置 HCCL_IF_IP，设了以后有没有报错")
