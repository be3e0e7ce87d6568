"""Class 4 of issue #13: a PR that names an issue as background is neither its fix nor its pending fix."""

import pytest

from fixlore.link import build_cases
from fixlore.rules.refs import find_refs, settle_background
from fixlore.core.model import Corpus

from test_link_builders import SINCE, issue, link, pull, t


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


@pytest.mark.parametrize("body", ["修复 #647\n\n前序：#631 的 HBM 续传方案", "Fixes #647 (follow-up of #631)",
                                  "Fixes #647. Related: #631", "Closes #647\nSee also #631", "解决 #647，参考 #631",
                                  "Fixes #647, similar to #631", "fixes #647; refs #631", "修复 #647，相关 issue #631",
                                  "Fixes #647\n\n前序：!986（#631 的修复）已合入", "Fixes #647 (follow-up of PR#986 for #631)"])
def test_background_ticket_of_an_open_pr_gets_no_pending_fix(body):
    corpus = Corpus(issues=[issue(631, "KV cache offload loses blocks", closed=t(18)),
                            issue(647, "KV cache offload loses blocks on resume", closed=t(18))],
                    pulls=[pull(1008, "KV cache offload: resume", body=body)],
                    links=[link(631, 1008), link(647, 1008)])
    c = _cases(corpus)
    assert c[631].fix == [] and c[631].pending_fix == [] and "fix_not_landed" not in c[631].traps
    assert [p.number for p in c[647].pending_fix] == [1008] and "fix_not_landed" in c[647].traps
    row = next(r for r in c[631].to_export()["candidates"] if r["number"] == 1008)
    assert row["verdict"] == "unrelated" and "background" in row["unrelated"]


def test_merged_follow_up_linked_to_its_predecessor_is_a_linked_unrelated_trap_saying_why():
    corpus = Corpus(issues=[issue(631, "KV cache offload loses blocks", closed=t(18, 10, 0, 1)),
                            issue(647, "KV cache offload loses blocks on resume", closed=t(18, 10, 0, 1))],
                    pulls=[pull(1008, "KV cache offload: resume", body="修复 #647，前序 #631", merged=t(18))],
                    links=[link(631, 1008), link(647, 1008)])
    c = _cases(corpus)
    assert c[631].fix == [] and c[631].timing == "no_fix"
    assert "linked_unrelated" in c[631].traps and "前序" in c[631].trap_notes["linked_unrelated"]
    assert "#647" in c[631].trap_notes["linked_unrelated"]
    assert [f.number for f in c[647].fix] == [1008] and c[647].timing == "same_second"


def test_soft_cue_alone_still_points_at_the_issue_the_pr_fixes():
    """"Related: #100" with no other target is how many PRs name the one issue they fix."""
    corpus = Corpus(issues=[issue(100, "tooltip flickers on hover", closed=t(18, 10, 0, 1))],
                    pulls=[pull(101, "Debounce the tooltip hover handler", body="Related: #100", merged=t(18))])
    c = _cases(corpus)[100]
    assert [f.number for f in c.fix] == [101]


def test_hard_cue_stays_background_without_another_target():
    refs = settle_background(find_refs("follow-up of #631; also touches #12", "o/r"))
    assert [(r.number, bool(r.background)) for r in refs] == [(631, True), (12, False)]
    soft = settle_background(find_refs("Related: #5, #6", "o/r"))
    assert [r.background for r in soft] == ["", ""]


def test_closing_keyword_wins_over_a_cue():
    refs = find_refs("修复 #631 的后续问题; Fixes #1, #2 and #3", "o/r")
    assert all(r.keyword and not r.background for r in refs)


def test_background_mention_does_not_make_a_deferred_fix():
    """A maintainer pointing at #647 from #631 defers to #647's fixes, never to a PR that only names #631."""
    corpus = Corpus(issues=[issue(631, "offload loses blocks", closed=t(18)), issue(647, "resume bug", closed=t(21))],
                    pulls=[pull(1008, "resume", body="Fixes #700. See also #631", merged=t(20))],
                    links=[link(631, 1008)])
    c = _cases(corpus)[631]
    assert c.pending_fix == [] and "closed_before_merge" not in c.traps


from hypothesis import given, strategies as st

_PIECES = st.sampled_from(["Fixes ", "修复 ", "前序", "related: ", "see also ", "refs ", "参考 ", "#631", "#647",
                           ", ", " and ", "。", "\n", "follow-up of ", "的后续", "issue/12", " ", "Closes #1"])


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_a_reference_is_never_both_a_target_and_background(text):
    refs = find_refs(text, "o/r")
    assert all(not (r.keyword and r.background) for r in refs)
    settled = settle_background(refs)
    assert [(r.number, r.keyword) for r in settled] == [(r.number, r.keyword) for r in refs]
    assert settle_background(settled) == settled


def test_a_cue_word_in_another_clause_is_no_cue():
    refs = find_refs("Fixes #5. 修改相关代码，见 #12", "o/r")
    assert [(r.number, r.background) for r in refs] == [(5, ""), (12, "")]


@pytest.mark.parametrize("text, want", [
    ("This is the v0.26.0rc follow-up to #13079 for #13070.", [(13079, True), (13070, False)]),
    ("Follow-up of PR #12 for issue #13", [(12, True), (13, False)]),
    ("Fixes #647 (follow-up of PR#986 for #631)", [(647, False), (986, True), (631, True)]),
    ("follow-up of #12 (#13)", [(12, True), (13, True)]),
    ("Follow-up to #12 for #13 and #14", [(12, True), (13, False), (14, False)]),
    ("Supersedes #12 for #13.", [(12, True), (13, False)]),
    ("Follow-up to PR 12 for #13", [(12, True), (13, False)]),
    # a change this PR only resembles or needs: what it was for is not what this PR is for
    ("Similar to #12 for #13, this applies the same guard to the fp16 path.", [(12, True), (13, True)]),
    ("Depends on #12 for #13.", [(12, True), (13, True)]),
    ("Follow-up to #12 for #13, #14 and ＃15", [(12, True), (13, False), (14, False), (15, False)]),
])
def test_a_follow_up_names_the_ticket_it_is_for_after_the_change_it_continues(text, want):
    """"follow-up to #13079 for #13070" (accel-threads7 vllm-ascend #13604, read): the ticket after
    "for" is what this PR is for, unless the PR claims another issue with a closing keyword."""
    refs = settle_background(find_refs(text, "o/r", "github"))
    assert [(r.number, bool(r.background)) for r in refs] == want


def test_a_port_of_an_unmerged_fix_for_the_issue_is_its_fix():
    """A release-branch port that continues an open fix PR and names the issue it is for lands the fix."""
    corpus = Corpus(issues=[issue(13070, "reasoning tokens not counted", closed=t(20))],
                    pulls=[pull(13079, "[BugFix][v0.20.2rc] count reasoning tokens", body="Fixes #13070.",
                                base_ref="releases/v0.20.2rc"),
                           pull(13604, "[BugFix][v0.26.0rc] report GLM reasoning token usage",
                                body="This is the v0.26.0rc follow-up to #13079 for #13070.", merged=t(19),
                                base_ref="releases/v0.26.0rc")],
                    links=[link(13070, 13604)])
    c = _cases(corpus)[13070]
    assert [f.number for f in c.fix] == [13604] and "fix_not_landed" not in c.traps
