"""Theme words: what a group of cases is about, never how their reports were written.

Every theme word (a theme's name, a digest headline's shared words, a repository's topics, the
analyst's proposed theme) comes from :func:`topic_words`. Before a word is counted the text loses
its layout: HTML tags and entities, Markdown links and images (:func:`rules.text.markup_free`),
console markup in pairs (``[bold red]...[/bold red]``, ``[link=...]``), fenced code blocks, heading
marks, table pipes and the table's header rule, horizontal rules, quote marks, emphasis and code
spans' marks. A word must then hold a letter or a CJK character: "---", "##" or "|" never are; and
an English function word (a preposition, pronoun, auxiliary or determiner: "per" of "Per Token",
"after" of "crash after upgrade") names no topic, so it is never one (rules/text's stop list is
shared with the overlap measures and kept small; this one reads only theme words). The list is
English grammar, read on no world; it moves only cases' theme labels (46 over seven worlds, every
digest byte-identical).
"""

from __future__ import annotations

import re

from fixlore.rules.markup import markup_free
from fixlore.rules.text import keywords

_FENCED = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[`~]*[ \t]*$", re.S | re.M)
_FENCE_LINE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n]*$", re.M)
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}(?=\s|$)", re.M)
_RULE = re.compile(r"^[ \t]*(?:[-*_=][ \t]*){3,}$", re.M)
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$", re.M)
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+", re.M)
_MARKS = re.compile(r"\*{2,}|_{2,}|~{2,}|`+|\|")
# console (rich/BBCode-like) markup: a closing tag names it as markup, its opening tag goes with it
_CLOSING = re.compile(r"\[/([a-z][\w .#=:/-]{0,60})?\]", re.I)
_LINK_TAG = re.compile(r"\[link(?:=[^\]\s]{0,500})?\]", re.I)
_LETTER = re.compile(r"[^\W\d_]")


def _console_markup_free(text: str) -> str:
    if "[/" not in text and "[link" not in text.lower():
        return text
    names = {m.group(1).strip().lower() for m in _CLOSING.finditer(text) if m.group(1)}
    closed_any = bool(_CLOSING.search(text))
    text = _LINK_TAG.sub(" ", _CLOSING.sub(" ", text))
    if not closed_any:
        return text
    # an opening tag is markup when a closing tag names it, or closes whatever is open ("[/]")
    def opening(m: re.Match) -> str:
        name = m.group(1).strip().lower()
        return " " if name in names or "[/]" in m.string else m.group(0)
    return re.sub(r"\[([a-z][\w .#=:/-]{0,60})\]", opening, text, flags=re.I)


def prose(text: str) -> str:
    """``text`` without its layout (module doc): what the report says, for counting words."""
    if not text:
        return ""
    text = markup_free(text)
    text = _console_markup_free(text)
    text = _FENCED.sub("\n", text)
    text = _FENCE_LINE.sub("", text)
    text = _TABLE_RULE.sub("", text)
    text = _RULE.sub("", text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    return _MARKS.sub(" ", text)


FUNCTION_WORDS = frozenset("""
    about above across after against along among around as at before behind below beneath beside between
    beyond by down during except from inside into near off onto out outside over past per since than
    through throughout till toward towards under until up upon via within without
    be been being am was were has have had having do does did doing can could will would shall should
    may might must
    it its itself this that these those they them their we us our you your he she him her his i me my
    all any both each either every few many more most much neither no nor other some such
    but if else so then there here when where whether which while who whom whose what why how
    also just only very too yet still again ever
""".split())


def is_word(token: str) -> bool:
    """A theme word holds a letter or a CJK character (CJK characters are letters to Unicode) and is
    no English function word."""
    return bool(_LETTER.search(token or "")) and (token or "").lower() not in FUNCTION_WORDS


def topic_words(text: str, k: int = 8) -> list[str]:
    """The ``k`` best keywords of ``text``'s prose (rules.text.keywords), words only."""
    words = [w for w in keywords(prose(text), 2 * k) if is_word(w)]
    return words[:k]
