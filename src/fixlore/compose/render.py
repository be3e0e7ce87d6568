"""Render digests: Markdown (zh, en), one self-contained HTML page, JSON.

Issue text is hostile input. In Markdown it is escaped so that no HTML and no link syntax
survives; in HTML it passes through nh3 with no tags allowed and jinja2 autoescaping, and only
http(s) URLs become links. Two things are made of it on purpose: a `code span` (its content
escaped, shown as code) and a PR label the pipeline itself traced for the case (a link to that
PR's page, the URL from the linker, never from the text)."""

from __future__ import annotations

import json
import re
from typing import Any

from jinja2 import Environment
from markupsafe import Markup, escape

from fixlore.core import formats
from fixlore.compose.charts import svg
from fixlore.wording.htmlsafe import clean, lag_words, safe_env, safe_url

_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|])")
_CODE_SPAN = re.compile(r"`([^`\n]{1,400})`")
_MD_URL = re.compile(r"^https?://[^\s()<>]+$")


def _md_escape(s: str) -> str:
    return _MD_SPECIAL.sub(lambda m: {"<": "&lt;", ">": "&gt;"}.get(m.group(1), "\\" + m.group(1)), s)


def md_text(text: Any) -> str:
    """One table-cell-safe Markdown line: no raw HTML, no link/emphasis syntax, no pipes or newlines."""
    return _md_escape(re.sub(r"\s+", " ", str(text or "")).strip())


def _segments(text: Any) -> list[tuple[bool, str]]:
    """(is_code, piece) in order: single-backtick code spans apart from the prose around them."""
    s = re.sub(r"\s+", " ", str(text or "")).strip()
    out, at = [], 0
    for m in _CODE_SPAN.finditer(s):
        if m.start() > at:
            out.append((False, s[at:m.start()]))
        out.append((True, m.group(1)))
        at = m.end()
    if at < len(s):
        out.append((False, s[at:]))
    return out


def _label_pattern(links: dict[str, str] | None) -> re.Pattern | None:
    labels = sorted((lb for lb, url in (links or {}).items() if lb and safe_url(url)), key=len, reverse=True)
    if not labels:
        return None
    # ASCII neighbours only: a label right after a Chinese word ("合入!57") is still a label
    return re.compile(r"(?<![A-Za-z0-9_!#/])(" + "|".join(re.escape(lb) for lb in labels) + r")(?![A-Za-z0-9_])")


def md_rich(text: Any, links: dict[str, str] | None = None, in_table: bool = True) -> str:
    """md_text that keeps code spans as code spans and links the case's own PR labels."""
    links = {lb: url for lb, url in (links or {}).items() if _MD_URL.match(url or "")}
    pat = _label_pattern(links)
    out = []
    for code, piece in _segments(text):
        # inside a code span nothing is markup, but a pipe would still end a table cell; a span
        # holding < or > stays escaped text, so that no tag-like text ever reaches the file raw
        if code and not re.search(r"[<>]", piece):
            out.append("`" + (piece.replace("|", "\\|") if in_table else piece) + "`")
            continue
        piece = _md_escape(f"`{piece}`" if code else piece)
        if pat:
            piece = pat.sub(lambda m: f"[{m.group(1)}]({links[m.group(1)]})", piece)
        out.append(piece)
    return "".join(out)


def md_link(label: str, url: str) -> str:
    return f"[{md_text(label)}]({url})" if _MD_URL.match(url or "") else md_text(label)


def md_answer(row: dict[str, Any], lang: str) -> str:
    """A table row's answer: prose with code spans and PR links, then the cited document as a link
    (its chunk id and score stay in digest.json)."""
    text = md_rich(row.get("prose", row["answer"]), row.get("links"))
    docs = [md_link(k["name"], k["url"]) for k in row.get("kb") or []]
    if docs:
        text += ("KB：" if lang == "zh" else " KB: ") + ", ".join(docs)
    return text


