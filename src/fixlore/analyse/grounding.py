"""Is every hard claim of a written row found in the material its writer was given?

A model that writes a row may invent a number, a version, a config key or a PR. Each of those a
reader would act on, so each must be found in the sources the model saw (the prompt: the issue,
discussion, PRs, commits, changed files, the pipeline's facts). Claims:

- a PR or issue reference (`!795`, `#498`, `PR 986`): grounded when the sources reference the same
  number (with a sigil, or as `PR`/`MR`), or it is one of the case's own PRs or the issue itself;
- an identifier, a version or a number with a unit (`rules.text.hard_facts`): found in the
  sources, case-insensitive, the number with its unit or bare;
- any other number of two or more digits, or with a decimal point: found as a number in the
  sources (one-digit counts are too common to check and too weak to mislead);
- a PR credited as the fix ("!1008 修复了 …", `rules.refs.fix_credits`): being in the material is not
  enough, the case's links must make it this issue's fix, a backport or a fix not yet landed
  (`rules.credit`, the rule the editorial check reads too). The material of one issue often names
  the fix of another ("!1008 fixes #647" in #631's thread); a row that credits it is wrong.

Pure functions; the LLM analyst asks for one repair round and then drops what is still unfounded.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from fixlore.rules.refs import fix_credits, written_refs
from fixlore.rules.text import hard_facts

_A = "A-Za-z0-9_"
_NUMBER = re.compile(rf"(?<![{_A}.\-])\d+(?:\.\d+)?(?![{_A}])")
_UNIT_SPLIT = re.compile(r"^(\d+(?:\.\d+)?)\s?(\D.*)$")
# "!" ends a sentence only before a space: "!7999" is a merge request
_SENTENCE = re.compile(r"(?<=[。！？；;])|(?<=[!?.])\s+")


@dataclass(frozen=True, slots=True)
class Claim:
    kind: str    # "pr" | "fact" | "number" | "credit" (a PR credited as the fix that the links do not make it)
    text: str    # as written

    def __str__(self) -> str:
        return self.text


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text or "").casefold()


def claims(text: str) -> list[Claim]:
    """The hard claims a written text makes, in order of first appearance, each once."""
    text = unicodedata.normalize("NFKC", text or "")
    found: dict[tuple[str, str], int] = {}
    refs = written_refs(text)
    for ref in refs:
        found.setdefault(("pr", text[ref.span[0]:ref.span[1]].strip()), ref.span[0])
    facts = hard_facts(text)
    for fact in facts:
        found.setdefault(("fact", fact), text.find(fact))
    inside = [(text.find(f), text.find(f) + len(f)) for f in facts] + [ref.span for ref in refs]
    for m in _NUMBER.finditer(text):
        number = m.group(0)
        if any(a <= m.start() < b for a, b in inside) or (len(number) < 2 and "." not in number):
            continue
        found.setdefault(("number", number), m.start())
    return [Claim(kind, t) for (kind, t), _ in sorted(found.items(), key=lambda kv: kv[1])]


def _number_in(number: str, sources: str) -> bool:
    return re.search(rf"(?<![0-9.]){re.escape(number)}(?![0-9])", sources) is not None


def is_grounded(claim: Claim, sources: str, known_numbers: frozenset[int] = frozenset()) -> bool:
    folded = _fold(sources)
    if claim.kind == "pr":
        number = int(re.sub(r"\D", "", claim.text))
        return number in known_numbers or any(ref.number == number for ref in written_refs(sources))
    if claim.kind == "number":
        return _number_in(claim.text, folded)
    fact = _fold(claim.text)
    if fact in folded:
        return True
    unit = _UNIT_SPLIT.match(fact)   # "36 g" written as "36G", "30s" as "30 s": the number must be there
    return bool(unit) and _number_in(unit.group(1), folded) and unit.group(2).strip() in folded


def ungrounded(text: str, sources: str, known_numbers: frozenset[int] = frozenset()) -> list[Claim]:
    """The claims of `text` that `sources` does not support."""
    return [c for c in claims(text) if not is_grounded(c, sources, known_numbers)]


def miscredited(text: str, creditable: frozenset[int] | set[int]) -> list[Claim]:
    """The PRs `text` credits as the fix that are not among the case's `creditable` PR numbers."""
    text = unicodedata.normalize("NFKC", text or "")
    return [Claim("credit", f"!{n}") for n in fix_credits(text) if n not in creditable]


def _made(sentence: str) -> list[Claim]:
    return claims(sentence) + [Claim("credit", f"!{n}") for n in fix_credits(unicodedata.normalize("NFKC", sentence))]


def without_claims(text: str, bad: list[Claim]) -> str:
    """`text` without the sentences that make any of the `bad` claims."""
    if not bad:
        return text
    kept = [s for s in _SENTENCE.split(text or "") if s and not any(c in _made(s) for c in bad)]
    return "".join(kept).strip()
