"""The digest as a page: charts drawn from the run's figures, code spans, PR and document links,
lag in human units, KB ids and scores out of the prose; hostile text stays inert throughout."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from fixlore.compose import compute_figures
from fixlore.compose.charts import funnel_chart, repo_chart, svg, timing_chart
from fixlore.compose.digest import build_digest, without_kb
from fixlore.compose.links import doc_url, pr_links
from fixlore.compose.render import markdown, md_rich, rich
from fixlore.core.units import human_lag
from test_digest import analysed_world

_UNIT_S = {"d": 86400, "h": 3600, "min": 60, "s": 1}


def test_lag_in_the_two_largest_units():
    assert human_lag(777008) == "8 d 23 h" and human_lag(777008, "zh") == "8 天 23 小时"
    assert human_lag(55) == "55 s" and human_lag(3660, "zh") == "1 小时 1 分"
    assert human_lag(86400) == "1 d" and human_lag(-600) == "10 min" and human_lag(None) == "?"



def test_a_fact_sentence_says_one_rounded_figure_where_a_page_says_two_units():
    """The two lag formats agree under a minute and part above it, on purpose (their docstrings)."""
    from fixlore.wording.facts import format_lag

    assert format_lag(55, False) == human_lag(55) == "55 s"
    assert format_lag(65, False) == "1 min 05 s" and human_lag(65) == "1 min 5 s"
    assert format_lag(156448, False) == "43.5 h" and human_lag(156448) == "1 d 19 h"
    assert format_lag(497400, True) == "6 天" and human_lag(497400, "zh") == "5 天 18 小时"
    assert format_lag(None, False) == "" and human_lag(None) == "?"


def test_linker_notes_read_their_lag_in_human_units():
    from fixlore.wording.htmlsafe import lag_words

    note = "fix !140 merged 2026-09-17T11:00:00+08:00, issue closed by ops-lee: lag 191396s"
    assert lag_words(note) == note.replace("lag 191396s", "lag 2 d 5 h")
    assert lag_words("lag -55s; flag 5s") == "lag -55 s; flag 5s"


@given(st.integers(min_value=0, max_value=10**9))
def test_lag_reads_back_within_its_smallest_unit_shown(seconds):
    text = human_lag(seconds)
    pairs = re.findall(r"(\d+) (d|h|min|s)", text)
    assert text == " ".join(f"{n} {u}" for n, u in pairs) and 1 <= len(pairs) <= 2
    shown = sum(int(n) * _UNIT_S[u] for n, u in pairs)
    sizes = list(_UNIT_S.values())
    next_size = sizes[sizes.index(_UNIT_S[pairs[0][1]]) + 1] if pairs[0][1] != "s" else 1
    assert 0 <= seconds - shown < next_size              # only what is below the second unit is dropped


def test_code_spans_render_as_code_and_their_content_stays_text():
    out = str(rich("设置 `max_tokens=<script>alert(1)</script>` 后 <b>报错</b> `a|b`"))
    assert "<code>max_tokens=&lt;script&gt;alert(1)&lt;/script&gt;</code>" in out
    assert "<code>a|b</code>" in out and "<b>" not in out and "报错" in out
    assert "<script" not in out
    assert "`" not in out                                           # paired backticks are consumed
    assert "`" in str(rich("an unpaired ` stays"))


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


_PIECES = st.sampled_from(list("<>&\"'`!#/=:;() aPRsciptonerhf57中文\n") +
                          ["<script>", "</script>", "<a href=", "javascript:", "!57", "PR#9", "`", "<b>",
                           "<img src=x onerror=alert(1)>", "&lt;", "<!--", "]]>"])
_HOSTILE = st.lists(_PIECES, max_size=30).map("".join)


@given(_HOSTILE)
def test_rich_text_yields_only_code_and_the_cases_own_links(text):
    url = "https://gitcode.com/o/r/merge_requests/57"
    out = str(rich(text, {"!57": url}))
    p = _Tags()
    p.feed(out)
    assert {t for t, _ in p.tags} <= {"code", "a"}
    assert all(a == {"href": url, "rel": "noopener noreferrer nofollow"} for t, a in p.tags if t == "a")
    assert "<script" not in out.lower() and "<img" not in out.lower()
    md = md_rich(text, {"!57": url})
    assert "\n" not in md and not re.search(r"<[A-Za-z/!?]|^>", md)   # one table-cell line, nothing tag-like raw
    blocks = MarkdownIt("commonmark").parse(md)
    kinds = {t.type for t in blocks} | {c.type for t in blocks for c in (t.children or [])}
    assert not kinds & {"html_inline", "html_block", "blockquote_open"}, md  # CommonMark reads no HTML in it
    assert not re.search(r"(?<!\\)\]\((?!https://gitcode\.com/o/r/merge_requests/57\))", md)   # only our links


def test_only_the_cases_own_pr_labels_become_links():
    links = {"!57": "https://gitcode.com/o/r/merge_requests/57", "PR#9": "javascript:alert(1)"}
    out = str(rich("修复 !57（master）；!570 与 x!57 不是它；PR#9 不链接 <a href='https://evil'>!57</a>", links))
    assert out.count('href="https://gitcode.com/o/r/merge_requests/57"') == 2   # the prose one and the tag's text
    assert "javascript" not in out and "evil" not in out and "!570" in out
    md = md_rich("修复 !57 与 `x|y` 和 [点](javascript:1)", links)
    assert "[!57](https://gitcode.com/o/r/merge_requests/57)" in md
    assert "`x\\|y`" in md and "\\[点\\](javascript:1)" in md
    tagged = md_rich("见 `<script>alert(1)</script>` 处")            # no tag-like text raw, even in code
    assert "<script" not in tagged and "\\`&lt;script>alert(1)&lt;/script>\\`" in tagged


def test_chart_svg_is_drawn_from_numbers_and_escaped_labels():
    chart = {"id": "x", "title": "<b>t</b>", "bars": [{"label": '<script>alert("1")</script>', "value": 30},
                                                      {"label": "b & c", "value": 10, "second": 5, "legend": ["k", "d"]}]}
    out = str(svg(chart))
    root = ET.fromstring(out)                                     # well-formed, so nothing leaks out of it
    tags = {el.tag for el in root.iter()}
    assert tags <= {"svg", "title", "text", "rect"}
    assert not [k for el in root.iter() for k in el.attrib if k.startswith("on") or "href" in k]
    assert "<script" not in out and "&lt;script&gt;" in out
    long = str(svg({"id": "y", "title": "t", "bars": [{"label": "mindstudio-ops-kernels-extended", "value": 1}]}))
    assert ">mindstudio-ops-kern…</text>" in long and "<title>mindstudio-ops-kernels-extended: 1</title>" in long
    bars = [el for el in root.iter("rect") if "bar" in el.get("class", "")]
    widths = [float(b.get("width")) for b in bars]
    assert widths[0] > widths[1] > 0 and abs(widths[0] / widths[1] - 3) < 0.01 and abs(widths[1] / widths[2] - 2) < 0.01


def test_charts_carry_the_runs_own_figures():
    cases, run = analysed_world()
    fig = compute_figures(cases, run)
    f = fig["funnel"]
    bars = funnel_chart(f, "en")["bars"]
    assert [b["value"] for b in bars] == [f["considered"], f["closed_in_window"], f["resolved_user_side"], f["pool"],
                                         f["analysed"], f["kept"]]
    assert bars[-1]["second"] == f["dropped"]
    timing = timing_chart(fig["timing"]["by_timing"], "zh")["bars"]
    assert sum(b["value"] for b in timing) == f["analysed"]
    d = build_digest(cases, run, "zh", fig)
    assert [c["id"] for c in d["charts"]] == ["funnel", "timing", "repos"]
    assert [b["value"] for b in d["charts"][2]["bars"]] == [r["count"] for r in d["overview"]]
    assert repo_chart(d["overview"], "en")["bars"][0]["label"] == d["overview"][0]["repo"]


def test_kb_ids_and_scores_leave_the_prose_for_a_linked_citation():
    cases, run = analysed_world()
    cited = [c for c in cases if c.funnel == "selected" and c.kb_refs]
    assert cited
    repo_web = {c.repo: {"html_url": f"https://gitcode.com/{c.repo}", "default_branch": "master"} for c in cases}
    d = build_digest(cases, {**run, "repo_web": repo_web}, "zh")
    rows = [r for repo in d["repos"] for r in repo["rows"] if r["kb"]]
    assert len(rows) == len(cited)
    for r in rows:
        # the analysts no longer write the cited document into the answer: it is structured (r["kb"])
        assert "KB" not in r["answer"] and "KB" not in r["prose"] and not re.search(r"part\d{4}|（0\.\d{3}）", r["prose"])
        k = r["kb"][0]
        assert k["url"].startswith("https://gitcode.com/") and f"/blob/master/{k['path']}" in k["url"]
    page = markdown(d)
    assert not re.search(r"part\d{4}", page) and not re.search(r"（0\.\d{3}）", page)
    assert re.search(r"KB：\[[^\]]+\]\(https://gitcode\.com/[^)]+/blob/master/", page)
    # a repository the run knows no URL for gets no guessed link
    assert doc_url("docs/o/r/a.md", {}) == "" and doc_url("docs/o/r/a b.md", {"o/r": {
        "html_url": "https://x.org/o/r", "default_branch": "main"}}) == "https://x.org/o/r/blob/main/a%20b.md"


def test_without_kb_keeps_the_rest_of_the_answer():
    """Exports written before the analysts kept the cited document out of the answer carry a
    'KB：…' sentence; the digest takes it out of the prose and nothing else."""
    cases, _ = analysed_world()
    c = next(c for c in cases if c.kb_refs and c.answer)
    from fixlore.wording.facts import kb_sentence

    sentence = kb_sentence(c, True)
    legacy = c.answer.rstrip("。") + "。" + sentence + "。"
    rest = without_kb(legacy, c)
    assert sentence in legacy and sentence not in rest
    assert len(rest) >= len(legacy) - len(sentence) - 3           # nothing else was taken out


def test_pr_links_name_fix_and_pending_prs_by_their_labels():
    cases, _ = analysed_world()
    c = next(c for c in cases if c.fix)
    from fixlore.wording.facts import pr_label

    links = pr_links(c)
    assert links == {pr_label(f, c.repo): f.url for f in (*c.fix, *c.pending_fix) if f.url.startswith("https://")}
    assert all(lb in c.answer for lb in links)                   # the labels the analysts wrote


def test_the_digests_own_sentences_link_cases_and_unambiguous_prs():
    from fixlore.compose.digest import digest_links
    from fixlore.compose.figures import Refs
    from fixlore.core.model import FixRef

    cases, run = analysed_world()
    ref = Refs(cases)
    analysed = [c for c in cases if c.funnel in ("selected", "analysis")]
    a, b = next(c for c in analysed if c.fix), next(c for c in reversed(analysed) if c.fix)
    assert a.repo != b.repo
    a.fix.append(FixRef(a.repo, 9999, "fix", "merged", a.fix[0].merged_at, f"https://gitcode.com/{a.repo}/merge_requests/9999"))
    b.fix.append(FixRef(b.repo, 9999, "fix", "merged", b.fix[0].merged_at, f"https://gitcode.com/{b.repo}/merge_requests/9999"))
    links = digest_links(cases, ref)
    assert "!9999" not in links                                   # two repositories' !9999: no guess
    assert links[ref(a)] == a.url and all(c.funnel in ("selected", "analysis") for c in cases if ref(c) in links)
    d = build_digest(cases, run, "en")
    page = str(rich(d["disclosure"][0]["text"] + " " + ref(a), d["links"]))
    assert f'<a href="{a.url}"' in page
