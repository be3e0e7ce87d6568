"""No-reply sweeps: a maintainer closing, minutes apart, tickets whose reporters never answered a
request for information (rules.bursts.awaits_reporter, link.closes.close_storms). Built from how
triage processes close such tickets by hand (GitHub Desktop's first responder, eslint, ember.js),
not from any world's data."""

from __future__ import annotations

from fixlore.core.model import Corpus
from fixlore.link import LinkConfig, build_cases
from fixlore.link.closes import Close, close_storms
from fixlore.rules.answers import ASKS_REPORTER
from fixlore.rules.bursts import awaits_reporter

from test_link_builders import SINCE, comment, issue, t

DAY = 86400


def test_asks_of_the_reporter_in_both_languages():
    for text in ("这个用法不对。请补充完整日志和 yaml 以便复现。", "麻烦提供一下 CANN 版本", "能否上传报错截图？",
                 "Thanks. Could you please share the full traceback?", "Please provide the versions you run.",
                 "This needs more info before we can look at it."):
        assert ASKS_REPORTER.search(text), text
    for text in ("文档已在 !3022 改正，按 GBS/DP 配即可。", "这是预期行为，flash attention 没有 2048 的上限。",
                 "We provide a flag for that: --seq-len.", "已提供修复，见 PR 12"):
        assert not ASKS_REPORTER.search(text), text


def test_a_request_left_unanswered_for_a_day_waits_on_the_reporter():
    ask = comment(1, "请提供完整日志。", author="maint", at=t(15))
    assert awaits_reporter("alice", [ask], t(20), DAY)
    # the reporter answered: the thread no longer waits on them
    assert not awaits_reporter("alice", [ask, comment(1, "日志如下 …", author="Alice", at=t(16))], t(20), DAY)
    # asked an hour before the close: no time was given to answer
    assert not awaits_reporter("alice", [comment(1, "请提供完整日志。", at=t(20, 9))], t(20), DAY)
    # someone else's later reply (an answer, a fix) is why it closed, not the silence
    assert not awaits_reporter("alice", [ask, comment(1, "已在 !12 修复，升级即可。", author="dev", at=t(17))], t(20), DAY)
    # a bare closing note or a stale notice at the close changes nothing
    notes = [ask, comment(1, "关闭", at=t(20)), comment(1, "No activity for 5 days, closing.", author="stale-bot", at=t(20))]
    assert awaits_reporter("alice", notes, t(20), DAY)
    # an answer with no request never waits, nor does an unknown opener
    assert not awaits_reporter("alice", [comment(1, "这是预期行为。", at=t(15))], t(20), DAY)
    assert not awaits_reporter("", [ask], t(20), DAY)


def test_two_unanswered_requests_closed_minutes_apart_are_a_sweep():
    cfg = LinkConfig()
    pair = [Close("o/r#1", "maint", t(20, 9, 41), False, "alice", True),
            Close("o/r#2", "maint", t(20, 9, 45), False, "bob", True)]
    notes = close_storms(pair, cfg)
    assert set(notes) == {"o/r#1", "o/r#2"} and "waiting on their reporters" in notes["o/r#1"]
    # one of the two was closed for another reason: two closes are no storm
    assert close_storms([pair[0], Close("o/r#2", "maint", t(20, 9, 45), False, "bob", False)], cfg) == {}
    # one reporter's two tickets, another closer, or further apart than a storm's window
    assert close_storms([pair[0], Close("o/r#2", "maint", t(20, 9, 45), False, "alice", True)], cfg) == {}
    assert close_storms([pair[0], Close("o/r#2", "other", t(20, 9, 45), False, "bob", True)], cfg) == {}
    assert close_storms([pair[0], Close("o/r#2", "maint", t(20, 10, 30), False, "bob", True)], cfg) == {}


def test_sweep_of_unanswered_requests_marks_both_cases():
    def corpus(reply: bool) -> Corpus:
        comments = [comment(1, "请补充复现脚本和日志。", at=t(15)), comment(2, "Could you share the config you ran?", at=t(16))]
        if reply:
            comments.append(comment(2, "config attached", author="bob", at=t(18)))
        return Corpus(issues=[issue(1, "训练到 3000 步 hang 住", closed=t(20, 9, 41), closed_by="maint", author="alice"),
                              issue(2, "loss is nan after resume", closed=t(20, 9, 45), closed_by="maint", author="bob")],
                      comments=comments)

    cases = {c.number: c for c in build_cases(corpus(False), SINCE)[0]}
    assert cases[1].traps == ["close_storm"] and cases[2].traps == ["close_storm"]
    cases = {c.number: c for c in build_cases(corpus(True), SINCE)[0]}
    assert cases[1].traps == [] and cases[2].traps == []
