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

from fixlore.facts import close_sentence, fix_sentence
from fixlore.model import Case

MARK = "[zh]"
_HAN = re.compile(r"[\u3400-\u9fff]")


def cjk_count(text: str) -> int:
    return len(_HAN.findall(text or ""))


def foreign(text: str, lang: str) -> bool:
    return lang == "en" and cjk_count(text or "") >= 2


def quote(text: str, lang: str, quoted: list[str]) -> str:
    """`text` as shown in a `lang` digest; a quote is marked and appended to `quoted`."""
    if not foreign(text, lang):
        return text
    quoted.append(text)
    return f"{MARK} {text}"


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def facts_in(case: Case, lang: str) -> list[str]:
    """The pipeline's fact sentences about the case (its fix and where it landed, how the close
    relates to it), worded in `lang` from the structured conclusions."""
    zh = lang == "zh"
    out = [s.rstrip("。. ") for s in (fix_sentence(case, zh), close_sentence(case, zh)) if s]
    return out if zh else [_capital(s) for s in out]


def answer_of(case: Case, lang: str, quoted: list[str]) -> str | None:
    """The row's answer in `lang`: the analyst's own words (quoted when in the other language),
    then the pipeline's facts worded in `lang`; None for a case nobody wrote fields for (an
    export from before `written` existed), whose answer the caller words as before."""
    if not case.written:
        return None
    sep = "。" if lang == "zh" else ". "
    own = case.written.text().rstrip("。. ")
    parts = [quote(own, lang, quoted)] if own else []
    parts += facts_in(case, lang)
    text = sep.join(p.rstrip("。. ") if not p.startswith(MARK) else p.rstrip("。 ") for p in parts if p)
    return text + ("。" if lang == "zh" else ".") if text else ""
