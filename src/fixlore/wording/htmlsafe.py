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
from markupsafe import Markup

from fixlore.core.textclean import rendered
from fixlore.core.units import human_lag


def clean(text: Any) -> Markup:
    """Issue-derived text made inert: every tag stripped (script/style with their content), entities escaped."""
    return Markup(nh3.clean(str(text or ""), tags=set(), clean_content_tags={"script", "style"}))


def safe_url(url: Any) -> str:
    u = str(url or "")
    return u if re.match(r"^https?://[^\s\"'<>]+$", u, re.I) else ""


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
    """Templates of `package`/templates with autoescape on and the `clean` / `safe_url` filters
    for issue-derived text, `human_lag` and `lag_words` for durations."""
    env = Environment(loader=PackageLoader(package, "templates"),
                      autoescape=select_autoescape(["html", "j2"], default=True), trim_blocks=True, lstrip_blocks=True,
                      finalize=_rendered)
    env.filters["clean"] = clean
    env.filters["safe_url"] = safe_url
    env.filters["human_lag"] = human_lag
    env.filters["lag_words"] = lag_words
    return env
