"""Class 6 of issue #13 (value side): what a case teaches is often in its fix PR, not in the report."""

from fixlore.rules.funnel.rank import ValueInputs, value_score
from fixlore.link import build_cases
from fixlore.core.model import Comment, Corpus

from test_link_builders import REPO, SINCE, issue, pull, t

MECHANISM = ("根因：HCCL 建链时 rank_table 中的 device_ip 未按 server 排序，跨机时两端对 rank 的编号不一致，"
             "导致握手超时。修改为在解析 rank_table 后按 (server_id, device_id) 排序，并补充超时日志打印对端 ip。")


def _inputs(**kw):
    base = dict(title="建链失败", body="跑多机时报错", author="alice", answer_chars=0, human_comments=0, reporter_last="",
                fix_merged=True, fix_strong=True, fix_pending=False, close_explained=True, answered=False)
    return ValueInputs(**{**base, **kw})


def test_fix_explanation_counts_as_what_the_case_says():
    bare, explained = value_score(_inputs()), value_score(_inputs(fix_text_chars=len(MECHANISM)))
    assert explained > bare + 0.3
    # A long report needs no PR text; the larger of the two counts, they do not add up.
    long_body = "x" * 200
    assert value_score(_inputs(body=long_body)) == value_score(_inputs(body=long_body, fix_text_chars=500))


def _case(pr_body, review=()):
    corpus = Corpus(issues=[issue(5, "多机建链失败", body="跑多机时报错", closed=t(18, 10, 0, 1))],
                    pulls=[pull(9, "修复问题", body=f"Fixes #5\n{pr_body}", merged=t(18))],
                    comments=[Comment(repo=REPO, parent_kind="pull", parent_number=9, id=f"r{i}", author=a, body=b,
                                      created_at=t(17)) for i, (a, b) in enumerate(review)])
    cases, _ = build_cases(corpus, SINCE)
    return cases[0]


def test_a_case_whose_mechanism_sits_in_the_pr_outranks_a_bare_fix():
    bare = _case("")
    in_body = _case(MECHANISM)
    in_review = _case("", review=[("reviewer", MECHANISM)])
    assert in_body.value > bare.value + 0.3 and in_review.value > bare.value + 0.3


def test_a_bots_ci_report_on_the_pr_teaches_nothing():
    ci = "CI 构建通过：" + "编译、单元测试、静态检查、门禁全部通过。" * 10
    assert _case("", review=[("ascend-robot", ci)]).value == _case("").value
