"""Class 2 of issue #13: a bot's template flood typed as an internal task is still a flood (noise)."""

from fixlore.rules.funnel import FunnelConfig, cheap_funnel

from test_link_builders import SINCE, issue, t


def _flood(typed: str | None, author: str = "sync-robot", start: int = 100, n: int = 6):
    return [issue(start + i, f"[自动同步] 算子 op{i} 精度用例补充验证 第{i}批", closed=t(18, 9, i), author=author,
                  issue_type=typed) for i in range(n)]


def _stages(issues):
    return cheap_funnel(issues, SINCE, FunnelConfig())


def test_flood_typed_task_is_noise_not_internal():
    for typed in (None, "Bug-Report", "Task", "任务", "内部任务"):
        stages = _stages(_flood(typed))
        assert set(stages.values()) == {"noise"}, typed


def test_partly_typed_flood_stays_one_flood():
    mixed = _flood("Task", n=3) + _flood(None, start=103, n=3)
    assert set(_stages(mixed).values()) == {"noise"}


def test_internal_tickets_that_are_no_flood_stay_internal():
    few = _flood("Task", n=3)                          # below flood_min_size
    assert set(_stages(few).values()) == {"internal"}
    other = [issue(1, "NPU memory leak after 3000 steps", closed=t(18), issue_type="Task", author="maint")]
    assert _stages(other + _flood("Task"))[other[0].key] == "internal"


def test_unresolved_cve_and_empty_titles_are_decided_before_floods():
    flood = _flood(None, n=7)
    flood[0].state_reason = "not_planned"
    flood[1].title = "CVE-2026-1234 在 op1 精度用例补充验证"
    stages = _stages(flood)
    assert stages[flood[0].key] == "unresolved" and stages[flood[1].key] == "cve"
    assert [stages[i.key] for i in flood[2:]] == ["noise"] * 5   # the rest is still a flood


def test_counts_keep_typed_floods_inside_the_resolved_user_side_issues():
    """The seed's arithmetic: floods are inside 'resolved, user-side, not CVE, titled' and leave after."""
    from fixlore.link import build_cases
    from fixlore.core.model import Corpus

    issues = _flood("Task") + [issue(1, "NPU memory leak", closed=t(18)), issue(2, "内部迭代", closed=t(18),
                                                                           issue_type="任务", author="maint")]
    _, counts = build_cases(Corpus(issues=issues), SINCE)
    assert (counts.internal, counts.noise, counts.after_filters, counts.pool) == (1, 6, 7, 1)
