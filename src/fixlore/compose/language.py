"""Which words of a digest are ours and which are quoted from the issues, per language.

Our own words (headings, fact sentences, counts, theme headlines) are written in the digest's
language. Text taken from the issues (a problem, an analyst's explanation of a Chinese issue, a
repository's description) stays as written; in the English digest, Chinese text is shown after a
"[zh]" mark and listed under the item's `untranslated`, so neither a reader nor a check mistakes
it for English. (A translation backend would replace the quote; without one, nothing is passed
off as translated.) The Chinese digest quotes English as is: Chinese technical writing does.
"""

from __future__ import annotations

import re

from fixlore.core.model import Case
from fixlore.rules.script import cjk_count
from fixlore.wording.facts import row_facts
from fixlore.wording.sentence import capital

MARK = "[zh]"

# A quoted term: what a cell of our own words (a guide step) takes from a thread in the other
# language without translating it: an identifier, a file, a config key and value, an error name, a
# version or a short log excerpt, in backticks, at most TERM_CHARS long, as Chinese technical writing
# quotes them. A sentence is never a term. The writer wraps terms with `term`; the editorial check
# (compose/check.py) takes out exactly these spans and the code-like tokens before it reads the
# cell's language, so both agree on what is quoted and what is ours.
TERM_CHARS = 60
TERM = re.compile(r"`[^`\n]{1,%d}`" % TERM_CHARS)
# four Latin words in a row outside a term: a clause in English, not a name (Chinese technical prose
# names things in ones to threes: "vLLM Ascend", "Image Generation DiT")
LATIN_RUN = re.compile(r"(?<![\w`])[A-Za-z][A-Za-z'’-]*(?:[ \t]+[A-Za-z][A-Za-z'’-]*){3,}(?![\w`])")
_CODE_TOKEN = re.compile(r"https?://\S+|[\w./-]*[_/.][\w./-]+")


def term(text: str) -> str:
    """`text` quoted as a term, or '' when it is too long to be one."""
    text = (text or "").strip().strip("`")
    return f"`{text}`" if text and len(text) <= TERM_CHARS and "`" not in text else ""


def foreign_prose(text: str, lang: str) -> str:
    """The first run of English prose in a Chinese cell, outside its quoted terms and code-like
    tokens ('' when there is none, and always for an English cell)."""
    if lang != "zh":
        return ""
    m = LATIN_RUN.search(_CODE_TOKEN.sub(" ", TERM.sub(" ", text or "")))
    return m.group(0) if m else ""


def foreign(text: str, lang: str) -> bool:
    return lang == "en" and cjk_count(text or "") >= 2


def quote(text: str, lang: str, quoted: list[str]) -> str:
    """`text` as shown in a `lang` digest; a quote is marked and appended to `quoted`."""
    if not foreign(text, lang):
        return text
    quoted.append(text)
    return f"{MARK} {text}"


def facts_in(case: Case, lang: str, quoted: list[str] | None = None) -> list[str]:
    """The pipeline's fact sentences about the case (its fix and where it landed, how the close
    relates to it as a row states it: `row_close`), worded in `lang` from the structured conclusions; a comment they quote is
    marked as a quote in the English digest."""
    zh = lang == "zh"
    out = [s.rstrip("。. ") for s in row_facts(case, zh)]
    if zh:
        return out
    return [mark_runs(capital(s), lang, quoted if quoted is not None else []) for s in out]


def answer_of(case: Case, lang: str, quoted: list[str]) -> str | None:
    """The row's answer in `lang`: the analyst's own words (quoted when in the other language),
    then the pipeline's facts worded in `lang`; None for a case nobody wrote fields for (an
    export from before `written` existed), whose answer the caller words as before."""
    if not case.written:
        return None
    sep = "。" if lang == "zh" else ". "
    own = case.written.text().rstrip("。. ")
    parts = [quote(own, lang, quoted)] if own else []
    parts += facts_in(case, lang, quoted)
    text = sep.join(p.rstrip("。. ") if not p.startswith(MARK) else p.rstrip("。 ") for p in parts if p)
    return text + ("。" if lang == "zh" else ".") if text else ""


# where our sentences put the pieces they embed: list commas, brackets, a colon or a full stop before a space
_DELIMITER = re.compile(r"([,;()（）\n]|[.:](?=\s|$))")
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_SPAN_HOLDER = re.compile(r"\x00(\d+)\x00")


def mark_runs(text: str, lang: str, quoted: list[str]) -> str:
    """Our sentence with the issue-derived pieces it embeds (titles, quoted comments, document
    names) marked: in the English digest, each list item or clause holding Chinese is a quote."""
    if lang != "en" or cjk_count(text) == 0:
        return text
    # a code span is one piece: "`route()` 在 …" is not split at its brackets (held aside under a
    # NUL-delimited number; a NUL of the text itself is dropped, it is never a digest's character)
    spans: list[str] = []
    text = _CODE_SPAN.sub(lambda m: spans.append(m.group(0)) or f"\x00{len(spans) - 1}\x00", text.replace("\x00", ""))

    def restored(piece: str) -> str:
        return _SPAN_HOLDER.sub(lambda m: spans[int(m.group(1))], piece)

    out = []
    for piece in _DELIMITER.split(text):
        body = piece.strip()
        if cjk_count(body) == 0 or body.startswith(MARK) or _DELIMITER.fullmatch(piece or "x"):
            out.append(piece)
            continue
        quoted.append(restored(body))
        lead = piece[: len(piece) - len(piece.lstrip())]
        out.append(f"{lead}{MARK} {body}" + (" " if piece.endswith(" ") else ""))
    return restored("".join(out))
