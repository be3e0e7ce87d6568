"""Issue #23, references in every form: what the linker makes of the forms `rules.refs` now reads.

Each PR merges a day before the close, so no timing evidence helps: the text alone decides.
"""

import pytest

from fixlore.core.model import Corpus
from fixlore.link import build_cases

from test_link_builders import SINCE, comment, issue, pull, t


def _case(corpus, number=100):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}[number]


@pytest.mark.parametrize("body", ["Solves #100", "solved #100 by caching the handle", "Resolving #100",
                                  "修正（＃１００）", "修正了 #100", "Fixes （#100）", "修复：＃１００"])
def test_a_closing_word_people_write_makes_the_pr_the_fix(body):
    corpus = Corpus(issues=[issue(100, "handle leak on reload", closed=t(19))],
                    pulls=[pull(101, "cache the handle", body=body, merged=t(18))])
    c = _case(corpus)
    assert [f.number for f in c.fix] == [101]
    assert any(s["kind"] == "keyword" for r in c.to_export()["candidates"] for s in r["signals"])


@pytest.mark.parametrize("body", ["Reported in https://gitcode.com/Ascend/toolkit/issues/100",
                                  "see issue #100 for the log", "as described in https://gitcode.com/Ascend/toolkit/issues/100",
                                  "详见 https://gitcode.com/Ascend/toolkit/issues/100"])
def test_a_pointer_to_the_issue_is_a_mention_not_a_closing_claim(body):
    corpus = Corpus(issues=[issue(100, "handle leak on reload", closed=t(19))],
                    pulls=[pull(101, "tidy the loader", body=body, merged=t(18))])
    c = _case(corpus)
    assert c.fix == []
    row = next(r for r in c.to_export()["candidates"] if r["number"] == 101)
    assert [s["kind"] for s in row["signals"]] == ["mention"] and row["verdict"] == "weak"


def test_the_same_pointer_with_a_second_medium_signal_still_links():
    """A pointer is a medium signal: with a comment citing the PR it is a fix, as two medium kinds are."""
    corpus = Corpus(issues=[issue(100, "handle leak on reload", closed=t(19))],
                    pulls=[pull(101, "tidy the loader", body="see issue #100", merged=t(18))],
                    comments=[comment(100, "改动见 !101", at=t(19))])
    assert [f.number for f in _case(corpus).fix] == [101]


@pytest.mark.parametrize("words", ["Fixed in https://gitcode.com/Ascend/toolkit/merge_requests/101",
                                   "已修复：https://gitcode.com/Ascend/toolkit/merge_requests/101",
                                   "merged https://github.com/Ascend/toolkit/pull/101"])
def test_a_pr_url_pasted_in_the_closing_comment_is_a_claim(words):
    corpus = Corpus(issues=[issue(100, "handle leak on reload", closed=t(19))],
                    pulls=[pull(101, "tidy the loader", merged=t(18))],
                    comments=[comment(100, words, at=t(19))])
    c = _case(corpus)
    assert [f.number for f in c.fix] == [101]
    row = next(r for r in c.to_export()["candidates"] if r["number"] == 101)
    assert any(s["kind"] == "comment" and s.get("claim") for s in row["signals"])
