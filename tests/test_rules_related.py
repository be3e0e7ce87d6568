"""A PR that names an issue only as related work, beside a PR that claims it (rules.related)."""

import pytest

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.rules.refs import find_refs, related_only, settle_background
from fixlore.rules.related import related_work

from test_link_builders import SINCE, comment, event, issue, pull, t


def _case(*pulls, closed=t(25), comments=()):
    others = [p.number for p in pulls if "Related" in (p.body or "") or "refs" in (p.body or "")]
    corpus = Corpus(issues=[issue(65, "add softcap to the v2/v3 backward pass", closed=closed)], pulls=list(pulls),
                    events=[event(65, "cross_referenced", at=t(3), source_number=n) for n in others], comments=list(comments))
    cases, _ = build_cases(corpus, SINCE)
    return next(c for c in cases if c.number == 65)


_RELATED = pull(156, "softcap bwd for 910B v4", body="## Related Issue\n\nRelated to #65", merged=t(20))


def test_related_to_beside_a_claimed_fix_is_related_work():
    """flash-attention-npu #65 (accel-threads, read): #73 claims it, #156 'Related to #65' extends it."""
    c = _case(pull(73, "softcap bwd for v2/v3", body="Fixes #65", merged=t(10)), _RELATED)
    assert [f.number for f in c.fix] == [73]
    row = next(r for r in c.candidates if r["number"] == 156)
    assert row["verdict"] == "set_aside" and "related work" in row["set_aside"]


def test_related_to_alone_is_still_the_fix():
    """github-mini #100 (read): "Related: #100" on the only PR is how it names the issue it fixes."""
    c = _case(_RELATED)
    assert [f.number for f in c.fix] == [156]


def test_a_related_pr_whose_merge_the_close_follows_stays_the_fix():
    c = _case(pull(73, "softcap bwd for v2/v3", body="Fixes #65", merged=t(10)),
              pull(156, "softcap bwd for 910B v4", body="Related to #65", merged=t(25)), closed=t(25, 10, 0, 5))
    assert sorted(f.number for f in c.fix) == [73, 156]


def test_an_unmerged_claim_does_not_set_a_related_pr_aside():
    c = _case(pull(73, "softcap bwd for v2/v3", body="Fixes #65"), _RELATED)
    assert [f.number for f in c.fix] == [156]


@pytest.mark.parametrize("text, cue", [("Related to #65", "related to"), ("refs #65", "refs"), ("see also #65", "see also"),
                                       ("Fixes #65", ""), ("follow-up to #12 for #65", ""),
                                       ("Refs https://github.com/o/r/issues/65", "")])
def test_related_only_reads_a_soft_cue_on_a_short_reference(text, cue):
    ref = [r for r in settle_background(find_refs(text, "o/r", "github")) if r.number == 65][0]
    assert related_only(ref) == cue


def test_related_work_needs_a_cue_and_a_claimant_and_no_timing():
    assert related_work("related to", {"mention", "cross_ref"}, ["#73"])
    assert not related_work("", {"mention", "cross_ref"}, ["#73"])
    assert not related_work("related to", {"mention", "cross_ref"}, [])
    assert not related_work("related to", {"mention", "timing"}, ["#73"])


def test_a_claim_merged_after_the_close_does_not_set_aside_a_related_pr_merged_before_it():
    """The issue was closed after #156 merged and before #73 did: #73's later claim does not make
    #156 related work, nor the case one closed before its fix merged."""
    c = _case(pull(156, "softcap bwd for 910B v4", body="Related to #65", merged=t(10), author="ann"),
              pull(73, "softcap bwd for v2/v3", body="Fixes #65", merged=t(26), author="ben"), closed=t(20))
    assert [f.number for f in c.fix] == [156] and "closed_before_merge" not in c.traps


@pytest.mark.parametrize("said", ["Fixed by #156, thanks!", "v2 is fixed in #73 and v3 is fixed in #156.", "问题已由 PR #156 修复"])
def test_a_related_pr_the_thread_credits_with_the_fix_stays_the_fix(said):
    """The thread's own word that the PR fixed the issue outweighs the PR's modest 'Related to'."""
    c = _case(pull(73, "softcap bwd for v2/v3", body="Fixes #65", merged=t(10), author="ann"),
              pull(156, "softcap bwd for 910B v4", body="Related to #65", merged=t(12), author="ben"),
              comments=[comment(65, said, at=t(20))])
    assert sorted(f.number for f in c.fix) == [73, 156]


@pytest.mark.parametrize("said", ["Fixed by #73, not #156.", "#156 merged too, thanks", "Is this fixed by #156?"])
def test_a_comment_that_does_not_credit_the_related_pr_leaves_it_set_aside(said):
    c = _case(pull(73, "softcap bwd for v2/v3", body="Fixes #65", merged=t(10), author="ann"),
              pull(156, "softcap bwd for 910B v4", body="Related to #65", merged=t(12), author="ben"),
              comments=[comment(65, said, at=t(20))])
    assert [f.number for f in c.fix] == [73]


def test_a_claim_on_a_release_branch_does_not_set_aside_the_related_change_on_the_default_branch():
    """'[release-2.1] … Fixes #65' lands the change on its branch: the main PR is the change, the
    release PR its backport."""
    c = _case(pull(156, "Add softcap to the v2/v3 backward pass", body="Related to #65", merged=t(10), author="ann"),
              pull(160, "[release-2.1] softcap for v2/v3 bwd", body="Fixes #65", merged=t(12), author="ben",
                   base_ref="release-2.1"))
    assert [(f.number, f.role) for f in c.fix] == [(156, "fix"), (160, "backport")]
