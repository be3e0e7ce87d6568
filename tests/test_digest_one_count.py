"""The digest counts a fix one way everywhere (issue #22, #23): `Case.fix_state` decides landed /
not landed / no code fix, and a fix merged after the issue was closed is the fix, so themes, repo
lines, tagline and disclosure give the same number. Themes are what cases share, never their fix
status; "only in one repository" is said only when it is true; a theme's bullet ends on a whole
clause; the disclosure counts what the digest publishes, in Chinese words; each repository's line
says what this number holds for it."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

from fixlore.compose import compute_figures
from fixlore.compose.check import check_digest
from fixlore.compose.digest import build_digest
from fixlore.compose.figures import Refs
from fixlore.compose.themes import themes
from fixlore.compose.write import to_json
from fixlore.core.enums import FixState, Timing, Trap
from fixlore.core.model import Case, FixRef, Written
from fixlore.rules.clauses import is_open, whole_clauses
from test_digest import analysed_world

AT = datetime(2026, 9, 18, 10, tzinfo=timezone(timedelta(hours=8)))


def _pr(repo: str, n: int, state: str, at: datetime | None) -> FixRef:
    return FixRef(repo=repo, number=n, role="fix", state=state, merged_at=at,
                  url=f"https://gitcode.com/{repo}/merge_requests/{n}")


def _case(repo: str, n: int, title: str, *, fix=(), pending=(), timing=Timing.NO_FIX, traps=(), mechanism="",
          workaround="") -> Case:
    return Case(repo=repo, number=n, title=title, problem=title, funnel="selected", fix=list(fix),
                pending_fix=list(pending), timing=timing, traps=list(traps), closed_at=AT, value=1.0 / n,
                url=f"https://gitcode.com/{repo}/issues/{n}",
                written=Written(lang="zh", mechanism=mechanism or f"{title}，根因在 key_{n}", workaround=workaround))


def _late_fix_world() -> list[Case]:
    """One case closed ten hours before its fix merged (the linker keeps that PR as `pending_fix`),
    one answered without a change, one landed, one whose fix is still open."""
    late = _pr("o/alpha", 91, "merged", AT + timedelta(hours=10))
    return [
        _case("o/alpha", 1, "容器里配置文件是只读挂载，无法修改", pending=[late], timing=Timing.BEFORE_MERGE,
              traps=[Trap.CLOSED_BEFORE_MERGE]),
        _case("o/alpha", 2, "节点标签写成下划线后 pod 一直 pending"),
        _case("p/beta", 3, "yaml 示例参数默认值不对，任务起不来", fix=[_pr("p/beta", 93, "merged", AT)], timing=Timing.SAME_SECOND),
        _case("p/beta", 4, "配置项叠加后超限报错", pending=[_pr("p/beta", 94, "open", None)], traps=[Trap.FIX_NOT_LANDED]),
    ]


def _data(cases: list[Case], run: dict | None = None) -> dict:
    run = run or {}
    fig = compute_figures(cases, run)
    digests = {lg: build_digest(cases, run, lg, fig) for lg in ("zh", "en")}
    kept = [c.to_export() for c in cases if c.funnel in ("selected", "analysis")]
    return json.loads(to_json(digests, fig, kept))


def test_a_fix_merged_after_the_close_is_landed_and_no_code_fix_is_one_number():
    cases = _late_fix_world()
    assert [c.fix_state for c in cases] == [FixState.LANDED, FixState.NO_FIX, FixState.LANDED, FixState.NOT_LANDED]
    data = _data(cases)
    zh = data["digests"]["zh"]
    sums = {k: sum(t["counts"][k] for t in zh["themes"]) for k in ("landed", "pending", "no_fix")}
    assert sums == {"landed": 2, "pending": 1, "no_fix": 1}
    assert "2 条修复已合入" in zh["frame"]["tagline"] and "1 条无代码修复" in zh["frame"]["tagline"]
    alpha = next(r for r in zh["repos"] if r["repo"] == "alpha")["subtitle"]
    assert "1 条修复已合入" in alpha and "1 条无代码修复" in alpha
    timing = next(d["text"] for d in zh["disclosure"] if d["label"] == "时序陷阱实录")
    assert "无代码修复 1" in timing and "关单时修复未落地 1" in timing
    # the editorial check, which reads the links (rules.credit), agrees with every theme's count
    assert [f for f in check_digest(data) if f.kind == "arithmetic"] == []


def test_themes_are_what_cases_share_not_their_fix_status():
    """Configuration against a convention, with and without a code fix, is one failure mode: one
    theme across the repositories that says which of them landed a fix; no theme is a fix-status
    bucket ("answered without a change", "the other fixes")."""
    kept = [
        _case("o/alpha", 1, "节点标签写成下划线后 pod 一直 pending", fix=[_pr("o/alpha", 81, "merged", AT)],
              timing=Timing.SAME_SECOND),
        _case("p/beta", 2, "按 yaml 示例下发的任务起不来"),
        _case("q/gamma", 3, "容器里的挂载文件改不动"),
        _case("q/gamma", 4, "两个参数叠加后内存不够", fix=[_pr("q/gamma", 84, "merged", AT)], timing=Timing.SAME_SECOND),
    ]
    out = themes(kept, Refs(kept), "zh")
    assert len(out) == 1 and out[0]["counts"] == {"cases": 4, "landed": 2, "pending": 0, "no_fix": 2}
    assert len(out[0]["repos"]) == 3
    for t in out:
        assert "其余" not in t["headline"] and "没有代码改动" not in t["headline"]


def test_only_in_one_repository_is_said_only_when_no_other_repository_shows_it():
    """Two README cases of one repository make a theme; a case of another repository whose report
    also names a document (told first as silent wrong numbers) makes "no other repository has a
    case of this kind" false: the paragraph names it and its theme instead."""
    kept = [
        _case("o/alpha", 1, "README 版本前后矛盾"),
        _case("o/alpha", 2, "文档里的参数拼写错误", fix=[_pr("o/alpha", 82, "merged", AT)], timing=Timing.SAME_SECOND),
        _case("p/beta", 3, "loss 发散，文档也没写", fix=[_pr("p/beta", 83, "merged", AT)], timing=Timing.SAME_SECOND),
        _case("q/gamma", 4, "计数虚高，指标失真", fix=[_pr("q/gamma", 84, "merged", AT)], timing=Timing.SAME_SECOND),
    ]
    out = themes(kept, Refs(kept), "zh")
    docs = next(t for t in out if t["repos"] == ["o/alpha"])
    assert "本批其他仓没有同类案例" not in docs["paragraph"]
    silent = next(i for i, t in enumerate(out, 1) if "p/beta" in t["repos"])
    assert "beta#3" in docs["paragraph"] and f"主题 {silent}" in docs["paragraph"]
    # with the kin gone, the claim is true and said
    alone = [c for c in kept if c.repo == "o/alpha"] + [kept[3], _case("r/delta", 5, "grad_norm 飙升")]
    docs = next(t for t in themes(alone, Refs(alone), "zh") if t["repos"] == ["o/alpha"])
    assert "仅见于 alpha：本批其他仓没有同类案例" in docs["paragraph"]


