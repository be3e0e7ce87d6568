"""Text from the platforms, made safe to store and to show. Pure functions over strings.

- :func:`clean_text` runs once at the edge, on every string a platform normaliser reads
  (``fixlore.sources.base.as_str``): it removes NUL and the other control characters (which
  PostgreSQL refuses in text, terminals obey and no reader needs) and lone surrogates (which
  no encoder accepts), keeping tab and newlines. The raw payloads keep the original, as JSON
  escapes (``\\u0000``), which both stores accept.
- :func:`neutralise_bidi` runs when text is rendered (digests, served pages): the
  bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069) are
  replaced by a visible U+FFFD, so "\\u202egnp.exe" reads as "\\ufffdgnp.exe", not "exe.png".
- :func:`rendered` is what reaches a reader anywhere, a page, a digest or a terminal: terminal
  escape sequences (colours, OSC 8 hyperlinks, window titles) removed whole, the controls removed,
  the bidi controls shown, and every other invisible format character (zero-width space and
  joiners, word joiner, byte-order mark, LRM/RLM, Unicode tag characters: Unicode category Cf)
  removed: a reader cannot see them, so they can only hide or reorder what is read.
  :func:`for_terminal` adds what a terminal needs: a carriage return becomes a line break (a lone
  one would let what follows overwrite the line), as do U+2028 and U+2029.
"""

from __future__ import annotations

import re

# C0 controls except tab, line feed and carriage return; DEL; C1 controls; lone surrogates.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
BIDI_CHARS = "\u202a-\u202e\u2066-\u2069"
# Unicode's format characters (category Cf) but the bidi controls: invisible by design
INVISIBLE_CHARS = ("\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2060-\u2064"
                   "\u206a-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
                   "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")
_BIDI = re.compile(f"[{BIDI_CHARS}]")
_INVISIBLE = re.compile(f"[{INVISIBLE_CHARS}]")
# ECMA-48 sequences, 7-bit (ESC ...) and 8-bit (CSI U+009B, OSC U+009D ...): CSI (colours, cursor
# moves); OSC/DCS/APC/PM strings (hyperlinks, window titles) up to their BEL or ST, within one line
# and 2,048 characters (an unterminated one loses its introducer only, never the text after it);
# any other ESC with its intermediate and final byte
_ESCAPE_SEQUENCE = re.compile(r"(?:\x1b\[|\x9b)[0-?]{0,64}[ -/]{0,8}[@-~]?"
                              r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c\n]{0,2048}(?:\x07|\x1b\\|\x9c)"
                              r"|\x1b[ -/]{0,8}[0-~]?")
_C1_INTRODUCER = re.compile(r"[\x90\x98\x9b\x9d\x9e\x9f]")
VISIBLE_MARK = "\ufffd"


def clean_text(text: str) -> str:
    """``text`` without control characters (tab, newlines kept) and lone surrogates."""
    return _CONTROL.sub("", text) if _CONTROL.search(text) else text


def neutralise_bidi(text: str) -> str:
    """``text`` with every bidi embedding/override/isolate control shown as U+FFFD."""
    return _BIDI.sub(VISIBLE_MARK, text) if _BIDI.search(text) else text


def strip_escapes(text: str) -> str:
    """``text`` without terminal escape sequences (the whole sequence, not only its ESC)."""
    return _ESCAPE_SEQUENCE.sub("", text) if ("\x1b" in text or _C1_INTRODUCER.search(text)) else text


def drop_invisible(text: str) -> str:
    """``text`` without format characters (category Cf) other than the bidi controls."""
    return _INVISIBLE.sub("", text) if _INVISIBLE.search(text) else text


def rendered(text: str) -> str:
    """What may reach a reader (a page, a digest file, a terminal): escape sequences and controls
    removed, bidi controls made visible, other invisible format characters removed."""
    return drop_invisible(neutralise_bidi(clean_text(strip_escapes(text))))


_LINE_BREAKS = re.compile("\r\n?|[\u2028\u2029]")


def for_terminal(text: str) -> str:
    """Issue text as a terminal may print it: :func:`rendered`, and carriage returns and the
    Unicode line and paragraph separators as plain line breaks."""
    out = rendered(text)
    return _LINE_BREAKS.sub("\n", out) if _LINE_BREAKS.search(out) else out
