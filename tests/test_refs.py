import re

from hypothesis import given, settings
from hypothesis import strategies as st

from fixlore.rules.refs import Ref, find_refs, refs_from_branch

REPO = "o/r"


def _triples(text):
    return [(r.kind, r.repo, r.number, r.keyword) for r in find_refs(text, REPO)]


def test_english_closing_keywords_normalised():
    assert _triples("Fixes #390") == [("either", REPO, 390, "fixes")]
    assert _triples("closed #4") == [("either", REPO, 4, "closes")]
    assert _triples("Resolved: #5") == [("either", REPO, 5, "resolves")]


def test_keyword_list_carries_to_each_reference():
    assert [r[2:] for r in _triples("Closes #1, #2 and #3")] == [(1, "closes"), (2, "closes"), (3, "closes")]


def test_chinese_keywords_with_fullwidth_colon_and_issue_url():
    refs = find_refs("解决issue：https://gitcode.com/Ascend/msmodelslim/issues/304", REPO)
    assert [(r.kind, r.repo, r.number, r.keyword) for r in refs] == [("issue", "Ascend/msmodelslim", 304, "resolves")]
    assert _triples("修复：#9") == [("either", REPO, 9, "fixes")]
    assert _triples("关联 #12") == [("either", REPO, 12, "relates")]


def test_negated_chinese_keyword_is_not_a_closing_keyword():
    assert _triples("未修复 #5") == [("either", REPO, 5, "")]


def test_pr_forms_are_pulls():
    text = "see !795 and PR 55. also PR#826, PR !12 and MR 4"
    assert [(r.kind, r.number) for r in find_refs(text, REPO)] == [
        ("pull", 795), ("pull", 55), ("pull", 826), ("pull", 12), ("pull", 4)]


def test_issue_word_before_a_pr_sigil_names_the_pr():
    # GitCode shows PRs as !N; "issue !4" and "issue: !4" point at PR 4, "issue #4" at issue 4
    for text in ("issue !4", "issue: !4", "issue ！4"):
        assert [(r.kind, r.number) for r in find_refs(text, REPO)] == [("pull", 4)], text
    assert [(r.kind, r.number) for r in find_refs("issue #4", REPO)] == [("issue", 4)]


def test_pr_reference_inside_chinese_text():
    assert [(r.kind, r.number) for r in find_refs("修复PR#826已关闭", REPO)] == [("pull", 826)]
    assert [(r.kind, r.number) for r in find_refs("请参考!795合入", REPO)] == [("pull", 795)]


def test_urls_name_their_own_repo_and_kind():
    text = ("https://gitcode.com/a/b/merge_requests/9 https://github.com/c/d/pull/3 "
            "https://github.com/c/d/pulls/4 https://gitcode.com/e/f/issues/10")
    assert [(r.kind, r.repo, r.number) for r in find_refs(text, REPO)] == [
        ("pull", "a/b", 9), ("pull", "c/d", 3), ("pull", "c/d", 4), ("issue", "e/f", 10)]


def test_cross_repo_short_forms():
    assert [(r.kind, r.repo, r.number) for r in find_refs("Ascend/foo#12 and Ascend/foo!13", REPO)] == [
        ("either", "Ascend/foo", 12), ("pull", "Ascend/foo", 13)]


def test_non_references_are_ignored():
    for text in ("color: #123456; #fff", "#1 priority", "version 3.2.1 at 10:30", "x!1 hello!2",
                 "ab#12", "sha deadbeef#", "&#123;"):
        assert find_refs(text, REPO) == [], text


def test_keyword_makes_hash_one_a_reference():
    assert _triples("fixes #1") == [("either", REPO, 1, "fixes")]


def test_span_points_at_the_reference():
    text = "blah Fixes #390 blah"
    (ref,) = find_refs(text, REPO)
    assert text[ref.span[0]:ref.span[1]] == "#390"


def test_branch_names():
    assert refs_from_branch("bugfix/issue558") == [558]
    assert refs_from_branch("fix-558") == [558]
    assert refs_from_branch("issue_558") == [558]
    assert refs_from_branch("fix/#558") == [558]
    assert refs_from_branch("558-crash-on-start") == [558]
    for name in ("release-2.1", "fix-w8a8", "hotfix-1.2.3", "fix/ha-", "master", "", None):
        assert refs_from_branch(name) == [], name


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_crashes_and_refs_are_well_formed(text):
    for ref in find_refs(text, REPO):
        assert isinstance(ref, Ref)
        assert ref.kind in ("issue", "pull", "either")
        assert ref.number > 0
        assert 0 <= ref.span[0] < ref.span[1] <= len(text)
        assert str(ref.number) in text[ref.span[0]:ref.span[1]]
    refs_from_branch(text)


_MARKERS = re.compile(r"[#＃!！]|pr|mr|issue|://", re.IGNORECASE)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="#＃!！/")))
def test_no_reference_invented_without_markers(text):
    if not _MARKERS.search(text):
        assert find_refs(text, REPO) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Nd",))))
def test_no_reference_without_digits(text):
    assert find_refs(text, REPO) == []
    assert refs_from_branch(text) == []


def test_issue_slash_number_is_an_issue_reference():
    """"issue/302 - fix compile error" (a branch-style name in a PR title) names issue 302."""
    refs = find_refs("issue/302 - fix compile error of window system", "o/r")
    assert [(r.kind, r.number, r.keyword) for r in refs] == [("issue", 302, "")]
    assert find_refs("see docs/issue/302 for the old notes", "o/r") == []     # a path, not a reference
