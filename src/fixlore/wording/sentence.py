"""An English sentence as the digest shows it: one rule for the case of its first word, at its start
(`capital`) and inside another sentence (`within`)."""

from __future__ import annotations

import re

# a first word that is code: a dotted or snake_case name, a call, camelCase, a flag, a path or a
# version ("pytest.approx gives…", "npu_smi info…", "torch.compile()", "--timeout", "v0.18.0 adds…")
_CODE_START = re.compile(r"^(?:`|--?\w|[\w-]*[._/(\[]\w|[a-z]+[A-Z]|v?\d)")


def capital(sentence: str) -> str:
    """`sentence` with its first letter upper-cased, unless it starts with code, which keeps its
    case (a reader copies `pytest.approx`, never "Pytest.approx")."""
    if not sentence or _CODE_START.match(sentence):
        return sentence
    return sentence[:1].upper() + sentence[1:]


def within(clause: str) -> str:
    """`clause` inside another sentence ("Check whether …"): a plain capitalised first word goes to
    lower case ("The cache …" → "the cache …"); a name keeps its case ("DataLoader",
    "Qwen3VLModel.forward", "HCCL")."""
    first = clause.split(maxsplit=1)[0] if clause.split() else ""
    return clause[:1].lower() + clause[1:] if re.fullmatch(r"[A-Z][a-z]+", first) else clause


__all__ = ["capital", "within"]
