import random

from fixlore.rules.funnel.rank import top_k, top_keys, value_score


from case_builders import value_inputs as _v


# distinct lines: a line said again adds nothing to a report (rules.funnel.rank.said_once)
RICH = "".join(f"steps to reproduce: run train.sh on {n} cards\nTraceback (most recent call last): RuntimeError: rank {n}\n"
               f"version CANN 8.0.RC{n}, torch 2.1.0, driver 24.1\n" for n in (2, 4, 8))


def test_values_stay_in_range():
    for kw in ({}, dict(body=RICH, answer_chars=500, fix_merged=True, fix_strong=True, close_explained=True,
                        human_comments=9)):
        assert 0.0 <= value_score(_v(**kw)) <= 1.0


def test_explained_fix_beats_one_line_typo_fix():
    typo = value_score(_v(title="typo in README", body="teh -> the", fix_merged=True, fix_strong=True,
                          close_explained=True))
    real = value_score(_v(body=RICH, fix_merged=True, fix_strong=True, close_explained=True))
    assert real > typo + 0.2


def test_maintainer_explanation_counts_and_canned_reply_does_not():
    explained = value_score(_v(body=RICH, answer_chars=200, human_comments=2, answered=True))
    canned = value_score(_v(body=RICH, answer_chars=0, human_comments=1))
    assert explained > canned + 0.3


def test_bare_question_and_thanks_close_are_penalised():
    plain = value_score(_v(title="csv export is missing", body="only html now", answer_chars=30, human_comments=2,
                           answered=True))
    question = value_score(_v(title="how to export csv?", body="only html now", answer_chars=30, human_comments=2,
                              answered=True))
    assert question < plain
    thanks = value_score(_v(body=RICH, human_comments=1, reporter_last="好了，谢谢"))
    assert thanks < value_score(_v(body=RICH, human_comments=1))


def test_reporters_own_root_cause_counts():
    assert value_score(_v(body=RICH, self_explained_chars=200)) > value_score(_v(body=RICH))


def test_top_k_is_deterministic_with_ties():
    items = [("o/r#2", 0.5, 1, 10.0), ("o/r#1", 0.5, 1, 10.0), ("o/r#3", 0.9, 0, 1.0), ("o/r#4", 0.5, 3, 0.0)]
    top, rest = top_k(items, 2)
    assert top == ["o/r#3", "o/r#4"] and rest == ["o/r#1", "o/r#2"]


def test_one_line_answer_accepted_with_thanks_is_thin():
    # a short answer the reporter acknowledges teaches less than the same answer without the thanks-close
    thin = value_score(_v(body="put of a 600MB object returns -22", answer_chars=30, human_comments=1,
                          reporter_last="感谢", answered=True))
    open_ended = value_score(_v(body="put of a 600MB object returns -22", answer_chars=30, human_comments=1,
                                answered=True))
    assert thin < open_ended - 0.1
    # a long explanation is not thin, whatever the reporter says after it
    long_answer = dict(body="put of a 600MB object returns -22", answer_chars=120, human_comments=1, answered=True)
    assert value_score(_v(**long_answer, reporter_last="thanks")) == value_score(_v(**long_answer))


def test_documented_failure_with_discussion_outranks_silent_ticket():
    discussed = value_score(_v(body=RICH, human_comments=3))
    silent = value_score(_v(body=RICH, human_comments=0))
    assert discussed > silent + 0.2
    # without logs or code the report is not a documented failure
    prose = "it sometimes hangs after a while on many cards, no idea why, please look " * 3
    assert value_score(_v(body=prose, human_comments=3)) < discussed - 0.15


def test_acknowledgements_are_recognised():
    from fixlore.rules.funnel.rank import is_acknowledgement
    for text in ("感谢", "好的", "👍", "ok", "Thanks!", "可以了", ""):
        assert is_acknowledgement(text), text
    for text in ("一周无反馈，关闭。", "请固定 seed 后再跑两次对比", "ok, but the second run still fails with OOM"):
        assert not is_acknowledgement(text), text


def test_top_keys_is_the_head_of_top_k_ties_included():
    rng = random.Random(5)
    items = [(f"o/r#{i}", rng.choice((0.2, 0.5, 0.5, 0.9)), rng.randint(0, 2), float(rng.randint(0, 3)))
             for i in range(400)]
    for k in (-3, 0, 1, 7, 63, 399, 400, 1000):
        assert top_keys(items, k) == top_k(items, k)[0]
