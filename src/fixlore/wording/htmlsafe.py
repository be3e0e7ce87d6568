"""HTML made of hostile text: the filters and the jinja2 environment every page of fixlore is
rendered with (the digest page and the serve stage's pages).

Issue text is hostile input: `clean` strips every tag (script and style with their content)
and escapes entities, `safe_url` lets only http(s) URLs through, autoescape is on, and every
printed value has its bidi controls shown, never obeyed (`fixlore.core.textclean`).
"""

from __future__ import annotations

import re
from typing import Any

import nh3
from jinja2 import Environment, PackageLoader, select_autoescape
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from fixlore.core.textclean import rendered
from fixlore.core.units import human_lag


def clean(text: Any) -> Markup:
    """Issue-derived text made inert: every tag stripped (script/style with their content), entities escaped."""
    return Markup(nh3.clean(str(text or ""), tags=set(), clean_content_tags={"script", "style"}))


def safe_url(url: Any) -> str:
    u = str(url or "")
    return u if re.match(r"^https?://[^\s\"'<>]+$", u, re.I) else ""


_INLINE = MarkdownIt("zero").enable("backticks")


def code_segments(text: Any) -> list[tuple[bool, str]]:
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


def label_pattern(links: dict[str, str] | None) -> re.Pattern | None:
    labels = sorted((lb for lb, url in (links or {}).items() if lb and safe_url(url)), key=len, reverse=True)
    if not labels:
        return None
    # ASCII neighbours only: a label right after a Chinese word ("合入!57") is still a label
    return re.compile(r"(?<![A-Za-z0-9_!#/])(" + "|".join(re.escape(lb) for lb in labels) + r")(?![A-Za-z0-9_])")


def rich(text: Any, links: dict[str, str] | None = None) -> Markup:
    """`clean` for prose that may hold code spans and the case's PR labels: each prose piece is
    made inert by nh3, each code span escaped into <code>, then known labels become links."""
    pat = label_pattern(links)
    out = []
    for code, piece in code_segments(text):
        if code:
            out.append(f"<code>{escape(piece)}</code>")
            continue
        inert = str(clean(piece))
        if pat:
            inert = pat.sub(lambda m: f'<a href="{escape(safe_url(links[m.group(1)]))}" rel="noopener noreferrer nofollow">'
                                      f"{m.group(1)}</a>", inert)
        out.append(inert)
    return Markup("".join(out))


_LAG_WORDS = re.compile(r"\blag (-?\d+) ?s\b")


def lag_words(text: Any) -> str:
    """A linker note's "lag 777008s" in human units ("lag 8 d 23 h", a negative lag keeps its
    minus: the close came first); the rest as written."""
    def human(m: re.Match) -> str:
        n = int(m.group(1))
        return "lag " + ("-" if n < 0 else "") + human_lag(n)
    return _LAG_WORDS.sub(human, str(text or ""))


def _rendered(value: Any) -> Any:
    """Every value a template prints: bidi controls shown, never obeyed (fixlore.core.textclean)."""
    if isinstance(value, Markup):
        return Markup(rendered(str(value)))
    return rendered(value) if isinstance(value, str) else value


def safe_env(package: str) -> Environment:
    """Templates of `package`/templates with autoescape on and the `clean` / `rich` / `safe_url`
    filters for issue-derived text, `human_lag` and `lag_words` for durations."""
    env = Environment(loader=PackageLoader(package, "templates"),
                      autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True,
                      finalize=_rendered)
    env.filters["clean"] = clean
    env.filters["rich"] = rich
    env.filters["safe_url"] = safe_url
    env.filters["human_lag"] = human_lag
    env.filters["lag_words"] = lag_words
    return env
