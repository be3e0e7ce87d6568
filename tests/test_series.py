"""The digest series: the edition plan (pure), the ledger (both dialects), and a series of the
demo world published as of three moments through the real CLI (replay server, harvest, link,
analysis): editions, update rows, backlog carried, a special edition, rebuilds."""

from __future__ import annotations

import json
import re
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fixlore.core.errors import ConfigError, FixloreError
from fixlore.core.model import Case, FixRef
from fixlore.series.model import Series, zh_number
from fixlore.series.plan import Focus, LedgerView, change_text, detect_change, next_edition_line, plan_edition
from fixlore.store import Store
from fixlore.store.ledger import Ledger

from conftest import fixlore_here
from series_checks import (check_backlog_adds_up, check_disclosure_is_its_own, check_no_case_twice,
                           check_rebuilds, editions, key)

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
CST = timezone(timedelta(hours=8))
T0 = datetime(2026, 9, 17, tzinfo=CST)


def _page(text: str) -> str:
    """A Markdown digest without the format note on its first line."""
    return text.split("\n", 1)[1].lstrip("\n") if text.startswith("<!--") else text


def case(repo: str, n: int, hours: float, funnel: str = "rank", value: float = 0.5, **kw) -> Case:
    return Case(repo=repo, number=n, title=f"t{n}", closed_at=T0 + timedelta(hours=hours), funnel=funnel,
                value=value, **kw)


# ---------------------------------------------------------------- pure plan

def test_plan_takes_new_closes_and_the_backlog_and_leaves_published_out():
    cases = [case("o/a", 1, 1), case("o/a", 2, 30, value=0.9), case("o/b", 3, 31, value=0.1),
             case("o/b", 4, 32, funnel="noise"), case("o/a", 5, 2, funnel="selected")]
    prior = LedgerView(published={"o/a#5": cases[4].to_export()}, backlog=["o/a#1"])
    plan = plan_edition(cases, prior, since=T0 + timedelta(hours=24), until=T0 + timedelta(hours=48), top_k=2)
    assert plan.new == ["o/a#2", "o/b#3"]
    assert plan.carried == ["o/a#1"]
    assert plan.considered == ["o/a#2", "o/b#3", "o/b#4"]
    assert plan.analyse == ["o/a#1", "o/a#2"]          # 0.9 and 0.5 beat 0.1
    assert plan.updates == {}


def test_plan_special_edition_keeps_to_its_repos():
    cases = [case("o/a", 1, 1), case("o/b", 2, 30), case("o/c", 3, 31)]
    prior = LedgerView(backlog=["o/a#1"])
    plan = plan_edition(cases, prior, since=T0 + timedelta(hours=24), until=None, top_k=5,
                        focus=Focus(repos=["o/b", "o/c"]))
    assert plan.new == ["o/b#2", "o/c#3"] and plan.carried == [] and plan.outside == ["o/a#1"]


def test_plan_scope_leaves_repos_out():
    s = Series(name="s", title="S", orgs=["o"], repos_out=["o/b"]).check()
    cases = [case("o/a", 1, 30), case("o/b", 2, 30), case("x/c", 3, 30)]
    plan = plan_edition(cases, LedgerView(), since=T0, until=None, top_k=5, in_scope=s.in_scope)
    assert plan.new == ["o/a#1"]


def _fix(n: int, role: str, merged_hours: float | None, base: str = "master") -> FixRef:
    merged = T0 + timedelta(hours=merged_hours) if merged_hours is not None else None
    return FixRef(repo="o/a", number=n, role=role, state="merged" if merged else "open", merged_at=merged,
                  url="", base_ref=base)


def test_update_when_a_backport_merges_after_publication():
    published = case("o/a", 1, 1, funnel="selected", fix=[_fix(10, "fix", 0.5)])
    now = case("o/a", 1, 1, funnel="window", fix=[_fix(10, "fix", 0.5), _fix(11, "backport", 50, "release/2.1")])
    change = detect_change(published.to_export(), now, published_until=T0 + timedelta(hours=24))
    assert change["items"] == [{"kind": "backport_merged", "pr": "o/a!11", "branch": "release/2.1",
                                "merged_at": (T0 + timedelta(hours=50)).isoformat(), "landed": False}]
    assert "backport" in change_text(change, "en") and "release/2.1" in change_text(change, "zh")
    # merged before the edition that published the case ended: not news
    assert detect_change(published.to_export(), now, published_until=T0 + timedelta(hours=60)) is None


