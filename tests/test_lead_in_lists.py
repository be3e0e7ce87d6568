"""Issue #22: a lead-in ("原因如下：", "Steps:", a line ending "。" that announces a list) followed by
a numbered or bulleted list: the sentences a row chooses from (`rules.text.sentences`, which joins
lines by `rules.lines.joined`) keep every item whole, and the lead-in never stands alone as a
sentence (it goes with the first item, as a colon reads)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from fixlore.rules.lines import joined
from fixlore.rules.text import sentences

ZH_ITEMS = ("缓存未清理导致显存泄漏", "通信组在每步重复创建", "权重加载时跳过了 lm_head", "调度器漏算了预热步数")
EN_ITEMS = ("install the package from source", "run the training script with --bf16",
            "the cache is never cleared between steps", "set HCCL_CONNECT_TIMEOUT to 600")
ZH_LEADS = ("原因如下：", "修改如下：", "主要改动：", "修改如下。", "原因如下", "原因有两点：", "原因有两点。", "分三步。")
EN_LEADS = ("Steps:", "The fix does the following:", "Changes made:", "This PR does the following.", "There are two reasons.")
MARKS = ("1. ", "1) ", "1、", "- ", "* ", "（1）", "①")


def _mark(mark: str, i: int) -> str:
    if mark == "①":
        return chr(0x2460 + i)
    return re.sub(r"1", str(i + 1), mark, count=1)


def _text(lead: str, items: list[str], mark: str, blank: bool = False) -> str:
    return lead + ("\n\n" if blank else "\n") + "\n".join(_mark(mark, i) + it for i, it in enumerate(items))


def _check(lead: str, items: list[str], out: list[str]) -> None:
    for it in items:
        holding = [s for s in out if it in s]
        assert len(holding) == 1, (it, out)          # whole, once: never split, never lost
    bare = lead.rstrip("：:。. ")
    assert all(s.rstrip("：:。. ") != bare for s in out), out   # the lead-in never stands alone


@pytest.mark.parametrize("text, first", [
    ("原因如下：\n1. 缓存未清理导致显存泄漏\n2. 通信组在每步重复创建", "原因如下：缓存未清理导致显存泄漏"),
    ("Steps:\n- install the package from source\n- run the training script with --bf16",
     "Steps: install the package from source"),
    ("修改如下。\n1. 缓存未清理导致显存泄漏\n2. 通信组在每步重复创建", "修改如下：缓存未清理导致显存泄漏"),
    ("原因有两点。\n1. 缓存未清理导致显存泄漏\n2. 通信组在每步重复创建", "原因有两点：缓存未清理导致显存泄漏"),
])
def test_a_lead_in_goes_with_the_first_item_and_the_rest_stand_whole(text, first):
    assert joined(text.split("\n"))[0] == first
    lead, *rest = text.split("\n")
    _check(lead, [re.sub(r"^(?:\d\. |- )", "", r) for r in rest], sentences(text))


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.tuples(st.sampled_from(ZH_LEADS), st.lists(st.sampled_from(ZH_ITEMS), min_size=1, max_size=4, unique=True)),
                 st.tuples(st.sampled_from(EN_LEADS), st.lists(st.sampled_from(EN_ITEMS), min_size=1, max_size=4, unique=True))),
       st.sampled_from(MARKS), st.booleans())
def test_every_item_of_a_list_after_a_lead_in_stays_whole(lead_items, mark, blank):
    lead, items = lead_items
    _check(lead, items, sentences(_text(lead, items, mark, blank)))
