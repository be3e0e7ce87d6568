"""The store as a reader sees it: UTF-8 JSON, ISO UTC times with Z, foreign keys, views of the
conclusions, a full-text index that finds Chinese words, and Datasette reading it all."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx2 as httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from fixlore.core.model import Case, Evidence, FixRef, KbRef
from fixlore.store import Store
from fixlore.store import views as store_views
from fixlore.core.timeutil import parse_time

from conftest import free_port, served_process

ROOT = Path(__file__).resolve().parents[1]
CST = timezone(timedelta(hours=8))
VIEW_OF = {"case_fixes": "fix", "case_pending_fixes": "pending_fix", "case_evidence": "evidence",
           "case_kb_refs": "kb_refs", "case_traps": "traps"}


def _case() -> Case:
    merged = datetime(2026, 9, 17, 10, 0, tzinfo=CST)
    return Case(repo="o/r", number=7, title="训练时 HCCL 超时", url="https://gitcode.com/o/r/issues/7",
                closed_at=merged + timedelta(hours=1), funnel="selected", timing="after_merge", lag_s=3600,
                fix=[FixRef("o/r", 70, "fix", "merged", merged, "https://gitcode.com/o/r/merge_requests/70", "master"),
                     FixRef("o/r", 71, "backport", "merged", merged, "https://gitcode.com/o/r/merge_requests/71", "r2")],
                pending_fix=[FixRef("o/r", 69, "fix", "closed")],
                evidence=[Evidence("closing_ref", "关闭于 !70", "pulls/70"), Evidence("answer", "升级驱动", "issues/7/comments/3")],
                traps=["stale_close", "one_pr_many_issues"],
                trap_notes={"stale_close": "机器人关闭", "one_pr_many_issues": "!70 also fixes #8"},
                kb_refs=[KbRef("docs/o/r/docs/hccl.md", "part0002", 0.61)], theme="通信", problem="超时阈值过小",
                answer="调大 HCCL_CONNECT_TIMEOUT", analysed_by="offline")


def _rows(store: Store, view: str) -> list[dict]:
    with store.engine.connect() as conn:
        order = {"case_fixes": "pending, position"}.get(view, "position" if view in VIEW_OF else "number")
        return [dict(r._mapping) for r in conn.execute(sa.text(f"SELECT * FROM {view} ORDER BY repo, number, {order}"))]


def _time(value) -> datetime | None:
    return parse_time(value) if value else None      # SQLite: ISO text with Z; PostgreSQL: a datetime


def test_conclusions_are_rows_on_both_dialects(db_url):
    case = _case()
    store = Store.open(db_url)
    try:
        store.save_linked_cases([case, Case(repo="o/r", number=8, funnel="window")])
        export = case.to_export()
        fixes = _rows(store, "case_fixes")
        assert [(f["pr_repo"], f["pr_number"], f["role"], f["base_ref"], _time(f["merged_at"]), bool(f["merged"]),
                 bool(f["pending"]), f["position"]) for f in fixes] == \
            [(x["repo"], x["number"], x["role"], x["base_ref"], parse_time(x["merged_at"]), True, False, i)
             for i, x in enumerate(export["fix"])] + [("o/r", 69, "fix", "", None, False, True, 0)]
        assert [(t["trap"], t["note"], t["position"]) for t in _rows(store, "case_traps")] == \
            [(t, export["trap_notes"][t], i) for i, t in enumerate(export["traps"])]
        assert [(e["kind"], e["detail"], e["source"]) for e in _rows(store, "case_evidence")] == \
            [(e["kind"], e["detail"], e["source"]) for e in export["evidence"]]
        refs = _rows(store, "case_kb_refs")
        assert [(r["doc"], r["chunk"], r["score"]) for r in refs] == [("docs/o/r/docs/hccl.md", "part0002", 0.61)]
        assert [p["pr_number"] for p in _rows(store, "case_pending_fixes")] == [69]
        conclusions = _rows(store, "case_conclusions")
        assert [(c["number"], c["lag_s"], c["problem"], c["theme"], _time(c["closed_at"])) for c in conclusions] == \
            [(7, 3600, "超时阈值过小", "通信", case.closed_at), (8, None, "", "", None)]

        # a later stage changes per-case fields only: the rows stay as the linker wrote them
        case.problem, case.funnel = "驱动版本过旧", "analysis"
        store.save_cases([case])
        assert [(c["problem"], c["funnel"]) for c in _rows(store, "case_conclusions")][0] == ("驱动版本过旧", "analysis")
        assert len(_rows(store, "case_fixes")) == 3 and len(_rows(store, "case_traps")) == 2
        # the kb stage replaces the cited documents, nothing else
        case.kb_refs = [KbRef("docs/o/r/docs/a.md", "part0001", 0.7), KbRef("docs/o/r/docs/b.md", "part0004", 0.5)]
        store.save_kb_refs([case])
        assert [r["doc"] for r in _rows(store, "case_kb_refs")] == ["docs/o/r/docs/a.md", "docs/o/r/docs/b.md"]
        # linking again replaces a case's rows: a dropped trap and a dropped fix leave no row behind
        case.traps, case.fix = ["stale_close"], case.fix[:1]
        store.save_linked_cases([case])
        store.save_linked_cases([case])
        assert [t["trap"] for t in _rows(store, "case_traps")] == ["stale_close"]
        assert [(f["pr_number"], bool(f["pending"])) for f in _rows(store, "case_fixes")] == [(70, False), (69, True)]
        assert len(_rows(store, "case_kb_refs")) == 2
    finally:
        store.close()


def test_json_is_utf8_text_and_times_are_iso_utc_with_z(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'fixlore.db'}")
    try:
        store.save_linked_cases([_case()])
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "fixlore.db") as db:
        export, updated = db.execute("SELECT export, updated_at FROM cases").fetchone()
        fks = {(r[2], r[3]) for r in db.execute("PRAGMA foreign_key_list(cases)")}
        fix_fks = {(r[2], r[3], r[4]) for r in db.execute("PRAGMA foreign_key_list(case_fixes)")}
        merged_at = db.execute("SELECT merged_at FROM case_fixes WHERE position = 0 AND NOT pending").fetchone()[0]
    assert "超时阈值过小" in export and "\\u" not in export
    assert datetime.fromisoformat(updated).tzinfo == timezone.utc and updated.endswith("Z") and "T" in updated
    assert fks == {("issues", "repo"), ("issues", "number"), ("runs", "run_id"), ("issues", "id")}
    assert fix_fks == {("cases", "repo", "repo"), ("cases", "number", "number"), ("pulls", "pr_repo", "repo"),
                       ("pulls", "pr_number", "number"), ("cases", "case_id", "id"), ("pulls", "pull_id", "id")}
    assert merged_at == "2026-09-17T02:00:00.000000Z"


def _old_store(tmp_path):
    """An empty SQLite file and the alembic config that migrates it step by step."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    cfg = Config(str(ROOT / "src" / "fixlore" / "store" / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "src" / "fixlore" / "store" / "migrations"))
    return url, sa.create_engine(url), cfg


