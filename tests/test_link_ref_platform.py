"""The linker's side readers (link.credited, link.unrelated, link.named_files) read references as
the thread's platform writes them: `GH-12` is issue or PR 12 on GitHub (which autolinks it) and only
a name on GitCode (rules.refs.find_refs)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fixlore.link.credited import credited_fixes
from fixlore.link.named_files import fixed_note
from fixlore.link.unrelated import _declined, _denied_by_comment

from test_link_builders import comment, issue, pull, t

REPO = "acme/plug"


def _idx(*comments):
    by_issue: dict = {}
    for c in comments:
        by_issue.setdefault((c.repo, c.parent_number), []).append(c)
    return SimpleNamespace(issue_comments=by_issue, _declined={})


@pytest.mark.parametrize("platform,credited", [("github", [51, 52]), ("gitcode", [])])
def test_a_pr_names_its_issue_as_gh_n_only_on_github(platform, credited):
    text = "Bump the base image.\nRelated to GH-40. The merged ARM (#51) and x86 (#52) fixes leave this file alone."
    got = credited_fixes(text, REPO, 40, (REPO, 60), lambda k: True, platform)
    assert [k[1] for k, _ in got] == credited


@pytest.mark.parametrize("platform,denied", [("github", True), ("gitcode", False)])
def test_a_comment_denies_a_pr_written_gh_n_only_on_github(platform, denied):
    iss = issue(40, repo=REPO, platform=platform)
    idx = _idx(comment(40, "GH-41 is unrelated to this crash.", repo=REPO))
    assert bool(_denied_by_comment(iss, pull(41, repo=REPO, platform=platform), idx)) is denied


@pytest.mark.parametrize("platform,declined", [("github", False), ("gitcode", True)])
def test_declining_gh_n_is_about_that_pr_only_on_github(platform, declined):
    iss = issue(40, repo=REPO, platform=platform)
    idx = _idx(comment(40, "GH-39 不采纳：还要区分续训与导出两种用途。", repo=REPO))
    assert bool(_declined(iss, idx)) is declined


@pytest.mark.parametrize("platform,noted", [("github", False), ("gitcode", True)])
def test_a_fixed_note_naming_gh_n_names_a_pr_only_on_github(platform, noted):
    iss = issue(40, repo=REPO, platform=platform)
    idx = _idx(comment(40, "Fixed by GH-45, thanks.", repo=REPO, at=t(17)))
    assert bool(fixed_note(iss, idx, t(16), t(18))) is noted
