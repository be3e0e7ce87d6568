"""The hostile world (worldgen/hostile.py: NUL and control characters, right-to-left overrides,
a 1 MB body, script and event-handler markup, javascript: links) run end to end on SQLite and
on PostgreSQL: the same export, nothing hostile stored or rendered, and every digest and served
page inert in headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import httpx2 as httpx
import pytest
import sqlalchemy as sa

from fixlore.cli.commands import main
from fixlore.store import Store
from fixlore.store import schema as t


ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
MARKUP_WORDS = {"img", "src", "alert", "onerror", "onload", "script", "svg", "javascript", "iframe", "lt", "gt"}


def _run(world: Path, out: Path, db: str | None = None) -> None:
    argv = ["run", "--world", str(world), "--out", str(out), "-q"] + (["--db", db] if db else [])
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 0


@pytest.fixture(scope="module")
def sqlite_run(hostile_sqlite_run) -> Path:
    return hostile_sqlite_run


def _texts(db: str) -> tuple[list[str], list[str]]:
    """(every stored text column value, every raw payload as JSON text)."""
    store = Store.open(db)
    try:
        with store.engine.connect() as conn:
            texts = [v for table, cols in ((t.issues, ("title", "body")), (t.pulls, ("title", "body")),
                                           (t.comments, ("body",)))
                     for row in conn.execute(sa.select(*[table.c[c] for c in cols])) for v in row if v]
            raws = [json.dumps(r.payload) for r in conn.execute(sa.select(t.raw_payloads.c.payload))]
            raws += [json.dumps(r.raw) for r in conn.execute(sa.select(t.issues.c.raw))]
    finally:
        store.close()
    return texts, raws


def _check_store(db: str) -> None:
    texts, raws = _texts(db)
    assert texts and not any(CONTROL.search(v) for v in texts)
    assert any(len(v) >= 980_000 for v in texts)                      # the 1 MB body arrived (less its NULs)
    assert any(BIDI.search(v) for v in texts)                          # kept as data, neutralised when shown
    assert any("\\u0000" in r for r in raws)                           # the raw archive keeps the NUL, escaped


def test_sqlite_store_and_outputs_are_clean(sqlite_run):
    _check_store(f"sqlite:///{sqlite_run / 'fixlore.db'}")
    for name in ("digest.zh.md", "digest.en.md", "digest.html", "digest.json", "cases.jsonl", "run.json"):
        text = (sqlite_run / name).read_text(encoding="utf-8")
        assert "\x00" not in text and "\\u0000" not in text, name
        assert not CONTROL.search(text), name
        if name.startswith("digest"):
            assert not BIDI.search(text), name
    html = (sqlite_run / "digest.html").read_text(encoding="utf-8")
    assert "<script" not in html.lower() and not re.search(r"<[^>]+\son\w+\s*=", html, re.I)
    assert not re.search(r"(href|src)\s*=\s*['\"]?\s*javascript:", html, re.I)
    md = (sqlite_run / "digest.en.md").read_text(encoding="utf-8")
    assert "](javascript:" not in md and "<img" not in md.lower() and "<script" not in md.lower()


def test_theme_names_hold_no_markup_words(sqlite_run):
    cases = [json.loads(line) for line in (sqlite_run / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    themes = {c["theme"] for c in cases if c.get("theme")}
    assert themes
    words = {w for theme in themes for w in re.split(r"[-_\s]+", theme.lower())}
    assert not words & MARKUP_WORDS, themes


@pytest.mark.postgres
def test_postgresql_gives_the_same_export(hostile_world, sqlite_run, tmp_path, postgres_url):
    out = tmp_path / "out"
    _run(hostile_world, out, postgres_url)
    _check_store(postgres_url)
    assert (out / "cases.jsonl").read_bytes() == (sqlite_run / "cases.jsonl").read_bytes()
    sqlite_dump = Store.open(f"sqlite:///{sqlite_run / 'fixlore.db'}").canonical_dump()
    pg_store = Store.open(postgres_url)
    try:
        pg_dump = pg_store.canonical_dump()
    finally:
        pg_store.close()
    for table in ("issues", "pulls", "comments", "raw_payloads"):
        assert pg_dump[table] == sqlite_dump[table], table
    # cases: repo, number, funnel and the export (run_id and updated_at differ between two runs)
    assert [row[:4] for row in pg_dump["cases"]] == [row[:4] for row in sqlite_dump["cases"]]


# ---------------------------------------------------------------- headless Chromium


def _dom(url: str, profile: Path) -> str:
    proc = subprocess.run([CHROMIUM, *CHROME_FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=2000",
                           "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _doms(urls: list[str], profile: Path) -> list[str]:
    """_dom of every URL, in order, two browsers at a time: a browser spends about half its time
    waiting (start, virtual time), so two keep a core busy. Each keeps its own profile folder (a
    profile is one running browser's) and reads every other URL."""
    from concurrent.futures import ThreadPoolExecutor

    def read(k: int) -> list[str]:
        return [_dom(url, profile / f"p{k}") for url in urls[k::2]]

    with ThreadPoolExecutor(2) as pool:
        even, odd = pool.map(read, (0, 1))
    return [(even if i % 2 == 0 else odd)[i // 2] for i in range(len(urls))]


class _Elements(HTMLParser):
    """Every element and attribute of a DOM as the browser left it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k.lower(): v or "" for k, v in attrs}))


def _assert_inert(dom: str, where: str) -> None:
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    assert title is None or "PWNED" not in title.group(1), where       # no script ran
    parser = _Elements()
    parser.feed(dom)
    for tag, attrs in parser.tags:
        assert tag not in ("script", "iframe", "object", "embed", "img"), (where, tag)
        # the digest draws its own charts as inline SVG (compose/charts.py); no other SVG may appear
        assert tag != "svg" or attrs.get("class") == "chart", (where, tag, attrs)
        assert tag not in ("foreignobject", "use", "image", "animate", "set"), (where, tag)
        assert not any(name.startswith("on") for name in attrs), (where, tag, attrs)
        for name in ("href", "src", "action", "formaction"):
            assert not re.match(r"\s*(javascript|vbscript|data):", attrs.get(name, ""), re.I), (where, attrs)
    assert not BIDI.search(dom) and "\x00" not in dom, where


@pytest.fixture(scope="module")
def served(sqlite_run):
    from fixlore.serve.http import create_app
    from fixlore.serve.knowledge import Knowledge, Locations

    from conftest import served_app

    knowledge = Knowledge.open(Locations.of(out=sqlite_run))
    with served_app(create_app(knowledge)) as base:
        yield base
    knowledge.close()


def test_every_served_response_forbids_framing(served, sqlite_run):
    cases = [json.loads(line) for line in (sqlite_run / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    key = next(c for c in cases if c["funnel"] == "selected")
    owner_repo, number = key["repo"], key["number"]
    paths = ["/", "/?q=%3Cimg+src%3Dx+onerror%3Dalert(1)%3E", f"/case/{owner_repo}/{number}", "/case/no/such/1",
             "/digest/digest.html", "/digest/digest.en.md", "/api/stats", f"/api/cases/{owner_repo}/{number}",
             "/api/cases/search?q=x&k=1000", "/no-such-page"]
    with httpx.Client(base_url=served, timeout=30) as client:
        for path in paths:
            resp = client.get(path)
            assert "frame-ancestors 'none'" in resp.headers.get("content-security-policy", ""), path
            assert resp.headers.get("x-frame-options") == "DENY", path


@pytest.mark.chromium
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (./dev test installs it from Debian)")
def test_digests_and_served_pages_are_inert_in_chromium(served, sqlite_run, tmp_path):
    files = ("digest.html", "digest.en.md", "digest.zh.md")
    cases = [json.loads(line) for line in (sqlite_run / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    pages = ["/", "/?q=%E2%80%AEgnp.exe+%3Cimg+src%3Dx+onerror%3Dalert(1)%3E", "/digest/digest.html"]
    pages += [f"/case/{c['repo']}/{c['number']}" for c in cases if c["funnel"] in ("selected", "analysis")]
    doms = _doms([(sqlite_run / name).resolve().as_uri() for name in files] + [served + path for path in pages],
                 tmp_path / "profile")
    for name, dom in zip(files, doms):
        _assert_inert(dom, name)
    for path, dom in zip(pages, doms[len(files):]):
        _assert_inert(dom, path)
        if path.startswith("/case/"):
            assert "<h1" in dom or "<h2" in dom, path                    # a page, not an error
