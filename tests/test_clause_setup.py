"""A run of clauses that is only a sentence's opening clause (a condition, a time, a reason) is no
place to stop: what it sets up was cut off (rules.clauses.sets_up_only, read by leaves_open)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fixlore.rules.clauses import fit, leaves_open, sets_up_only, whole_clauses

OPENERS_EN = ["after", "before", "when", "if", "once", "since", "because", "while", "unless", "until"]
OPENERS_ZH = [("如果", ""), ("由于", ""), ("当", "时"), ("在", "之后"), ("一旦", "")]
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)


@given(st.sampled_from(OPENERS_EN), st.lists(WORDS, min_size=1, max_size=4),
       st.sampled_from(["", "Fix: ", "Note: ", "The root cause is in TheRock's `cmake/therock_sanitizers.cmake`: "]))
def test_an_english_opening_clause_alone_leaves_the_sentence_open(opener, words, label):
    part = f"{label}{opener} {' '.join(words)},"
    assert sets_up_only(part) and leaves_open(part)
    # with the clause it sets up, the run is whole
    assert not sets_up_only(f"{part} replace the stale node")


@given(st.sampled_from(OPENERS_ZH), st.sampled_from(["开启 CP", "rank 数大于 8", "升级到 9.1.0", "重新收集"]))
def test_a_chinese_opening_clause_alone_leaves_the_sentence_open(opener, middle):
    head, tail = opener
    assert sets_up_only(f"{head}{middle}{tail}，")
    assert not sets_up_only(f"{head}{middle}{tail}，改为按 taskid 匹配")


def test_statements_that_end_on_a_comma_are_not_opening_clauses():
    for part in ("The cache is stale,", "在宿主机上修改，", "Done. When X,", "iffy start,"):
        assert not sets_up_only(part), part
    # an opening word that heads a whole clause: a cause with its result, a condition with its outcome
    for part in ("由于 tiling 计算错误导致越界，", "因为 HCCL_BUFFSIZE 默认过小导致 OOM，", "一旦超过 8 卡就会挂死，",
                 "虽然 A 失败但 B 成功，", "If you set ASCEND_LAUNCH_BLOCKING=1 the hang goes away,",
                 "Since 2.1 the default is fp32,", "Before/after comparison shows 2x speedup,"):
        assert not sets_up_only(part), part
    assert fit("由于 tiling 计算错误导致越界，已在 !123 中改为按块对齐处理并补了回归用例", 30) == "由于 tiling 计算错误导致越界"


def test_a_cut_never_keeps_only_the_opening_clause():
    text = ("Fix: after re-collection, replace any freshly-created Directory children with the previously-seen "
            "instances for the same path.")
    assert fit(text, 40) == ""
    assert whole_clauses(text, 40) == ""
    assert fit(text, 200) == text


def test_the_editorial_check_names_a_cell_that_keeps_only_an_opening_clause():
    from fixlore.compose.check import _cut

    found = _cut("answer", "Collected nodes are duplicated. Fix: after re-collection.")
    assert [f.kind for f in found] == ["cut"] and "opening clause" in found[0].why
    assert _cut("answer", "The cache key ignores dtype. Fix: PR#12 (merged 09-01).") == []
    assert _cut("answer", "由于 tiling 计算错误导致越界。修复 !123（09-01 合入）。") == []
