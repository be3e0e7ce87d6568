from datetime import datetime, timedelta, timezone

from fixlore.core import model as m
from fixlore.sources import github as gh
from fixlore.sources import gitcode as gc

CST = timezone(timedelta(hours=8))


def test_gitcode_issue_quirks():
    raw = {"id": 4120001, "number": "57", "state": "closed", "title": "t", "body": None,
           "user": {"login": "alice"}, "labels": [{"name": "bug"}],
           "created_at": "2026-06-20T09:12:03+08:00", "updated_at": "2026-06-26T18:40:11+08:00",
           "finished_at": "2026-06-26T18:40:10.166+08:00", "issue_state": "DONE", "issue_type": None,
           "issue_type_detail": {"title": "Bug-Report"}, "comments": "3"}
    issue = gc.normalize_issue(raw, "o/r")
    assert issue.number == 57 and issue.body == "" and issue.comments_count == 3
    assert issue.closed_at == datetime(2026, 6, 26, 18, 40, 10, 166000, tzinfo=CST)
    assert issue.state_reason == m.REASON_COMPLETED and issue.issue_type == "Bug-Report"
    open_issue = gc.normalize_issue({**raw, "state": "opened", "finished_at": "", "issue_state": "TODO"}, "o/r")
    assert open_issue.state == "open" and open_issue.closed_at is None and open_issue.state_reason == ""
    missing = gc.normalize_issue({"number": 3, "state": "closed", "closed_at": "2026-06-26T10:00:00Z"}, "o/r")
    assert missing.closed_at == datetime(2026, 6, 26, 10, tzinfo=timezone.utc) and missing.created_at is None


def test_gitcode_close_reasons():
    for state, reason in (("已拒绝", m.REASON_REJECTED), ("重复", m.REASON_DUPLICATE),
                          ("暂不修复", m.REASON_NOT_PLANNED), ("已完成", m.REASON_COMPLETED)):
        assert gc.normalize_issue({"number": "1", "state": "closed", "issue_state": state}, "o/r").state_reason == reason
    dup = gc.normalize_issue({"number": "1", "state": "closed", "labels": [{"name": "duplicate"}]}, "o/r")
    assert dup.state_reason == m.REASON_DUPLICATE


def test_gitcode_pull_merge_rule():
    merged = gc.normalize_pull({"number": 612, "state": "merged", "merged_at": "2026-06-26T18:40:09+08:00",
                                "closed_at": "", "merged": None, "head": {"ref": "fix", "repo": {"full_name": "bob/r"}},
                                "base": {"ref": "master"}, "description": "Fixes #57"}, "o/r")
    assert merged.merged and merged.body == "Fixes #57" and merged.closed_at is None
    assert merged.head_repo == "bob/r" and merged.base_ref == "master"
    no_time = gc.normalize_pull({"number": 1, "state": "merged", "merged_at": ""}, "o/r")
    assert not no_time.merged
    # Repos that mark auto-merged MRs closed: closed with merged_at set counts as merged, and says which way.
    closed = gc.normalize_pull({"number": 2, "state": "closed", "merged_at": "2026-06-26T18:40:09+08:00"}, "o/r")
    assert closed.merged and closed.merge_variant == m.MERGED_CLOSED and merged.merge_variant == m.MERGED_STATE
    unmerged = gc.normalize_pull({"number": 3, "state": "closed", "merged_at": ""}, "o/r")
    assert not unmerged.merged and unmerged.merge_variant == ""


def test_gitcode_comment_target_typo():
    c = gc.normalize_comment({"id": 9, "body": "x", "user": {"login": "u"}, "created_at": "",
                              "target": {"issue": {"nubmer": "57"}}}, "o/r", "issue")
    assert c.parent_number == 57 and c.id == "9" and c.created_at is None


def test_gitcode_operate_logs():
    def ev(**kw):
        return gc.normalize_issue_log({"id": 1, "user": {"login": "bot"}, "created_at": "2026-09-18T13:39:56+08:00",
                                       **kw}, "o/r", 5)

    for kind in ("closed", "close", "issue_closed"):
        event, _ = ev(action_type=kind, content="")
        assert event.action == m.EV_CLOSED and event.actor == "bot"
    assert ev(action_type="change_state", content="将状态修改为 已关闭")[0].action == m.EV_CLOSED
    assert ev(action_type="state", content="reopened the issue")[0].action == m.EV_REOPENED
    assert ev(action_type="reopened", content="")[0].action == m.EV_REOPENED
    event, link = ev(action_type="add_issue_mr_link", content="Create issue mr links: **fix** #613",
                     base={"ref": "master", "repo": {"full_name": "o/other"}})
    assert event.action == m.EV_LINKED and event.detail["pull"] == 613
    assert (link.pull_repo, link.pull_number, link.source) == ("o/other", 613, "operate_log")
    pev, plink = gc.normalize_pull_log({"id": 2, "action_type": "add_mr_issue_link",
                                        "content": "Create mr issue link: **bug** #57"}, "o/r", 613)
    assert pev.action == m.EV_LINKED and (plink.issue_number, plink.pull_number) == (57, 613)