def test_update_when_the_fix_of_a_fix_not_landed_case_lands_and_when_reopened():
    published = case("o/a", 2, 1, funnel="selected", fix=[_fix(12, "fix", None)], traps=["fix_not_landed"])
    landed = case("o/a", 2, 1, fix=[_fix(12, "fix", 40)])
    change = detect_change(published.to_export(), landed)
    assert change["items"][0]["kind"] == "fix_merged" and change["items"][0]["landed"] is True
    assert "已落地" in change_text(change, "zh")
    reopened = detect_change(published.to_export(), None, ("open", None))
    assert reopened == {"items": [{"kind": "reopened"}]}
    again = detect_change(published.to_export(), None, ("closed", T0 + timedelta(hours=70)))
    assert again["items"][0]["kind"] == "closed_again"
    assert detect_change(published.to_export(), published) is None


keys = st.tuples(st.sampled_from(["o/a", "o/b", "p/c"]), st.integers(1, 30))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(keys, st.integers(0, 96), st.sampled_from(["rank", "selected", "analysis", "noise", "cve"]),
                          st.floats(0, 1)), max_size=25, unique_by=lambda x: x[0]),
       st.sets(keys, max_size=6), st.sets(keys, max_size=6), st.sets(keys, max_size=4), st.integers(0, 6), st.booleans())
def test_plan_properties(items, published, backlog, dropped, k, special):
    cases = [case(r, n, h, funnel=f, value=v) for (r, n), h, f, v in items]
    by_key = {c.key: c for c in cases}
    pub = {f"{r}#{n}": (by_key.get(f"{r}#{n}") or case(r, n, 0, funnel="selected")).to_export() for r, n in published}
    prior = LedgerView(published=pub, backlog=sorted(f"{r}#{n}" for r, n in backlog),
                       dropped={f"{r}#{n}" for r, n in dropped})
    focus = Focus(repos=["o/a", "p/c"]) if special else None
    plan = plan_edition(cases, prior, since=T0 + timedelta(hours=24), until=T0 + timedelta(hours=72), top_k=k, focus=focus)
    assert not (set(plan.new) | set(plan.carried) | set(plan.analyse)) & set(pub)
    assert set(plan.analyse) <= set(plan.new) | set(plan.carried)
    assert len(plan.analyse) == min(k, len(set(plan.new) | set(plan.carried)))
    assert not set(plan.new) & set(plan.carried)
    assert len(prior.backlog) == (len(plan.carried) + len(plan.left_pool) + len(plan.taken_elsewhere)
                                  + len(plan.outside))
    assert not set(plan.considered) & set(plan.carried)
    assert not set(plan.considered) & (prior.dropped | set(pub))       # an earlier edition dealt with those
    for k_ in plan.new:
        c = by_key[k_]
        assert T0 + timedelta(hours=24) <= c.closed_at <= T0 + timedelta(hours=72)
    if special:
        assert all(k_.split("#")[0] in ("o/a", "p/c") for k_ in plan.new + plan.carried + list(plan.updates))


def test_next_edition_line_names_what_waits():
    backlog = [{"repo": "o/torchair", "number": i, "value": 0.1 * i, "title": f"issue {i}"} for i in range(1, 5)]
    backlog.append({"repo": "o/memcache", "number": 9, "value": 0.95, "title": "the best one"})
    zh = next_edition_line(backlog, "zh")
    assert _page(zh).startswith("系列下一篇：余量 5 条") and "torchair 4 条" in zh and "the best one" in zh.split("价值靠前")[1][:20]
    assert "backlog is empty" in next_edition_line([], "en")


