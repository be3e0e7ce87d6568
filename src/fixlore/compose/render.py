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

from fixlore.compose.charts import svg
from fixlore.core import formats
# rich and safe_url: the digest's other modules and tests take them from here
from fixlore.wording.htmlsafe import code_segments as _segments, label_pattern as _label_pattern, rich, safe_env, safe_url  # noqa: F401

# `<` opens raw HTML or an autolink only before a letter, `/`, `!` or `?` (CommonMark 6.5, 6.6), and
# `>` is markup only as the quote marker that starts a line: elsewhere both stay as written, so a
# symptom's "L1->L0" or "a < b" reads as such in the .md file ("L1-&gt;L0" before)
_MD_SPECIAL = re.compile(r"([\\`*\[\]|])|<(?=[A-Za-z/!?])|^>")
_MD_URL = re.compile(r"^https?://[^\s()<>]+$")


def _md_escape(s: str) -> str:
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(1) if m.group(1) else {"<": "&lt;", ">": "\\>"}[m.group(0)], s)


def md_text(text: Any) -> str:
    """One table-cell-safe Markdown line: no raw HTML, no link/emphasis syntax, no pipes or newlines."""
    return _md_escape(re.sub(r"\s+", " ", str(text or "")).strip())


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


def sanitising_env(package: str) -> Environment:
    """`htmlsafe.safe_env` (autoescape, `clean`, `rich`, `safe_url`, `human_lag`, `lag_words`)
    with the digest's own filter `svg` for charts."""
    env = safe_env(package)
    env.filters["svg"] = svg
    return env


@functools.cache
def _env() -> Environment:
    """Once per process, as _md_env: compiling digest.html.j2 costs ~0.2 s of CPU, and a process
    (a series, a server, a test) may render many digests; the filters keep no state."""
    return sanitising_env("fixlore.compose")


def html(digests: list[dict[str, Any]]) -> str:
    """One page holding every language given (a language switch without scripts: anchors)."""
    return _env().get_template("digest.html.j2").render(digests=digests, format=formats.DIGEST)


def to_json(digests: dict[str, dict[str, Any]], figures: dict[str, Any], cases: list[dict[str, Any]]) -> str:
    doc = {"format": formats.DIGEST, "figures": figures, "digests": digests, "cases": cases}
    return json.dumps(doc, ensure_ascii=False, indent=1, default=str)
