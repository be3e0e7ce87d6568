"""Text from the platforms, made safe to store and to show. Pure functions over strings.

- :func:`clean_text` runs once at the edge, on every string a platform normaliser reads
  (``fixlore.sources.base.as_str``): it removes NUL and the other control characters (which
  PostgreSQL refuses in text, terminals obey and no reader needs) and lone surrogates (which
  no encoder accepts), keeping tab and newlines. The raw payloads keep the original, as JSON
  escapes (``\\u0000``), which both stores accept.
- :func:`neutralise_bidi` runs when text is rendered (digests, served pages): the
  bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069) are
  replaced by a visible U+FFFD, so "\\u202egnp.exe" reads as "\\ufffdgnp.exe", not "exe.png".
"""

from __future__ import annotations

import re

# C0 controls except tab, line feed and carriage return; DEL; C1 controls; lone surrogates.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
VISIBLE_MARK = "\ufffd"


def clean_text(text: str) -> str:
    """``text`` without control characters (tab, newlines kept) and lone surrogates."""
    return _CONTROL.sub("", text) if _CONTROL.search(text) else text


def neutralise_bidi(text: str) -> str:
    """``text`` with every bidi embedding/override/isolate control shown as U+FFFD."""
    return _BIDI.sub(VISIBLE_MARK, text) if _BIDI.search(text) else text


def rendered(text: str) -> str:
    """What may reach a page or a digest file: controls removed, bidi controls made visible."""
    return neutralise_bidi(clean_text(text))
