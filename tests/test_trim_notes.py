"""Issue #22: a shortener's note where a text was cut ("(rest cut)", "（其余略）") is never a fact
and never reaches a row (rules/trims.py)."""

from fixlore.rules.text import sentences
from fixlore.rules.trims import without_trim_notes


def test_english_and_chinese_notes_go():
    assert without_trim_notes("Point `hcomm` at tag v9.0.0 (rest cut).") == "Point `hcomm` at tag v9.0.0."
    assert without_trim_notes("Tests passed (log cut)") == "Tests passed"
    assert without_trim_notes("x (the rest of the description is cut)") == "x"
    assert without_trim_notes("y (steps to reproduce cut; the excerpt ends here)") == "y"
    assert without_trim_notes("缓存命中率下降（其余略）") == "缓存命中率下降"
    assert without_trim_notes("见日志（后略）") == "见日志"


def test_a_note_closing_a_bracket_of_its_own_words_loses_only_the_note():
    assert without_trim_notes("(一条样例的 JSON：要求最后一行为答案；其余省略)") == "(一条样例的 JSON：要求最后一行为答案)"


def test_a_sentence_about_truncation_stays():
    text = "（截断是 0.3 版本的旧代码，已在重构中删除）"
    assert without_trim_notes(text) == text


def test_sentences_never_carry_a_note():
    said = sentences("Root cause: the vllm in the CI image no longer matches vllm-omni (excerpt cut).")
    assert said and not any("cut" in s for s in said)


def test_a_long_run_of_blanks_is_kept_as_written():
    # hostile input: a body of blanks that names a cut once (its time is measured in test_rules_linear.py)
    assert without_trim_notes(" " * 100_000 + "cut") == " " * 100_000 + "cut"
    assert without_trim_notes("x" + "；" + " " * 100_000 + "略").endswith("略")


def test_a_note_naming_what_was_left_out_goes():
    # notes in the tune worlds' texts that name what the shortener left out
    assert without_trim_notes("调用栈如下（调用链略）") == "调用栈如下"
    assert without_trim_notes("报错见下（表格略）。") == "报错见下。"
    assert without_trim_notes("执行 dir（dir 输出略）") == "执行 dir"
    assert without_trim_notes("复现如下(完整复现脚本略)") == "复现如下"
    assert without_trim_notes("日志如下（此处省略）") == "日志如下"


def test_words_ending_like_a_note_stay():
    for text in ("采用新的调度（重试策略）", "参数 --foo（可省略）", "参数 --bar（不可省略）", "warning（可忽略）"):
        assert without_trim_notes(text) == text


def test_a_bracket_saying_not_to_cut_is_no_note():
    # a shortener's note says what it cut; a reporter's "(don't cut)" is advice
    for text in ("Set the flag (don't cut).", "Keep the padding (must not cut)", "(never cut) the tail"):
        assert without_trim_notes(text) == text


def test_english_notes_of_every_shape_go():
    # notes in the tune worlds' texts the first pattern missed: names with '_', '+', '.', a bare
    # "(cut)", "here" / "from the excerpt" after it, and "<what it was>; cut"
    for note in ("(collect_env output cut)", "(repro and generated C++ cut)", "(cut)", "(excerpt cut here)",
                 "(details cut from the excerpt)", "(the arrays it was invoked with; cut)",
                 "(the environment block, npu-smi table and CANN 8.5.1 info are cut)"):
        assert without_trim_notes(f"Root cause found {note}.") == "Root cause found.", note
