"""Terse PR titles (issue #13): they neither make backport twins nor hide what a diff is about."""

from fixlore.link import build_cases
from fixlore.model import Corpus

from test_link_builders import SINCE, files, issue, link, pull, t


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


def test_what_the_title_names_is_checked_against_the_diff_whatever_the_pr_title():
    body = "`--optix-mode` 这个名字对新用户不直观，建议新增 `--search-mode` 并保留别名。"
    for title in ("fix bug", "refactor(optix): 整理寻优日志输出格式"):
        corpus = Corpus(issues=[issue(441, "建议把 --optix-mode 改名为 --search-mode", body=body, closed=t(18, 18, 30))],
                        pulls=[pull(861, title, merged=t(18, 18, 27))], links=[link(441, 861)],
                        files=files(861, "optix/search/logger.py"))
        c = _cases(corpus)[441]
        assert c.fix == [] and "title names (--optix-mode, --search-mode)" in c.trap_notes["linked_unrelated"], title


def test_a_diff_that_touches_the_named_flag_in_code_spelling_keeps_the_link():
    from fixlore.model import FileChange
    corpus = Corpus(issues=[issue(9, "`--enable-prefix-caching` crashes on 910B", closed=t(18, 10, 0, 1))],
                    pulls=[pull(12, "fix bug", merged=t(18))], links=[link(9, 12)],
                    files=[FileChange(repo="Ascend/toolkit", pull_number=12, filename="engine/cache.py",
                                      patch="-    if args.enable_prefix_caching and not npu:\n+    if args.enable_prefix_caching:")])
    assert [f.number for f in _cases(corpus)[9].fix] == [12]
