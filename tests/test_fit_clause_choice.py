"""Issue #22: a sentence that must shrink keeps its clauses chosen for the facts a reader acts on
(rules/clause_choice.py), never cut mid-clause, in the order written, its head kept."""

from fixlore.analyse.fit import fit_facts, shown_len
from fixlore.rules.clause_choice import choose_clauses, parts

CHANGE = "修改：matcher 跳过 bookkeeping 边，同时识别 v1/v2 两代 copy；断言改查 `npu_grouped_matmul_swiglu_quant`"


def test_a_later_statement_that_names_a_fact_beats_an_earlier_clause_that_names_none():
    cut = fit_facts(CHANGE, 70)
    assert cut == "修改：matcher 跳过 bookkeeping 边；断言改查 `npu_grouped_matmul_swiglu_quant`"
    assert shown_len(cut) <= 70
    # the first whole clauses alone would have kept the clause without a fact
    assert "两代 copy" not in cut


def test_the_head_stays_and_nothing_is_cut_mid_clause():
    assert fit_facts(CHANGE, 34) == "修改：matcher 跳过 bookkeeping 边"
    assert fit_facts(CHANGE, 10) == ""          # not even the head fits: nothing
    assert fit_facts(CHANGE, shown_len(CHANGE)) == CHANGE


def test_a_fact_the_row_states_already_earns_no_room():
    text = "调度改为按 rank 分组，新增 group_size 参数；默认值沿用 max_batch_size"
    # the row already names group_size: the statement naming max_batch_size is the news
    assert choose_clauses(text, 40, known={"group_size"}) == "调度改为按 rank 分组；默认值沿用 max_batch_size"
    assert choose_clauses(text, 40) == "调度改为按 rank 分组，新增 group_size 参数"


def test_inside_a_statement_a_clause_goes_only_with_the_clauses_before_it():
    text = "升级到 2.5.1 可以解决上面的问题，但是新版本又会导致新的问题: Conv3D error, error code is 500002"
    # the error code without the turn before it would read as the upgrade's own failure
    assert choose_clauses(text, 40) == "升级到 2.5.1 可以解决上面的问题"


def test_what_a_reader_needs_is_kept_before_a_list_of_names():
    text = "涉及 foo_a、foo_b、foo_c、foo_d；根因是缓存未失效；顺带更新 bar_x"
    needed = lambda s: "根因" in s
    assert choose_clauses(text, 40, needed=needed) == "涉及 foo_a、foo_b、foo_c、foo_d；根因是缓存未失效"
    assert choose_clauses(text, 40) == "涉及 foo_a、foo_b、foo_c、foo_d；顺带更新 bar_x"


def test_an_announcing_part_and_an_enumeration_stay_with_what_follows():
    assert parts("修改：A，B、C，D") == ["修改：A，", "B、C，", "D"]


def test_a_whole_text_that_stops_at_its_colon_is_cut_like_its_parts():
    # it fits, but alone it only announces what followed it (a code block, a list)
    assert choose_clauses("例如在gen_duration_from_textgrid.py中：", 80) == ""
    assert choose_clauses("升级后仍报错，修改方法如下：", 80) == "升级后仍报错"
