"""Junk tickets (rules.funnel.junk) and the other spellings of "not resolved" (issue #23)."""

import pytest
from hypothesis import given, settings, strategies as st

from fixlore.rules.funnel import FunnelConfig, cheap_funnel
from fixlore.rules.funnel.junk import is_junk, without_mash
from fixlore.rules.refs import duplicate_of

from test_link_builders import SINCE, issue, t

_MASHED_FORM = ("### Issue type\n\nBug\n\n### TensorFlow version\n\n2.8\n\n### Current behavior?\n\n"
                "fadsfadsdfdasfadsfd\n\n### Standalone code to reproduce the issue\n\n```shell\ndfdsf\n```")
_UNFILLED = ("**Is your feature request related to a problem? Please describe.**\n"
             "A clear and concise description of what the problem is.\n\n**Additional context**\n"
             "Add any other context or screenshots about the feature request here.")


def _stage(*issues, **cfg):
    got = cheap_funnel(list(issues), SINCE, FunnelConfig(**cfg) if cfg else None)
    return got[issues[0].key]


@pytest.mark.parametrize("title, body, kw, want", [
    ("I am spammer with no shame", "I am a spammer", {}, "noise"),
    ("adfdafad", _MASHED_FORM, {}, "noise"),
    ("crash on start", "please help", {"labels": ["spam"]}, "noise"),
    ("crash on start", "please help", {"raw": {"active_lock_reason": "spam"}}, "noise"),
    ("推理服务报错", "这是广告", {}, "noise"),
    # a terse real report is not junk: a title of its own, or a traceback in the body
    ("Segfault", "", {}, "pool"),
    ("asdfgh", "Traceback (most recent call last):\n  ValueError: bad shape", {}, "pool"),
    ("asdfgh", "```\nimport torch\ntorch.zeros(3).cuda()\n```", {}, "pool"),
    ("Warnings spam the log", "the logger spams deprecation warnings on every step", {}, "pool"),
    ("this is spam", "KeyError: 'spam' when loading config_name", {}, "pool"),
    ("[Bug]: ", "", {}, "noise"),
    ("[Bug]: ", "![image](https://github.com/user-attachments/assets/1.png)", {}, "pool"),   # a screenshot report
    ("[PaddleOCR 推理报错]", "", {}, "pool"),     # a bracketed phrase is the filer's title, not a tag
    ("2024", "", {}, "pool"),    # only the template's title tag, nothing else
])
def test_junk_table(title, body, kw, want):
    one = issue(1, title, body=body, closed=t(18), **kw)
    assert _stage(one) == want


def test_unfilled_template_is_junk_only_when_the_template_is_the_repositorys():
    """The placeholder lines are the template's once two writers' bodies share them."""
    empty = issue(1, "[REQUEST]", body=_UNFILLED, closed=t(18), author="a")
    filled = issue(2, "[REQUEST] support Muon", body=_UNFILLED + "\nMuon optimizer in ZeRO stage 3", closed=t(18),
                   author="b")
    assert _stage(empty) == "pool"                  # alone: its lines may be the filer's own
    assert _stage(empty, filled) == "noise"
    assert _stage(filled, empty) == "pool"


def test_spam_label_vocabulary_and_scoped_label():
    cfg = FunnelConfig()
    one = issue(1, "hello", closed=t(18), labels=["status: spam"])
    assert is_junk(one, frozenset(), cfg.noise_labels)
    assert not is_junk(issue(2, "hello world", closed=t(18), labels=["area/spam-filter"]), frozenset(), cfg.noise_labels)


@pytest.mark.parametrize("label", ["不予修复", "不予处理", "won't do", "closed::will not do", "Status: Won't Fix",
                                   "not_planned", "无效", "重复"])
def test_unresolved_spellings(label):
    assert _stage(issue(1, closed=t(18), labels=[label])) == "unresolved"
    assert _stage(issue(1, closed=t(18), workflow_state=label.split("::")[-1])) in ("unresolved", "pool")


@pytest.mark.parametrize("state", ["不予修复", "WONT_DO", "won't do", "NOT_PLANNED"])
def test_unresolved_states(state):
    assert _stage(issue(1, closed=t(18), workflow_state=state)) == "unresolved"


def test_stale_label_in_chinese_is_a_stale_label():
    assert FunnelConfig().stale_label(["已过期"]) == "已过期"
    assert _stage(issue(1, closed=t(18), labels=["已过期"])) == "pool"    # the thread decides (stale_reason)


@pytest.mark.parametrize("text, dup", [
    ("Duplicate of #12", True), ("Duplicate #12", True), ("dup #12", True), ("duplicates #12", True),
    ("重复了 #12", True), ("重复 #12", True), ("duplicated in #12 path", False), ("no duplicate here", False),
])
def test_duplicate_without_preposition(text, dup):
    assert bool(duplicate_of(text)) is dup


_ROW = st.sampled_from(["qwertyuiop", "asdfghjkl", "zxcvbnm"])


@given(_ROW.flatmap(lambda row: st.text(alphabet=row, min_size=5, max_size=30)))
@settings(max_examples=60, deadline=None)
def test_any_one_row_run_is_mashing(run):
    assert without_mash(f"see {run} here").split() == ["see", "here"]


@given(st.text(max_size=300), st.text(max_size=60), st.lists(st.text(max_size=12), max_size=4))
@settings(max_examples=80, deadline=None)
def test_hostile_text_never_raises_and_a_traceback_is_never_junk(body, title, labels):
    one = issue(1, title, body=body, closed=t(18), labels=labels)
    is_junk(one, frozenset(), FunnelConfig().noise_labels)
    trace = issue(2, "qwerty", body=body + "\nTraceback (most recent call last):\nValueError: x", closed=t(18))
    assert not is_junk(trace, frozenset(), ())
