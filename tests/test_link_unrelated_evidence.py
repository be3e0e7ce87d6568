"""Class 3 of issue #13: a platform link is refuted by positive contrary evidence, never by vocabulary alone."""

from fixlore.link import build_cases
from fixlore.core.model import Corpus

from test_link_builders import SINCE, comment, files, issue, link, pull, t

LONG = ("生成 4k token 以上的长回复时，客户端大约 60s 后收到连接关闭，回复不完整。非流式正常。部署在 nginx 之后，"
        "网关日志显示 upstream prematurely closed connection，重试后依旧复现，浏览器端看到的是半截 JSON。")


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


def test_terse_linked_pr_closing_the_issue_in_the_same_second_is_its_fix():
    for title in ("fix bug", "修复问题", "补充参数说明"):
        corpus = Corpus(issues=[issue(33, "流式输出长回复中途断流", body=LONG, closed=t(19, 11, 20))],
                        pulls=[pull(61, title, merged=t(19, 11, 20))], links=[link(33, 61)])
        c = _cases(corpus)[33]
        assert [f.number for f in c.fix] == [61] and c.traps == [] and c.timing == "same_second", title


def test_terse_linked_pr_closed_days_later_is_still_its_fix_without_contrary_evidence():
    corpus = Corpus(issues=[issue(33, "流式输出长回复中途断流", body=LONG, closed=t(21))],
                    pulls=[pull(61, "fix bug", merged=t(19))], links=[link(33, 61)])
    c = _cases(corpus)[33]
    assert [f.number for f in c.fix] == [61] and "linked_unrelated" not in c.traps


def test_another_target_refutes_a_link_outside_the_auto_close_chain_only():
    def corpus(closed):
        return Corpus(issues=[issue(13, "decode hangs on 910B", body=LONG, closed=closed),
                              issue(12, "tokenizer drops bos", closed=t(18))],
                      pulls=[pull(9, "修复问题", body="Fixes #12", merged=t(18))], links=[link(13, 9)])
    chained = _cases(corpus(t(18, 10, 0, 1)))[13]
    assert [f.number for f in chained.fix] == [9] and "linked_unrelated" not in chained.traps
    later = _cases(corpus(t(20)))[13]
    assert later.fix == [] and "linked_unrelated" in later.traps
    assert "#12" in later.trap_notes["linked_unrelated"]


def test_a_maintainer_saying_so_refutes_even_a_chain():
    corpus = Corpus(issues=[issue(7, "decode hangs on 910B", closed=t(18, 10, 0, 1))],
                    pulls=[pull(9, "fix bug", merged=t(18))], links=[link(7, 9)],
                    comments=[comment(7, "!9 与本问题无关，是页面误关联；根因在驱动版本。", author="maint", at=t(18, 11))])
    c = _cases(corpus)[7]
    assert c.fix == [] and "linked_unrelated" in c.traps and "maint says so" in c.trap_notes["linked_unrelated"]


def test_the_reporter_cannot_refute_a_link():
    corpus = Corpus(issues=[issue(7, "decode hangs on 910B", closed=t(18, 10, 0, 1))],
                    pulls=[pull(9, "fix bug", merged=t(18))], links=[link(7, 9)],
                    comments=[comment(7, "!9 与本问题无关吧？", author="alice", at=t(18, 11))])
    assert [f.number for f in _cases(corpus)[7].fix] == [9]


def test_a_change_away_from_the_issues_own_fix_refutes_the_link():
    corpus = Corpus(issues=[issue(33, "流式输出长回复中途断流", body=LONG, closed=t(19, 11, 20))],
                    pulls=[pull(60, "bump deps", merged=t(17)),
                           pull(61, "SSE heartbeat", body="Fixes #33", merged=t(19, 11, 20))],
                    links=[link(33, 60)], files=files(60, "requirements.txt", "serve/log.py")
                    + files(61, "serve/api/stream.py"))
    c = _cases(corpus)[33]
    assert [f.number for f in c.fix] == [61] and "linked_unrelated" in c.traps
    assert "serve/api/stream.py" in c.trap_notes["linked_unrelated"]
    same_folder = Corpus(issues=corpus.issues, pulls=corpus.pulls, links=corpus.links,
                         files=files(60, "serve/api/auth.py") + files(61, "serve/api/stream.py"))
    assert "linked_unrelated" not in _cases(same_folder)[33].traps


def test_named_identifiers_count_only_against_a_known_diff():
    body = ("`--optix-mode` is not intuitive for new users; please rename it to `--search-mode` and keep "
            "the old spelling as a deprecated alias for one release")
    base = dict(issues=[issue(441, "rename --optix-mode to --search-mode", body=body, closed=t(18, 18, 30))],
                pulls=[pull(861, "refactor: unify round logging", merged=t(18, 18, 27))], links=[link(441, 861)])
    without_diff = _cases(Corpus(**base))[441]
    assert [f.number for f in without_diff.fix] == [861]
    with_diff = _cases(Corpus(**base, files=files(861, "optix/search/logger.py")))[441]
    assert with_diff.fix == [] and "--optix-mode" in with_diff.trap_notes["linked_unrelated"]
