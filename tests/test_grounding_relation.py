"""A PR credited as the fix must be one the case's links make its fix (issue #22): the forms a
written row credits a PR in, and the claims the grounding check names for it."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from fixlore.analyse.grounding import Claim, miscredited, without_claims
from fixlore.rules.refs import fix_credits


@pytest.mark.parametrize("text, credited", [
    ("!1008 修复了 cpu_blocks 虚高", [1008]),
    ("修复 !795（09-08 合入）", [795]),
    ("路由统计在切分前进行，已由 !796 修复", [796]),
    ("由 PR 57 修复", [57]),
    ("fixed by !57 in the release branch", [57]),
    ("PR 986 fixes the leak", [986]),
    ("fix: !7", [7]),
    ("fixed by #44", [44]),
    ("fixes #12", []),                  # a bare #N after the verb is the issue fixed
    ("#101 已修复", []),                 # an issue said to be fixed, not a PR credited
    ("见 !60，不同于 !47", []),          # named, not credited
    ("!796 的修复与 #101 同源", []),
])
def test_the_forms_a_row_credits_a_pr_in(text, credited):
    assert fix_credits(text) == credited


@given(st.integers(min_value=1, max_value=9_999_999), st.sampled_from(["修复", "修复了", "已修复", "fixes", "fixed"]),
       st.sampled_from(["!", "！", "PR ", "PR #", "MR !"]))
def test_a_pr_before_its_verb_is_credited_whatever_the_mark(n, verb, mark):
    assert fix_credits(f"{mark}{n} {verb} 这个问题") == [n]


def test_only_a_pr_outside_the_case_links_is_miscredited_and_its_sentence_goes():
    text = "根因是 topk 先于切分计算。!1008 修复了 cpu_blocks 虚高。!631 修复了顺序。"
    assert miscredited(text, {631}) == [Claim("credit", "!1008")]
    assert miscredited(text, {631, 1008}) == []
    assert without_claims(text, [Claim("credit", "!1008")]) == "根因是 topk 先于切分计算。!631 修复了顺序。"
