"""Issue text is hostile input: the rules read a body in time linear in its length. A pattern that
rescans the rest of the text from every place it may start (quadratic) or backtracks over nested
quantifiers is caught by comparing the time for n and 4n characters of a pathological body: linear
work grows ~4x, quadratic ~16x. The bound is a ratio plus a fixed slack, not a wall-clock limit, so a
slow or busy machine does not make it flake."""

from __future__ import annotations

import time

import pytest

from fixlore.rules import markup, refs, text, trims, words
from fixlore.rules.funnel import junk

N = 20_000


def _seconds(fn, body: str) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        fn(body)
        best = min(best, time.perf_counter() - start)
    return best


CASES = [
    (text.sentences, "["),            # Markdown link text scanned to the end from every "[" (138 s on 200 KB)
    (text.sentences, "!["),
    (text.sentences, "[a]("),         # a link target scanned to the end from every "]("
    (text.sentences, "a\n"),          # lines broken mid-sentence joined by copying the growing line
    (text.sentences, " \t"),          # a table rule's two blank runs with an optional bar between
    (text.clean_body, "[a]("),
    (markup.markup_free, "["),
    (markup.markup_free, "<script"),  # a script block with no closing tag, scanned from every opening
    (refs.files_only, "a-a-/"),       # owner/repo before a ticket mark, scanned from every word
    (refs.files_only, " \t"),         # blanks before a ticket mark, scanned from every blank
    (refs.without_refs, " \t"),
    (refs.without_written_refs, "a_"),  # an optional owner/repo before "#N", scanned from every word
    (junk.without_mash, "asdfg"),      # a one-row run backtracked from every start
    (junk.technical, "a_"),
    (refs.duplicate_of, "dup "),       # an optional preposition before "#N", retried from every "dup"
    (words.without_pointers, "the full log "),   # one long clause of pointer words, read word by word
    (words.without_pointers, "附上日志 \t"),
    (words.without_pointers, ". "),
]


@pytest.mark.parametrize(("fn", "unit"), CASES, ids=[f"{f.__name__}-{u!r}" for f, u in CASES])
def test_time_grows_linearly_on_pathological_text(fn, unit):
    small = _seconds(fn, unit * (N // len(unit)))
    large = _seconds(fn, unit * (4 * N // len(unit)))
    assert large <= 8 * small + 0.25, f"{fn.__name__} on {unit!r}: {small:.3f}s for n, {large:.3f}s for 4n"


@pytest.mark.parametrize(("unit", "tail"), [(" ", "cut"), ("；  ", "略")])
def test_a_trim_notes_blanks_are_read_once(unit, tail):
    """A trim note's leading blanks were tried from every blank of a run: 100 KB of blanks and "cut", 141 s."""
    fn = trims.without_trim_notes
    small = _seconds(fn, unit * (N // len(unit)) + tail)
    large = _seconds(fn, unit * (4 * N // len(unit)) + tail)
    assert large <= 8 * small + 0.25, f"{unit!r}+{tail!r}: {small:.3f}s for n, {large:.3f}s for 4n"


def test_linked_text_is_kept_and_targets_with_brackets_are_dropped():
    assert text.clean_body("see [the guide](https://x.org/a_(b)) now") == "see the guide now"
    assert text.clean_body("[a [b](https://x.org/u) c") == "[a b c"
    assert markup.markup_free("x <script>alert(1)</script> y").split() == ["x", "y"]


def test_wrapped_lines_still_join():
    assert text.sentences("the driver fails when the\nmodel is loaded twice") == \
        ["the driver fails when the model is loaded twice"]
    assert refs.files_only("Fix vllm-project/vllm-ascend#2033.")


@pytest.mark.parametrize("line", ["已在 r1.0 修复 #12", "已在 v2.3 修复 #12", "已在 8.5.RC1 修复 !12", "已在 26.0.rc1 修复 #12"])
def test_a_line_naming_the_release_of_its_fix_is_kept(line):
    assert not refs.files_only(line)
    assert text.sentences(line) == [line]
    assert refs.files_only("已在 #12 修复") and refs.files_only("Fixes #115") and refs.files_only("+## 2.1.2")


def test_a_lead_in_before_a_numbered_item_still_joins_it():
    """Seen on npu-threads (LMCache-Ascend PR #169): "Changes:" / "1." / "Patch …" is one sentence."""
    assert text.sentences("Changes:\n1. Patch vllm-ascend to initialize KV cache in NZ format\nTested on 310P") == \
        ["Changes: Patch vllm-ascend to initialize KV cache in NZ format", "Tested on 310P"]


def test_a_list_of_refs_is_read_whole():
    """Every reference of a list goes, the blanks after a comma with it (a blank run read from its start
    only must not stop at the second one: torch-xpu-ops #4604's "PRs #4303, #4312")."""
    assert refs.without_refs("via PRs #4303, #4312). Done") == "via PRs). Done"
