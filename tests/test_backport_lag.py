"""A case's lag is its change's: from the fix's merge when the close follows a backport by more than
the timing classes that a merge explains; a backport that closes the issue within minutes keeps its own lag."""

from datetime import timedelta

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.link.verdict import change_origin

from test_link_builders import SINCE, issue, pull, t


def _case(closed):
    fix = pull(11, "fix quantization scale on W8A8", body="Fixes #10", merged=t(17, 9))
    port = pull(12, "[cherry-pick] fix quantization scale on W8A8", body="cherry-pick of #11",
                merged=t(18, 9), base_ref="release/26.2.0")
    corpus = Corpus(issues=[issue(10, closed=closed)], pulls=[fix, port])
    cases, _ = build_cases(corpus, SINCE)
    return next(c for c in cases if c.number == 10)


def test_a_close_days_after_the_backport_measures_from_the_fix():
    case = _case(t(20, 9))
    assert {(f.number, f.role) for f in case.fix} == {(11, "fix"), (12, "backport")}
    assert case.timing == "later"
    assert case.lag_s == int((t(20, 9) - t(17, 9)).total_seconds())
    assert "!11" in case.timing_note and "!12" in case.timing_note


def test_a_close_minutes_after_the_backport_keeps_the_backports_lag():
    case = _case(t(18, 9, 10))
    assert case.timing == "minutes" and case.lag_s == 600


def test_change_origin_only_for_a_backport_landing():
    fix = pull(11, merged=t(17, 9))
    port = pull(12, merged=t(18, 9), base_ref="release/1")
    assert change_origin([(fix, "fix"), (port, "backport")], port, t(19)) is fix
    assert change_origin([(fix, "fix")], fix, t(19)) is None
    assert change_origin([(port, "backport")], port, t(19)) is None
    # a "fix" merged after the landing is not what it carries
    late = pull(13, merged=t(18, 12))
    assert change_origin([(late, "fix"), (port, "backport")], port, t(19) + timedelta(days=1)) is None
