"""Issue text on a terminal: every command that prints text from a platform, a case export or a
document goes through here, never through a bare string.

- :func:`plain` cleans a value as pages are cleaned (`fixlore.core.textclean.for_terminal`: escape
  sequences and controls removed, bidi controls shown, zero-width and other invisible format
  characters removed, carriage returns as line breaks).
- :func:`text` makes it a rich ``Text``, which rich prints as it is: ``[bold red]`` or
  ``[link=...]`` in an issue is shown, never read as console markup.
- :func:`json_text` is JSON for a terminal: the same data (``json.loads`` gives it back whole),
  with every character a terminal would obey or hide written as a ``\\uXXXX`` escape.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.text import Text

from fixlore.core.textclean import BIDI_CHARS, INVISIBLE_CHARS, for_terminal

# what a terminal obeys or hides: DEL, C1 (C0 json.dumps escapes itself; outside strings only
# the layout's own newlines and spaces occur), Unicode's format
# characters (bidi controls, zero-width characters, tags), the line and paragraph separators, and
# lone surrogates (a platform's broken UTF-16 reaches us as them; no terminal can show one)
_UNSAFE_IN_JSON = re.compile(f"[\x7f-\x9f{INVISIBLE_CHARS}{BIDI_CHARS}\u2028\u2029\ud800-\udfff]")


def plain(value: Any) -> str:
    """``value`` as text a terminal may print (None is empty)."""
    return for_terminal("" if value is None else str(value))


def text(value: Any, style: str = "") -> Text:
    """``value`` cleaned, as a rich Text (printed as written, never parsed as markup)."""
    return Text(plain(value), style=style)


def _escape(m: re.Match) -> str:
    units = m.group().encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{int.from_bytes(units[i:i + 2], 'big'):04x}" for i in range(0, len(units), 2))


def escape_json(document: str) -> str:
    """A JSON document with every unsafe character escaped (they can only occur inside strings)."""
    return _UNSAFE_IN_JSON.sub(_escape, document)


def json_text(data: Any, indent: int | None = 2) -> str:
    """``data`` as JSON (UTF-8 text kept readable) that a terminal can print safely."""
    return escape_json(json.dumps(data, ensure_ascii=False, indent=indent, default=str))