def test_series_settings_are_checked():
    assert zh_number(16) == "十六" and zh_number(21) == "二十一" and zh_number(10) == "十" and zh_number(3) == "三"
    with pytest.raises(ConfigError):
        Series(name="bad name", title="x").check()
    with pytest.raises(ConfigError):
        Series(name="s", title="x", agent_pointer="javascript:alert(1)").check()
    with pytest.raises(ConfigError):
        Series.from_dict({"name": "s", "title": "x", "colour": "red"})
    assert Series(name="s", title="x", agent_pointer="mcp").check().pointer_text() == "fixlore serve mcp --out OUT"


# ---------------------------------------------------------------- ledger

def test_ledger_records_an_edition_once(db_url):
    store = Store.open(db_url)
    try:
        ledger = Ledger(store)
        ledger.save_series(Series(name="s", title="S").check().to_dict())
        row = case("o/a", 1, 1, funnel="selected").to_export()
        kw = dict(kind="regular", focus=None, window_since=T0, window_until=T0 + timedelta(days=1), scope={},
                  counts={"rows": 1}, backlog=[], inputs={"x": 1}, rows=[{"role": "new", "published": True, "row": row}],
                  files={"digest.zh.md": b"# S\n"})
        ledger.record_edition("s", 1, **kw)
        with pytest.raises(FixloreError, match="already published"):
            ledger.record_edition("s", 1, **kw)
        assert [r["row_hash"] for r in ledger.rows("s", 1)] and ledger.files("s", 1)["digest.zh.md"]["bytes"] == 4
        assert ledger.appearances("o/a", 1) == [{"series": "s", "edition": 1, "role": "new", "kind": "regular",
                                                  "change": None}]
        assert ledger.editions("s")[0]["window_until"] == T0 + timedelta(days=1)
    finally:
        store.close()


# ---------------------------------------------------------------- the demo world, end to end

