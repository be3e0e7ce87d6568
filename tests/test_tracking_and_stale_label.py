"""Tracking tickets (a task list of issues) are internal; a stale process's label marks its close."""

from datetime import datetime, timedelta, timezone

from hypothesis import given, strategies as st

from fixlore.rules.funnel import FunnelConfig
from fixlore.rules.funnel.cheap import is_internal
from fixlore.rules.funnel.planned import is_tracking_ticket
from fixlore.link.closes import stale_note
from fixlore.link.config import LinkConfig
from fixlore.link.stale_label import stale_label
from fixlore.core.model import Issue

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def _issue(body: str = "", labels=(), title: str = "Upgrade the cache plugin", closed: bool = True, **kw) -> Issue:
    return Issue(repo="acme/plug", number=7, title=title, body=body, state="closed" if closed else "open",
                 author="mei", created_at=T0, updated_at=T0 + timedelta(days=40),
                 closed_at=T0 + timedelta(days=40) if closed else None, labels=list(labels), **kw)


def test_a_task_list_of_issue_references_is_a_plan():
    assert is_tracking_ticket("## Goals\nmove to v2\n## Tasks\n- [ ] #35\n- [x] acme/core#12\n")
    assert is_tracking_ticket("* [ ] https://github.com/acme/plug/issues/40")


def test_a_report_template_checklist_is_not_a_plan():
    body = "### Checklist\n- [x] I searched existing issues #35 included\n- [ ] The bug persists\nsteps: see #12"
    assert not is_tracking_ticket(body)
    assert not is_tracking_ticket("")


@given(st.text())
def test_tracking_test_never_raises(body):
    assert is_tracking_ticket(body) in (True, False)


def test_a_tracking_ticket_without_type_is_internal_but_a_typed_bug_is_not():
    cfg = FunnelConfig()
    assert is_internal(_issue("- [ ] #35"), cfg)
    assert not is_internal(_issue("crash on start, see #35"), cfg)
    assert not is_internal(_issue("- [ ] #35", issue_type="Bug"), cfg)


def test_stale_labels_are_compared_folded():
    cfg = FunnelConfig()
    assert stale_label(_issue(labels=["bug", "Closed-As-Stale"]), cfg) == "Closed-As-Stale"
    assert stale_label(_issue(labels=["lifecycle/stale"]), cfg) == "lifecycle/stale"
    assert stale_label(_issue(labels=["bug", "staleness-check"]), cfg) == ""


def test_a_labelled_close_without_detail_is_a_stale_close():
    # The list payload only: no closer, no comments (the harvester did not fetch them).
    note = stale_note(_issue(labels=["inactive"]), "", [], None, LinkConfig())
    assert "inactive" in note


def test_a_labelled_issue_closed_by_its_fix_merge_is_not_stale():
    cfg = LinkConfig()
    assert stale_note(_issue(labels=["stale"]), "", [], 1, cfg) == ""
    assert stale_note(_issue(labels=["bug"]), "", [], None, cfg) == ""


# ---- a PR naming an issue beside the fix it credits to another PR (link.credited)

from fixlore.link.credited import credited_fixes  # noqa: E402

MERGED = {("acme/plug", 51), ("acme/plug", 52)}


def _credits(text: str, issue: int = 40, own=("acme/plug", 60)):
    return [k for k, _ in credited_fixes(text, "acme/plug", issue, own, lambda k: k in MERGED)]


def test_a_related_mention_beside_credited_fixes_gives_those_fixes():
    text = "Bump the GPU base image.\nRelated to #40. The merged ARM (#51) and x86 (#52) fixes leave this file alone."
    assert _credits(text) == [("acme/plug", 51), ("acme/plug", 52)]


def test_no_credit_when_the_pr_ties_the_issue_to_a_fix_itself():
    assert _credits("Fixes #40. Builds on the fix in #51.") == []
    assert _credits("This fixes the crash of #40 seen after #51 fixed the loader.") == []


def test_no_credit_for_unmerged_or_unnamed_or_background_prs():
    assert _credits("Related to #40. The fix in #53 is still open.") == []          # #53 not merged
    assert _credits("The merged fix #51 covers it.") == []                           # issue not named
    assert _credits("Related to #40. Similar fix in #51 for GPUs.") == []            # background cue
    assert _credits("Related to #40. This PR fixes the docs; see #60.", own=("acme/plug", 60)) == []


@given(st.text(max_size=300))
def test_credit_reading_never_raises(text):
    assert isinstance(credited_fixes(text, "acme/plug", 40, ("acme/plug", 60), lambda k: True), list)


def test_a_table_of_issue_references_is_a_plan_a_single_reference_row_is_not():
    plan = ("| 序号 | issue | 说明 | 认领人/状态/PR号 |\n| ---- | ----- | ---- | ---- |\n"
            "| 1 | #3777 | readme问题 | @dev (状态-提交PR) [#3778](https://x/pull/3778) |\n"
            "| 2 | #3376 | 文档落后于代码 | @dev (状态-报名) |\n"
            "| 3 | [#3697](https://github.com/a/b/issues/3697) | KeyError | @zx (状态-完成任务) |\n")
    assert is_tracking_ticket(plan)
    report = ("| item | value |\n|---|---|\n| version | 2.6.1 |\n| related | #3376 |\n| os | Ubuntu 22.04 |\n"
              "see #12 and #13 and #14 in a sentence")
    assert not is_tracking_ticket(report)
