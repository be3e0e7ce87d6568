"""Class 5 of issue #13: traps are flagged at every funnel stage inside the window, not only in the pool."""

import pytest

from fixlore.link import build_cases
from fixlore.core.model import REASON_NOT_PLANNED, Corpus

from test_link_builders import SINCE, comment, issue, link, pull, t

STALE = "This issue has had no activity for 14 days and will be closed."


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


@pytest.mark.parametrize("stage, shape", [
    ("unresolved", dict(state_reason=REASON_NOT_PLANNED)),
    ("internal", dict(issue_type="Task")),
    ("cve", dict(title="CVE-2026-0001 in vendored zlib")),
    ("empty_title", dict(title="？？")),
    ("selected", dict()),
])
def test_a_stale_bot_close_is_flagged_whatever_the_stage(stage, shape):
    shape = {"title": "hang at step 3000", **shape}
    corpus = Corpus(issues=[issue(5, shape.pop("title"), closed=t(20), created=t(1), closed_by="stale[bot]", **shape)],
                    comments=[comment(5, STALE, author="stale[bot]", at=t(17))])
    c = _cases(corpus)[5]
    assert c.funnel == stage and c.traps == ["stale_close"] and "stale[bot]" in c.trap_notes["stale_close"]


def test_stale_close_of_a_flood_member_is_flagged_too():
    flood = [issue(10 + i, f"[sync] 算子 op{i} 精度用例补充验证 第{i}批", closed=t(20), author="sync-robot",
                   closed_by="stale[bot]") for i in range(6)]
    corpus = Corpus(issues=flood, comments=[comment(10 + i, STALE, author="stale[bot]", at=t(17)) for i in range(6)])
    cases = _cases(corpus)
    assert {c.funnel for c in cases.values()} == {"noise"}
    assert all("stale_close" in c.traps for c in cases.values())   # (and a close storm: six closes at once)


def test_one_pr_many_issues_spans_funnel_stages():
    corpus = Corpus(issues=[issue(31, "stream cut after 60 s", closed=t(18, 10, 0, 30)),
                            issue(32, "内部：网关心跳整改", closed=t(18, 10, 0, 30), issue_type="任务"),
                            issue(33, "duplicate of 31", closed=t(18, 10, 0, 30), state_reason="duplicate")],
                    pulls=[pull(57, "SSE heartbeat", body="Fixes #31, #32 and #33", merged=t(18))])
    c = _cases(corpus)
    assert (c[31].funnel, c[32].funnel, c[33].funnel) == ("selected", "internal", "unresolved")
    for n in (31, 32, 33):
        assert "one_pr_many_issues" in c[n].traps, n
    assert "#32" in c[31].trap_notes["one_pr_many_issues"] and "#33" in c[31].trap_notes["one_pr_many_issues"]


def test_an_issue_closed_before_the_window_shares_no_fix():
    corpus = Corpus(issues=[issue(31, "stream cut", closed=t(18, 10, 0, 30)),
                            issue(30, "older report", closed=t(10), updated=t(18))],
                    pulls=[pull(57, "SSE heartbeat", body="Fixes #30 and #31", merged=t(18))])
    c = _cases(corpus)
    assert c[30].funnel == "window" and c[30].fix == [] and "one_pr_many_issues" not in c[31].traps


def test_an_unlanded_pr_is_a_trap_only_where_the_close_claims_a_fix():
    def case(**shape):
        corpus = Corpus(issues=[issue(11650, "rerank scores wrong on NPU", closed=t(20), **shape)],
                        pulls=[pull(14268, "fix npu score [issue #11650]", state="open")])
        return _cases(corpus)[11650]
    resolved = case()
    assert resolved.traps == ["fix_not_landed"]
    not_planned = case(state_reason=REASON_NOT_PLANNED)
    assert not_planned.funnel == "unresolved" and not_planned.traps == []
    assert [p.number for p in not_planned.pending_fix] == [14268]    # still on the record


def test_attempts_closed_unmerged_before_the_close_are_no_unlanded_fix():
    def case(pr_closed):
        corpus = Corpus(issues=[issue(11650, "rerank scores wrong on NPU", closed=t(20))],
                        pulls=[pull(14268, "fix npu score [issue #11650]", state="closed", closed=pr_closed)])
        return _cases(corpus)[11650]
    declined = case(t(19))                      # a maintainer closed the attempt, then the issue
    assert declined.traps == [] and [p.number for p in declined.pending_fix] == [14268]
    assert case(t(21)).traps == ["fix_not_landed"]    # still open when the issue closed
