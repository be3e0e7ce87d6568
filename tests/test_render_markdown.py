"""The Markdown digest comes from a jinja2 template over the same digest dict the HTML page renders,
and that template prints no issue-derived value without one of the Markdown filters."""

from __future__ import annotations

import copy
import re
from pathlib import Path

from jinja2 import Environment, nodes

from fixlore.compose.digest import build_digest
from fixlore.compose.render import html, markdown, md_rich, rich
from test_digest import analysed_world

TEMPLATES = Path(__file__).resolve().parents[1] / "src/fixlore/compose/templates"
MD_FILTERS = {"md_text", "md_rich", "md_link"}
# what the template may print bare: the digest's own wording and numbers, never issue text
OWN = ("d.headings.", "r.count", "format", "sep")


def _dotted(expr: nodes.Expr) -> str:
    if isinstance(expr, nodes.Name):
        return expr.name
    if isinstance(expr, nodes.Getattr):
        return f"{_dotted(expr.node)}.{expr.attr}"
    return "?"


def _raw(expr: nodes.Expr) -> bool:
    """Could this printed expression put unescaped text into the page?"""
    if isinstance(expr, nodes.Const):
        return False
    if isinstance(expr, nodes.CondExpr):
        return _raw(expr.expr1) or (expr.expr2 is not None and _raw(expr.expr2))
    if isinstance(expr, nodes.Filter):
        if expr.name in MD_FILTERS:
            return False
        if expr.name == "map":
            return not (expr.args and isinstance(expr.args[0], nodes.Const) and expr.args[0].value in MD_FILTERS)
        if expr.name == "join":
            return _raw(expr.node)
        return True
    name = _dotted(expr)
    return not any(name == own or (own.endswith(".") and name.startswith(own)) for own in OWN)


def test_the_markdown_template_prints_issue_text_only_through_the_markdown_filters():
    source = (TEMPLATES / "digest.md.j2").read_text(encoding="utf-8")
    tree = Environment().parse(source)
    printed = [child for out in tree.find_all(nodes.Output) for child in out.nodes
               if not isinstance(child, nodes.TemplateData)]
    assert len(printed) > 20                  # the whole digest is there, not a stub
    bare = [str(child) for child in printed if _raw(child)]
    assert bare == []
    # the filters are the Markdown ones, registered in render.py
    assert "md_rich(" in source and "md_link(" in source and "md_text" in source


def _hostile(d: dict) -> dict:
    """Every issue-derived string of a digest replaced by text that would be markup if printed raw."""
    bad = "a|b <img src=x onerror=alert(1)> [x](javascript:alert(1)) `c|<d>` *e*"
    d = copy.deepcopy(d)
    for repo in d["repos"]:
        repo["heading"] = repo["subtitle"] = bad
        for row in repo["rows"]:
            row["problem"] = row["prose"] = bad
            for k in row.get("kb") or []:
                k["name"] = bad
    for t in d["themes"]:
        t["headline"] = t["paragraph"] = bad
        for b in t["bullets"]:
            b["problem"] = b["text"] = bad
    for g in d["guide"]:
        g["symptom"] = g["first_action"] = bad
    for r in d["overview"]:
        r["repo"] = r["positioning"] = bad
    d["title"] = bad
    d["series"] = {"header": bad, "footer": [bad, bad]}
    return d


def test_hostile_issue_text_leaves_no_markup_and_keeps_every_table_row_whole():
    cases, run = analysed_world()
    for lang in ("zh", "en"):
        d = _hostile(build_digest(cases, run, lang))
        page = markdown(d)
        assert "<img" not in page and "<d>" not in page
        assert not re.search(r"(?<!\\)\]\(javascript", page) and not re.search(r"(?<!\\)\*e", page)
        for line in page.splitlines():
            if line.startswith("|"):
                # three columns (overview, cases, guide): four unescaped pipes, the rest escaped
                assert len(re.findall(r"(?<!\\)\|", line)) == 4, line
        assert page.endswith("\n") and not page.endswith("\n\n\n")


def test_markdown_and_html_read_the_same_digest_dict():
    cases, run = analysed_world()
    d = build_digest(cases, run, "en")
    page, md = html([d]), markdown(d)
    for repo in d["repos"]:
        for row in repo["rows"]:
            assert row["ref"] in md and row["ref"] in page
    assert md.startswith("<!-- ") and f"# {d['title']}" in md


def test_a_guide_cell_shows_its_quoted_names_as_code_and_nothing_else_as_markup():
    """The guide's steps quote names in backticks (compose/language.TERM); the Markdown printed them
    escaped ("先核对 \\`x\\`"), so a reader saw literal backticks. A name is a code span now, a pipe in it
    still cannot end the cell, and a quoted tag stays escaped text."""
    cases, run = analysed_world()
    d = build_digest(cases, run, "zh")
    d["guide"] = [dict(d["guide"][0], symptom="报 `KeyError` 后退出", first_action="先核对 `a|b` 与 `<img src=x>` 的取值")]
    line = next(ln for ln in markdown(d).splitlines() if ln.startswith("| 报"))
    assert "| 报 `KeyError` 后退出 | 先核对 `a\\|b` 与 \\`&lt;img src=x>\\` 的取值 |" in line, line
    assert len(re.findall(r"(?<!\\)\|", line)) == 4, line


def test_an_arrow_in_a_symptom_reads_as_written_in_the_markdown_and_is_escaped_once_in_html():
    """npu-threads' guide printed tilelang-ascend#550's "L1->L0" as "L1-&gt;L0" in digest.zh.md: the
    Markdown escape turned every > into an entity, though > is markup only as a line's quote marker
    and < only before what can open a tag. The page escapes it once (no "&amp;gt;")."""
    cases, run = analysed_world()
    d = build_digest(cases, run, "zh")
    d["guide"] = [dict(d["guide"][0], symptom="L1->L0 搬运报错，a < b 时 <img src=x> 不显示", first_action="> 先核对布局")]
    md = markdown(d)
    line = next(ln for ln in md.splitlines() if ln.startswith("| L1"))
    assert "L1->L0 搬运报错，a < b 时 &lt;img src=x> 不显示" in line and "| \\> 先核对布局 |" in line, line
    page = html([d])
    assert "L1-&gt;L0 搬运报错，a &lt; b 时" in page and "&amp;gt;" not in page and "&amp;lt;" not in page
    assert "<img src=x>" not in page


def test_code_spans_are_read_as_commonmark_reads_them():
    # a span opened by two backticks holds a single one (the regex this replaces cut it in three)
    assert md_rich("run ``a ` b`` now", in_table=False) == "run ``a ` b`` now"
    assert md_rich("x ```` `y` ```` z", in_table=False) == "x `` `y` `` z"
    assert str(rich("run ``a ` b`` now")) == "run <code>a ` b</code> now"
    # an unmatched run stays text, escaped
    assert md_rich("cost `5 and more", in_table=False) == "cost \\`5 and more"


def test_no_python_module_of_compose_or_series_writes_markdown_structure():
    """Headings, table rules and list items of a digest live in the templates, not in f-strings."""
    src = Path(__file__).resolve().parents[1] / "src/fixlore"
    layout = re.compile(r"""["'](?:#{1,6} |\|-{3}|> |- \*\*)""")
    found = [f"{p.relative_to(src)}:{n}" for pkg in ("compose", "series") for p in sorted((src / pkg).rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if layout.search(line)]
    assert found == []
