"""The digest a reader of the seed accepts (issue #22): themes across repositories whose counts add
up to the cases they name, a guide whose actions are first checks and do not repeat, a frame
(title with or without its number, tagline, pointer for agents, repo introductions, backlog by
repo) and a disclosure in the reader's language."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timedelta, timezone

from hypothesis import given, settings, strategies as st

from fixlore.compose import lessons
from fixlore.compose.digest import build_digest
from fixlore.compose.figures import Refs
from fixlore.compose.render import markdown
from fixlore.compose.themes import themes
from fixlore.core.enums import Timing, Trap
from fixlore.core.model import Case, FixRef, Written
from test_digest import analysed_world

AT = datetime(2026, 9, 10, 10, tzinfo=timezone(timedelta(hours=8)))
REPOS = ("o/alpha", "o/beta", "p/gamma")
TITLES = ("loss 飙到 21，grad_norm 570+", "心跳超时误判，双主不降级", "README 版本前后矛盾", "nightly 回归失败",
          "启动报错 IndexError", "希望支持 mxfp8 训练", "cpu_blocks 虚高", "配置项怎么填")


def _case(i: int, repo: str, title: str, state: str) -> Case:
    fix = []
    if state in ("merged", "open", "closed"):
        fix = [FixRef(repo=repo, number=900 + i, role="fix", state=state, merged_at=AT if state == "merged" else None,
                      url=f"https://gitcode.com/{repo}/merge_requests/{900 + i}")]
    return Case(repo=repo, number=i, title=title, problem=title, funnel="selected", fix=fix,
                url=f"https://gitcode.com/{repo}/issues/{i}", value=1.0 / (i + 1),
                traps=[Trap.FIX_NOT_LANDED] if state == "trap" else [],
                timing=Timing.SAME_SECOND if state == "merged" else Timing.NO_FIX,
                written=Written(lang="zh", mechanism=f"{title}的根因在 some_key_{i}"))


cases_st = st.lists(st.tuples(st.sampled_from(REPOS), st.sampled_from(TITLES),
                              st.sampled_from(("merged", "open", "closed", "none", "trap"))), min_size=1, max_size=14)


@settings(max_examples=60, deadline=None)
@given(cases_st)
def test_each_themes_counts_add_up_to_the_cases_it_names(rows):
    kept = [_case(i, repo, title, state) for i, (repo, title, state) in enumerate(rows)]
    ref = Refs(kept)
    for lang in ("zh", "en"):
        out = themes(kept, ref, lang)
        named = [b["ref"] for t in out for b in t["bullets"]]
        assert len(named) == len(set(named))                          # every case at most once
        # a case in no theme shows none of the themes' modes: it is never put in a bucket of leftovers
        parts = lessons.partition(kept)
        assert sorted(named) == sorted(ref(c) for _, cs in parts for c in cs)
        for c in lessons.unthemed(kept, parts):
            assert not any(lessons.matches(mode, c) for mode, _ in parts), ref(c)
        for t in out:
            assert len(t["bullets"]) >= 2
        for t in out:
            k = t["counts"]
            assert k["landed"] + k["pending"] + k["no_fix"] == k["cases"] == len(t["bullets"])
            # the paragraph says the same arithmetic: its first figures add up to its total
            first = t["paragraph"].split("。" if lang == "zh" else ".")[0]
            total, *parts = [int(n) for n in re.findall(r"\d+", first)]
            assert total == k["cases"] and sum(parts) == total, t["paragraph"]
            repos = {c.repo for c in kept if ref(c) in {b["ref"] for b in t["bullets"]}}
            if len(repos) < 2:          # a theme of one repository says so
                assert ("仅见于" if lang == "zh" else "Only in") in t["paragraph"]
            assert "…" not in t["paragraph"] and all("…" not in b["text"] for b in t["bullets"])


def test_a_case_counts_once_as_landed_pending_or_without_a_fix():
    kept = [_case(i, "o/alpha", "x 报错", s) for i, s in enumerate(("merged", "open", "closed", "none", "trap"))]
    assert [(lessons.landed(c), lessons.pending(c)) for c in kept] == [
        (True, False), (False, True), (False, True), (False, False), (False, True)]


def test_themes_name_cases_from_several_repositories_on_the_demo_world():
    cases, run = analysed_world()
    d = build_digest(cases, run, "zh")
    kept = sum(1 for c in cases if c.funnel == "selected")
    themed = sum(t["counts"]["cases"] for t in d["themes"])
    assert themed <= kept and all(t["counts"]["cases"] >= 2 for t in d["themes"])
    if themed < kept:          # the heading says how many are in no theme
        assert f"{kept - themed} 条不属于任何主题" in d["headings"]["themes"]
    assert any(len(t["repos"]) >= 2 for t in d["themes"])
    for t in d["themes"]:
        assert len(t["repos"]) >= 2 or "仅见于" in t["paragraph"], t
        assert "都涉及" not in t["headline"] and "共同线索" not in t["paragraph"]


def test_no_guide_action_repeats_more_than_twice_and_none_is_the_bare_upgrade_step():
    cases, run = analysed_world()
    for lang in ("zh", "en"):
        guide = build_digest(cases, run, lang)["guide"]
        actions = Counter(g["first_action"] for g in guide)
        assert max(actions.values()) <= 2, actions
        assert not any(a.startswith(("升级到含", "Upgrade to a build")) for a in actions)
        kept = {f"{c.repo.split('/')[-1]}#{c.number}" for c in cases if c.funnel == "selected" and c.symptom}
        assert kept <= {x["ref"] for g in guide for x in g["cases"]}          # every case with a symptom has a row


def test_the_frame_with_and_without_a_number():
    cases, run = analysed_world()
    bare = build_digest(cases, run, "zh")
    assert "期" not in bare["title"]
    assert bare["frame"]["tagline"] and bare["frame"]["backlog"] is not None
    assert [p["text"] for p in bare["frame"]["pointer"]["items"]] == ["fixlore serve mcp --out OUT", "fixlore serve http --out OUT"]
    run17 = dict(run, frame={"number": 17, "serve_out": "runs/09", "tagline": "一句话的标语"})
    zh, en = build_digest(cases, run17, "zh"), build_digest(cases, run17, "en")
    assert "（第 17 期）" in zh["title"] and "No. 17" in en["title"] and "No." not in build_digest(cases, run, "en")["title"]
    assert zh["frame"]["tagline"] == "一句话的标语"
    assert zh["frame"]["pointer"]["items"][0]["text"] == "fixlore serve mcp --out runs/09"
    text = markdown(zh)
    assert "> 一句话的标语" in text and "fixlore serve mcp --out runs/09" in text
    url = build_digest(cases, dict(run, frame={"agent_pointer": "https://kg.example/tools"}), "zh")
    assert url["frame"]["pointer"]["items"] == [{"text": "https://kg.example/tools", "url": "https://kg.example/tools"}]
    # one line per repository telling what it is about (its cases' themes), not a keyword list; its
    # fix counts are under its heading
    shorts = {t["short"] for t in zh["themes"]}
    for o, r in zip(zh["overview"], zh["repos"]):
        assert o["positioning"].endswith(f"{o['count']} 案") and "集中在" not in o["positioning"]
        assert "修复已合入" not in o["positioning"] and r["subtitle"].startswith(f"本期 {o['count']} 条（")
    assert any(s in o["positioning"] for o in zh["overview"] for s in shorts)


def test_a_title_names_three_organisations_then_how_many():
    cases, run = analysed_world()
    run = dict(run, orgs=["a-org", "b-org", "c-org", "d-org", "e-org"])
    zh, en = build_digest(cases, run, "zh"), build_digest(cases, run, "en")
    assert zh["title"].startswith("a-org、b-org、c-org 等 5 个组织的开源仓") and "d-org" not in zh["title"]
    assert en["title"].startswith("a-org, b-org, c-org and others (5 organisations)")
    three = build_digest(cases, dict(run, orgs=["a-org", "b-org", "c-org"]), "zh")["title"]
    assert three.startswith("a-org、b-org、c-org 开源仓") and "组织" not in three


def test_a_themes_headline_is_its_mode_and_count_then_the_lesson():
    cases, run = analysed_world()
    for lang, form in (("zh", r"^\d+\. (.+) (\d+) 案：[^：]+。$"), ("en", r"^\d+\. (.+), (\d+) cases?: [^:]+\.$")):
        for t in build_digest(cases, run, lang)["themes"]:
            m = re.match(form, t["headline"])
            assert m and int(m.group(2)) == len(t["bullets"]) and m.group(1).lower() == t["short"].lower(), t["headline"]


def test_the_backlog_is_grouped_by_repository():
    cases, run = analysed_world()
    waiting = Counter(c.repo for c in cases if c.funnel == "rank")
    d = build_digest(cases, run, "zh")
    shown = {b["full_name"]: b["count"] for b in d["frame"]["backlog"]}
    assert all(waiting[r] == n for r, n in shown.items()) and shown


def test_the_disclosure_names_categories_in_the_readers_language():
    cases, run = analysed_world()
    zh = " ".join(i["text"] for i in build_digest(cases, run, "zh")["disclosure"])
    for raw in ("same_second", "auto_close", "no_fix", "before_merge", "offline ", "留空未硬凑"):
        assert raw not in zh, raw
    published = Counter(str(c.timing) for c in cases if c.funnel == "selected")
    assert f"入选 {sum(published.values())} 条的时序分布" in zh
    en = " ".join(i["text"] for i in build_digest(cases, run, "en")["disclosure"])
    assert not re.search(r"\d+s (later|early)", en) and "[issues/" not in en and "/comments/" not in en


def test_fixlore_digest_numbers_the_title_only_when_asked(tmp_path):
    import json

    from typer.testing import CliRunner

    from fixlore.cli.commands import app

    cases, run = analysed_world()
    src = tmp_path / "cases.jsonl"
    src.write_text("".join(json.dumps(c.to_export(), ensure_ascii=False) + "\n" for c in cases), "utf-8")
    (tmp_path / "run.json").write_text(json.dumps(run), "utf-8")
    runner = CliRunner()
    for extra, title in ((["--number", "5"], "（第 5 期）"), ([], None)):
        out = tmp_path / f"out{len(extra)}"
        res = runner.invoke(app, ["digest", "--cases", str(src), "--run", str(tmp_path / "run.json"),
                                  "--out", str(out), "--lang", "zh", *extra])
        assert res.exit_code == 0, res.output
        first = (out / "digest.zh.md").read_text("utf-8").splitlines()[1]
        assert (title in first) if title else ("期" not in first), first
        assert "fixlore serve mcp" in (out / "digest.zh.md").read_text("utf-8")
    assert runner.invoke(app, ["digest", "--cases", str(src), "--out", str(tmp_path / "x"), "--number", "0"]).exit_code != 0


def test_a_guide_action_is_never_a_clause_cut_inside_brackets():
    """'修复：拆成 network_bandwidth（带宽类（!4685 已合入）' was cut at the comma inside the brackets."""
    from fixlore.compose.steps import fit as step_fit

    text = ("拆成 network_bandwidth（带宽类，60s）与 network_link（链路类，600s）两组，光模块 optical 默认周期"
            "也放宽到 600s；旧 network 组保留一个版本做兼容。")
    got = step_fit(text, 70)
    assert got == "拆成 network_bandwidth（带宽类，60s）与 network_link（链路类，600s）两组"
    assert got.count("（") == got.count("）")
    assert step_fit(text, 20) == ""          # no whole clause fits: nothing rather than a cut
