"""Platform text cleaned at the edge, bidi controls neutralised when rendered, theme words never from markup."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from fixlore.rules.markup import markup_free
from fixlore.analyse.themes import assign_themes
from fixlore.core.model import Case
from fixlore.sources import gitcode, github
from fixlore.core.textclean import VISIBLE_MARK, clean_text, neutralise_bidi, rendered

_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc" and ch not in "\t\n\r"


@given(st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF)))
def test_clean_text_leaves_no_control_character_and_is_idempotent(text):
    cleaned = clean_text(text)
    assert not any(_is_control(ch) or 0xD800 <= ord(ch) <= 0xDFFF for ch in cleaned)
    assert clean_text(cleaned) == cleaned
    cleaned.encode("utf-8")                     # every store can hold it
    # nothing but controls and surrogates is removed, and order is kept
    kept = [ch for ch in text if not (_is_control(ch) or 0xD800 <= ord(ch) <= 0xDFFF)]
    assert cleaned == "".join(kept)


@given(st.text())
def test_neutralised_text_holds_no_bidi_control_and_keeps_its_length(text):
    out = neutralise_bidi(text)
    assert not _BIDI.search(out) and len(out) == len(text)
    assert out.count(VISIBLE_MARK) == text.count(VISIBLE_MARK) + len(_BIDI.findall(text))


def test_the_exe_png_trick_reads_in_logical_order():
    assert rendered("invoice\u202egnp.exe\x00") == f"invoice{VISIBLE_MARK}gnp.exe"


def test_both_platforms_clean_every_string_they_read():
    raw = {"number": "7", "title": "crash\x00 \u202egnp.exe", "body": "a\x1b[31mred\x1b[0m\tb\r\nc\x7f\x85",
           "state": "closed", "labels": [{"name": "bug\x00"}], "user": {"login": "eve\x00"},
           "created_at": "2026-09-17T10:00:00+08:00", "updated_at": "2026-09-17T10:00:00+08:00"}
    for issue in (gitcode.normalize_issue(dict(raw), "o/r"), github.normalize_issue(dict(raw), "o/r")):
        assert issue.title == "crash \u202egnp.exe"            # bidi kept in the store, neutralised when shown
        # the colour sequences go whole (ESC [ 31 m), not only their ESC: no "[31m" left in the text
        assert issue.body == "ared\tb\r\nc" and issue.labels == ["bug"] and issue.author == "eve"
        assert issue.raw["title"] == raw["title"]              # the raw payload keeps the original


def test_markup_free_keeps_words_and_drops_markup():
    text = ("加载报错 <img src=x onerror=alert(1)> &lt;script&gt;alert(2)&lt;/script&gt; see [the guide](javascript:x) "
            "![pic](http://e/p.png) <svg\nonload=alert(3)> KeyError &amp; javascript:alert(4)")
    out = markup_free(text)
    for word in ("img", "src", "onerror", "alert", "script", "svg", "onload", "javascript", "amp"):
        assert word not in out, word
    for word in ("加载报错", "the guide", "KeyError"):
        assert word in out


def test_theme_names_never_come_from_markup():
    reports = [
        ("加载模型报错 <img src=x onerror=alert(1)>", "启动时加载 safetensors 报 KeyError <img src=x onerror=alert(1)>"),
        ("加载模型 KeyError <script>alert(1)</script>", "加载 safetensors 权重 KeyError &lt;img src=x&gt;"),
        ("推理服务超时 <svg onload=alert(1)>", "推理 服务 流式 超时 [x](javascript:alert(1))"),
        ("推理服务 流式 超时", "<IMG SRC=\"javascript:alert(1)\"> 推理 服务 超时"),
    ]
    cases = [Case(repo="o/r", number=i, title=t, problem=p) for i, (t, p) in enumerate(reports)]
    themes = assign_themes(cases)
    words = {w for name in themes for w in name.split("-")}
    assert not words & {"img", "src", "alert", "onerror", "script", "svg", "onload", "javascript", "lt", "gt"}, themes
    assert len(themes) >= 1