def test_the_migration_rewrites_a_store_written_before_it(tmp_path):
    """A store at revision 0001 (naive UTC times, ASCII-escaped JSON) reads the same after 0003."""
    url, engine, cfg = _old_store(tmp_path)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(sa.text("INSERT INTO repos (full_name, platform, owner, name, updated_at, raw) VALUES "
                             "('o/r', 'gitcode', 'o', 'r', '2026-09-17 02:02:11.000000', :raw)"),
                     {"raw": json.dumps({"description": "昇腾"})})
        conn.execute(sa.text("INSERT INTO issues (repo, number, title, closed_at, labels) VALUES "
                             "('o/r', 1, '超时', '2026-09-17 02:02:11.500000', :labels)"), {"labels": json.dumps(["缺陷"])})
    engine.dispose()
    store = Store.open(url)
    try:
        assert store.issues()[0].closed_at == datetime(2026, 9, 17, 2, 2, 11, 500000, tzinfo=timezone.utc)
        assert store.issues()[0].labels == ["缺陷"]
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "old.db") as db:
        assert db.execute("SELECT closed_at, labels FROM issues").fetchone() == ("2026-09-17T02:02:11.500000Z",
                                                                               '["缺陷"]')
        assert db.execute("SELECT raw FROM repos").fetchone() == ('{"description": "昇腾"}',)
        assert db.execute("SELECT version_num FROM alembic_version").fetchone() == ("0011_pull_comments",)


