"""A thread URL is written as ` owner/repo#N ` (rules.refs.urls_as_keys); the mark closing around it stays."""

from fixlore.rules.refs import urls_as_keys
from fixlore.rules.text import sentences


def test_the_url_tail_goes_with_it():
    assert urls_as_keys("see https://github.com/a/b/issues/3#issuecomment-12 now").split() == ["see", "a/b#3", "now"]
    assert urls_as_keys("https://gitcode.com/Ascend/x/merge_requests/7/diffs").strip() == "Ascend/x#7"


def test_a_markdown_links_closing_paren_stays():
    text = "See [previous PR.](https://github.com/microsoft/onnxruntime/pull/25455) for details (the bench is below)."
    assert ")" in urls_as_keys(text).split("onnxruntime#25455", 1)[1][:3]
    said = " ".join(sentences(text))
    # the link reads as its text: no half-link left over, and the words after it are not swallowed
    assert "](" not in said and "for details" in said and "the bench is below" in said


def test_chinese_marks_close_it_too():
    assert urls_as_keys("（见 https://gitcode.com/a/b/issues/9）").strip("（）").split() == ["见", "a/b#9"]
