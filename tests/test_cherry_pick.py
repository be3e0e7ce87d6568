"""Cherry-picks and backports: a release-branch PR that copies a change names its origin, and the
origin is the issue's fix, the copy a landing (rules.cherry_pick, link.backport.find_origin)."""

from fixlore.core.model import Commit, Corpus
from fixlore.link import LinkConfig, build_cases
from fixlore.rules.cherry_pick import marked, origin_numbers, picked_shas

from test_link_builders import REPO, SINCE, issue, pull, t


def _fix(corpus):
    cases, _ = build_cases(corpus, SINCE, LinkConfig())
    c = {c.number: c for c in cases}[1]
    return sorted((f.number, f.role) for f in c.fix), c


def test_cherry_pick_wordings():
    assert picked_shas("msg\n\n(cherry picked from commit 1D378AFEA33C)\n") == ["1d378afea33c"]
    assert picked_shas("cherry picked from 1d378afea33c") == []
    assert origin_numbers("Backport #12 to release/2.8", "This is an automated cherry-pick of #34") == [12, 34]
    assert origin_numbers("[cherry-pick] Solve X (#13348)", "") == [13348]
    assert origin_numbers("Solve X (#13348)", "") == []          # an unmarked title's number is its own
    assert origin_numbers("fix", "回合 !56，cherry-pick of PR #57") == [56, 57]
    assert origin_numbers("fix", "see #5; cherry-pick is not needed") == []
    assert marked("[cherry-pick] a") and marked("Backport: a") and not marked("pick the backend")


def _origin_and_copy(copy_title="[cherry-pick] align the routing table with token slices", copy_body="Close #1",
                     commits=(), origin_title="align the routing table with token slices", **origin_kw):
    issues = [issue(1, "routing table misaligned on release", closed=t(20, 12))]
    pulls = [pull(10, origin_title, merged=t(5), merge_commit_sha="aaaaaaa1111111", **origin_kw),
             pull(20, copy_title, body=copy_body, merged=t(20, 11), base_ref="release/2.8")]
    return Corpus(issues=issues, pulls=pulls, commits=list(commits))


def test_a_marked_copy_of_one_earlier_title_lands_that_fix():
    got, case = _fix(_origin_and_copy())
    assert got == [(10, "fix"), (20, "backport")]
    assert {e.kind for e in case.evidence} >= {"keyword", "backport"}


def test_the_git_trailer_and_a_named_number_find_the_origin_whatever_the_titles():
    trailer = Commit(REPO, 20, "bbbbbbb", "fix it\n\n(cherry picked from commit aaaaaaa1111111)")
    assert _fix(_origin_and_copy("fix routing on 2.8", commits=[trailer], origin_title="a change"))[0] == [
        (10, "fix"), (20, "backport")]
    assert _fix(_origin_and_copy("fix routing on 2.8", copy_body="Backport of #10. Close #1",
                                 origin_title="another change"))[0] == [(10, "fix"), (20, "backport")]


def test_no_origin_without_a_marker_or_with_two_candidates():
    # the same title, not marked as a copy: the release PR stays the fix
    assert _fix(_origin_and_copy(copy_title="align the routing table with token slices"))[0] == [(20, "fix")]
    # two earlier PRs with that title: the title does not say which one is copied
    corpus = _origin_and_copy()
    corpus.pulls.append(pull(11, "align the routing table with token slices", merged=t(6)))
    assert _fix(corpus)[0] == [(20, "fix")]
    # a terse title says nothing about one change
    assert _fix(_origin_and_copy("[cherry-pick] fix bug", origin_title="fix bug"))[0] == [(20, "fix")]