def test_the_migration_unfolds_cases_stored_as_json_and_goes_back(tmp_path):
    """A store at 0003 (conclusions only in cases.export, views over the JSON) gets its rows at
    0004; going back to 0003 brings the JSON views back, reading the same items."""
    url, engine, cfg = _old_store(tmp_path)
    export = _case().to_export()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003_datasette")
        conn.execute(sa.text("INSERT INTO cases (repo, number, funnel, export) VALUES ('o/r', 7, 'selected', :e)"),
                     {"e": json.dumps(export, ensure_ascii=False)})
        before = {view: conn.execute(sa.text(f"SELECT count(*) FROM {view}")).scalar_one() for view in VIEW_OF}
    store = Store.open(url)
    try:
        # case_fixes is a table of both lists now; its old view held the landed ones (pending_fix: a view still)
        after = {view: sum(1 for r in _rows(store, view) if not r.get("pending")) for view in VIEW_OF}
        assert after == before == \
            {view: len(export[field]) for view, field in VIEW_OF.items()}
        assert [(r["trap"], r["note"]) for r in _rows(store, "case_traps")] == \
            [(t, export["trap_notes"][t]) for t in export["traps"]]
        assert [(c["title"], c["timing"], c["lag_s"]) for c in _rows(store, "case_conclusions")] == \
            [(export["title"], export["timing"], export["lag_s"])]
        assert [c.to_export() for c in store.load_cases()] == [export]
    finally:
        store.close()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003_datasette")
        assert {view: conn.execute(sa.text(f"SELECT count(*) FROM {view}")).scalar_one() for view in VIEW_OF} == before
        assert "title" not in {c["name"] for c in sa.inspect(conn).get_columns("cases")}
    engine.dispose()


def test_fulltext_finds_chinese_words_and_follows_changes(tmp_path):
    from fixlore.retrieval.tokens import Tokenizer
    from fixlore.core.model import Issue, Repo

    words = Tokenizer(tmp_path / "tok")
    segment = lambda text: " ".join(words.tokens(text))      # noqa: E731
    store = Store.open(f"sqlite:///{tmp_path / 'fixlore.db'}")
    t = datetime(2026, 9, 17, tzinfo=timezone.utc)
    issue = Issue(repo="o/r", number=1, title="多卡训练时 HCCL 通信超时", body="报错 get socket timeout",
                  state="closed", created_at=t, updated_at=t, closed_at=t)
    other = Issue(repo="o/r", number=2, title="安装 CANN 失败", body="缺少依赖", state="open", created_at=t,
                  updated_at=t, closed_at=None)
    try:
        with store.writer() as w:
            w.upsert_repos([Repo(full_name="o/r", platform="gitcode", owner="o", name="r")])
            w.upsert_issues([issue, other])
        assert store.refresh_fulltext(segment)["indexed"] == 2
        assert store.refresh_fulltext(segment)["indexed"] == 0, "unchanged rows are not segmented again"

        def found(query: str) -> list[int]:
            with store.engine.connect() as conn:
                return [r[0] for r in conn.execute(sa.text(
                    f"SELECT number FROM {store_views.FULLTEXT} WHERE {store_views.FULLTEXT} MATCH :q"), {"q": query})]

        assert found("超时") == [1] and found("安装") == [2] and found("socket timeout") == [1]
        issue.title, issue.updated_at = "多卡训练时 HCCL 建链失败", t + timedelta(hours=1)
        with store.writer() as w:
            w.upsert_issues([issue])
        assert store.refresh_fulltext(segment) == {"indexed": 1, "removed": 0, "rows": 2}
        assert found("超时") == [] and found("建链") == [1]
    finally:
        store.close()


# ---------------------------------------------------------------- Datasette on the demo store

@pytest.fixture(scope="module")
def demo_out(demo_run) -> Path:
    return demo_run


@pytest.fixture(scope="module")
def datasette(demo_out):
    pytest.importorskip("datasette")
    port = free_port()
    with served_process([sys.executable, "-m", "datasette", "serve", str(demo_out / "fixlore.db"),
                         "-m", str(demo_out / "metadata.json"), "--host", "127.0.0.1", "--port", str(port)],
                        port, ready="/-/versions.json", env={**os.environ, "NO_COLOR": "1"}) as base:
        yield base