def test_a_theme_bullet_is_whole_clauses_never_a_cut():
    """The analysts' text as the npu-threads world had it: cut after a comma, ending on a colon that
    announces what follows, or a clause that stops on "to" before what to upgrade to."""
    commit = "dde19f7b06ed24d9e3cc9fed45595408424364a4"
    kept = [
        _case("o/alpha", 1, "CacheBlend 报错", mechanism="This is a fix for the vllm 0.11.0 CacheBlend layer-wise adaptation，"),
        _case("p/beta", 2, "dockerfile 构建报错", mechanism="Ascend provide dockerfile :  dockerfile build guidance:"),
        _case("q/gamma", 3, "启动报错 ImportError", mechanism="",
              workaround=f"please upgrade to: cann 9.0.0, vllm v0.22.0, vllm ascend commit id {commit}, vllm omni main"),
    ]
    data = _data(kept)
    assert [f for f in check_digest(data) if f.kind == "cut" and " theme " in f" {f.where} "] == []
    for t in data["digests"]["zh"]["themes"]:
        for b in t["bullets"]:
            assert not is_open(b["text"]) or not b["text"], b
    assert whole_clauses("This is a fix for the vllm 0.11.0 CacheBlend layer-wise adaptation，", 90).endswith("adaptation")
    assert whole_clauses("please upgrade to", 90) == ""
    assert whole_clauses("Ascend provide dockerfile :  dockerfile build guidance:", 90) == ""
    assert whole_clauses(f"please upgrade to: cann 9.0.0, vllm v0.22.0, vllm ascend commit id {commit}", 60) \
        == "please upgrade to: cann 9.0.0, vllm v0.22.0"


