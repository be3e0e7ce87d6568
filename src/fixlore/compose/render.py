"""Render digests: Markdown (zh, en), one self-contained HTML page, JSON.

Issue text is hostile input. In Markdown it is escaped so that no HTML and no link syntax
survives; in HTML it passes through nh3 with no tags allowed and jinja2 autoescaping, and only
http(s) URLs become links. Two things are made of it on purpose: a `code span` (read by
markdown-it-py with only its backtick rule on, its content escaped, shown as code) and a PR label the pipeline itself traced for the case (a link to that
PR's page, the URL from the linker, never from the text)."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from jinja2 import Environment, PackageLoader
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from fixlore.compose.charts import svg
from fixlore.core import formats
from fixlore.wording.htmlsafe import clean, safe_env, safe_url

_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|])")
_INLINE = MarkdownIt("zero").enable("backticks")
_MD_URL = re.compile(r"^https?://[^\s()<>]+$")


def _md_escape(s: str) -> str:
    return _MD_SPECIAL.sub(lambda m: {"<": "&lt;", ">": "&gt;"}.get(m.group(1), "\\" + m.group(1)), s)


def md_text(text: Any) -> str:
    """One table-cell-safe Markdown line: no raw HTML, no link/emphasis syntax, no pipes or newlines."""
    return _md_escape(re.sub(r"\s+", " ", str(text or "")).strip())


def _segments(text: Any) -> list[tuple[bool, str]]:
    """(is_code, piece) in order: code spans, as markdown-it-py reads them (CommonMark backtick
    runs; no other inline syntax is enabled), apart from the prose around them."""
    s = re.sub(r"\s+", " ", str(text or "")).strip()
    out: list[tuple[bool, str]] = []
    for tok in (_INLINE.parseInline(s)[0].children or []) if s else []:
        code = tok.type == "code_inline"
        if not code and out and not out[-1][0]:
            out[-1] = (False, out[-1][1] + tok.content)
        elif code or tok.content:
            out.append((code, tok.content))
    return out


def _label_pattern(links: dict[str, str] | None) -> re.Pattern | None:
    labels = sorted((lb for lb, url in (links or {}).items() if lb and safe_url(url)), key=len, reverse=True)
    if not labels:
        return None
    # ASCII neighbours only: a label right after a Chinese word ("合入!57") is still a label
    return re.compile(r"(?<![A-Za-z0-9_!#/])(" + "|".join(re.escape(lb) for lb in labels) + r")(?![A-Za-z0-9_])")


def _code_span(piece: str) -> str:
    """A code span holding `piece`: its backtick runs are one longer than any inside it."""
    fence = "`" * (max((len(r) for r in re.findall(r"`+", piece)), default=0) + 1)
    pad = " " if piece.startswith("`") or piece.endswith("`") else ""
    return f"{fence}{pad}{piece}{pad}{fence}"


def md_rich(text: Any, links: dict[str, str] | None = None, in_table: bool = True) -> str:
    """md_text that keeps code spans as code spans and links the case's own PR labels."""
    links = {lb: url for lb, url in (links or {}).items() if _MD_URL.match(url or "")}
    pat = _label_pattern(links)
    out = []
    for code, piece in _segments(text):
        # inside a code span nothing is markup, but a pipe would still end a table cell; a span
        # holding < or > stays escaped text, so that no tag-like text ever reaches the file raw
        if code and not re.search(r"[<>]", piece):
            out.append(_code_span(piece.replace("|", "\\|") if in_table else piece))
            continue
        piece = _md_escape(f"`{piece}`" if code else piece)
        if pat:
            piece = pat.sub(lambda m: f"[{m.group(1)}]({links[m.group(1)]})", piece)
        out.append(piece)
    return "".join(out)


def md_link(label: str, url: str) -> str:
    return f"[{md_text(label)}]({url})" if _MD_URL.match(url or "") else md_text(label)


def markdown(d: dict[str, Any]) -> str:
    """One language's digest in Markdown: templates/digest.md.j2 over the digest dict that
    digest.html.j2 renders too (no autoescape: the template's md_* filters escape issue text)."""
    return _md_env().get_template("digest.md.j2").render(d=d, format=formats.DIGEST)


@functools.cache
def _md_env() -> Environment:
    env = Environment(loader=PackageLoader("fixlore.compose", "templates"), autoescape=False,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(md_text=md_text, md_rich=md_rich, md_link=md_link)
    return env


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
