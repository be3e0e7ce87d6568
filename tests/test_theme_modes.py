"""The themes' failure modes read cue words as words (rules.words): an English cue matches where a
word starts and ends ('error' never finds 'terror', 'nan' never 'finance'); the modes a report
shows include false alarms, cost, requests and how-to questions."""

from __future__ import annotations

from fixlore.compose import lessons
from fixlore.core.model import Case, Written
from fixlore.rules.words import has_cue


def _case(n: int, title: str, repo: str = "o/alpha", mechanism: str = "") -> Case:
    return Case(repo=repo, number=n, title=title, problem=title, funnel="selected",
                url=f"https://gitcode.com/{repo}/issues/{n}", written=Written(lang="zh", mechanism=mechanism))


def test_english_cues_match_whole_words_with_their_inflections():
    assert not has_cue("The terror of maintenance", ("error", "nan"))
    assert has_cue("two Errors in the log", ("error",)) and has_cue("it crashed", ("crash",))
    assert has_cue("loss became NaN", ("nan",)) and has_cue("loss diverges", ("diverg*",))
    assert not has_cue("the amount is wrong", ("mount",)) and has_cue("mounted read-only", ("mount",))
    assert has_cue("启动就报错", ("报错",))


def test_a_word_inside_another_word_shows_no_mode():
    assert not lessons.matches(lessons.LOUD, _case(1, "Terror of a mirror"))
    assert lessons.matches(lessons.LOUD, _case(2, "Import errors on startup"))
    assert not lessons.matches(lessons.SILENT, _case(3, "maintenance of the finance module"))


def test_the_new_modes_are_read_from_the_report():
    assert lessons.modes_of(_case(1, "心跳校验失败，健康的节点被误判超时"))[0] is lessons.FALSE_ALARM
    assert lessons.modes_of(_case(2, "解析速度很慢，显存占用翻倍"))[0] is lessons.COST
    assert lessons.modes_of(_case(3, "Feature request: provide Docker images"))[0] is lessons.REQUEST
    assert lessons.modes_of(_case(4, "How to set the cache size?"))[0] is lessons.SUPPORT
    assert lessons.modes_of(_case(5, "请问这个参数怎么用"))[0] is lessons.CONFIG      # a setting asked about: configuration
    assert lessons.modes_of(_case(6, "咨询：为啥 L1 的大小是 511.75K"))[0] is lessons.SUPPORT


def test_two_how_to_questions_from_two_repositories_make_a_theme():
    kept = [_case(1, "How to enable the cache?"), _case(2, "咨询：为什么 batch 只能是 1", repo="p/beta"),
            _case(3, "a terror story", repo="q/gamma")]
    parts = lessons.partition(kept)
    assert [(m.key, [c.number for c in cs]) for m, cs in parts] == [("support", [1, 2])]
    assert [c.number for c in lessons.unthemed(kept, parts)] == [3]
