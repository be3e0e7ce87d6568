"""An English sentence as the digest shows it: one rule for where it starts with a capital."""

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


__all__ = ["capital"]
