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
