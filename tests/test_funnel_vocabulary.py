"""Class 1 of issue #13: one label, many spellings; the vocabularies are data with both platforms' defaults."""

from hypothesis import given, strategies as st

from fixlore.rules.funnel import FunnelConfig, cheap_funnel
from fixlore.rules.funnel.vocabulary import fold, terms

from test_link_builders import SINCE, issue, t


def _stage(one, **cfg):
    return cheap_funnel([one], SINCE, FunnelConfig(**cfg) if cfg else None)[one.key]


def test_spellings_of_one_label_fold_to_one_term():
    assert len({fold(x) for x in ("not-planned", "not_planned", "Not Planned", "NOT PLANNED", "notplanned")}) == 1
    assert len({fold(x) for x in ("wontfix", "wont-fix", "won't fix", "Won’t Fix", "WONT_FIX")}) == 1
    assert fold("wontfix") != fold("fix") and fold("不予解决") == "不予解决"


def test_resolution_labels_match_in_any_spelling():
    for n, label in enumerate(("not-planned", "not_planned", "Not Planned", "wont-fix", "won't fix", "Won't-Fix",
                               "Duplicate", "IN-VALID"), start=1):
        assert _stage(issue(n, closed=t(18), labels=[label])) == "unresolved", label
    assert _stage(issue(20, closed=t(18), labels=["fixed"])) == "pool"


def test_workflow_states_and_issue_types_fold_too():
    assert _stage(issue(1, closed=t(18), workflow_state="Not_Planned")) == "unresolved"
    assert _stage(issue(2, closed=t(18), workflow_state="won’t fix")) == "unresolved"
    assert _stage(issue(3, closed=t(18), workflow_state="Completed")) == "pool"
    assert _stage(issue(4, closed=t(18), issue_type="Code-Review")) == "internal"
    assert _stage(issue(5, closed=t(18), labels=["Internal_Test"])) == "internal"
    assert _stage(issue(6, "crash", closed=t(18), labels=["Security-Advisory"])) == "cve"
    assert _stage(issue(7, "crash", closed=t(18), labels=["Security: low"])) == "cve"


def test_vocabularies_carry_both_platforms_defaults():
    unresolved = {fold(x) for x in terms("unresolved_labels")}
    # Defaults GitHub and GitCode create with every repository that mean "not resolved".
    assert {"duplicate", "invalid", "wontfix"} <= unresolved
    # Their defaults that keep an issue in the funnel are absent.
    assert not {"bug", "question", "enhancement", "documentation", "helpwanted"} & unresolved
    states = {fold(x) for x in terms("unresolved_states")}
    assert {"notplanned", "rejected"} <= states          # GitHub state_reason, GitCode issue_stage
    assert len(terms("unresolved_labels")) == len(unresolved)   # one entry per folded term


def test_a_run_setting_is_folded_the_same_way():
    cfg = {"unresolved_labels": ["Needs-Info"]}
    assert _stage(issue(1, closed=t(18), labels=["needs info"]), **cfg) == "unresolved"
    assert _stage(issue(2, closed=t(18), labels=["wontfix"]), **cfg) == "pool"


@given(st.sampled_from(["not planned", "wontfix", "duplicate", "invalid"]),
       st.lists(st.sampled_from([" ", "-", "_", "'", "’"]), max_size=3), st.booleans())
def test_separators_and_case_never_change_the_verdict(term, seps, upper):
    spelled = term
    for sep in seps:
        spelled = spelled[:1] + sep + spelled[1:]
    spelled = spelled.upper() if upper else spelled
    assert _stage(issue(1, closed=t(18), labels=[spelled])) == "unresolved"


def test_close_reasons_and_labels_in_other_spellings_and_languages_are_unresolved():
    """Issue #23: GraphQL's NOT_PLANNED, a reason written out, and other trackers' verdict labels."""
    for n, reason in enumerate(("NOT_PLANNED", "not planned", "Won't Fix", "Duplicate", "invalid", "不修复"), start=1):
        assert _stage(issue(n, closed=t(18), state_reason=reason)) == "unresolved", reason
    for n, label in enumerate(("not a bug", "Works-as-intended", "cannot reproduce", "不修复", "非问题", "无法复现",
                               "重复问题"), start=10):
        assert _stage(issue(n, closed=t(18), labels=[label])) == "unresolved", label
    assert _stage(issue(30, closed=t(18), state_reason="completed")) == "pool"
    assert _stage(issue(31, closed=t(18), labels=["bug", "fixed in main"])) == "pool"


def test_the_labels_of_a_retired_versions_sweep_close_an_issue_unresolved():
    for n, label in enumerate(["deprecated", "Obsolete", "end-of-life", "已废弃", "不再维护"], 1):
        assert _stage(issue(n, closed=t(18), labels=[label])) == "unresolved", label
    # a label about deprecation warnings is a topic, not a verdict
    assert _stage(issue(9, closed=t(18), labels=["deprecation"])) != "unresolved"


def test_a_scoped_label_is_read_by_its_value():
    from fixlore.rules.funnel.vocabulary import label_keys
    for n, label in enumerate(("resolution: duplicate", "Status: Won't Fix", "triage/not-reproducible",
                               "resolution::duplicate"), start=1):
        assert _stage(issue(n, closed=t(18), labels=[label])) == "unresolved", label
    assert FunnelConfig().stale_label(["type:bug", "status:stale"]) == "status:stale"
    assert FunnelConfig().stale_label(["lifecycle/stale"]) == "lifecycle/stale"
    assert FunnelConfig().stale_label(["status:awaiting user response", "stalled-build"]) == ""
    assert _stage(issue(9, closed=t(18), labels=["status: fixed"])) == "pool"
    # a topic scope is no verdict: "area/docs", "component: task", "docs/outdated", "cache/stale"
    for n, label in enumerate(("docs/outdated", "api/deprecated", "component: task", "area: tracking"), start=10):
        assert _stage(issue(n, closed=t(18), labels=[label])) == "pool", label
    assert FunnelConfig().stale_label(["cache/stale", "exempt/stale"]) == ""
    for scoped in ("status/needs-info/stale", "issue-status: stale", "Closed-Reason: Stale", "stat:stale"):
        assert FunnelConfig().stale_label([scoped]) == scoped, scoped
    assert label_keys("bug") == {"bug"} and label_keys("") == frozenset()


@given(st.text(max_size=40))
def test_label_keys_always_hold_the_whole_name(label):
    from fixlore.rules.funnel.vocabulary import label_keys
    assert not fold(label) or fold(label) in label_keys(label)