def test_datasette_reads_each_view_of_the_demo_store(demo_out, datasette):
    cases = [json.loads(line) for line in (demo_out / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    with httpx.Client(base_url=datasette, timeout=30) as c:
        for view, field in VIEW_OF.items():
            rows = c.get(f"/fixlore/{view}.json", params={"_shape": "array", "_size": "max"}).json()
            want = sorted((x["repo"], x["number"], i) for x in cases for i, _ in enumerate(x[field]))
            # (case_fixes holds the pending ones as well, flagged: the case_pending_fixes view picks them)
            assert sorted((r["repo"], r["number"], r["position"]) for r in rows if not r.get("pending")) == want, view
            assert rows, f"the demo has {field}"
        traps = c.get("/fixlore/case_traps.json", params={"_shape": "array", "_size": "max"}).json()
        by_key = {(x["repo"], x["number"]): x for x in cases}
        assert all(t["note"] == by_key[(t["repo"], t["number"])]["trap_notes"][t["trap"]] for t in traps)
        conclusions = c.get("/fixlore/case_conclusions.json", params={"_shape": "array", "_size": "max"}).json()
        assert {(r["repo"], r["number"]): r["problem"] for r in conclusions} == \
            {(x["repo"], x["number"]): x["problem"] for x in cases}
        # the metadata explains the views and hides the HTTP cache
        meta = c.get("/-/metadata.json").json()
        assert meta["title"] and meta["databases"]["fixlore"]["tables"]["case_conclusions"]["units"]["lag_s"] == "s"
        tables = {t["name"]: t for t in c.get("/fixlore.json").json()["tables"]}
        assert tables["http_cache"]["hidden"] and not tables["issues"]["hidden"]
        # single-column foreign keys become links in Datasette
        outgoing = {name: {(fk["column"], fk["other_table"]) for fk in tables[name]["foreign_keys"]["outgoing"]}
                    for name in ("issues", "pulls", "cases")}
        assert outgoing == {"issues": {("repo", "repos")}, "pulls": {("repo", "repos")},
                            "cases": {("run_id", "runs"), ("id", "issues")}}
        # full-text search over issues and PRs finds a two-character Chinese word of a title
        title = next(x["title"] for x in cases if "超时" in x["title"])
        hits = c.get("/fixlore/fulltext.json", params={"_search": "超时", "_shape": "array"}).json()
        assert hits and all("超时" in h["title_words"].split() + h["body_words"].split() for h in hits)
        assert title in {h["title"] for h in hits}


def test_the_metadata_describes_columns_that_exist(tmp_path):
    from fixlore.store.datasette import TABLES

    store = Store.open(f"sqlite:///{tmp_path / 'fixlore.db'}")
    try:
        inspector = sa.inspect(store.engine)
        names = set(inspector.get_table_names()) | set(inspector.get_view_names())
        for name, meta in TABLES.items():
            assert name in names, f"metadata names {name}, which the store does not have"
            columns = {c["name"] for c in inspector.get_columns(name)}
            described = set(meta.get("columns", {})) | set(meta.get("units", {}))
            assert described <= columns, f"{name}: described but absent: {described - columns}"
    finally:
        store.close()


def test_the_migration_fills_the_item_facts_from_the_kept_payloads(tmp_path):
    """A store at 0005 gets issues.is_pull and pulls.head_sha at 0006 from each row's payload
    (what the sources now normalise), so stages read the fields without a new harvest."""
    url, engine, cfg = _old_store(tmp_path)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005_item_failures")
        conn.execute(sa.text("INSERT INTO repos (full_name, platform, owner, name) VALUES ('o/r', 'github', 'o', 'r')"))
        for number, raw in ((1, {"number": 1}), (2, {"number": 2, "pull_request": {"url": "x"}})):
            conn.execute(sa.text("INSERT INTO issues (repo, number, raw) VALUES ('o/r', :n, :raw)"),
                         {"n": number, "raw": json.dumps(raw)})
        for number, raw in ((3, {"head": {"sha": "abc1234"}}), (4, {"head": None})):
            conn.execute(sa.text("INSERT INTO pulls (repo, number, raw) VALUES ('o/r', :n, :raw)"),
                         {"n": number, "raw": json.dumps(raw)})
    engine.dispose()
    store = Store.open(url)
    try:
        assert [(i.number, i.is_pull, i.platform) for i in store.issues()] == [(1, False, "github"),
                                                                               (2, True, "github")]
        assert [(p.number, p.head_sha) for p in store.load_corpus().pulls] == [(3, "abc1234"), (4, "")]
    finally:
        store.close()


# ---------------------------------------------------------------- Datasette in-process: links and search boxes

def _in_process(out: Path):
    """The store of a run opened in Datasette in this process (its ASGI client: no port, no network)."""
    datasette_app = pytest.importorskip("datasette.app")
    meta = json.loads((out / "metadata.json").read_text(encoding="utf-8"))
    return datasette_app.Datasette([str(out / "fixlore.db")], metadata=meta)


def test_datasette_follows_a_fix_to_its_pr_and_finds_chinese_typed_without_spaces(demo_out):
    """Issue #26: a case's fix row links to its PR (a single-column foreign key Datasette draws),
    and the issues' search box finds 偶发超时 and 多卡部署 inside longer runs of Chinese (the demo's
    demo-ai/infer-serve#30 is titled 多卡部署时 /health 接口偶发超时)."""
    import asyncio
    import re
    from urllib.parse import quote, unquote

    cases = [json.loads(line) for line in (demo_out / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    case = next(x for x in cases if x["fix"])
    fix = case["fix"][0]
    case_id = f"{case['repo']}#{case['number']}"
    ds = _in_process(demo_out)

    async def walk() -> dict:
        await ds.invoke_startup()
        get = ds.client.get
        seen: dict = {}
        # the case's fix rows, by the case's single-column key: the PR column is an expanded link
        rows = (await get(f"/fixlore/case_fixes.json?case_id={quote(case_id)}&pending=0&_labels=on"
                          "&_shape=array")).json()
        seen["labels"] = [r["pull_id"] for r in rows]
        seen["case_links"] = [r["case_id"] for r in rows]
        html = (await get(f"/fixlore/case_fixes?case_id={quote(case_id)}&pending=0")).text
        seen["hrefs"] = re.findall(r'href="(/fixlore/pulls/[^"?#]+)"', html)
        seen["pr"] = [(await get(href + ".json?_shape=array")).json() for href in seen["hrefs"]]
        search = {}
        for q in ("偶发超时", "多卡部署", "超时"):
            search[q] = (await get(f"/fixlore/issues.json?_search={quote(q)}&_shape=array&_size=max")).json()
        seen["search"] = search
        seen["form"] = (await get("/fixlore/issues")).text
        seen["pulls_search"] = (await get(f"/fixlore/pulls.json?_search={quote('fix-zero')}&_shape=array")).json()
        seen["fulltext"] = (await get(f"/fixlore/fulltext.json?_search={quote('超时')}&_shape=array")).json()
        return seen

    seen = asyncio.run(walk())
    pull_id = f"{fix['repo']}#{fix['number']}"
    assert seen["labels"] and seen["labels"][0]["value"] == pull_id and seen["labels"][0]["label"] != pull_id
    assert seen["case_links"][0]["value"] == case_id
    assert unquote(seen["hrefs"][0].replace("~", "%")) == f"/fixlore/pulls/{pull_id}"
    pr = seen["pr"][0]
    assert [(p["repo"], p["number"]) for p in pr] == [(fix["repo"], fix["number"])]
    assert pr[0]["title"] == seen["labels"][0]["label"]

    found = {q: {(r["repo"], r["number"]) for r in rows} for q, rows in seen["search"].items()}
    assert ("demo-ai/infer-serve", 30) in found["偶发超时"] and ("demo-ai/infer-serve", 30) in found["多卡部署"]
    assert all("偶发超时" in r["title"] + r["body"] for r in seen["search"]["偶发超时"])
    assert 'name="_search"' in seen["form"]
    # two characters are below the trigram index's reach: the box finds nothing (its description
    # says so), and the jieba-segmented fulltext table finds the word
    assert found["超时"] == set() and seen["fulltext"]
    assert [p["head_ref"] for p in seen["pulls_search"]] == ["fix-zero-channel-scale"]


def test_the_search_boxes_follow_the_store_writes(tmp_path):
    """The trigram index changes with the rows, inside the writer's transaction."""
    from fixlore.core.model import Issue, Repo

    store = Store.open(f"sqlite:///{tmp_path / 'fixlore.db'}")
    t = datetime(2026, 9, 17, tzinfo=timezone.utc)
    issue = Issue(repo="o/r", number=1, title="多卡训练", body="训练时偶发超时，多卡部署后 HCCL 报错", state="closed",
                  created_at=t, updated_at=t, closed_at=t)

    def found(q: str) -> list[str]:
        with store.engine.connect() as conn:
            return [r[0] for r in conn.execute(sa.text(
                "SELECT id FROM issues WHERE rowid IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH :q)"),
                {"q": f'"{q}"'})]
    try:
        with store.writer() as w:
            w.upsert_repos([Repo(full_name="o/r", platform="gitcode", owner="o", name="r")])
            w.upsert_issues([issue])
        assert found("偶发超时") == ["o/r#1"] and found("多卡部署") == ["o/r#1"]
        issue.body = "安装 CANN 失败"
        with store.writer() as w:
            w.upsert_issues([issue])
        assert found("偶发超时") == [] and found("安装 CANN") == ["o/r#1"]
        with pytest.raises(RuntimeError):
            with store.writer() as w:
                w.upsert_issues([Issue(repo="o/r", number=2, title="偶发超时", body="", state="open",
                                       created_at=t, updated_at=t, closed_at=None)])
                raise RuntimeError("the run stops before the commit")
        assert found("偶发超时") == []
    finally:
        store.close()


def test_the_migration_gives_stored_rows_their_single_column_keys_and_goes_back(db_url):
    """A store at 0005 (composite keys only) gets ids, case_id and pull_id for the rows it holds, on
    both dialects; going back to 0005 restores the composite primary keys, with the rows."""
    engine = sa.create_engine(db_url)
    cfg = Config(str(ROOT / "src" / "fixlore" / "store" / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "src" / "fixlore" / "store" / "migrations"))

    def migrate(step, revision):
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            step(cfg, revision)

    migrate(command.upgrade, "0005_item_failures")
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO repos (full_name, platform, owner, name) VALUES ('o/r', 'gitcode', 'o', 'r')"))
        conn.execute(sa.text("INSERT INTO issues (repo, number, title, body) VALUES ('o/r', 7, '超时', '训练时偶发超时')"))
        conn.execute(sa.text("INSERT INTO pulls (repo, number, title) VALUES ('o/r', 70, '修复超时')"))
        conn.execute(sa.text("INSERT INTO cases (repo, number, funnel) VALUES ('o/r', 7, 'selected')"))
        conn.execute(sa.text("INSERT INTO case_fixes (repo, number, pending, position, pr_repo, pr_number) "
                             "VALUES ('o/r', 7, false, 0, 'o/r', 70)"))
        conn.execute(sa.text("INSERT INTO case_traps (repo, number, trap, position) VALUES ('o/r', 7, 'stale_close', 0)"))
    migrate(command.upgrade, "head")
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT id FROM issues")).scalars().all() == ["o/r#7"]
            assert conn.execute(sa.text("SELECT id FROM pulls")).scalars().all() == ["o/r#70"]
            assert conn.execute(sa.text("SELECT id FROM cases")).scalars().all() == ["o/r#7"]
            assert conn.execute(sa.text("SELECT case_id, pull_id FROM case_fixes")).all() == [("o/r#7", "o/r#70")]
            assert conn.execute(sa.text("SELECT case_id FROM case_traps")).scalars().all() == ["o/r#7"]
            inspector = sa.inspect(conn)
            assert {t: inspector.get_pk_constraint(t)["constrained_columns"] for t in ("issues", "pulls", "cases")} == \
                {"issues": ["id"], "pulls": ["id"], "cases": ["id"]}
            if conn.dialect.name == "sqlite":
                assert conn.execute(sa.text("SELECT rowid FROM issues_fts WHERE issues_fts MATCH '\"偶发超时\"'")).all()
        migrate(command.downgrade, "0005_item_failures")
        with engine.connect() as conn:
            inspector = sa.inspect(conn)
            assert inspector.get_pk_constraint("issues")["constrained_columns"] == ["repo", "number"]
            assert "case_id" not in {c["name"] for c in inspector.get_columns("case_fixes")}
            assert conn.execute(sa.text("SELECT pr_number FROM case_fixes")).scalars().all() == [70]
        migrate(command.upgrade, "head")
    finally:
        engine.dispose()
