"""A case's sentences by their role for the guide (compose/roles.py, issue #22): a cause, a change,
or only the status of the thread, which is never shown as a fix; the guide labels what it shows
原因 / 方案 / 答复, names the fix PR by its title when the analyst wrote nothing that fits, and says
the PR's state in the tense it allows (merged: 已合入, open: 待合入)."""

from __future__ import annotations

import pytest

from fixlore.compose.figures import Refs
from fixlore.compose.guide import guide
from fixlore.compose.roles import CAUSE, CHANGE, STATUS, content, label, role
from fixlore.compose.steps import pr_title
from fixlore.core.model import Case, Written

from case_builders import REPO, pr as _pr


@pytest.mark.parametrize("sentence", [
    "你好",                                                     # a greeting (paddle-threads FastDeploy#1378)
    "是的我安装了mmdetection，会引起冲突吗",                    # a question back
    "This pull request fixes LMCache/LMCache-Ascend#29",       # a PR template's link
    "Fixed issue: sgl-project/sgl-kernel-npu#625",
    "bug已由提出人修复",                                        # who fixed it, not what
    "修复 [issues #3565](https://github.com/o/r/issues/3565) 中提到的错误",
    "Old PRs and issues are being closed because they are no longer relevant",
    "确认，需要自排除",
])
def test_news_about_the_thread_is_status(sentence):
    assert role(sentence, "change", "o/r") == STATUS


def test_a_cause_and_a_change_are_told_apart_by_their_words_and_field():
    assert role("共享设备场景不支持 volcanoType，这里缺参数校验", "change") == CAUSE
    assert role("CM 大小限制由 1M 改为 100M（即 100 个 CM 分片）", "change") == CHANGE
    assert role("ascend-docker-runtime 出于安全考虑默认以只读方式挂载", "change") == CAUSE
    assert role("fix: Add erfc fallback implementation for Ascend backend", "action") == CHANGE
    assert role("resume 时 DCP 会静默跳过缺失分片", "mechanism") == CAUSE
    assert role("拆成 network_bandwidth 与 network_link 两组", "mechanism") == CHANGE


def test_a_leading_state_clause_is_dropped_and_the_rest_read():
    s = "PR#1309 已合入：抢锁超时 30s→2s 并与健康检查解耦"
    assert content(s) == "抢锁超时 30s→2s 并与健康检查解耦"
    assert role(s, "change") == CHANGE


def test_labels_per_language():
    assert [label(k, "zh") for k in (CAUSE, CHANGE, "answer")] == ["原因", "方案", "答复"]
    assert [label(k, "en") for k in (CAUSE, CHANGE, "answer")] == ["cause", "fix", "answer"]


def _cand(number: int, title: str, state: str = "merged") -> dict:
    return {"repo": REPO, "number": number, "verdict": "fix", "state": state, "merged_at": "", "base_ref": "",
            "title": title, "unrelated": "", "set_aside": "", "signals": []}


def _case(number: int, title: str, change: str = "", mechanism: str = "", fix_state: str = "merged",
          pr_title_: str = "") -> Case:
    fix = _pr(number + 100, fix_state)
    c = Case(repo=REPO, number=number, title=title, problem=title, funnel="selected", url=f"u{number}", fix=[fix],
             written=Written(lang="zh", change=change, mechanism=mechanism))
    if pr_title_:
        c.candidates = [_cand(number + 100, pr_title_, fix_state)]
    return c


def _row(c: Case, lang: str = "zh") -> str:
    return guide([c], Refs([c]), [REPO], lang)[0]["first_action"]


def test_a_greeting_is_never_the_fix_the_pr_title_is():
    c = _case(1378, "ppocrV3 预测报错 module numpy has no attribute astype", change="你好",
              pr_title_="[Bug Fix] 修正 serving 里 numpy astype 的调用")
    row = _row(c)
    assert "你好" not in row and row.startswith("修正 serving 里 numpy astype 的调用") and "!1478 已合入" in row, row