def test_the_disclosure_counts_the_published_cases_in_chinese_words():
    cases, run = analysed_world()
    d = build_digest(cases, run, "zh")
    kept = [c for c in cases if c.funnel == "selected"]
    analysed = [c for c in cases if c.funnel in ("selected", "analysis")]
    assert len(analysed) > len(kept)          # the world drops some: the two counts differ
    merge = next(x["text"] for x in d["disclosure"] if x["label"] == "PR 合并判定")
    refs = len({(f.repo, f.number) for c in kept for f in (*c.fix, *c.pending_fix)})   # each PR once
    assert f"入选 {len(kept)} 条共引用修复 PR {refs} 个" in merge
    text = " ".join(x["text"] for x in d["disclosure"])
    for raw in ("kb_refs", "state ==", "merged_at 非空", "source branch", "resolved 但", "merged PR"):
        assert raw not in text, raw
    # a special carrier that is not published is named as such, never counted with the published
    dropped = {Refs(cases)(c) for c in analysed if c.funnel == "analysis" and c.traps}
    for name in dropped & set(re.findall(r"[\w.-]+#\d+", merge)):
        assert merge.index(name) > merge.index("未入选"), name


def test_each_repository_line_says_what_this_number_holds_for_it():
    cases, run = analysed_world()
    d = build_digest(cases, run, "zh")
    subtitles = [r["subtitle"] for r in d["repos"]]
    assert len(set(subtitles)) == len(subtitles)          # no process note repeated per repository
    for r in d["repos"]:
        assert r["subtitle"].startswith(f"本期 {len(r['rows'])} 条")
        named = [int(n) for n in re.findall(r"主题 (\d+)", r["subtitle"])]
        mine = {row["case"] for row in r["rows"]}
        themed = {b["ref"] for t in d["themes"] for b in t["bullets"]}
        if not mine & themed:        # a repository none of whose cases is in a theme says so
            assert not named and "不属于任何主题" in r["subtitle"]
            continue
        assert named and all(mine & {b["ref"] for b in d["themes"][n - 1]["bullets"]} for n in named)


def test_a_pr_the_editors_set_aside_is_no_longer_a_fix_in_the_case_rows():
    """`not_fix` removes the PR from the fix set and from the candidates' fix rows: the editorial
    check reads the rows (rules.credit), and counted the set-aside PR merged."""
    from fixlore.rules.credit import creditable_pulls, merged_pulls
    from fixlore.rules.overrides import apply_links, parse_overrides

    case = _case("o/alpha", 12, "ring 超时", pending=[_pr("o/alpha", 47, "closed", None)])
    case.candidates = [{"repo": "o/alpha", "number": 48, "verdict": "fix", "state": "merged"},
                       {"repo": "o/alpha", "number": 47, "verdict": "pending", "state": "closed"}]
    ov = parse_overrides({"version": 1, "cases": {"o/alpha#12": {"fix": 47, "not_fix": 48}}}, "ov.yaml")
    apply_links([case], ov, lambda repo, n: _pr(repo, n, "closed", None) if n == 47 else None)
    row = case.to_export()
    assert creditable_pulls(row) == {47} and merged_pulls(row) == set()
    assert case.fix_state == FixState.NOT_LANDED


def test_stale_closes_without_a_merged_fix_are_not_listed_as_late():
    """A stale close whose fix never merged is not "closed after the real fix": the disclosure
    names the late ones with their lag and the others apart (a reader found msmodelslim#446 "修复未合入"
    inside a list headed 关单晚于真实修复)."""
    from fixlore.compose.disclosure import _stale_closes

    tm = {"stale": [{"case": "a#1", "lag_s": 3 * 86400}, {"case": "b#2", "lag_s": None}]}
    zh, en = _stale_closes(tm, "zh"), _stale_closes(tm, "en")
    assert zh.startswith("stale 关单 2 条：1 条晚于真实修复（a#1 晚 3 天），1 条修复未合入（b#2）")
    assert "b#2 晚" not in zh and "1 whose fix never merged (b#2)" in en and "b#2 late" not in en
    one = _stale_closes({"stale": [{"case": "a#1", "lag_s": 3 * 86400}]}, "zh")
    assert one == "stale 关单 1 条，均晚于真实修复（a#1 晚 3 天）；判据回到 PR 的合入时间", one


