"""The PR label rule, decided once (model.pull_label, Case.platform) and used by link and serve."""

from fixlore.wording.facts import pr_label
from fixlore.link.build import _mark_shared_fixes
from fixlore.core.model import Case, FixRef, pull_label


def test_each_platform_writes_its_own_sigil_and_names_a_foreign_repo():
    assert pull_label(("o/r", 795), "o/r", "gitcode") == "!795"
    assert pull_label(("o/r", 795), "o/r", "github") == "#795"
    assert pull_label(("o/lib", 12), "o/r", "gitcode") == "o/lib!12"
    assert pull_label(("o/lib", 12), "o/r", "github") == "o/lib#12"


def test_a_case_reads_its_platform_from_its_prs_then_from_its_url():
    gitcode_fix = FixRef("o/r", 7, "fix", "merged", None, url="https://gitcode.com/o/r/merge_requests/7")
    github_fix = FixRef("o/r", 7, "fix", "merged", None, url="https://github.com/o/r/pull/7")
    assert Case("o/r", 1, fix=[gitcode_fix], url="https://gitcode.com/o/r/issues/1").platform == "gitcode"
    assert Case("o/r", 1, fix=[github_fix], url="https://github.com/o/r/issues/1").platform == "github"
    assert Case("o/r", 1, pending_fix=[github_fix]).platform == "github"
    assert Case("o/r", 1, url="https://github.com/o/r/issues/1").platform == "github"
    assert Case("o/r", 1, url="https://gitcode.com/o/r/issues/1").platform == "gitcode"
    # prose keeps its own form: a bare #7 in a sentence would read as an issue
    assert pr_label(github_fix, "o/r") == "PR#7" and pr_label(gitcode_fix, "o/r") == "!7"


def _sharing(platform_url: str) -> list[Case]:
    fix = FixRef("o/r", 9, "fix", "merged", None, url=platform_url)
    return [Case("o/r", 1, fix=[fix]), Case("o/r", 2, fix=[fix])]


def test_a_shared_fix_is_named_as_the_platform_writes_it():
    on_github = _sharing("https://github.com/o/r/pull/9")
    _mark_shared_fixes(on_github, "github")
    assert on_github[0].trap_notes["one_pr_many_issues"] == "#9 also fixes #2"
    on_gitcode = _sharing("https://gitcode.com/o/r/merge_requests/9")
    _mark_shared_fixes(on_gitcode, "gitcode")
    assert on_gitcode[1].trap_notes["one_pr_many_issues"] == "!9 also fixes #1"
