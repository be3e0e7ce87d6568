"""Process tickets on a tracker without issue types (issue #13): title tags and process labels."""

import pytest
from hypothesis import given, strategies as st

from fixlore.rules.funnel import FunnelConfig, cheap_funnel
from fixlore.rules.funnel.cheap import title_tag

from test_link_builders import SINCE, issue, t


def _stage(one):
    return cheap_funnel([one], SINCE, FunnelConfig())[one.key]


@pytest.mark.parametrize("title", ["[RFC]: unified KV offload API", "RFC: unified KV offload API",
                                   "【RFC】统一 KV 卸载接口", "[rfc] unified KV offload API", "(Roadmap) 2026 H2",
                                   "Tracking issue - NPU graph mode", "[Tracker] NPU graph mode", "[Task] bump CANN",
                                   "[TODO] drop the py3.9 wheels", "【任务】适配新版驱动", "Epic: multi-node serving"])
def test_a_process_tag_in_front_makes_an_untyped_issue_internal(title):
    assert _stage(issue(1, title, closed=t(18))) == "internal"


@pytest.mark.parametrize("title", ["Crash when the RFC parser meets a tab", "roadmap page 404s",
                                   "[Bug][RFC] wrong dtype", "[Bug]: tracking id lost after restart",
                                   "fix: task queue deadlock", "Task failed: OOM at step 3", "[Feature] RFC 7231 dates"])
def test_the_words_elsewhere_in_a_title_keep_it_a_report(title):
    assert _stage(issue(1, title, closed=t(18))) == "pool"


def test_process_labels_mark_internal_in_any_spelling():
    for label in ("RFC", "roadmap", "Tracking Issue", "tracking-issue", "epic"):
        assert _stage(issue(1, "unified KV offload API", closed=t(18), labels=[label])) == "internal", label
    assert _stage(issue(2, "unified KV offload API", closed=t(18), labels=["ci-failure"])) == "pool"


def test_a_set_issue_type_decides_over_the_title_tag():
    assert _stage(issue(1, "[RFC] 流式数据加载", closed=t(18), issue_type="Feature")) == "pool"
    assert _stage(issue(2, "[RFC] 流式数据加载", closed=t(18), issue_type="任务")) == "internal"


def test_title_tags_are_configurable():
    cfg = FunnelConfig(internal_title_tags=("chore",))
    one = issue(1, "[Chore] rotate keys", closed=t(18))
    assert cheap_funnel([one], SINCE, cfg)[one.key] == "internal"
    assert cheap_funnel([issue(2, "[RFC] x y", closed=t(18))], SINCE, cfg)["Ascend/toolkit#2"] == "pool"


@given(st.text(max_size=80))
def test_title_tag_is_a_piece_of_the_title(title):
    tag = title_tag(title)
    assert tag == "" or tag in title


@given(st.sampled_from(["[{}]", "【{}】", "({})", "{}:", "{}：", "[{}]:", " [{}] "]),
       st.sampled_from(["RFC", "rfc", "Roadmap", "TRACKING", "Tracking Issue", "tracking_issue", "Task"]),
       st.text(alphabet="abc xyz", min_size=1, max_size=30))
def test_metamorphic_respelling_the_tag_keeps_the_verdict(shape, tag, rest):
    assert _stage(issue(1, shape.format(tag) + " " + rest, closed=t(18))) == "internal"
