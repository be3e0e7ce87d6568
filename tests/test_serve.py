"""The serve stage on a real run of the demo world: the knowledge facade, the CLI, the HTTP API
on a real loopback server, and the MCP tools through the official MCP client."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fixlore
from fixlore.core.model import Case, Evidence, FixRef
from fixlore.retrieval.base import KnowledgeBase
from fixlore.serve import views
from fixlore.serve.http import create_app
from fixlore.serve.knowledge import CASE_INDEX, Knowledge, Locations, UnknownCase, UnknownRepo, index_cases
from fixlore.store import Store

from conftest import fixlore_here, free_port, served_fixlore

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
pytestmark = pytest.mark.skipif(not DEMO.is_dir(), reason="demo world missing")


def _fixlore(*args: str) -> subprocess.CompletedProcess:
    return fixlore_here(*args, env={"NO_COLOR": "1", "COLUMNS": "200"})


@pytest.fixture(scope="module")
def run_dir(demo_run) -> Path:
    return demo_run


@pytest.fixture(scope="module")
def knowledge(run_dir):
    k = Knowledge.open(Locations.of(out=run_dir))
    yield k
    k.close()


# ---------------------------------------------------------------- pure views

def _case(**kw) -> Case:
    return Case(repo="o/r", number=1, **{"funnel": "selected", **kw})


def test_status_says_where_the_fix_stands():
    t = datetime(2026, 9, 20, tzinfo=timezone.utc)
    assert views.status_of(_case(fix=[FixRef("o/r", 5, "fix", state="merged", merged_at=t)])) == "fixed"
    assert views.status_of(_case(pending_fix=[FixRef("o/r", 5, "fix", state="open")],
                                 traps=["fix_not_landed"])) == "fix_not_landed"
    assert views.status_of(_case(traps=["closed_before_merge"])) == "closed_before_merge"
    assert views.status_of(_case(evidence=[Evidence("answer", "a reply", "issues/1/comments/2")])) == "answered"
    assert views.status_of(_case()) == "no_fix_found"
    # an issue not closed in the window was never judged by the linker: no verdict is claimed
    assert views.status_of(_case(funnel="window", evidence=[Evidence("answer", "a reply", "x")])) == "not_traced"
    # a fix entry that is not merged never makes a case "fixed"
    assert views.status_of(_case(fix=[FixRef("o/r", 5, "fix", state="open")])) == "no_fix_found"


@pytest.mark.parametrize("text, key", [
    ("Ascend/msmodeling#390", ("Ascend/msmodeling", 390)),
    (" a/b # 7 ", ("a/b", 7)),
    ("https://gitcode.com/Ascend/MindSpeed/issues/690", ("Ascend/MindSpeed", 690)),
    ("https://github.com/o/r/issues/12#issuecomment-1", ("o/r", 12)),
])
def test_parse_key_accepts_keys_and_issue_urls(text, key):
    assert views.parse_key(text) == key


@pytest.mark.parametrize("text", ["", "msmodeling#390", "a/b/c#1", "https://gitcode.com/a/b/merge_requests/3", "a/b#x"])
def test_parse_key_rejects_what_is_not_an_issue(text):
    with pytest.raises(ValueError, match="OWNER/REPO#N"):
        views.parse_key(text)


# ---------------------------------------------------------------- the knowledge facade

def test_the_run_indexes_its_pool_cases(run_dir):
    info = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    serve = next(s for s in info["stages"] if s["name"] == "serve")
    cases = [json.loads(line) for line in (run_dir / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    pool = [c for c in cases if c["funnel"] in views.POOL_STAGES]
    assert serve["status"] == "ok" and serve["summary"]["cases"] == len(pool) > 0
    assert (run_dir / CASE_INDEX / "kb.sqlite").is_file()


def test_search_finds_a_case_by_its_symptom(knowledge):
    top = knowledge.search_cases("加载 safetensors 报 KeyError: 'lm_head.weight'", k=3)[0]
    assert top["key"] == "demo-ai/modelkit#104" and top["error"] == "KeyError: 'lm_head.weight'"
    # a case the analysis never summarised still shows what its reporter wrote
    unanalysed = next(c for c in knowledge.cases.values() if c.funnel == "rank" and not c.problem)
    card = next(h for h in knowledge.search_cases(unanalysed.title, k=5) if h["key"] == unanalysed.key)
    assert card["report"] and "<" not in card["report"]
    hits = knowledge.search_cases("W8A8 量化校准 per-channel scale NaN", k=3)
    assert hits[0]["key"] == "demo-ai/modelkit#101"
    assert hits[0]["status"] == "fixed" and hits[0]["fix"][0]["url"].endswith("/merge_requests/201")
    assert len({h["key"] for h in hits}) == len(hits), "one entry per case"


def test_search_keeps_one_repository_when_asked(knowledge):
    hits = knowledge.search_cases("超时", k=5, repo="demo-infra/commlib")
    assert hits and {h["key"].split("#")[0] for h in hits} == {"demo-infra/commlib"}


def test_report_text_alone_is_searchable(knowledge, run_dir):
    """The start of the report is indexed with the analysis: a phrase found only in an issue's
    body (not in its title or analysis) finds the case."""
    store = Store.open(f"sqlite:///{run_dir / 'fixlore.db'}", migrate=False)
    try:
        texts = store.issue_texts([("demo-infra/commlib", 12), ("nobody/none", 1)])
    finally:
        store.close()
    assert list(texts) == [("demo-infra/commlib", 12)] and texts[("demo-infra/commlib", 12)].comments
    case = knowledge.cases["demo-infra/commlib#12"]
    analysed = views.search_text(case)
    lines = [ln.strip() for ln in texts[("demo-infra/commlib", 12)].body.splitlines() if len(ln.strip()) >= 20]
    only_in_body = next(ln for ln in lines if ln not in analysed)
    assert knowledge.search_cases(only_in_body, k=3)[0]["key"] == "demo-infra/commlib#12"


def test_cases_outside_the_window_are_not_claimed_or_offered(knowledge):
    outside = [c for c in knowledge.cases.values() if c.funnel == "window"]
    assert outside
    status = knowledge.fix_status(outside[0].key)
    assert status["status"] == "not_traced" and status["funnel"] == "window"
    internal = next(c for c in knowledge.cases.values() if c.funnel not in views.POOL_STAGES + ("window",))
    assert knowledge.fix_status(internal.key)["funnel"] == internal.funnel
    served = {c["key"] for key in knowledge.cases if knowledge.cases[key].funnel in views.POOL_STAGES
              for c in knowledge.related_cases(key, k=10)}
    assert served and all(knowledge.cases[k].funnel in views.POOL_STAGES for k in served)
    found = {h["key"] for h in knowledge.search_cases(outside[0].title or "error", k=50)}
    assert all(knowledge.cases[k].funnel in views.POOL_STAGES for k in found)


def test_repo_filter_reaches_past_the_top_results(tmp_path):
    """A repository with one matching case among 150 better matches elsewhere still gets it."""
    from fixlore.retrieval.base import KnowledgeBase

    cases = [Case(repo="a/x", number=i, funnel="selected", title=f"heartbeat timeout on node {i}") for i in range(150)]
    cases.append(Case(repo="b/y", number=1, funnel="selected", title="agent reports a timeout"))
    with KnowledgeBase.open(tmp_path / "idx") as kb:
        kb.ingest_cases(cases)
    where = Locations(db="sqlite://", docs=None, cases=tmp_path / "idx")
    k = Knowledge(cases={c.key: c for c in cases}, case_index=KnowledgeBase.open(where.cases, create=False),
                  doc_index=None, where=where, _repos={"a/x": "a/x", "b/y": "b/y"})
    try:
        assert [h["key"] for h in k.search_cases("heartbeat timeout", k=5, repo="B/Y")] == ["b/y#1"]
        with pytest.raises(UnknownRepo, match="not a repository of this knowledge base.*a/x, b/y"):
            k.search_cases("heartbeat timeout", k=5, repo="nobody/here")
        assert len(k.search_cases("heartbeat timeout", k=50)) == 50
        with pytest.raises(ValueError, match="between 1 and 50, not 51"):
            k.search_cases("heartbeat timeout", k=51)
    finally:
        k.close()


def test_fix_status_names_the_fix_the_backport_and_the_traps(knowledge):
    s = knowledge.fix_status("demo-ai/modelkit#104")
    assert s["status"] == "fixed"
    assert [(f["pr"], f["base_ref"]) for f in s["fix"]] == [("!205", "master")]
    assert [(f["pr"], f["base_ref"]) for f in s["backports"]] == [("!207", "release/2.1")]
    s = knowledge.fix_status("https://gitcode.com/demo-ai/modelkit/issues/106")
    assert s["status"] == "fix_not_landed" and [f["pr"] for f in s["not_landed"]] == ["!210"]
    assert "did not land" in next(t["note"] for t in s["traps"] if t["name"] == "fix_not_landed")
    assert knowledge.fix_status("demo-infra/cluster-agent#95")["status"] == "closed_before_merge"
    assert knowledge.fix_status("Demo-Infra/Cluster-Agent#95")["key"] == "demo-infra/cluster-agent#95"
    stale = knowledge.fix_status("demo-infra/commlib#12")["traps"]
    assert {t["name"] for t in stale} >= {"stale_close", "claimed_unmerged"} and all(t["note"] for t in stale)


def test_get_case_carries_the_evidence_chain_and_what_to_cite(knowledge):
    c = knowledge.get_case("demo-ai/modelkit#101")
    assert c["cite"]["issue"] == c["url"] and c["cite"]["fix"] == [c["fix"][0]["url"]]
    assert c["cite"]["docs"] and c["cite"]["docs"] == c["kb_refs"]
    repo = json.loads((DEMO / "repos" / "demo-ai" / "modelkit" / "repo.json").read_text(encoding="utf-8"))
    for d in c["cite"]["docs"]:
        # a world records no commit for its docs/: the link names the default branch, never a made-up sha
        file_in_repo = d["doc"].removeprefix("docs/demo-ai/modelkit/")
        assert d["ref"] == repo["default_branch"]
        assert d["url"] == f"{repo['html_url'].removesuffix('.git')}/blob/{repo['default_branch']}/{file_in_repo}"
        assert Path(d["path"]).is_file() and Path(d["path"]).resolve() == (DEMO / d["doc"]).resolve()
    assert c["evidence"] and all(e["kind"] and e["source"] for e in c["evidence"])
    assert c["candidates"], "the PRs considered and their signals are part of the chain"


def test_related_cases_start_with_the_same_fix(knowledge):
    related = knowledge.related_cases("demo-ai/infer-serve#31", k=3)
    assert related[0]["key"] == "demo-ai/infer-serve#32" and related[0]["why"] == "the same fix !57"
    assert "demo-ai/infer-serve#31" not in {r["key"] for r in related}
    assert len({r["key"] for r in related}) == len(related) <= 3


def test_docs_search_marks_citable_passages_and_who_cites_them(knowledge):
    hits = knowledge.search_docs("W8A8 量化校准 scale 全零通道", k=5)
    quant = [h for h in hits if h["doc"].endswith("modelkit/docs/quantization.md")]
    assert quant and "demo-ai/modelkit#101" in quant[0]["cited_by"]
    threshold = knowledge.doc_index.threshold()
    assert all(h["cited"] == (h["score"] >= threshold) for h in hits)
    assert any(h["cited"] for h in hits), "the passage the digest cites for #101 is above the threshold"


def test_unknown_case_and_empty_query_are_clear_errors(knowledge):
    with pytest.raises(UnknownCase, match="not in this knowledge base"):
        knowledge.fix_status("nobody/none#1")
    with pytest.raises(ValueError, match="OWNER/REPO#N"):
        knowledge.get_case("#1")
    with pytest.raises(ValueError, match="empty"):
        knowledge.search_cases("   ")


def test_case_index_is_incremental_and_pruned(run_dir, tmp_path):
    store = Store.open(f"sqlite:///{run_dir / 'fixlore.db'}", migrate=False)
    try:
        cases = store.load_cases()
        pool = [c for c in cases if c.funnel in views.POOL_STAGES]
        first = index_cases(store, cases, tmp_path / "idx")
        again = index_cases(store, cases, tmp_path / "idx")
        fewer = index_cases(store, [c for c in cases if c.key != pool[0].key], tmp_path / "idx")
    finally:
        store.close()
    assert first["added"] == len(pool) and again["added"] == again["updated"] == 0
    assert again["unchanged"] == len(pool) and again["removed"] == 0
    assert fewer["removed"] == 1 and fewer["unchanged"] == len(pool) - 1
    # each pool case's related-cases query vector is kept once; a case that left the pool takes its own along
    assert first["query_vectors"] >= len(pool) - 1 and again["query_vectors"] == fewer["query_vectors"] == 0
    with KnowledgeBase.open(tmp_path / "idx", create=False) as kb:
        kept = kb.db.execute("SELECT count(*) FROM query_vecs").fetchone()[0]
    assert 0 < kept < first["query_vectors"]


def test_locations_explain_what_is_missing(tmp_path):
    from fixlore.core.errors import ConfigError

    with pytest.raises(ConfigError, match="--out DIR"):
        Locations.of()
    with pytest.raises(ConfigError, match="no store"):
        Locations.of(out=tmp_path)
    with pytest.raises(ConfigError, match="--case-index"):
        Locations.of(db="sqlite:///x.db")


# ---------------------------------------------------------------- CLI

def test_cli_cases_commands(run_dir):
    proc = _fixlore("cases", "status", "demo-ai/modelkit#106", "--out", str(run_dir), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "fix_not_landed"
    proc = _fixlore("cases", "search", "lm_head.weight KeyError", "--out", str(run_dir), "-k", "2")
    assert proc.returncode == 0 and "demo-ai/modelkit#104" in proc.stdout
    proc = _fixlore("cases", "related", "demo-ai/infer-serve#31", "--out", str(run_dir), "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)[0]["key"] == "demo-ai/infer-serve#32"
    proc = _fixlore("cases", "status", "nobody/none#1", "--out", str(run_dir))
    assert proc.returncode == 3 and "Traceback" not in proc.stderr and "not in this knowledge base" in proc.stderr
    proc = _fixlore("cases", "search", "x")
    assert proc.returncode == 2 and "--out DIR" in proc.stderr
    # square brackets in what the user typed are text, never console markup
    proc = _fixlore("cases", "search", "No such file [/usr/local/Ascend] [red]x", "--out", str(run_dir), "-k", "1")
    assert proc.returncode == 0 and "[/usr/local/Ascend] [red]x" in proc.stdout, proc.stderr
    proc = _fixlore("cases", "status", "[/x]", "--out", str(run_dir))
    assert proc.returncode == 2 and "'[/x]'" in proc.stderr and "Traceback" not in proc.stderr


def test_an_empty_store_is_a_clear_error(tmp_path):
    (tmp_path / "fixlore.db").write_bytes(b"")
    proc = _fixlore("cases", "search", "x", "--out", str(tmp_path))
    assert proc.returncode == 2 and "not a fixlore store" in proc.stderr and "Traceback" not in proc.stderr


# ---------------------------------------------------------------- HTTP, on a real loopback server

@pytest.fixture(scope="module")
def http_base(knowledge):
    from conftest import served_app

    with served_app(create_app(knowledge)) as base:
        yield base


def test_http_api(http_base):
    with httpx.Client(base_url=http_base, timeout=30) as c:
        stats = c.get("/api/stats").json()
        assert stats["searchable_cases"] > 0 and stats["documents"] > 0
        hits = c.get("/api/cases/search", params={"q": "lm_head.weight KeyError safetensors", "k": 2}).json()
        assert hits[0]["key"] == "demo-ai/modelkit#104" and len(hits) <= 2
        case = c.get("/api/cases/demo-ai/modelkit/104").json()
        assert case["key"] == "demo-ai/modelkit#104" and case["cite"]["fix"]
        assert c.get("/api/cases/demo-ai/modelkit/106/fix").json()["status"] == "fix_not_landed"
        assert c.get("/api/cases/demo-ai/infer-serve/31/related").json()[0]["key"] == "demo-ai/infer-serve#32"
        heartbeat = c.get("/api/docs/search", params={"q": "节点 心跳 超时"}).json()
        assert heartbeat and heartbeat[0]["doc"].endswith("cluster-agent/docs/heartbeat.md")
        missing = c.get("/api/cases/nobody/none/1")
        assert missing.status_code == 404 and "not in this knowledge base" in missing.json()["error"]
        assert c.get("/api/cases/search", params={"q": "  "}).status_code == 400
        too_many = c.get("/api/cases/search", params={"q": "x", "k": 1000})
        assert too_many.status_code == 422 and "k" in too_many.json()["error"]
        assert c.post("/api/cases/search", params={"q": "x"}).status_code == 405
        assert c.get("/api/openapi.json").json()["info"]["title"] == "fixlore"
        digest = c.get("/digest/digest.html")
        assert digest.status_code == 200 and digest.headers["content-type"].startswith("text/html")
        assert "script-src 'none'" in digest.headers["content-security-policy"]
        assert c.get("/digest/digest.json").json()["format"] == "fixlore-digest/1"
        for name in ("run.json", "fixlore.db", "..%2Ffixlore.db"):
            assert c.get(f"/digest/{name}").status_code == 404
        # DNS rebinding: a page whose name resolves to 127.0.0.1 sends its own Host header
        assert c.get("/api/stats", headers={"Host": "evil.example"}).status_code == 400


def test_search_page_renders_hostile_issue_text_inert(knowledge, http_base):
    case = knowledge.cases["demo-ai/modelkit#104"]
    saved = (case.title, case.url, case.problem)
    case.title = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    case.url = "javascript:alert(3)"
    case.problem = '<a href="javascript:alert(4)">click</a>'
    saved_fix_url = case.fix[0].url
    case.fix[0].url = "javascript:alert(5)"
    try:
        with httpx.Client(base_url=http_base, timeout=30) as c:
            page = c.get("/", params={"q": "lm_head.weight KeyError"})
    finally:
        case.title, case.url, case.problem = saved
        case.fix[0].url = saved_fix_url
    assert page.status_code == 200 and "demo-ai/modelkit#104" in page.text
    assert "script-src 'none'" in page.headers["content-security-policy"]
    body = page.text.lower()
    assert "<script" not in body and "<img" not in body and "javascript:" not in body and "onerror=" not in body
    # the query itself is echoed escaped
    with httpx.Client(base_url=http_base, timeout=30) as c:
        echoed = c.get("/", params={"q": '"><script>x</script>'}).text
    assert "<script>x" not in echoed and "&lt;script&gt;x" in echoed


def test_pages_render_code_spans_as_code(knowledge, http_base):
    """The search and case pages show `x` as code, never the backticks themselves (issue #26);
    a hostile tag inside a span stays text."""
    case = knowledge.cases["demo-ai/modelkit#104"]
    saved = case.problem
    case.problem = "加载 `lm_head.weight` 失败, 见 `<img src=x>`"
    try:
        with httpx.Client(base_url=http_base, timeout=30) as c:
            search = c.get("/", params={"q": "lm_head.weight KeyError"}).text
            page = c.get("/case/demo-ai/modelkit/104").text
    finally:
        case.problem = saved
    for body in (search, page):
        assert "<code>lm_head.weight</code>" in body and "`lm_head.weight`" not in body
        assert "<code>&lt;img src=x&gt;</code>" in body and "<img" not in body


def test_case_page_shows_the_evidence_chain_with_hostile_text_inert(knowledge, http_base):
    case = knowledge.cases["demo-infra/commlib#12"]
    saved = (case.title, list(case.evidence), dict(case.trap_notes))
    case.title = "<script>alert(1)</script>"
    case.evidence = case.evidence + [type(case.evidence[0])("comment", "<img src=x onerror=alert(2)>", "<b>x</b>")]
    case.trap_notes = {**case.trap_notes, "stale_close": '<a href="javascript:alert(3)">x</a> stale'}
    try:
        with httpx.Client(base_url=http_base, timeout=30) as c:
            page = c.get("/case/demo-infra/commlib/12")
            missing = c.get("/case/nobody/none/1")
    finally:
        case.title, case.evidence, case.trap_notes = saved[0], saved[1], saved[2]
    assert page.status_code == 200 and "script-src 'none'" in page.headers["content-security-policy"]
    body = page.text.lower()
    assert "<script" not in body and "<img" not in body and "javascript:" not in body
    for shown in ("stale_close", "claimed_unmerged", "every pr considered", "evidence"):
        assert shown in body
    assert missing.status_code == 404 and "not in this knowledge base" in missing.text


# ---------------------------------------------------------------- MCP, through the official client

def _mcp_calls(server) -> dict:
    from mcp.client import Client

    async def main() -> dict:
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
            found = await client.call_tool("search_cases", {"symptom": "KeyError: 'lm_head.weight'", "k": 2})
            status = await client.call_tool("fix_status", {"key": "demo-ai/modelkit#106"})
            case = await client.call_tool("get_case", {"key": "https://gitcode.com/demo-ai/modelkit/issues/101"})
            related = await client.call_tool("related_cases", {"key": "demo-ai/infer-serve#31", "k": 2})
            docs = await client.call_tool("search_docs", {"query": "量化 校准", "k": 3})
            missing = await client.call_tool("fix_status", {"key": "nobody/none#1"})
            templates = (await client.list_resource_templates()).resource_templates
            resource = await client.read_resource("fixlore://case/demo-ai/modelkit/104")
            return {"tools": tools, "found": found, "status": status, "case": case, "related": related,
                    "docs": docs, "missing": missing, "templates": templates, "resource": resource}

    return anyio.run(main)


def _check_mcp(r: dict) -> None:
    assert {t.name for t in r["tools"]} == {"search_cases", "get_case", "fix_status", "related_cases", "search_docs"}
    assert all(t.annotations and t.annotations.read_only_hint for t in r["tools"])
    assert r["found"].structured_content["cases"][0]["key"] == "demo-ai/modelkit#104"
    assert r["status"].structured_content["status"] == "fix_not_landed"
    assert r["case"].structured_content["cite"]["issue"].endswith("/issues/101")
    assert r["related"].structured_content["cases"][0]["key"] == "demo-ai/infer-serve#32"
    assert r["docs"].structured_content["passages"]
    assert r["missing"].is_error and "not in this knowledge base" in r["missing"].content[0].text
    assert [t.uri_template for t in r["templates"]] == ["fixlore://case/{owner}/{repo}/{number}"]
    assert json.loads(r["resource"].contents[0].text)["fix"][0]["pr"] == "!205"


def test_mcp_over_stdio_with_the_official_client(run_dir, monkeypatch):
    import mcp.client.stdio as stdio
    from mcp.client.stdio import StdioServerParameters

    # The client binds `errlog=sys.stderr` when mcp is first imported: if an earlier test imported
    # it in-process under capsys, that default is a capture file that has since closed.
    monkeypatch.setattr(getattr(stdio.stdio_client, "__wrapped__", stdio.stdio_client), "__defaults__", (sys.__stderr__,))

    _check_mcp(_mcp_calls(StdioServerParameters(command=sys.executable,
                                                args=["-m", "fixlore", "serve", "mcp", "--out", str(run_dir)])))


def test_mcp_over_streamable_http_on_loopback(run_dir):
    port = free_port()
    with served_fixlore(["serve", "mcp", "--out", str(run_dir), "--transport", "http", "--port", str(port)],
                        port) as base:
        _check_mcp(_mcp_calls(f"{base}/mcp"))


def test_knowledge_from_a_store_url_on_both_dialects(run_dir, db_url, tmp_path):
    """--db URL --case-index DIR: the same answers from a store copied into SQLite or PostgreSQL."""
    source = Store.open(f"sqlite:///{run_dir / 'fixlore.db'}", migrate=False)
    try:
        corpus = source.load_corpus(repos=["demo-ai/modelkit"])
        cases = source.load_cases()
    finally:
        source.close()
    target = Store.open(db_url)
    try:
        with target.writer() as w:
            w.upsert_repos(corpus.repos)
            w.upsert_issues(corpus.issues)
        target.save_cases(cases)
    finally:
        target.close()
    where = Locations.of(db=db_url, cases=tmp_path / "cases-index")
    with Knowledge.open(where) as k:
        assert k.search_cases("lm_head.weight KeyError safetensors", k=1)[0]["key"] == "demo-ai/modelkit#104"
        assert k.fix_status("demo-ai/modelkit#106")["status"] == "fix_not_landed"
        assert k.search_docs("量化") == []          # no document index given
    assert (tmp_path / "cases-index" / "kb.sqlite").is_file()


def test_pr_labels_follow_the_platform():
    def labels(issue_url: str, pr_url: str, issue_repo: str = "o/r") -> list[str]:
        case = Case(repo=issue_repo, number=1, url=issue_url, funnel="selected", fix=[FixRef("o/r", 5, "fix", url=pr_url)])
        return [f["pr"] for f in views.fix_status(case)["fix"]]

    assert labels("https://gitcode.com/o/r/issues/1", "https://gitcode.com/o/r/merge_requests/5") == ["!5"]
    assert labels("https://gitcode.com/o/x/issues/1", "https://gitcode.com/o/r/merge_requests/5", "o/x") == ["o/r!5"]
    assert labels("https://github.com/o/r/issues/1", "https://github.com/o/r/pull/5") == ["#5"]
    assert labels("https://github.com/o/x/issues/1", "", "o/x") == ["o/r#5"]      # no PR URL: the issue's platform


def test_best_reply_is_someone_elses_longest_real_comment():
    from fixlore.core.model import Comment, IssueText

    said = [("rep", "I also tried a much longer description of my own environment and it still fails"),
            ("ci-bot", "This is a very long automated message from the continuous integration robot"),
            ("alice", "This issue has been automatically marked as stale because it has not had recent activity."),
            ("bob", "set LD_LIBRARY_PATH to include the CANN lib64 folder"),
            ("carol", "ok thanks")]
    text = IssueText(author="rep", body="it crashes", comments=[
        Comment(repo="o/r", parent_kind="issue", parent_number=1, id=str(i), author=a, body=b, created_at=None)
        for i, (a, b) in enumerate(said)])
    assert views.best_reply(text) == "set LD_LIBRARY_PATH to include the CANN lib64 folder"
    unanalysed = Case(repo="o/r", number=1, funnel="rank", title="import fails")
    analysed = Case(repo="o/r", number=1, funnel="selected", title="import fails", answer="the root cause was X")
    assert "LD_LIBRARY_PATH" in views.search_text(unanalysed, text)
    assert "LD_LIBRARY_PATH" not in views.search_text(analysed, text), "the analysis already says what was answered"
    assert views.report_gist(text)["reply"].startswith("set LD_LIBRARY_PATH")


# ---------------------------------------------------------------- conventions: MCP and HTTP answer alike

def _mcp_conventions(server) -> dict:
    from mcp.client import Client

    async def main() -> dict:
        async with Client(server) as client:
            out = {"info": client.server_info, "tools": (await client.list_tools()).tools}
            for name, tool, args in [
                ("k_too_big", "search_cases", {"symptom": "KeyError", "k": 1000}),
                ("k_zero", "related_cases", {"key": "demo-ai/infer-serve#31", "k": 0}),
                ("empty", "search_docs", {"query": ""}),
                ("unknown_repo", "search_cases", {"symptom": "超时", "repo": "nobody/here"}),
                ("unknown_case", "get_case", {"key": "nobody/none#1"}),
                ("search", "search_cases", {"symptom": "超时 timeout", "k": 5, "repo": "demo-infra/commlib"}),
                ("nothing", "search_cases", {"symptom": "xyzzy frobnicate plugh"}),
                ("status", "fix_status", {"key": "demo-infra/commlib#12"}),
                ("case", "get_case", {"key": "demo-ai/modelkit#101"}),
                ("related", "related_cases", {"key": "demo-ai/infer-serve#31", "k": 3}),
                ("docs", "search_docs", {"query": "W8A8 量化校准 scale", "k": 4}),
            ]:
                out[name] = await client.call_tool(tool, args)
            return out

    return anyio.run(main)


def test_mcp_and_http_by_convention(knowledge, http_base):
    from fixlore.serve.mcp_server import build_server

    r = _mcp_conventions(build_server(knowledge))
    assert r["info"].version == fixlore.__version__ and r["info"].name == "fixlore"
    for tool in r["tools"]:
        assert tool.title and tool.description
        assert tool.annotations.read_only_hint and not tool.annotations.destructive_hint
        props = tool.input_schema["properties"]
        assert props and all(p.get("description") for p in props.values()), (tool.name, props)
        if "k" in props:
            assert (props["k"]["minimum"], props["k"]["maximum"]) == (1, 50)
    for name in ("k_too_big", "k_zero", "empty", "unknown_repo", "unknown_case"):
        assert r[name].is_error, name
    assert "less than or equal to 50" in r["k_too_big"].content[0].text
    assert "not a repository of this knowledge base" in r["unknown_repo"].content[0].text
    assert r["nothing"].structured_content == {"cases": []}, "nothing past the relevance cut-off"

    with httpx.Client(base_url=http_base, timeout=30) as c:
        assert c.get("/api/openapi.json").json()["info"]["version"] == fixlore.__version__
        too_big = c.get("/api/cases/search", params={"q": "KeyError", "k": 1000})
        zero = c.get("/api/cases/demo-ai/infer-serve/31/related", params={"k": 0})
        empty = c.get("/api/docs/search", params={"q": ""})
        unknown_repo = c.get("/api/cases/search", params={"q": "超时", "repo": "nobody/here"})
        unknown_case = c.get("/api/cases/nobody/none/1")
        assert [too_big.status_code, zero.status_code, empty.status_code] == [422, 422, 422]
        assert "less than or equal to 50" in too_big.json()["error"]
        assert unknown_repo.status_code == unknown_case.status_code == 404
        # the SDK prefixes "Error executing tool NAME: " to the same message
        assert r["unknown_repo"].content[0].text.endswith(": " + unknown_repo.json()["error"])
        assert r["unknown_case"].content[0].text.endswith(": " + unknown_case.json()["error"])
        # the same question, the same answer and the same shapes
        same = [("search", "/api/cases/search", {"q": "超时 timeout", "k": 5, "repo": "demo-infra/commlib"}, "cases"),
                ("related", "/api/cases/demo-ai/infer-serve/31/related", {"k": 3}, "cases"),
                ("docs", "/api/docs/search", {"q": "W8A8 量化校准 scale", "k": 4}, "passages"),
                ("status", "/api/cases/demo-infra/commlib/12/fix", {}, None),
                ("case", "/api/cases/demo-ai/modelkit/101", {}, None)]
        for name, path, params, field in same:
            mcp_answer = r[name].structured_content
            assert c.get(path, params=params).json() == (mcp_answer[field] if field else mcp_answer), name
    assert r["search"].structured_content["cases"]


def test_one_shape_per_concept_across_views(knowledge):
    """A trap, a PR and a document read the same in a search card, the fix status and the case."""
    key = "demo-infra/commlib#12"
    card = next(h for h in knowledge.search_cases(knowledge.cases[key].title, k=10) if h["key"] == key)
    status, chain = knowledge.fix_status(key), knowledge.get_case(key)
    assert card["traps"] == status["traps"] == chain["traps"] and card["traps"]
    assert all(set(t) == {"name", "note"} for t in card["traps"]) and "trap_notes" not in chain
    pr_keys = set(card["fix"][0])
    assert pr_keys >= {"pr", "url", "title", "summary"}
    assert all(set(f) == pr_keys for f in status["fix"] + status["backports"] + chain["fix"] + chain["pending_fix"])
    doc_card = knowledge.search_cases("W8A8 量化校准 per-channel scale NaN", k=1)[0]
    assert doc_card["docs"] == knowledge.get_case(doc_card["key"])["kb_refs"] != []


def test_ranking_is_by_the_score_shown_with_a_cut_off(knowledge):
    for query in ("超时", "NPU 内存 不足 通信 超时 集群", "加载 safetensors 报 KeyError"):
        scores = [h["score"] for h in knowledge.search_cases(query, k=20)]
        assert scores and scores == sorted(scores, reverse=True), query
        docs = [d["score"] for d in knowledge.search_docs(query, k=20)]
        assert docs == sorted(docs, reverse=True)
    assert knowledge.search_cases("the weather in paris is nice today", k=20) == []
    # below the cut-off there are passages, only not relevant ones: the index would have ranked them
    assert knowledge.case_index.best("the weather in paris is nice today", k=5, kind="case")
    related = knowledge.related_cases("demo-ai/infer-serve#31", k=10)
    assert related and all(r["why"] and isinstance(r["score"], float) for r in related)
    assert related[0]["why"].startswith("the same fix")


def test_an_unanalysed_case_shows_the_fix_prs_summary_and_the_best_reply():
    from fixlore.core.model import Comment, IssueText

    case = Case(repo="o/r", number=7, funnel="rank", title="import fails",
                fix=[FixRef("o/r", 70, "fix", state="merged", merged_at=datetime(2026, 9, 1, tzinfo=timezone.utc))])
    look = views.Lookups(pulls={("o/r", 70): ("Fix the loader's search path", "The loader now adds lib64 first.")})
    text = IssueText(author="rep", body="ImportError: libfoo.so", comments=[
        Comment(repo="o/r", parent_kind="issue", parent_number=7, id="1", author="bob",
                body="set LD_LIBRARY_PATH to include the lib64 folder", created_at=None)])
    card = views.card(case, 0.5, views.report_gist(text), look)
    assert card["analysed"] is False
    assert (card["problem_from"], card["problem"]) == ("fix_pr", "Fix the loader's search path: The loader now "
                                                                 "adds lib64 first.")
    assert (card["answer_from"], card["answer"]) == ("best_reply", "set LD_LIBRARY_PATH to include the lib64 folder")
    assert card["fix"][0]["summary"] == "The loader now adds lib64 first."
    analysed = Case(repo="o/r", number=7, funnel="selected", problem="p", answer="a", analysed_by="offline")
    card = views.card(analysed, 0.5, views.report_gist(text), look)
    assert (card["problem"], card["problem_from"], card["answer"], card["answer_from"]) == ("p", "analysis", "a",
                                                                                           "analysis")


def test_document_links_name_the_clones_commit(tmp_path):
    from fixlore.serve import citations

    clone = tmp_path / "clone"
    (clone / "docs").mkdir(parents=True)
    (clone / "docs" / "a b.md").write_text("# x\n", encoding="utf-8")
    git = ["git", "-C", str(clone), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "-q", str(clone)], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "x"], check=True)
    head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    origins = citations.origins_of([("docs/O/R/docs/a b.md", f"{clone}::docs/O/R"),
                                    ("docs/O/R/docs/sub.md", f"{clone / 'docs'}::docs/O/R/docs")])
    pages = {"o/r": ("https://gitcode.com/O/R.git", "main")}
    link = citations.doc_link("docs/O/R/docs/a b.md", "part0001", pages, origins)
    assert link == {"doc": "docs/O/R/docs/a b.md", "chunk": "part0001", "ref": head, "path": str(clone / "docs" / "a b.md"),
                    "url": f"https://gitcode.com/O/R/blob/{head}/docs/a%20b.md"}
    # a folder inside a clone (not its top) is not known to be at that commit: the default branch
    assert citations.doc_link("docs/O/R/docs/sub.md", "", pages, origins)["ref"] == "main"
    assert citations.doc_link("docs/X/Y/z.md", "", pages, origins)["url"] == ""


@settings(max_examples=60, deadline=None)
@given(parts=st.lists(st.text(alphabet=st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)),
                              min_size=1, max_size=12), min_size=1, max_size=4))
def test_document_links_carry_any_file_name_intact(parts):
    from urllib.parse import unquote, urlsplit

    from fixlore.serve import citations

    doc = "docs/o/r/" + "/".join(parts)
    link = citations.doc_link(doc, "", {"o/r": ("https://gitcode.com/o/r", "main")}, {})
    url = urlsplit(link["url"])
    assert url.scheme == "https" and not url.query and not url.fragment
    assert unquote(url.path) == "/o/r/blob/main/" + "/".join(parts)
