"""The problem cell takes the report's hard facts the title lacks, in the report's words, when the
row has room (analyse/cells.with_report_facts, issue #22)."""

from fixlore.analyse.cells import with_report_facts

BODY = ("用 Qwen3.5-9B 做 SFT，打开 use_thd_format 之后 loss 飙到 21，grad_norm 570+。"
        "关掉就正常。")


def test_adds_the_reports_facts_in_its_words():
    cell = with_report_facts("thd 格式训练 loss 异常", BODY, room=80)
    assert cell.startswith("thd 格式训练 loss 异常：")
    assert "use_thd_format" in cell
    assert cell[len("thd 格式训练 loss 异常："):] in BODY   # the report's own words


def test_no_room_keeps_the_title():
    assert with_report_facts("thd 格式训练 loss 异常", BODY, room=10) == "thd 格式训练 loss 异常"


def test_cell_limit_bounds_the_addition():
    cell = with_report_facts("thd 格式训练 loss 异常", BODY, room=500, limit=40)
    assert len(cell) <= 40


def test_nothing_new_keeps_the_title():
    title = "use_thd_format 训练 loss 异常"
    assert with_report_facts(title, "打开 use_thd_format 之后 loss 异常。", room=80) == title


def test_other_language_is_not_mixed_in():
    title = "thd 格式训练 loss 异常"
    assert with_report_facts(title, "With use_thd_format enabled the loss jumps to 21.", room=80) == title


def test_no_colon_after_a_question():
    cell = with_report_facts("thd 格式训练 loss 为什么异常？", BODY, room=80)
    assert "？：" not in cell and cell.startswith("thd 格式训练 loss 为什么异常？") and "use_thd_format" in cell


def test_a_lead_in_to_code_is_not_a_fact_of_the_row():
    # the sentence only announces the code block that follows it: alone it stops at its colon
    body = "需要修改的部分是把import tigo替换为textgrid。\n例如在gen_duration_from_textgrid.py中：\n```python\nfrom praatio import textgrid\n```"
    cell = with_report_facts("升级praatio到5.0", body, room=80)
    assert not cell.endswith(("：", ":"))
    assert "gen_duration_from_textgrid.py中：" not in cell


def test_a_sentence_announcing_what_followed_it_is_not_taken():
    # "例如在 X 中：" stood before a code block the row does not carry (paddle-threads PaddleSpeech#1151)
    body = "是否可以考虑把 praatio 升级到 5.0 呢？\n例如在 gen_duration_from_textgrid.py 中：\n```python\nx\n```"
    cell = with_report_facts("升级 praatio", body, room=80)
    assert not cell.rstrip().endswith(("：", ":"))