def fixlore(*args: str) -> str:
    proc = fixlore_here(*args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.fixture(scope="module")
def demo_series(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo-series")
    fixlore("series", "create", "demo", "--title", "演示仓精选", "--tagline", "一句话让 Agent 懂演示仓。",
            "--agent-pointer", "mcp", "--since", "2026-09-17T00:00:00+08:00", "--top-k", "5", "--out", str(out))
    first = json.loads(fixlore("series", "publish", "demo", "--world", str(DEMO), "--as-of",
                               "2026-09-18T15:00:00+08:00", "--out", str(out)))
    copies = {p.name: p.read_bytes() for p in Path(first["folder"]).iterdir()}
    # the demo's second edition holds rows the editorial check flags (a cut cell, a theme's count):
    # published marked, as --on-findings mark does; test_editorial_gate.py sees the refusal
    second = json.loads(fixlore("run", "--series", "demo", "--world", str(DEMO), "--as-of",
                                "2026-09-20T00:00:00+08:00", "--out", str(out), "--on-findings", "mark"))
    special = json.loads(fixlore("series", "publish", "demo", "--world", str(DEMO), "--repo", "demo-ai/infer-serve",
                                 "--repo", "demo-infra/cluster-agent", "--out", str(out)))
    return {"out": out, "first": first, "second": second, "special": special, "edition1_bytes": copies}


def test_demo_editions_follow_each_other(demo_series):
    store = Store.open(f"sqlite:///{demo_series['out'] / 'fixlore.db'}")
    try:
        eds = editions(store, "demo")
    finally:
        store.close()
    assert [e["number"] for e in eds] == [1, 2, 3] and [e["kind"] for e in eds] == ["regular", "regular", "special"]
    assert eds[1]["window_since"] == eds[0]["window_until"]
    assert check_no_case_twice(eds) >= 1                      # #104's backport merged after edition 1
    check_backlog_adds_up(eds)
    check_disclosure_is_its_own(demo_series["out"], "demo", eds)
    update = [r for r in eds[1]["rows"] if r["role"] == "update"]
    assert [key(r) for r in update] == ["demo-ai/modelkit#104"]
    assert update[0]["change"]["items"][0]["kind"] == "backport_merged"
    assert eds[1]["counts"]["rows_backlog"] >= 1


def test_demo_special_edition_keeps_to_two_repos(demo_series):
    store = Store.open(f"sqlite:///{demo_series['out'] / 'fixlore.db'}")
    try:
        eds = editions(store, "demo")
    finally:
        store.close()
    special = eds[2]
    repos = {"demo-ai/infer-serve", "demo-infra/cluster-agent"}
    assert special["focus"] == {"repos": sorted(repos)} or set(special["focus"]["repos"]) == repos
    assert {r["repo"] for r in special["rows"]} <= repos
    published = [r for r in special["rows"] if r["published"]]
    assert published and {r["role"] for r in published} <= {"new", "backlog", "update"}
    assert any(r["role"] == "backlog" for r in special["rows"])        # drawn from the backlog too
    zh = (Path(demo_series["special"]["folder"]) / "digest.zh.md").read_text("utf-8")
    assert _page(zh).startswith("# 演示仓精选（三）·infer-serve、cluster-agent 专刊")
    assert "modelkit" not in zh.split("## 考据与口径披露")[0]


def test_demo_edition_one_rebuilds_byte_for_byte_after_later_editions(demo_series, tmp_path):
    store = Store.open(f"sqlite:///{demo_series['out'] / 'fixlore.db'}")
    try:
        check_rebuilds(store, demo_series["out"], "demo", 1)
    finally:
        store.close()
    fixlore("series", "rebuild", "demo", "1", "--out", str(demo_series["out"]), "--to", str(tmp_path))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == demo_series["edition1_bytes"]


def test_demo_edition_header_and_footer_come_from_the_series(demo_series):
    folder = Path(demo_series["second"]["folder"])
    zh = (folder / "digest.zh.md").read_text("utf-8")
    assert _page(zh).startswith("# 演示仓精选（二）·2026-09 增量\n\n> 一句话让 Agent 懂演示仓。 接入 fixlore serve mcp --out OUT\n")
    page = (folder / "digest.html").read_text("utf-8")
    assert 'class="series-tagline"' in page and "系列下一篇" in page and "Next edition" in page
    listing = fixlore("series", "list", "--out", str(demo_series["out"]))
    assert listing.startswith("demo\t演示仓精选\teditions: 3\tlast: 3")


def test_serve_says_in_which_editions_a_case_appeared(demo_series):
    import httpx2 as httpx

    from fixlore.serve.http import create_app
    from fixlore.serve.knowledge import Knowledge, Locations

    with Knowledge.open(Locations.of(out=demo_series["out"])) as knowledge:
        status = knowledge.fix_status("demo-ai/modelkit#104")
        assert [(e["edition"], e["role"]) for e in status["editions"]] == [(1, "new"), (2, "update")]
        assert status["editions"][1]["change"]["items"][0]["kind"] == "backport_merged"
        never = [c for c in knowledge.cases.values() if c.funnel == "noise"][0]
        assert knowledge.get_case(never.key)["editions"] == []
        from conftest import served_app

        with served_app(create_app(knowledge)) as base:
            page = httpx.get(f"{base}/case/demo-ai/modelkit/104", timeout=30).text
            api = httpx.get(f"{base}/api/cases/demo-ai/modelkit/104/fix", timeout=30)
    assert "In digest editions: demo no. 1, demo no. 2 (update)" in page
    assert api.status_code == 200 and [e["edition"] for e in api.json()["editions"]] == [1, 2]


def test_theme_focus_reads_the_title_before_analysis():
    focus = Focus(themes=["hccl"])
    assert focus.admits(Case(repo="o/a", number=1, title="HCCL 建链超时"))
    assert focus.admits(Case(repo="o/a", number=2, title="x", theme="hccl-link"))
    assert not focus.admits(Case(repo="o/a", number=3, title="profiler 配置"))


def test_edition_files_render_hostile_series_and_issue_text_inert_and_rebuild_the_same():
    from fixlore.series.edition import build_files, ordered_rows

    series = Series(name="s", title="<b>S</b>", tagline="<script>alert(1)</script> [x](javascript:alert(2))",
                    agent_pointer="https://example.org/kg", agent_label="<img src=x onerror=alert(3)>").check()
    kept = case("o/a", 7, 30, funnel="selected", value=0.8)
    kept.title = kept.problem = "<script>alert(4)</script> crash"
    kept.answer = "fixed by <a href=javascript:alert(5)>x</a>"
    wait = case("o/a", 8, 31, funnel="rank", value=0.2)
    inputs = {"series": series.to_dict(), "edition": {"number": 3, "since": T0.isoformat(),
                                                      "until": (T0 + timedelta(days=2)).isoformat(), "kind": "regular", "focus": {}},
              "run": {}, "prior_backlog": {"count": 0, "left_pool": [], "taken_elsewhere": [], "outside": []},
              "backlog": [{"repo": "o/a", "number": 8, "value": 0.2, "title": "<script>alert(6)</script>"}]}
    rows = ordered_rows([{"role": "new", "published": True, "row": kept.to_export(), "change": None},
                         {"role": "new", "published": False, "row": wait.to_export(), "change": None}])
    files = build_files(json.loads(json.dumps(inputs)), json.loads(json.dumps(rows)))
    assert files == build_files(json.loads(json.dumps(inputs)), json.loads(json.dumps(rows)))
    page = files["digest.html"].decode("utf-8").lower()
    assert "<script" not in page and "<img" not in page and 'href="javascript' not in page
    md = files["digest.zh.md"].decode("utf-8")
    assert "<script" not in md and re.search(r"(?<!\\)\]\(javascript:", md) is None     # brackets escaped: no link
    assert _page(md).startswith("# \\<b\\>S\\</b\\>（三）") or _page(md).startswith("# &lt;b>S&lt;/b>（三）")
    assert "系列下一篇：余量 1 条" in md


def test_cli_errors_are_one_line(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return fixlore_here(*args)

    missing = run("series", "publish", "nope", "--world", str(DEMO), "--out", str(tmp_path))
    assert missing.returncode != 0 and "no series 'nope'" in missing.stderr and "Traceback" not in missing.stderr
    run("series", "create", "s", "--title", "S", "--out", str(tmp_path))
    no_start = run("series", "publish", "s", "--world", str(DEMO), "--out", str(tmp_path))
    assert no_start.returncode != 0 and "has no start" in no_start.stderr and "Traceback" not in no_start.stderr
    bad = run("series", "create", "t", "--title", "T", "--agent-pointer", "ftp://x", "--out", str(tmp_path))
    assert bad.returncode != 0 and "agent_pointer must be" in bad.stderr
    live = run("run", "--series", "s", "--platform", "gitcode", "--org", "x", "--as-of", "2026-09-18", "--out", str(tmp_path))
    assert live.returncode != 0 and "--as-of needs --world" in live.stderr


def test_series_from_a_config_file(tmp_path):
    from fixlore.series.model import series_from_file

    path = tmp_path / "series.toml"
    path.write_text('[series.ascend]\ntitle = "Ascend 精选"\norgs = ["cann", "Ascend"]\norgs_out = "mindspore"\n'
                    'agent_pointer = "mcp"\nfirst_number = 16\n', encoding="utf-8")
    [s] = series_from_file(str(path))
    assert (s.name, s.first_number, s.orgs_out, s.pointer_text()) == ("ascend", 16, ["mindspore"], "fixlore serve mcp --out OUT")
    assert s.in_scope("cann/hccl") and not s.in_scope("mindspore/mindspore") and not s.in_scope("other/x")


def test_a_published_series_keeps_its_start_and_numbering(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        ledger = Ledger(store)
        s = Series(name="s", title="S", since="2026-09-17T00:00:00+08:00").check()
        ledger.save_series(s.to_dict())
        ledger.record_edition("s", 1, kind="regular", focus=None, window_since=T0, window_until=T0 + timedelta(days=1),
                              scope={}, counts={}, backlog=[], inputs={}, rows=[], files={})
        ledger.save_series({**s.to_dict(), "tagline": "new words"})          # framing may change
        assert ledger.series("s")["tagline"] == "new words"
        with pytest.raises(FixloreError, match="first_number cannot change"):
            ledger.save_series({**s.to_dict(), "first_number": 16})
    finally:
        store.close()
