"""The facts a stage needs about an issue or PR come from the objects the sources build (issue
#25): platform, forge host, web URL and PR label, never rebuilt from URLs or a hard-coded host."""

from fixlore.core.enums import FunnelStage, Platform, Trap
from fixlore.wording.facts import pr_label
from fixlore.link.build import build_cases
from fixlore.link.conclude import fixref
from fixlore.core.model import Case, Corpus
from fixlore.sources import gitcode, github
from test_link_builders import SINCE, t

GITHUB_PR = {"number": 97, "title": "fix", "state": "closed", "merged_at": "2026-09-18T02:00:00Z",
             "html_url": "https://github.com/minilab/widgets/pull/97", "head": {"ref": "fix", "sha": "abc1234"},
             "base": {"ref": "main", "repo": {"full_name": "minilab/widgets"}}, "user": {"login": "dev"}}
GITCODE_MR = {"number": 986, "title": "fix", "state": "merged", "merged_at": "2026-09-18T10:00:00+08:00",
              "html_url": "https://gitcode.com/Ascend/MindIE-Motor/merge_requests/986",
              "head": {"ref": "dev", "sha": "def5678"}, "base": {"ref": "master"}, "user": {"login": "dev"}}


def test_a_github_and_a_gitcode_pull_carry_their_platform_host_and_label():
    gh = github.normalize_pull(GITHUB_PR, "minilab/widgets")
    gc = gitcode.normalize_pull(GITCODE_MR, "Ascend/MindIE-Motor")
    assert (gh.platform, gh.forge_host, gh.label("minilab/widgets"), gh.head_sha) == (
        Platform.GITHUB, "github.com", "#97", "abc1234")
    assert (gc.platform, gc.forge_host, gc.label("Ascend/MindIE-Motor"), gc.head_sha) == (
        Platform.GITCODE, "gitcode.com", "!986", "def5678")
    assert gc.label("Ascend/other") == "Ascend/MindIE-Motor!986"
    assert gh.web_url == GITHUB_PR["html_url"] and gc.web_url == GITCODE_MR["html_url"]
    # a fix made from each keeps its page, and prose names it as its platform does
    assert pr_label(fixref(gh, "fix"), "minilab/widgets") == "PR#97"
    assert pr_label(fixref(gc, "fix"), "Ascend/MindIE-Motor") == "!986"


def test_without_a_page_the_url_is_built_on_the_platforms_own_host():
    gh = github.normalize_pull({**GITHUB_PR, "html_url": ""}, "minilab/widgets")
    gc = gitcode.normalize_pull({**GITCODE_MR, "html_url": ""}, "Ascend/MindIE-Motor")
    assert gh.web_url == "https://github.com/minilab/widgets/pull/97"
    assert gc.web_url == "https://gitcode.com/Ascend/MindIE-Motor/merge_requests/986"
    issue = github.normalize_issue({"number": 96, "state": "open"}, "minilab/widgets")
    assert (issue.platform, issue.web_url) == (Platform.GITHUB, "https://github.com/minilab/widgets/issues/96")


def test_a_world_replayed_under_another_host_keeps_its_own_host():
    page = "http://127.0.0.1:8123/Ascend/MindIE-Motor/merge_requests/986"
    mr = gitcode.normalize_pull({**GITCODE_MR, "html_url": page}, "Ascend/MindIE-Motor")
    assert mr.forge_host == "127.0.0.1:8123" and mr.web_url == page
    fix = fixref(mr, "fix")
    assert fix.url == page and fix.platform == Platform.GITCODE and fix.label("Ascend/MindIE-Motor") == "!986"
    assert Case("Ascend/MindIE-Motor", 631, fix=[fix]).platform == Platform.GITCODE


def test_a_github_case_without_pages_links_to_github_not_gitcode():
    """link/build and link/conclude used to fall back to https://gitcode.com for any platform."""
    repo = "minilab/widgets"
    issue = github.normalize_issue({"number": 96, "title": "crash on empty input", "state": "closed",
                                    "body": "steps", "created_at": "2026-09-01T00:00:00Z",
                                    "updated_at": "2026-09-18T03:00:00Z", "closed_at": "2026-09-18T02:00:05Z",
                                    "user": {"login": "alice"}}, repo)
    pr = github.normalize_pull({**GITHUB_PR, "html_url": "", "body": "Fixes #96"}, repo)
    cases, _ = build_cases(Corpus(platform="github", issues=[issue], pulls=[pr]), SINCE)
    (case,) = cases
    assert case.url == "https://github.com/minilab/widgets/issues/96"
    assert [f.url for f in case.fix] == ["https://github.com/minilab/widgets/pull/97"]
    assert case.platform == Platform.GITHUB and case.funnel in (FunnelStage.SELECTED, FunnelStage.RANK)


def test_an_exported_case_reads_back_with_its_enums():
    case = Case("o/r", 1, funnel=FunnelStage.ANALYSIS, traps=[Trap.STALE_CLOSE], closed_at=t(18))
    back = Case.from_export(case.to_export())
    assert back.funnel is FunnelStage.ANALYSIS and back.traps == [Trap.STALE_CLOSE]
    assert type(back.traps[0]) is Trap and back.to_export() == case.to_export()