def test_gitcode_issue_pull_and_pull_issue_items():
    pull, link = gc.normalize_issue_pull({"id": 1, "number": 613, "state": "closed", "closed_at": "2026-01-01T00:00:00+08:00",
                                          "base": {"ref": "master", "repo": {"full_name": "o/r"}}}, "o/r", 57)
    assert pull.merged_at is None and not pull.merged and link.source == "issue_pulls"
    link = gc.normalize_pull_issue({"number": "339", "issue_created_at": "x", "repository": {"full_name": "o/r"}}, "o/r", 5)
    assert (link.issue_number, link.source) == (339, "pull_issues")
    f = gc.normalize_file({"filename": "a.py", "additions": "3", "deletions": "1", "patch": {"diff": "@@"}}, "o/r", 5)
    assert (f.additions, f.deletions, f.patch) == (3, 1, "@@")


def test_github_normalisers():
    issue = gh.normalize_issue({"number": 7, "state": "closed", "state_reason": "not_planned",
                                "closed_at": "2026-09-18T01:02:03Z", "closed_by": {"login": "m"}}, "o/r")
    assert issue.state_reason == m.REASON_NOT_PLANNED and issue.closed_by == "m"
    assert gh.is_pull_item({"number": 8, "pull_request": {}})
    pull = gh.normalize_pull({"number": 8, "state": "closed", "merged_at": "2026-09-18T01:02:03Z"}, "o/r")
    assert pull.state == "merged" and pull.merged
    unmerged = gh.normalize_pull({"number": 9, "state": "closed", "merged_at": None}, "o/r")
    assert unmerged.state == "closed" and not unmerged.merged
    closed, _ = gh.normalize_timeline_item({"id": 1, "event": "closed", "commit_id": "abc", "actor": {"login": "x"},
                                            "created_at": "2026-09-18T01:02:03Z"}, "o/r", 7)
    assert closed.action == m.EV_CLOSED and closed.detail["commit_id"] == "abc"
    xref, link = gh.normalize_timeline_item({"event": "cross-referenced", "created_at": "2026-09-18T01:00:00Z",
                                             "source": {"issue": {"number": 8, "pull_request": {},
                                                                  "repository": {"full_name": "o/fork"}}}}, "o/r", 7)
    assert xref.action == m.EV_CROSS_REF and (link.pull_repo, link.pull_number) == ("o/fork", 8)
    plain, no_link = gh.normalize_timeline_item({"event": "cross-referenced",
                                                 "source": {"issue": {"number": 3}}}, "o/r", 7)
    assert no_link is None and plain.detail["issue"] == 3


def test_offline_loader_reads_a_world(make_world):
    from fixlore.sources.offline import load_world

    world = make_world(repos=3, closed_in_window=12, other_updated=4, old_issues=5)
    corpus = load_world(world)
    assert len(corpus.repos) == 3 and len(corpus.issues) == 21
    assert all(isinstance(i.number, int) for i in corpus.issues)
    assert {lk.source for lk in corpus.links} <= {"issue_pulls", "pull_issues", "operate_log"}
    gh_world = make_world("gh", platform="github", repos=2, closed_in_window=8, other_updated=2, old_issues=2)
    gh_corpus = load_world(gh_world)
    assert gh_corpus.platform == "github" and len(gh_corpus.issues) == 12


def test_gitcode_close_recognised_by_every_signal():
    from fixlore.core.timeutil import parse_time

    closed_at = parse_time("2026-09-18T13:39:56+08:00")

    def ev(kind, content, when="2026-09-18T13:39:56+08:00"):
        return gc.normalize_issue_log({"id": 1, "user": {"login": "u"}, "created_at": when, "action_type": kind,
                                       "content": content}, "o/r", 5, closed_at)[0]

    assert ev("closed", "").action == m.EV_CLOSED and "close_signal" not in ev("closed", "").detail   # by name
    assert ev("issue_close", "关闭了 Issue").detail["close_signal"] == "text"                         # by its text
    assert ev("update_state", "将任务状态修改为 已关闭").action == m.EV_CLOSED                          # state change
    by_time = ev("state_change", "")                                                                   # by finished_at
    assert by_time.action == m.EV_CLOSED and by_time.detail["close_signal"] == "finished_at"
    assert ev("state_change", "", when="2026-09-18T10:00:00+08:00").action == m.EV_OTHER             # not at the close
    assert ev("label", "添加了标签 bug").action == m.EV_LABELED                                         # known: never a close
    assert ev("milestone", "").action == m.EV_OTHER


def test_unknown_action_types_are_counted_by_the_source():
    from fixlore.sources.gitcode import GitCodeSource

    src = GitCodeSource(client=None)
    src._note_actions([{"action_type": "closed"}, {"action_type": "issue_close"}, {"action_type": "issue_close"},
                       {"action": "Weird_Thing"}, "not a dict"])
    assert dict(src.unknown_actions) == {"issue_close": 2, "weird_thing": 1}


def test_a_null_pull_request_key_is_an_issue_not_a_pull():
    # GitHub marks a PR in the issue list by the pull_request key (docs.github.com/en/rest/issues/issues
    # "list repository issues"); servers speaking its API (Gitea, Forgejo) send "pull_request": null on
    # every plain issue, which must not drop the issue from the list nor make a cross-reference a PR link
    assert not gh.is_pull_item({"number": 3, "pull_request": None})
    assert gh.is_pull_item({"number": 8, "pull_request": {"merged_at": None}})
    xref, link = gh.normalize_timeline_item({"event": "cross-referenced", "created_at": "2026-09-18T01:00:00Z",
                                             "source": {"issue": {"number": 3, "pull_request": None}}}, "o/r", 7)
    assert link is None and xref.detail["issue"] == 3
