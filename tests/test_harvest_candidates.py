"""Which PRs deserve a detail fetch: pure selection from data already in hand."""

from datetime import datetime, timezone

from fixlore.core import model as m
from fixlore.harvest.candidates import select_candidates

T = datetime(2026, 9, 18, tzinfo=timezone.utc)


def pull(number, title="change", body="", head_ref="", base_ref="master", sha="", repo="o/r"):
    return m.Pull(repo, number, title, body, "merged", T, T, T, None, head_ref=head_ref, base_ref=base_ref,
                  merge_commit_sha=sha)


def issue(number, repo="o/r"):
    return m.Issue(repo, number, "bug", "", "closed", T, T, T)


def test_every_signal_makes_a_candidate():
    pool = [issue(5), issue(6), issue(7), issue(8)]
    pulls = [pull(10, body="Fixes #5"), pull(11, head_ref="bugfix/issue6"), pull(12, sha="abc123"),
             pull(13), pull(14, body="unrelated refactor"), pull(15, body="see https://gitcode.com/o/r/issues/99")]
    links = [m.Link("o/r", 7, "o/r", 13, "issue_pulls")]
    events = [m.Event("o/r", "issue", 8, "e1", m.EV_CLOSED, "bot", T, detail={"commit_id": "abc123"}),
              m.Event("o/r", "issue", 6, "e2", m.EV_LINKED, "dev", T, detail={"pull": 20, "pull_repo": "o/fork"})]
    comments = [m.Comment("o/r", "issue", 7, "c1", "dev", "fixed in !16 and other/x#3", T),
                m.Comment("o/r", "issue", 99, "c2", "dev", "see !17", T)]
    got = select_candidates(pool, pulls, links, events, comments).reasons
    assert got == {("o/r", 10): {"mentions_issue"}, ("o/r", 11): {"mentions_issue"}, ("o/r", 12): {"commit"},
                   ("o/r", 13): {"linked"}, ("o/fork", 20): {"event"}, ("o/r", 16): {"comment"},
                   ("other/x", 3): {"comment"}}


def test_ambiguous_hash_in_a_comment_needs_a_known_pr():
    pool = [issue(5)]
    comments = [m.Comment("o/r", "issue", 5, "c1", "dev", "dup of #4, fixed by #30", T)]
    got = select_candidates(pool, [pull(30)], [], [], comments).reasons
    assert set(got) == {("o/r", 30)}


def test_backport_twins_and_citing_prs_follow_a_candidate():
    pool = [issue(5)]
    pulls = [pull(10, "[Bugfix] fix the quant overflow", "Fixes #5"),
             pull(11, "[26.2.0] fix the quant overflow", base_ref="26.2.0"),
             pull(12, "cherry-pick", "cherry-pick of !10", base_ref="26.1.0"),
             pull(13, "[Bugfix] fix the quant overflow", base_ref="master"),
             pull(14, "unrelated")]
    got = select_candidates(pool, pulls, [], [], []).reasons
    assert got == {("o/r", 10): {"mentions_issue"}, ("o/r", 11): {"backport_twin"},
                   ("o/r", 12): {"cites_candidate"}}
