"""One change, several landings (rules.landings): a second PR by the fix's author after the close."""

import pytest

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.rules.landings import continues_own_fix

from test_link_builders import SINCE, issue, pull, t


def _case(*pulls, closed=t(18, 10, 0, 1)):
    cases, _ = build_cases(Corpus(issues=[issue(14, "v2 interface memory usage too high", closed=closed)],
                                  pulls=list(pulls)), SINCE)
    return next(c for c in cases if c.number == 14)


def test_the_fix_authors_second_closing_pr_after_the_close_is_a_fix():
    """flash-attention-npu #14 (accel-threads, read): #15 closes it, #16 by the same developer says
    'closes #14' again three days later; both are changes made for the report."""
    c = _case(pull(15, "Fix high memory usage in v2", body="closes #14", merged=t(18), author="dev"),
              pull(16, "Fix high memory usage in v2", body="Related Issue None. closes #14", merged=t(21), author="Dev"))
    assert [(f.number, f.role) for f in c.fix] == [(15, "fix"), (16, "fix")]
    assert c.timing == "same_second" and c.lag_s == 1 and c.pending_fix == []
    row = next(r for r in c.to_export()["candidates"] if r["number"] == 16)
    assert row["verdict"] == "fix" and any(s["kind"] == "landing" for s in row["signals"])


@pytest.mark.parametrize("second", [
    pull(16, "Add regression tests for #14", body="Closes #14", merged=t(21), author="carol"),   # someone else
    pull(16, "tidy the v2 interface", body="see #14", merged=t(21), author="dev"),               # no claim
])
def test_a_pr_after_the_close_that_is_not_the_fix_authors_claim_stays_after_the_close(second):
    c = _case(pull(15, "Fix high memory usage in v2", body="closes #14", merged=t(18), author="dev"), second)
    assert [f.number for f in c.fix] == [15]


@pytest.mark.parametrize("body", [
    "## Changelog\n- Fix high memory usage in v2 (#15), closes #14\n- Add bf16 support (#20), closes #19",
    # release-please's changelog line, as the maintainer's token opens it
    "## [1.2.0](https://github.com/Ascend/toolkit/compare/v1.1.0...v1.2.0)\n### Bug Fixes\n* **v2:** high memory usage "
    "([#15](https://github.com/Ascend/toolkit/issues/15)), closes [#14](https://github.com/Ascend/toolkit/issues/14)\n"
    "* crash on empty input ([#22](https://github.com/Ascend/toolkit/issues/22)), closes [#21](https://github.com/Ascend/toolkit/issues/21)",
])
def test_a_release_pr_by_the_fix_author_that_lists_the_issue_among_others_is_no_second_landing(body):
    """A changelog or release PR names every issue of the release: it claims many, this one among them."""
    c = _case(pull(15, "Fix high memory usage in v2", body="closes #14", merged=t(18), author="dev"),
              pull(30, "chore(main): release 1.2.0", body=body, merged=t(25), author="dev"))
    assert [f.number for f in c.fix] == [15]


@pytest.mark.parametrize("author", ["ghost", "github-actions[bot]", "mergify[bot]"])
def test_a_login_that_is_no_one_developer_continues_no_fix(author):
    """GitHub shows every deleted account as "ghost" (the closer of flash-attention-npu #14 in
    accel-threads is one), and a bot opens PRs for everybody: the same login is no same developer."""
    c = _case(pull(15, "Fix high memory usage in v2", body="closes #14", merged=t(18), author=author),
              pull(16, "Add fp8 kernels", body="closes #14", merged=t(21), author=author))
    assert [f.number for f in c.fix] == [15]


def test_without_a_fix_before_the_close_a_later_claim_is_still_closed_before_merge():
    c = _case(pull(16, "Fix high memory usage in v2", body="closes #14", merged=t(21), author="dev"))
    assert c.fix == [] and "closed_before_merge" in c.traps


def test_continues_own_fix_compares_logins_without_case_and_needs_a_merge():
    fix = pull(15, merged=t(18), author="Dev")
    key = (fix.repo, 14)
    assert continues_own_fix(pull(16, merged=t(21), author="dev"), [fix], key) is fix
    assert continues_own_fix(pull(16, author="dev"), [fix], key) is None                 # not merged
    assert continues_own_fix(pull(16, merged=t(21), author=""), [fix], key) is None      # unknown author
    assert continues_own_fix(pull(16, merged=t(21), author="eve"), [fix], key) is None
    assert continues_own_fix(pull(16, body="Fixes #14, fixes #19", merged=t(21), author="dev"), [fix], key) is None