def test_an_english_pr_title_is_no_chinese_action_and_is_said_in_english():
    """An English title is not the Chinese row's whole action (issue #22): the order's next step."""
    c = _case(302, "win系统编译出错", pr_title_="issue/302 - fix compile error of window system")
    assert _row(c) == "先确认所用版本是否含 !402", _row(c)
    assert _row(c, "en").startswith("fix compile error of window system"), _row(c, "en")


def test_an_open_fix_is_waited_for_not_called_merged():
    c = _case(536, "packing 后跨文档注意力串味", change="预训练按完整文档 packing，cu_seqlens 隔离跨文档注意力",
              fix_state="open")
    row = _row(c)
    assert "待合入" in row and "已合入" not in row and "关注" not in row, row


def test_a_title_that_only_says_the_issue_is_fixed_is_not_a_fix_line():
    c = _case(2353, "Qwen3-TTS Base on NPU running failed", pr_title_="Fix Qwen3-TTS Base on NPU running failed")
    assert pr_title(c, c.fix[0]) == ""
    c = _case(179, "Sub operation returns wrong results", pr_title_="[Fix] #179 Add missing reciprocal in Divs")
    assert pr_title(c, c.fix[0]) == "Add missing reciprocal in Divs"
    c = _case(180, "x 报错", pr_title_='Revert "[Fix] #179 Add missing reciprocal in Divs"')
    assert pr_title(c, c.fix[0]) == ""


def test_a_cause_shown_without_a_change_is_labelled_a_cause():
    c = _case(870, "Qwen3-Next 三条回归失败", change="TP=2 下融合 qkvz 投影与本地 K/V head 分片未对齐")
    row = _row(c)
    assert row.startswith("原因：TP=2") and "!970 已合入" in row, row


def test_an_answer_without_code_is_labelled_an_answer():
    c = Case(repo=REPO, number=479, title="host_shm 部署报 Failed to put key", problem="host_shm 部署报 Failed to put key",
             funnel="selected", url="u479",
             written=Written(lang="zh", mechanism="`max.dram.size=50GB` 与 host_shm 叠加后超出共享内存",
                             workaround="1.2 分支 host_shm 协议下不应再设置该项"))
    row = _row(c)
    assert "；答复：1.2 分支" in row and "方案" not in row, row


@pytest.mark.parametrize("sentence", [
    "Fix [Bug]: Qwen3-TTS Base on NPU running failed #2323",   # the issue's title with "Fix" in front
    "Please see issue verl-project/verl#6707",
    "Duplicate with PaddlePaddle/PaddleSpeech#2512",
    "I met the same issue when I use the wrong deploy config path",
    "verl-project/verl#6043 in this pr device.py, we will merge it to v0.7.1",
])
def test_a_sentence_that_only_says_the_issue_is_fixed_or_points_elsewhere_is_status(sentence):
    assert role(sentence, "change", "o/r", "[Bug]: Qwen3-TTS Base on NPU running failed") == STATUS


def test_a_check_that_only_restates_the_error_is_no_check():
    c = Case(repo=REPO, number=13769, title="ModuleNotFoundError: No module named 'tools.infer'", funnel="selected",
             problem="ModuleNotFoundError: No module named 'tools.infer'", url="u", fix=[_pr(13603)],
             written=Written(lang="en", mechanism="No module named 'tools.infer' when run outside the repo root"))
    row = _row(c, "en")
    assert not row.lower().startswith("check whether no module"), row


def test_a_leading_tag_is_where_it_was_filed_not_what_it_says():
    assert content("[fix] Fix T.tile.atomic_add with slice syntax") == "Fix T.tile.atomic_add with slice syntax"
    assert content("【26.2.0】cherry-pick Qwen3-Next 适配修复") == "cherry-pick Qwen3-Next 适配修复"
    assert content("`[x]` 是一个列表") == "`[x]` 是一个列表"
