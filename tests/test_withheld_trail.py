"""A clause that withholds credit ("is this fixed by #12?", "not fixed by #12") is no evidence,
and `fixlore explain` shows it in the candidate's trail with its reason."""

from rich.console import Console

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.link.explain import render_case
from fixlore.link.strength import made_by

from test_link_builders import SINCE, comment, event, issue, pull, t


def _case(*comments, extra_pulls=(), events=()):
    corpus = Corpus(issues=[issue(10, closed=t(18, 12))],
                    pulls=[pull(12, "refactor the loader", merged=t(18, 9))] + list(extra_pulls),
                    comments=list(comments), events=list(events))
    cases, _ = build_cases(corpus, SINCE)
    return next(c for c in cases if c.number == 10)


def _row(case, number):
    return next(c for c in case.candidates if c["number"] == number)


def test_an_asked_comment_plus_a_mention_is_not_medium_evidence():
    # before: the question was a `comment` signal, and with a cross reference two medium signals made it a fix
    case = _case(comment(10, "is this fixed by !12?", author="carol", at=t(17)),
                 events=[event(10, "cross_referenced", at=t(17), source_number=12)])
    row = _row(case, 12)
    assert all(s["kind"] != "comment" for s in row["signals"])
    asked = [s for s in row["signals"] if s["kind"] == "withheld"]
    assert asked and asked[0]["withheld"] == "asked"
    assert made_by(row)[0] != "medium" and not any(f.number == 12 for f in case.fix)


def test_an_asked_comment_alone_is_withheld_not_weak_and_explain_says_why():
    case = _case(comment(10, "是否由 !12 修复了吗", author="carol", at=t(17)))
    row = _row(case, 12)
    assert made_by(row) == ("withheld", "asked")
    assert not any(f.number == 12 for f in case.fix)
    console = Console(record=True, width=200, color_system=None)
    console.print(render_case(case))
    text = console.export_text()
    assert "asked: credit withheld" in text and "withheld: asked" in text


def test_a_citing_comment_still_counts():
    case = _case(comment(10, "已在 !12 修复", author="maint", at=t(17)))
    assert made_by(_row(case, 12))[0] == "cited"