def markdown(d: dict[str, Any]) -> str:
    h = d["headings"]
    out = [f"<!-- {formats.DIGEST} -->", f"# {md_text(d['title'])}", ""]
    series = d.get("series") or {}
    if series.get("header"):             # a series edition's tagline, under the title
        out += [f"> {md_text(series['header'])}", ""]
    if h.get("quotes"):
        out += [f"*{md_text(h['quotes'])}*", ""]
    out += [f"## {h['overview']}", ""]
    out += ["| " + " | ".join(h["overview_cols"]) + " |", "|---|---|---:|"]
    for r in d["overview"]:
        out.append(f"| {md_text(r['repo'])} | {md_text(r['positioning'])} | {r['count']} |")
    for repo in d["repos"]:
        out += ["", f"## {md_text(repo['heading'])}", "", md_text(repo["subtitle"]), ""]
        out += ["| " + " | ".join(h["table_cols"]) + " |", "|---|---|---|"]
        for row in repo["rows"]:
            out.append(f"| {md_link(row['ref'], row['url'])} | {md_text(row['problem'])} | {md_answer(row, d['lang'])} |")
    out += ["", f"## {h['themes']}", ""]
    for t in d["themes"]:
        out += [f"### {md_text(t['headline'])}", "", md_rich(t["paragraph"], d.get("links"), in_table=False), ""]
        for b in t["bullets"]:
            sep = "：" if d["lang"] == "zh" else ": "
            out.append(f"- {md_link(b['ref'], b['url'])} {md_text(b['problem'])}{sep}{md_rich(b['text'], b.get('links'), in_table=False)}")
        out.append("")
    out += [f"## {h['guide']}", "", "| " + " | ".join(h["guide_cols"]) + " |", "|---|---|---|"]
    for g in d["guide"]:
        refs = ("、" if d["lang"] == "zh" else ", ").join(md_link(c["ref"], c["url"]) for c in g["cases"])
        out.append(f"| {md_text(g['symptom'])} | {md_text(g['first_action'])} | {refs} |")
    out += ["", f"## {h['disclosure']}", ""]
    for item in d["disclosure"]:
        sep = "：" if d["lang"] == "zh" else ": "
        out.append(f"- **{md_text(item['label'])}**{sep}{md_rich(item['text'], d.get('links'), in_table=False)}")
    if series:                           # a series edition's footer, after a rule
        out += ["", "---", "", "\n\n".join(md_text(line) for line in series.get("footer") or [])]
    return "\n".join(out) + "\n"


def rich(text: Any, links: dict[str, str] | None = None) -> Markup:
    """`clean` for prose that may hold code spans and the case's PR labels: each prose piece is
    made inert by nh3, each code span escaped into <code>, then known labels become links."""
    pat = _label_pattern(links)
    out = []
    for code, piece in _segments(text):
        if code:
            out.append(f"<code>{escape(piece)}</code>")
            continue
        inert = str(clean(piece))
        if pat:
            inert = pat.sub(lambda m: f'<a href="{escape(safe_url(links[m.group(1)]))}" rel="noopener noreferrer nofollow">'
                                      f"{m.group(1)}</a>", inert)
        out.append(inert)
    return Markup("".join(out))


def sanitising_env(package: str) -> Environment:
    """`htmlsafe.safe_env` (autoescape, `clean`, `safe_url`, `human_lag`, `lag_words`) with the
    digest's own filters: `rich` for prose with code spans and PR links, `svg` for charts."""
    env = safe_env(package)
    env.filters["rich"] = rich
    env.filters["svg"] = svg
    return env


def _env() -> Environment:
    return sanitising_env("fixlore.compose")


def html(digests: list[dict[str, Any]]) -> str:
    """One page holding every language given (a language switch without scripts: anchors)."""
    return _env().get_template("digest.html.j2").render(digests=digests, format=formats.DIGEST)


def to_json(digests: dict[str, dict[str, Any]], figures: dict[str, Any], cases: list[dict[str, Any]]) -> str:
    doc = {"format": formats.DIGEST, "figures": figures, "digests": digests, "cases": cases}
    return json.dumps(doc, ensure_ascii=False, indent=1, default=str)
