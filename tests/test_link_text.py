from fixlore.link.text import overlap, tokens


def test_words_are_lowered_once_and_camel_case_is_split():
    toks = tokens("loadNPUKernel fails; loadNPUKernel again, PARSER ok")
    assert {"loadnpukernel", "load", "npu", "kernel", "fails", "again", "parser"} <= toks
    assert "par" not in toks and "ok" not in toks          # all-caps words stay whole; short ones go


def test_without_a_camel_hint_mixed_words_stay_whole():
    assert tokens("Tensor Shape mismatch") == {"tensor", "shape", "mismatch"}


def test_cjk_bigrams_and_stopwords():
    toks = tokens("显存溢出 the fix for 问题")
    assert {"显存", "存溢", "溢出"} <= toks
    assert not toks & {"the", "fix", "for", "问题"}


def test_letters_whose_lower_case_is_ascii_are_cut_after_lowering():
    assert "kelvin" in tokens("\u212aELVIN scale")
    assert overlap(tokens("NPU memory leak"), tokens("fix npu memory")) == 1.0
