"""PRs that name an issue and still are not its fix (link/set_aside.py), and the reporter's own
PR named in the description (link/candidates._pulls_in_description)."""

import pytest

from fixlore.link import build_cases
from fixlore.link.set_aside import called_stopgap, revert_of
from fixlore.core.model import Comment, Corpus

from test_link_builders import REPO, SINCE, issue, link, pull, t


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


def _row(case, number):
    return next(r for r in case.to_export()["candidates"] if r["number"] == number)


@pytest.mark.parametrize("title,body,is_revert", [
    ('Revert "[Fix] #70 parser drops the last row"', "Reverts Ascend/toolkit#71", True),
    ("revert: fix #70 (breaks CRLF input)", "", True),
    ("Parser: restore the old loop", "This reverts commit 0a1b2c3d4e5f.", True),
    ('Revert "Revert "[Fix] #70 parser drops the last row""', "", False),   # lands it again
    ("Fix #70: parser drops the last row", "Reverts the loop bound to <=", False),
])
def test_what_a_revert_looks_like(title, body, is_revert):
    assert bool(revert_of(pull(1, title, body=body))) is is_revert


def test_a_revert_that_quotes_the_fix_is_not_a_fix():
    corpus = Corpus(issues=[issue(70, "parser drops the last row", closed=t(21))],
                    pulls=[pull(71, "[Fix] #70 parser drops the last row", body="Fixes #70", merged=t(18)),
                           pull(72, 'Revert "[Fix] #70 parser drops the last row"', body="Reverts Ascend/toolkit#71",
                                merged=t(19))])
    c = _cases(corpus)[70]
    assert [f.number for f in c.fix] == [71]
    row = _row(c, 72)
    assert row["verdict"] == "set_aside" and "revert" in row["set_aside"]
    assert "linked_unrelated" not in c.traps


def test_a_stopgap_the_issue_names_gives_way_to_the_pr_that_claims_the_fix():
    corpus = Corpus(issues=[issue(80, "erfc import error on the NPU backend",
                                  body="CI fails at import.\nWork around this for now: "
                                       f"https://gitcode.com/{REPO}/merge_requests/81",
                                  closed=t(21, 10, 0, 0))],
                    pulls=[pull(81, "Skip erfc on NPU", body=f"Issue: https://gitcode.com/{REPO}/issues/80", merged=t(18)),
                           pull(82, "Add an erfc fallback", body="Fixes #80", merged=t(21, 10, 0, 0))])
    c = _cases(corpus)[80]
    assert [f.number for f in c.fix] == [82]
    assert _row(c, 81)["verdict"] == "set_aside" and "workaround" in _row(c, 81)["set_aside"]


def test_a_stopgap_alone_stays_the_candidate_it_is():
    corpus = Corpus(issues=[issue(90, "erfc import error", closed=t(18, 10, 0, 1))],
                    pulls=[pull(91, "Skip erfc on NPU", body="Fixes #90", merged=t(18))],
                    comments=[Comment(repo=REPO, parent_kind="issue", parent_number=90, id=1, author="maint",
                                      body="!91 是临时规避，正式修复后续再做。", created_at=t(18, 11))])
    c = _cases(corpus)[90]
    assert [f.number for f in c.fix] == [91]


def test_the_reporters_own_pr_named_in_the_description_is_cited():
    corpus = Corpus(issues=[issue(100, "support the 310P", author="carol", closed=t(20),
                                  body=f"It does not build on the 310P. I submitted a [PR](https://gitcode.com/{REPO}/merge_requests/101) "
                                       "to enable the basic functions.")],
                    pulls=[pull(101, "support the 310P", body="add initial support", merged=t(18), author="carol")])
    c = _cases(corpus)[100]
    assert [f.number for f in c.fix] == [101]
    assert "comment" in {e.kind for e in c.evidence}


