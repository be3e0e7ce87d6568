"""The digest files: the seed's sections in zh and en, figures from the run, hostile issue text
inert in HTML (checked in headless Chromium too), JSON holding the same content, the CLI."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from collections import Counter
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

from fixlore.analyse import OfflineAnalyst, analyse_cases
from fixlore.cli.commands import app
from fixlore.compose import compute_figures, write_digests
from test_analyse_offline import SIM, build_world

HOSTILE_TITLE = ('<script>document.title="PWNED"</script><img src=x onerror="document.title=\'PWNED\'">'
                 '<b>MoE</b> topk 未随 TP 切分 <iframe src="javascript:alert(1)"></iframe>')
HOSTILE_ANSWER = ('根因见 [点我](javascript:alert(1)) <a href="javascript:document.title=\'PWNED\'">链接</a> '
                  '<svg onload="document.title=\'PWNED\'"></svg> & <style>body{display:none}</style> a|b')


def analysed_world(hostile: bool = False):
    w = build_world()
    summary = analyse_cases(w.cases, w.corpus, OfflineAnalyst())
    if hostile:
        c = next(c for c in w.cases if c.repo == SIM and c.number == 101)
        c.title = c.problem = c.symptom = HOSTILE_TITLE
        c.answer = c.first_action = c.written.action = HOSTILE_ANSWER
        c.written.mechanism = HOSTILE_ANSWER    # rows are worded from the written fields: the text must reach them
        c.url = "javascript:alert(1)"
    return w.cases, {"analyse": summary, "window": {"since": "2026-09-01T00:00:00+08:00"}}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    cases, run = analysed_world(hostile=True)
    out = tmp_path_factory.mktemp("digest")
    return cases, run, write_digests(cases, run, out)


def test_all_four_files_with_the_seed_sections(written):
    cases, run, paths = written
    assert set(paths) == {"md_zh", "md_en", "html", "json"}
    zh = paths["md_zh"].read_text("utf-8")
    en = paths["md_en"].read_text("utf-8")
    for heading in ("## 总览", "## 组合解读", "## 排错指引", "## 考据与口径披露", "| 编号 | Issue 问题内容 | 解答总结 |",
                    "| 症状 | 第一优先动作 | 本篇相关案例 |"):
        assert heading in zh, heading
    for heading in ("## Overview", "## Themes", "## Troubleshooting guide", "## Methods and disclosure",
                    "| No. | Issue | Answer |"):
        assert heading in en, heading
    kept = [c for c in cases if c.funnel == "selected"]
    for c in kept:                                   # every kept case has its row, with its answer
        assert f"issues/{c.number})" in zh or c.url.startswith("javascript")
    repos = Counter(c.repo.split("/")[-1] for c in kept)
    for repo, n in repos.items():                    # the overview counts per repo
        assert re.search(rf"^\| {re.escape(repo)} \| .* \| {n} \|$", zh, re.M), repo
    assert re.search(r"^### 1\. .+", zh, re.M) and re.search(r"^- \[?\w+#\d+", zh, re.M)


def _plain(md: str) -> str:
    """Markdown with its links reduced to their text (the sentences as a reader reads them)."""
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", md)


def test_disclosure_figures_come_from_the_run(written):
    cases, run, paths = written
    zh = _plain(paths["md_zh"].read_text("utf-8"))
    en = _plain(paths["md_en"].read_text("utf-8"))
    f = compute_figures(cases, run)["funnel"]
    kb = sum(1 for c in cases if c.funnel == "selected" and c.kb_refs)
    assert f"共考察 {f['considered']} 条" in zh and f"窗口内关单 {f['closed_in_window']} 条" in zh
    assert f"有效池 {f['pool']} 条" in zh and f"留 {f['kept']} 条入选、弃 {f['dropped']} 条" in zh
    assert f"{f['kept']} 行中 {kb} 行挂知识库文档" in zh           # said in Chinese, not as the field's name
    assert f"{kb} of {f['kept']} rows cite a knowledge-base document" in en    # in words, not the field's name
    assert "状态为已合并且记有合入时间" in zh and "its state is merged and it records a merge time" in en
    assert "quantkit#41" in zh.split("## 考据与口径披露")[1]              # claimed_unmerged named
    assert "4 秒内 3 单" in zh and "3 issues in 4 s" in en              # the close storm, with its span
    # stale close with its lag (1,872,000 s), written as its row writes it (21 d 16 h rounds to 22 days)
    assert "msdemo#110 晚 22 天" in zh
    assert "msdemo#110 22 days late" in en
    assert "!850 修 msdemo#103、msdemo#104" in zh                        # one PR, many issues
    assert f"深析层弃 {f['dropped']} 条" in zh and "官方不采纳 1（msdemo#106）" in zh
    assert f"余 {f['backlog']} 条留待后续" in zh
    assert "窗口起点 2026-09-01" in zh                                    # from the run summary


def test_changing_the_input_changes_the_digest(tmp_path):
    cases, run = analysed_world()
    first = _plain(write_digests(cases, run, tmp_path / "a")["md_zh"].read_text("utf-8"))
    victim = next(c for c in cases if c.funnel == "selected" and c.repo == SIM and c.number == 110)
    victim.funnel, victim.drop_reason = "analysis", "no_fix_evidence"
    second_md = write_digests(cases, run, tmp_path / "b")["md_zh"].read_text("utf-8")
    second = _plain(second_md)
    k1 = int(re.search(r"留 (\d+) 条入选", first).group(1))
    k2 = int(re.search(r"留 (\d+) 条入选", second).group(1))
    assert k2 == k1 - 1 and "零修复证据 1（msdemo#110）" in second and "[#110]" not in second_md


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v or "") for k, v in attrs]


def test_hostile_issue_text_is_inert_in_html(written):
    _, _, paths = written
    page = paths["html"].read_text("utf-8")
    p = _Collect()
    p.feed(page)
    assert not {"script", "img", "iframe", "object", "embed"} & set(p.tags)
    assert p.tags.count("svg") == 2 * 3 == page.count('<svg class="chart"')
    assert p.tags.count("style") == 1                                      # our own stylesheet only
    assert not [a for a in p.attrs if a[1].startswith("on")]               # no event handlers
    hrefs = [v for t, k, v in p.attrs if k in ("href", "src")]
    assert hrefs and all(v.startswith(("http://", "https://", "#")) for v in hrefs)
    assert "PWNED" not in page.split("<body>")[0]                           # title not hijacked
    assert "MoE topk 未随 TP 切分" in page                                  # the text survives, tags do not
    assert not re.search(r"https?://(?!gitcode\.com|github\.com)", page)   # no external resources


def test_hostile_text_in_markdown_has_no_html_or_links(written):
    _, _, paths = written
    for key in ("md_zh", "md_en"):
        md = paths[key].read_text("utf-8")
        assert "<script" not in md and "<img" not in md and "<svg" not in md and "<a " not in md
        assert not re.search(r"(?<!\\)\]\(javascript", md) and "\\[点我\\]" in md   # link syntax escaped
        for line in md.splitlines():                                        # pipes in text do not break tables
            if line.startswith("| ") and "a\\|b" in line:
                assert line.count(" | ") == 2


def test_json_holds_the_same_content(written):
    cases, run, paths = written
    doc = json.loads(paths["json"].read_text("utf-8"))
    assert doc["format"] == "fixlore-digest/1" and set(doc["digests"]) == {"zh", "en"}
    assert doc["figures"]["funnel"] == compute_figures(cases, run)["funnel"]
    zh = doc["digests"]["zh"]
    assert [r["repo"] for r in zh["overview"]] == [r["repo"] for r in zh["repos"]]
    assert sum(r["count"] for r in zh["overview"]) == doc["figures"]["funnel"]["kept"]
    assert {s["label"] for s in zh["disclosure"]} >= {"增量口径", "KB 核实", "PR 合并判定", "关联依据分层", "时序陷阱实录",
                                                       "诚实弃收", "候选统计与余量"}
    analysed = [c for c in cases if c.funnel in ("selected", "analysis")]
    assert len(doc["cases"]) == len(analysed)
    assert all(b["ref"] for t in zh["themes"] for b in t["bullets"])
    assert all(g["symptom"] and g["cases"] for g in zh["guide"])


def test_single_language_and_bad_language(tmp_path):
    cases, run = analysed_world()
    paths = write_digests(cases, run, tmp_path, ["en"])
    assert set(paths) == {"md_en", "html", "json"}
    assert 'lang="en"' in paths["html"].read_text("utf-8")
    from fixlore.core.errors import ConfigError

    with pytest.raises(ConfigError):
        write_digests(cases, run, tmp_path, ["fr"])


def test_cli_digest_and_analyse(tmp_path):
    cases, run = analysed_world()
    src = tmp_path / "cases.jsonl"
    src.write_text("".join(json.dumps(c.to_export(), ensure_ascii=False) + "\n" for c in cases), "utf-8")
    (tmp_path / "run.json").write_text(json.dumps(run), "utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["digest", "--cases", str(src), "--run", str(tmp_path / "run.json"),
                              "--out", str(tmp_path / "out"), "--lang", "zh"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "out" / "digest.zh.md").is_file() and not (tmp_path / "out" / "digest.en.md").exists()
    res = runner.invoke(app, ["analyse", "--cases", str(src), "--out", str(tmp_path / "again.jsonl"), "--no-embed",
                              "--summary", str(tmp_path / "summary.json")])
    assert res.exit_code == 0, res.output
    again = [json.loads(line) for line in (tmp_path / "again.jsonl").read_text("utf-8").splitlines()]
    assert len(again) == len(cases) and all(r["analysed_by"] == "offline" for r in again
                                            if r["funnel"] in ("selected", "analysis"))
    summary = json.loads((tmp_path / "summary.json").read_text("utf-8"))["analyse"]
    assert summary["analysed"] == sum(1 for r in again if r["funnel"] in ("selected", "analysis"))


# -- headless Chromium --------------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.chromium
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (./dev test installs it from Debian)")
def test_html_renders_in_chromium_with_tables_and_no_script(written, tmp_path):
    cases, _, paths = written
    url = paths["html"].resolve().as_uri()
    profile = tmp_path / "profile"
    dom = subprocess.run([CHROMIUM, *CHROME_FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=2000",
                          "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    html = dom.stdout
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "PWNED" not in title                               # a hostile script would have rewritten it
    kept = [c for c in cases if c.funnel == "selected"]
    repos = {c.repo for c in kept}
    # overview + one table per repo + the troubleshooting guide, twice (zh and en)
    assert html.count("<table") == 2 * (len(repos) + 2)
    assert html.count('<td class="num">') == 2 * len(kept)
    assert "<script" not in html and "onerror" not in html

    shot = tmp_path / "digest.png"
    res = subprocess.run([CHROMIUM, *CHROME_FLAGS, f"--user-data-dir={profile}", f"--screenshot={shot}",
                          "--window-size=1280,2000", url], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and shot.is_file(), res.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1280, 2000)
    assert len(data) > 50_000                                  # a rendered page, not a blank canvas


def test_fact_sentences_follow_the_digest_language():
    from fixlore.wording.facts import close_sentence, fix_sentence
    from fixlore.compose.digest import answer_in

    cases, _ = analysed_world()
    fixed = [c for c in cases if c.fix and "修复 " in (c.answer or "")]
    assert fixed, "the offline analyst writes the fix facts of a Chinese case in Chinese"
    for c in fixed:
        en = answer_in(c, "en")
        assert fix_sentence(c, True) not in en
        fact = fix_sentence(c, False)
        assert fact[:1].upper() + fact[1:] in en
        closing = close_sentence(c, False)
        if closing:
            assert closing[:1].upper() + closing[1:] in en
        assert answer_in(c, "zh") == c.answer.rstrip()
    english = [c for c in cases if c.fix and "Fix: " in (c.answer or "")]
    assert english, "the offline analyst writes the facts of an English case in English, capitalised"
    for c in english:
        zh = answer_in(c, "zh")
        assert fix_sentence(c, True) in zh and "Fix: " not in zh
        closing = close_sentence(c, True)
        if closing:
            assert closing in zh


def test_digest_bytes_do_not_depend_on_hash_seed(tmp_path):
    import os
    import sys

    script = ("import sys; sys.path.insert(0, 'tests'); from test_digest import analysed_world; "
              "from fixlore.compose import write_digests; cases, run = analysed_world(); "
              "write_digests(cases, run, sys.argv[1])")
    outs = []
    for seed in ("1", "2", "3"):
        out = tmp_path / seed
        subprocess.run([sys.executable, "-c", script, str(out)], check=True, cwd=str(Path(__file__).parents[1]),
                       env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, timeout=300)
        outs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert outs[0] and outs[0] == outs[1] == outs[2]
