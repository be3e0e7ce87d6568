"""Render digests: Markdown (zh, en), one self-contained HTML page, JSON.

Issue text is hostile input. In Markdown it is escaped so that no HTML and no link syntax
survives; in HTML it passes through nh3 with no tags allowed and jinja2 autoescaping, and only
http(s) URLs become links."""

from __future__ import annotations

import json
import re
from typing import Any

import nh3
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from fixlore.textclean import rendered

_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|])")


def md_text(text: Any) -> str:
    """One table-cell-safe Markdown line: no raw HTML, no link/emphasis syntax, no pipes or newlines."""
    s = re.sub(r"\s+", " ", str(text or "")).strip()
    return _MD_SPECIAL.sub(lambda m: {"<": "&lt;", ">": "&gt;"}.get(m.group(1), "\\" + m.group(1)), s)


def md_link(label: str, url: str) -> str:
    return f"[{md_text(label)}]({url})" if re.match(r"^https?://[^\s()<>]+$", url or "") else md_text(label)


def markdown(d: dict[str, Any]) -> str:
    h = d["headings"]
    out = [f"# {md_text(d['title'])}", "", f"## {h['overview']}", ""]
    out += ["| " + " | ".join(h["overview_cols"]) + " |", "|---|---|---:|"]
    for r in d["overview"]:
        out.append(f"| {md_text(r['repo'])} | {md_text(r['positioning'])} | {r['count']} |")
    for repo in d["repos"]:
        out += ["", f"## {md_text(repo['heading'])}", "", md_text(repo["subtitle"]), ""]
        out += ["| " + " | ".join(h["table_cols"]) + " |", "|---|---|---|"]
        for row in repo["rows"]:
            out.append(f"| {md_link(row['ref'], row['url'])} | {md_text(row['problem'])} | {md_text(row['answer'])} |")
    out += ["", f"## {h['themes']}", ""]
    for t in d["themes"]:
        out += [f"### {md_text(t['headline'])}", "", md_text(t["paragraph"]), ""]
        for b in t["bullets"]:
            out.append(f"- {md_link(b['ref'], b['url'])} {md_text(b['problem'])}：{md_text(b['text'])}"
                       if d["lang"] == "zh" else f"- {md_link(b['ref'], b['url'])} {md_text(b['problem'])}: {md_text(b['text'])}")
        out.append("")
    out += [f"## {h['guide']}", "", "| " + " | ".join(h["guide_cols"]) + " |", "|---|---|---|"]
    for g in d["guide"]:
        refs = ("、" if d["lang"] == "zh" else ", ").join(md_link(c["ref"], c["url"]) for c in g["cases"])
        out.append(f"| {md_text(g['symptom'])} | {md_text(g['first_action'])} | {refs} |")
    out += ["", f"## {h['disclosure']}", ""]
    for item in d["disclosure"]:
        sep = "：" if d["lang"] == "zh" else ": "
        out.append(f"- **{md_text(item['label'])}**{sep}{md_text(item['text'])}")
    return "\n".join(out) + "\n"


def clean(text: Any) -> Markup:
    """Issue-derived text made inert: every tag stripped (script/style with their content), entities escaped."""
    return Markup(nh3.clean(str(text or ""), tags=set(), clean_content_tags={"script", "style"}))


def safe_url(url: Any) -> str:
    u = str(url or "")
    return u if re.match(r"^https?://[^\s\"'<>]+$", u, re.I) else ""


def _rendered(value: Any) -> Any:
    """Every value a template prints: bidi controls shown, never obeyed (fixlore.textclean)."""
    if isinstance(value, Markup):
        return Markup(rendered(str(value)))
    return rendered(value) if isinstance(value, str) else value


def sanitising_env(package: str) -> Environment:
    """Templates of `package`/templates with autoescape on and the `clean` / `safe_url` filters
    for issue-derived text (also used by the serve stage's search page)."""
    env = Environment(loader=PackageLoader(package, "templates"),
                      autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True,
                      finalize=_rendered)
    env.filters["clean"] = clean
    env.filters["safe_url"] = safe_url
    return env


def _env() -> Environment:
    return sanitising_env("fixlore.compose")


def html(digests: list[dict[str, Any]]) -> str:
    """One page holding every language given (a language switch without scripts: anchors)."""
    return _env().get_template("digest.html.j2").render(digests=digests)


def to_json(digests: dict[str, dict[str, Any]], figures: dict[str, Any], cases: list[dict[str, Any]]) -> str:
    doc = {"format": "fixlore-digest/1", "figures": figures, "digests": digests, "cases": cases}
    return json.dumps(doc, ensure_ascii=False, indent=1, default=str)