@pytest.mark.parametrize("body,pr_author", [
    ("检视 !111 时发现缺少单测，补充用例。", "carol"),                      # the change under review: context
    ("最近合入的相关改动有 !111（copy_region v2），之后就失败了。", "carol"),     # the change that regressed it
    ("I submitted a PR !111 to enable it.", "dave"),                      # someone else's PR
])
def test_other_prs_a_report_names_are_context(body, pr_author):
    corpus = Corpus(issues=[issue(110, "something fails", author="carol", body=body, closed=t(20))],
                    pulls=[pull(111, "change the loader", body="", merged=t(18), author=pr_author)])
    assert _cases(corpus)[110].fix == []


def test_stopgap_words():
    assert called_stopgap("Work around this error for now: #5101")
    assert called_stopgap("先用 !12 临时规避")
    assert not called_stopgap("Fixed by #12, merged")


def test_a_release_branch_pr_naming_the_issue_is_its_backport_whenever_it_merges():
    """The platform closes the issue from the default branch; the release-branch PR that says
    "Fixes #120" merges after the close under another title, and is the backport all the same."""
    corpus = Corpus(issues=[issue(120, "wrong result on the 310P", closed=t(18, 10, 0, 1))],
                    pulls=[pull(121, "Replace the 310P operators", body="Fixes #120", merged=t(18)),
                           pull(122, "[0.3.7] cherry-pick operator swap", body="Fixes #120", merged=t(19),
                                base_ref="release/0.3.7")])
    c = _cases(corpus)[120]
    assert [(f.number, f.role) for f in c.fix] == [(121, "fix"), (122, "backport")]
    assert c.timing == "same_second"


def test_a_request_the_owners_declined_has_no_linked_fix():
    """The maintainer declines the rename; the PR the platform links merged days before and
    changes a log format. Positive contrary evidence: nothing was changed for this issue."""
    corpus = Corpus(issues=[issue(140, "建议把 tensor_cast 命令改名为 tcast", body="名字太长。", closed=t(21))],
                    pulls=[pull(141, "日志格式调整", body="日志增加迭代序号与耗时字段。", merged=t(17))],
                    links=[link(140, 141)],
                    comments=[Comment(repo=REPO, parent_kind="issue", parent_number=140, id="1", author="maint",
                                      body="命令名已经写进很多用户脚本，改名代价大于收益，不采纳。", created_at=t(20))])
    c = _cases(corpus)[140]
    assert c.fix == [] and "linked_unrelated" in c.traps
    assert "declined" in c.trap_notes["linked_unrelated"] and "不采纳" in c.trap_notes["linked_unrelated"]


def test_declining_one_pr_is_no_verdict_on_the_request():
    corpus = Corpus(issues=[issue(150, "LoRA 存盘体积过大", body="每次多写 36G。", closed=t(21))],
                    pulls=[pull(151, "LoRA 只存 adapter", body="lora_save_only 只存 LoRA 权重。", merged=t(20))],
                    links=[link(150, 151)],
                    comments=[Comment(repo=REPO, parent_kind="issue", parent_number=150, id="1", author="maint",
                                      body="!149 不采纳：还要区分续训与导出两种用途。官方方案在 !151。", created_at=t(19))])
    assert [f.number for f in _cases(corpus)[150].fix] == [151]


@pytest.mark.parametrize("said,claimed", [("修复见 PR!161，还在检视。", False), ("已通过 !161 修复合入，请验证。", True),
                                          ("!161 已修复。", True), ("The fix is in !161.", False)])
def test_only_a_fix_said_done_is_a_claim(said, claimed):
    corpus = Corpus(issues=[issue(160, "scale 失真", closed=t(21))],
                    pulls=[pull(161, "逐 token 统计", body="", state="closed", closed=t(19))],
                    comments=[Comment(repo=REPO, parent_kind="issue", parent_number=160, id="1", author="maint",
                                      body=said, created_at=t(20))])
    assert ("claimed_unmerged" in _cases(corpus)[160].traps) is claimed
