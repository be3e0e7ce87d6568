"""Issue #22's follow-ups: one rule where two stood. Every text fitter stops by one colon rule
(`rules.clauses.leaves_open`); the guide reads a case's fix by `Case.fix_state` (a fix merged after
the close is landed); the disclosure and the timing chart name the late close by its lag, since
timing alone does not tell who closed; the English disclosure says the merge rule and the
knowledge-base count in words, not field names."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from fixlore.analyse.fit import fit_cell
from fixlore.compose.charts import timing_chart
from fixlore.compose.digest import build_digest
from fixlore.compose.figures import Refs
from fixlore.compose.guide import guide
from fixlore.compose.steps import fit as guide_fit
from fixlore.core.enums import FixState, Timing, Trap
from fixlore.core.model import Case, FixRef, Written
from fixlore.rules.clauses import fit, is_open, leaves_open, whole_clauses, without_dangling
from test_digest import analysed_world

AT = datetime(2026, 9, 18, 10, tzinfo=timezone(timedelta(hours=8)))


def _pr(repo: str, n: int, state: str, at: datetime | None) -> FixRef:
    return FixRef(repo=repo, number=n, role="fix", state=state, merged_at=at,
                  url=f"https://gitcode.com/{repo}/merge_requests/{n}")


# a reply that lists its reasons: the row keeps "主要原因是：1" when its list is cut after the first number
LISTED = "910b NPU 支持目前不在主线规划上，主要原因是：1"


def test_every_fitter_stops_by_one_colon_rule():
    """Rows (fit, without_dangling), theme bullets (whole_clauses) and guide cells (steps.fit) read
    the same colon: a clause that ends on one, or on its list cut after the first number, announces
    what the text no longer carries. The theme bullet kept the cut list (npu-threads
    mineru-tianshu#27) while rows dropped it."""
    assert leaves_open(LISTED) and leaves_open("dockerfile build guidance:") and leaves_open("主要有，")
    assert not leaves_open("910b NPU 支持目前不在主线规划上")
    assert whole_clauses(LISTED, 90) == "910b NPU 支持目前不在主线规划上"
    assert without_dangling(LISTED) == "910b NPU 支持目前不在主线规划上"
    assert fit(LISTED + "，2 是算子缺失", 30) == "910b NPU 支持目前不在主线规划上"
    assert guide_fit(LISTED + "，2 是算子缺失。", 25) == "910b NPU 支持目前不在主线规划上"
    assert is_open(LISTED) and is_open("guidance:") and not is_open("这个方法适合误安装了 tools 包的用户")
    # a text that is whole and ends a clause stays whole in every fitter
    whole = "类型注解改回 typing.Union，支持 Python 3.8 及以上"
    assert whole_clauses(whole, 90) == without_dangling(whole) == fit(whole, 90) == fit_cell(whole, 90) == whole


def _late(repo: str, n: int, title: str, late: FixRef) -> Case:
    return Case(repo=repo, number=n, title=title, problem=title, funnel="selected", pending_fix=[late],
                timing=Timing.BEFORE_MERGE, traps=[Trap.CLOSED_BEFORE_MERGE], closed_at=AT,
                url=f"https://gitcode.com/{repo}/issues/{n}",
                written=Written(lang="zh", mechanism=f"{title}，根因在 key_{n}"))


def test_the_guide_reads_a_fix_merged_after_the_close_as_landed():
    """mind-cluster#1165's shape: closed ten hours before the PR merged. The guide said nothing of
    the PR (it read `c.fix`, empty, and the open-PR list skips a merged one); by `fix_state` it is the
    landed fix, and two cases the same late PR fixed share a row."""
    late = _pr("o/alpha", 91, "merged", AT + timedelta(hours=10))
    a = _late("o/alpha", 1, "容器里配置文件是只读挂载，无法修改", late)
    b = _late("o/alpha", 2, "默认挂载文件导致训练拉起失败", late)
    assert a.fix_state == FixState.LANDED and not a.fix
    rows = guide([a, b], Refs([a, b]), ["o/alpha"], "zh")
    assert len(rows) == 1, rows                                  # one merged PR fixed both
    action = rows[0]["first_action"]
    assert "!91 已合入" in action and "未合入" not in action, action
    en = guide([a], Refs([a]), ["o/alpha"], "en")[0]["first_action"]
    # the bracket says it landed, or the check asks for it in the reader's build (only a landed fix is asked for)
    assert ("landed in !91" in en or en.endswith("whether your build includes !91")) and "not merged" not in en, en


def _later_world() -> list[Case]:
    lag = 26 * 3600
    return [Case(repo="o/alpha", number=n, title=f"参数 key_{n} 默认值不对，任务起不来", problem=f"参数 key_{n} 默认值不对",
                 funnel="selected", fix=[_pr("o/alpha", 80 + n, "merged", AT)], timing=Timing.LATER, lag_s=lag,
                 closed_at=AT + timedelta(seconds=lag), url=f"https://gitcode.com/o/alpha/issues/{n}",
                 written=Written(lang="zh", mechanism=f"key_{n} 的默认值写错"))
            for n in (1, 2)]


def test_the_late_close_is_named_by_its_lag_not_by_who_closed():
    """Rows say "合入 26 小时后关单": the timing does not tell a person from a bot that closes a day
    later (three npu-threads rows closed 24 h after their merges by one account). The disclosure's
    timing distribution and the timing chart say the same, in both languages."""
    cases = _later_world()
    for lang, hand in (("zh", ("人工", "手动")), ("en", ("by hand", "manually"))):
        d = build_digest(cases, {}, lang)
        timing = " ".join(x["text"] for x in d["disclosure"])
        bars = [b["label"] for b in timing_chart({"later": 2}, lang)["bars"]]
        for said in [timing] + bars:
            assert not any(h in said for h in hand), said
        assert any(w in bars[0] for w in ("一小时后", "over an hour")), bars
    zh = " ".join(x["text"] for x in build_digest(cases, {}, "zh")["disclosure"])
    assert "合入一小时后关单 2" in zh, zh
    en = " ".join(x["text"] for x in build_digest(cases, {}, "en")["disclosure"])
    assert "closed over an hour after the merge 2" in en, en


def test_the_english_disclosure_says_its_rules_in_words_not_field_names():
    cases, run = analysed_world()
    d = build_digest(cases, run, "en")
    text = " ".join(x["text"] for x in d["disclosure"])
    for raw in ("kb_refs", "state ==", "merged_at", "updated_at", "== merged"):
        assert raw not in text, raw
    merge = next(x["text"] for x in d["disclosure"] if x["label"] == "Merge rule")
    assert "merge time" in merge


def test_the_analyst_tells_the_reader_to_upgrade_to_a_fix_merged_after_the_close():
    """The case's first action read `c.fix` only: a fix merged ten hours after the close (kept in
    `pending_fix`) was neither an upgrade nor a PR to watch."""
    from fixlore.analyse.offline import OfflineAnalyst

    late = _pr("o/alpha", 91, "merged", AT + timedelta(hours=10))
    case = _late("o/alpha", 1, "容器里配置文件是只读挂载，无法修改", late)
    assert OfflineAnalyst().first_action(case, [], True).startswith("升级到含 !91 的版本")
    assert OfflineAnalyst().first_action(case, [], False).startswith("upgrade to a build with !91")
