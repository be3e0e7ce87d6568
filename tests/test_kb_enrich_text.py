"""The knowledge-base query's text: a fenced block (as a Markdown parser finds it) keeps its first
lines; backticks inside a sentence are no fence, and the words between them stay in the query."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fixlore.kb.enrich import clean_text


def test_an_inline_run_of_backticks_is_no_fence_and_keeps_its_words():
    # a GitHub issue of the npu-threads world: the old reading took ``` for a fence and dropped
    # "shared_expert", the one identifier the sentence is about
    text = "- [ ] Quantization of ```shared_expert``` causes accuracy to drop to 0\n- [ ] W4A8 MoE gives 0"
    assert "shared_expert causes" not in clean_text(text, 900)
    assert "```shared_expert``` causes accuracy" in clean_text(text, 900)


def test_a_long_fence_keeps_its_first_five_lines_with_either_marker():
    log = "\n".join(f"E{i:02d} frame {i}" for i in range(40))
    for marker in ("```", "~~~", "````"):
        got = clean_text(f"Crash on start:\n{marker}text\n{log}\n{marker}\nAfter the log.", 2000)
        assert got.split("\n") == ["Crash on start:", "E00 frame 0", "E01 frame 1", "E02 frame 2", "E03 frame 3",
                                   "E04 frame 4", "After the log."], marker


def test_a_fence_in_a_list_item_keeps_the_item_marker_and_crlf_text_is_read_alike():
    text = "Steps:\r\n1. ```sh\r\n   npu-smi info\r\n   ```\r\nthen it hangs"
    assert clean_text(text, 900).replace("\r", "") == "Steps:\n1. npu-smi info\n ```\nthen it hangs"


@given(st.text(alphabet=st.sampled_from(list("ab `~\n\r#>-*1.")), max_size=200))
def test_any_text_is_shortened_without_error_and_within_its_limit(text):
    got = clean_text(text, 120)
    assert len(got) <= 120 and got == got.strip()
