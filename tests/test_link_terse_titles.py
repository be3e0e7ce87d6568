"""Terse PR titles (issue #13): they neither make backport twins nor hide what a diff is about."""

from fixlore.link import build_cases
from fixlore.core.model import Corpus

from test_link_builders import SINCE, files, issue, link, pull, t


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


def test_a_terse_title_on_another_branch_is_no_backport_twin():
    corpus = Corpus(issues=[issue(102, "ONNX export drops the batch axis", closed=t(18, 10, 0, 1))],
                    pulls=[pull(203, "修复问题", body="Fixes #102", merged=t(18)),
                           pull(207, "修复问题", base_ref="release/2.1", merged=t(18, 16))])
    assert [(f.number, f.role) for f in _cases(corpus)[102].fix] == [(203, "fix")]


def test_a_specific_title_still_finds_its_twin_unless_it_recurs_on_the_fix_branch():
    title = "tie_word_embeddings 模型加载缺失 lm_head.weight"
    twin = pull(207, f"[release/2.1] {title}", base_ref="release/2.1", merged=t(18, 16))
    base = [issue(104, "lm_head missing", closed=t(18, 10, 0, 1))]
    found = _cases(Corpus(issues=base, pulls=[pull(205, title, body="修复 #104", merged=t(18)), twin]))[104]
    assert [(f.number, f.role) for f in found.fix] == [(205, "fix"), (207, "backport")]
    recurring = _cases(Corpus(issues=base, pulls=[pull(205, title, body="修复 #104", merged=t(18)), twin,
                                                  pull(190, title, merged=t(10))]))[104]
    assert [(f.number, f.role) for f in recurring.fix] == [(205, "fix")]


def test_what_the_title_names_is_checked_against_the_diff_whatever_the_pr_title():
    body = "`--optix-mode` 这个名字对新用户不直观，建议新增 `--search-mode` 并保留别名。"
    for title in ("fix bug", "refactor(optix): 整理寻优日志输出格式"):
        corpus = Corpus(issues=[issue(441, "建议把 --optix-mode 改名为 --search-mode", body=body, closed=t(18, 18, 30))],
                        pulls=[pull(861, title, merged=t(18, 18, 27))], links=[link(441, 861)],
                        files=files(861, "optix/search/logger.py"))
        c = _cases(corpus)[441]
        assert c.fix == [] and "title names (--optix-mode, --search-mode)" in c.trap_notes["linked_unrelated"], title


def test_a_diff_that_touches_the_named_flag_in_code_spelling_keeps_the_link():
    from fixlore.core.model import FileChange
    corpus = Corpus(issues=[issue(9, "`--enable-prefix-caching` crashes on 910B", closed=t(18, 10, 0, 1))],
                    pulls=[pull(12, "fix bug", merged=t(18))], links=[link(9, 12)],
                    files=[FileChange(repo="Ascend/toolkit", pull_number=12, filename="engine/cache.py",
                                      patch="-    if args.enable_prefix_caching and not npu:\n+    if args.enable_prefix_caching:")])
    assert [f.number for f in _cases(corpus)[9].fix] == [12]
