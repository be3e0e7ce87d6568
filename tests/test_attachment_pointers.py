"""Issue #22: a clause that only points at attached material ("附上完整日志供参考。", "log attached")
says nothing about the failure, so a case's failure mode is read without it; a clause that says
something about logging as the failure ("日志没有打印 rank 信息") still counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from fixlore.compose import lessons
from fixlore.core.model import Case, Written
from fixlore.rules.words import points_at_attachment, without_pointers

POINTERS = ("附上完整日志供参考。", "日志见附件", "详细日志请见附件。", "完整日志如下：", "附件是训练日志", "log attached",
            "Logs attached.", "see the attached log", "full logs below", "Please find the full log attached.",
            "Attached is the complete log file.", "Here is the full log:")


@pytest.mark.parametrize("clause", POINTERS)
def test_a_pointer_to_attached_material_is_recognised(clause):
    assert points_at_attachment(clause.rstrip("。.：:")), clause


@pytest.mark.parametrize("clause", ["日志没有打印 rank 信息", "no log output after step 3", "报错日志见附件",
                                    "see the log", "日志", "日志在训练中丢失", "log level is wrong",
                                    "the attached config breaks the run", "附件上传失败"])
def test_a_clause_that_says_something_is_kept(clause):
    assert not points_at_attachment(clause)
    assert without_pointers(clause) == clause


def test_without_pointers_drops_only_the_pointer_clauses():
    assert without_pointers("启动就报错。附上完整日志供参考。") == "启动就报错。"
    assert without_pointers("log attached, training hangs at step 3") == "training hangs at step 3"
    assert "rank" in without_pointers("日志见附件。日志没有打印 rank 信息")


def _case(problem: str) -> Case:
    return Case(repo="o/alpha", number=1, title=problem.split("，")[0].split("。")[0], problem=problem,
                funnel="selected", url="https://gitcode.com/o/alpha/issues/1", written=Written(lang="zh"))


def test_logging_as_the_failure_still_shows_observe():
    # the observe mode's English cues do not include "log" ("no log output" is read as written: above)
    assert lessons.OBSERVE in lessons.modes_of(_case("训练卡住不动，日志没有打印 rank 信息"))


def test_a_pointer_alone_shows_no_observe():
    assert lessons.OBSERVE not in lessons.modes_of(_case("启动就报错。附上完整日志供参考。"))
    assert lessons.OBSERVE in lessons.modes_of(_case("启动就报错。日志没有打印 rank 信息。"))


REPORTS = ("训练中 loss 变成 nan，精度对不上", "心跳校验失败，健康的节点被误判超时", "解析速度很慢，显存占用翻倍",
           "启动就报错，提示 ImportError", "请问这个参数怎么用，文档里没有说明", "环境是 Ubuntu 22.04",
           "指标采集不全，监控面板缺数据", "Feature request: provide Docker images")


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(REPORTS), st.sampled_from(POINTERS), st.integers(0, 2))
def test_adding_a_pointer_never_changes_the_mode(problem, pointer, where):
    sep = "。" if "\u4e00" <= pointer[0] <= "\u9fff" or "\u4e00" <= problem[-1] <= "\u9fff" else ". "
    extended = (f"{pointer}{sep}{problem}", f"{problem}{sep}{pointer}", f"{problem}，{pointer}")[where]
    assert lessons.modes_of(_case(extended)) == lessons.modes_of(_case(problem))
