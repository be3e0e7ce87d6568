"""Insights across cases (compose/insights.py): a regression one PR brought in and a later PR fixed,
read from the case's cause and links; a PR that is the fix of cases from two repositories. Each
names its cases and says their count once; the editorial check adds it up."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from fixlore.compose import compute_figures
from fixlore.compose.check import check_digest
from fixlore.compose.digest import build_digest
from fixlore.compose.figures import Refs
from fixlore.compose.insights import insights
from fixlore.compose.render import markdown
from fixlore.compose.write import to_json
from fixlore.core.enums import Timing
from fixlore.core.model import Case, FixRef, Written

AT = datetime(2026, 9, 10, 10, tzinfo=timezone(timedelta(hours=8)))


def _pr(repo: str, n: int, state: str = "merged") -> FixRef:
    return FixRef(repo=repo, number=n, role="fix", state=state, merged_at=AT if state == "merged" else None,
                  url=f"https://gitcode.com/{repo}/merge_requests/{n}")


def _case(repo: str, n: int, title: str, mechanism: str = "", fix=()) -> Case:
    return Case(repo=repo, number=n, title=title, problem=title, funnel="selected", fix=list(fix), closed_at=AT,
                timing=Timing.SAME_SECOND if fix else Timing.NO_FIX, value=1.0 / n,
                url=f"https://gitcode.com/{repo}/issues/{n}", written=Written(lang="zh", mechanism=mechanism))


def _world() -> list[Case]:
    return [
        _case("o/alpha", 1, "配置注入位置混用", "!778 引入 VllmCommand 后未区分注入位置", [_pr("o/alpha", 825)]),
        _case("o/alpha", 2, "nightly 回归失败", "The keyword changed after !754 was merged", [_pr("o/alpha", 797)]),
        # a PR named without saying it brought the fault in, and a blamed PR with no landed fix: no chain
        _case("o/alpha", 3, "参数不生效", "参考 !700 的写法；复现了之后再修", [_pr("o/alpha", 801)]),
        _case("o/alpha", 4, "路径错", "!650 引入的路径", [_pr("o/alpha", 802, "open")]),
        # one PR fixes cases of two repositories
        _case("p/beta", 5, "心跳误判", "key 不一致", [_pr("q/shared", 90)]),
        _case("r/gamma", 6, "超时误判", "key 不一致", [_pr("q/shared", 90)]),
    ]


def test_a_regression_chain_names_the_pr_that_brought_it_and_the_one_that_fixed_it():
    kept = _world()
    out = insights(kept, Refs(kept), "zh")
    chain = next(i for i in out if i["kind"] == "regression_chain")
    assert chain["cases"] == ["alpha#1", "alpha#2"] and chain["count"] == 2
    assert chain["headline"].endswith("2 案")
    assert "!778 引入、!825 修复" in chain["text"] and "!754 引入、!797 修复" in chain["text"]
    assert "!700" not in chain["text"] and "alpha#4" not in chain["text"]
    shared = next(i for i in out if i["kind"] == "shared_fix")
    assert shared["cases"] == ["beta#5", "gamma#6"] and "2 个仓的 2 案" in shared["headline"]
    en = insights(kept, Refs(kept), "en")
    assert en[0]["headline"].endswith("2 cases")


def test_the_digest_shows_the_insights_and_the_check_adds_them_up():
    kept = _world()
    fig = compute_figures(kept, {})
    digests = {lg: build_digest(kept, {}, lg, fig) for lg in ("zh", "en")}
    data = json.loads(to_json(digests, fig, [c.to_export() for c in kept]))
    assert [f for f in check_digest(data) if "insight" in f.where] == []
    assert "跨案线索" in markdown(data["digests"]["zh"])
    data["digests"]["zh"]["insights"][0]["headline"] = "上一个修复埋的雷由下一个修复收：3 案"
    assert any(f.kind == "arithmetic" and f.where == "zh insight 1" for f in check_digest(data))


def test_one_regression_chain_is_no_insight_across_cases():
    """Read on ascend-2026-09: one case's chain made a "跨案线索" of "1 案"."""
    kept = [c for c in _world() if c.number != 2]
    out = insights(kept, Refs(kept), "zh")
    assert not [i for i in out if i["kind"] == "regression_chain"]


def test_the_check_flags_an_insight_that_names_one_case():
    kept = _world()
    fig = compute_figures(kept, {})
    digests = {lg: build_digest(kept, {}, lg, fig) for lg in ("zh", "en")}
    data = json.loads(to_json(digests, fig, [c.to_export() for c in kept]))
    ins = data["digests"]["zh"]["insights"][0]
    ins["cases"], ins["headline"] = ins["cases"][:1], "上一个修复埋的雷由下一个修复收：1 案"
    assert any(f.kind == "arithmetic" and f.where == "zh insight 1" for f in check_digest(data))
