"""Issue #23, one change in several landings: the fix, its backport, one PR closing two issues, and a
follow-up PR that lists the fix as done (role `follow_up`: in the trail, never in the fix set); and
time: a fix merged after the close stays named whatever the thread calls a workaround."""

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.link.strength import made_by

from test_link_builders import SINCE, comment, issue, pull, t


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


def _rows(case):
    return {r["number"]: r for r in case.to_export()["candidates"]}


def test_fix_backport_follow_up_and_one_pr_for_two_issues():
    c = _cases(Corpus(
        issues=[issue(100, "handle leak", closed=t(18, 10, 0, 5)), issue(103, "leak on reload", closed=t(18, 10, 0, 5))],
        pulls=[pull(101, "fix handle leak in loader", body="Fixes #100, fixes #103", merged=t(18)),
               pull(104, "[v1.0] fix handle leak in loader", body="backport of #101", merged=t(19),
                    base_ref="release/1.0"),
               pull(105, "drop the flag", body="Follow-up of #101 (done there). Related #100", merged=t(21)),
               pull(106, "后续清理", body="!101 的后续，相关 #100", merged=t(22))]))
    for n in (100, 103):
        assert [(f.number, f.role) for f in c[n].fix] == [(101, "fix"), (104, "backport")]
        assert "one_pr_many_issues" in c[n].traps
    rows = _rows(c[100])
    assert rows[105]["verdict"] == rows[106]["verdict"] == "follow_up"
    assert made_by(rows[105]) == ("follow-up", "follow_up")
    assert 105 not in {p.number for p in c[100].pending_fix}


def test_a_follow_up_of_a_pr_that_is_not_the_fix_stays_weak():
    c = _cases(Corpus(issues=[issue(100, "handle leak", closed=t(18, 10, 0, 5))],
                      pulls=[pull(101, "fix handle leak", body="Fixes #100", merged=t(18)),
                             pull(105, "drop the flag", body="Follow-up of #77. Related #100", merged=t(21))]))
    assert _rows(c[100])[105]["verdict"] == "weak"


def test_a_fix_merged_after_a_workaround_close_stays_named_as_the_fix():
    """DESIGN: never back-filled into `fix`, but named: after_close, pending_fix, closed_before_merge."""
    c = _cases(Corpus(issues=[issue(100, "handle leak", closed=t(18))],
                      pulls=[pull(101, "fix leak", body="Fixes #100", merged=t(20))],
                      comments=[comment(100, "Workaround for now: set FOO=1. The proper fix is in !101, will merge soon",
                                        at=t(18))]))[100]
    assert [p.number for p in c.pending_fix] == [101] and c.timing == "before_merge"
    assert "closed_before_merge" in c.traps and _rows(c)[101]["verdict"] == "after_close"
