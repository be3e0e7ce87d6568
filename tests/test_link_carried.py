"""A stacked PR carries the commits of the PR it was branched from: its mention of that PR's
issue is history, not a second fix (link/carried.py)."""

from hypothesis import given, strategies as st

from fixlore.link import build_cases
from fixlore.link.carried import commit_list
from fixlore.core.model import Commit, Corpus

from test_link_builders import REPO, SINCE, issue, pull, t


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


def _stacked(second_body: str, second_base: str = "master", first_title: str = "Fix #40: parser drops the last row",
             commits: list[Commit] | None = None) -> Corpus:
    """#41 fixed #40 (squash-merged on the 18th); #52, branched from #41's branch, fixes #50 and
    lands on the 20th carrying #41's commits; #40 is closed by hand on the 21st, after both."""
    return Corpus(issues=[issue(40, "parser drops the last row", closed=t(21)),
                          issue(50, "exporter writes an empty header", closed=t(20, 10, 0, 1))],
                  pulls=[pull(41, first_title, body="The loop stopped one row early.", merged=t(18)),
                         pull(52, "Fix #50: write the header once", body=second_body, merged=t(20), base_ref=second_base)],
                  commits=commits or [])


SQUASH_LIST = "* fix the parser loop\n\n* [Fix] fix the issue #40, keep the last row\n\n* write the header once\n\n* format"


def test_an_item_of_a_carried_commit_list_is_no_second_fix():
    c = _cases(_stacked(SQUASH_LIST))
    assert [f.number for f in c[40].fix] == [41]
    assert [f.number for f in c[50].fix] == [52]
    assert "one_pr_many_issues" not in c[40].traps + c[50].traps
    row = next(r for r in c[40].to_export()["candidates"] if r["number"] == 52)
    assert row["verdict"] != "fix"


def test_the_same_commit_in_both_prs_is_carried_even_without_a_claim():
    shared = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"
    commits = [Commit(REPO, 41, shared, "fix #40: keep the last row"), Commit(REPO, 52, shared, "fix #40: keep the last row"),
               Commit(REPO, 52, "f" * 40, "write the header once")]
    c = _cases(_stacked("Writes the header once.", first_title="Parser: keep the last row", commits=commits))
    assert 52 not in [f.number for f in c[40].fix]


def test_a_commit_of_its_own_naming_a_fixed_issue_is_still_a_fix():
    """A second fix of a half-fixed issue: its own commit (not one of #41's) says so."""
    commits = [Commit(REPO, 41, "1" * 40, "fix the parser loop"), Commit(REPO, 52, "2" * 40, "fix #40 again: the last row of a CRLF file")]
    c = _cases(_stacked("Writes the header once.", commits=commits))
    assert sorted(f.number for f in c[40].fix) == [41, 52]


def test_a_written_description_or_another_branch_is_not_carried():
    written = "## Summary\n* Fixes #40: the last row of a CRLF file\n* Fixes #50: header written once"
    assert sorted(f.number for f in _cases(_stacked(written))[40].fix) == [41, 52]
    # into another branch, the commit list brings the fix where it was not: not carried history
    other_branch = _cases(_stacked(SQUASH_LIST, second_base="release/2.0"))[40]
    assert 52 in [f.number for f in other_branch.fix]


_LINE = st.text(alphabet="abcdefgh #12:", min_size=1, max_size=20)


@given(st.lists(_LINE, min_size=2, max_size=6))
def test_a_commit_list_is_items_only(subjects):
    body = "\n\n".join(f"* {s.strip() or 'x'}" for s in subjects)
    assert commit_list(body)
    assert not commit_list("## Changes\n" + body)
    assert not commit_list("This PR reworks the parser.\n" + body)