def test_a_case_that_shares_no_mode_is_in_no_theme_and_the_heading_counts_it():
    """No bucket of leftovers: two configuration cases make a theme; a case whose report shows no
    failure mode, and one alone in its mode, stay in their repositories' tables, counted in the
    themes' heading and the repository line, in no theme."""
    kept = [
        _case("o/alpha", 1, "节点标签写成下划线后 pod 一直 pending"),
        _case("p/beta", 2, "按 yaml 示例下发的任务起不来"),
        _case("q/gamma", 3, "社区任务：迁移一个新模型", mechanism="社区认领交付"),
        _case("q/gamma", 4, "心跳超时误判", mechanism="双主不降级"),
    ]
    out = themes(kept, Refs(kept), "zh")
    assert [sorted(b["ref"] for b in t["bullets"]) for t in out] == [["alpha#1", "beta#2"]]
    data = _data(kept)
    zh, en = data["digests"]["zh"], data["digests"]["en"]
    assert zh["headings"]["themes"].endswith("（2 条分在 1 个主题，2 条不属于任何主题）")
    assert en["headings"]["themes"].endswith("(2 in 1 theme, 2 in none)")
    gamma = next(r for r in zh["repos"] if r["repo"] == "gamma")
    assert "不属于任何主题" in gamma["subtitle"] and "主题 1" not in gamma["subtitle"]
    assert [f for f in check_digest(data) if f.kind == "arithmetic"] == []


def test_the_analysts_lone_themes_are_no_bucket_either():
    """With the editorial pass's themes, a case alone in its analysts' theme is in no theme: no
    per-repository section of leftovers."""
    from fixlore.compose.themes import groups
    kept = [_case("o/alpha", n, f"问题 {n}") for n in (1, 2, 3)] + [_case("p/beta", 4, "问题 4")]
    for c, theme in zip(kept, ("t1", "t1", "t2", "t3")):
        c.theme = theme
    assert [(t, sorted(c.number for c in cs)) for t, cs in groups(kept, Refs(kept))] == [("t1", [1, 2])]


def test_a_headline_count_that_differs_from_the_cases_named_is_caught():
    data = _data(_late_fix_world())
    theme = data["digests"]["zh"]["themes"][0]
    n = len(theme["bullets"])
    assert [f for f in check_digest(data) if f.kind == "arithmetic"] == []
    theme["headline"] = theme["headline"].replace(f" {n} 案：", f" {n + 1} 案：")
    assert any(f.kind == "arithmetic" and "headline" in f.why for f in check_digest(data))


def test_a_theme_never_shows_a_clause_cut_inside_a_bracket():
    """npu-threads (held out) had "sglang#13062: (description not in the excerpt" in a theme's
    paragraph: the clause stopped inside the analysts' bracket."""
    from fixlore.compose.themes import told
    aside = "(description not in the excerpt; the change makes the module use current_platform devices and adds a Dockerfile)"
    assert told(aside, 80) == ""
    assert told("（先看日志）再改配置，重启服务", 80) == "（先看日志）再改配置，重启服务"


def test_a_stale_lag_in_the_disclosure_reads_as_the_row_reads_it():
    """Read on ascend-2026-09: msmodeling#412's row said "晚于合入 8 天", the disclosure "晚 7 天 20 小时"."""
    from fixlore.compose.disclosure import _stale_closes
    from fixlore.wording.facts import format_lag

    lag = 7 * 86400 + 20 * 3600
    zh = _stale_closes({"stale": [{"case": "a#1", "lag_s": lag}]}, "zh")
    assert f"a#1 晚 {format_lag(lag, True)}" in zh and "小时" not in zh


def test_the_composer_stops_where_the_check_would_call_it_cut():
    """rules.clauses holds the one rule both read: a determiner whose noun is gone and an analyst's
    cut mark leave a clause open, so the writer never ends a bullet there and the check flags them."""
    from fixlore.compose.check import _paragraph_cut
    from fixlore.rules.clauses import is_open, needs_more, whole_clauses
    assert needs_more("However, for Ascend Hardware, The only") and not needs_more("the only fix")
    assert is_open("Point `third_party/hcomm` at tag v9.0.0 (rest cut)") and is_open("原因见日志（后略）")
    assert whole_clauses("It fails on 310P. For Ascend Hardware, The only", 80) == "It fails on 310P. For Ascend Hardware"
    assert _paragraph_cut("t", "如 #1：For Ascend Hardware, The only.") and _paragraph_cut("t", "如 #1：见日志 (rest cut)。")
