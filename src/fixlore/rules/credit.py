"""Which PRs a case may credit as its fix: the one rule the editorial check and the LLM grounding
both call. A PR is creditable when the case's links made it a fix (merged or not yet landed) or a
backport of one; a PR the links set aside (unrelated, closed unmerged, claimed in a comment only) is
not, however often the thread names it."""

from __future__ import annotations

from typing import Any, Mapping


def _number(entry: Any) -> int | None:
    if isinstance(entry, Mapping):
        value = entry.get("number")
    else:
        value = getattr(entry, "number", None)
    return value if isinstance(value, int) else None


def creditable_pulls(case: Mapping[str, Any]) -> set[int]:
    """PR numbers this case's links make its fix (case = one exported case, cases.jsonl shape)."""
    found: set[int] = set()
    for key in ("fix", "pending_fix"):
        for entry in case.get(key) or ():
            number = _number(entry)
            if number is not None:
                found.add(number)
    for entry in case.get("candidates") or ():
        if isinstance(entry, Mapping) and entry.get("verdict") in ("fix", "backport", "pending"):
            number = _number(entry)
            if number is not None:
                found.add(number)
    return found


def merged_pulls(case: Mapping[str, Any]) -> set[int]:
    """The creditable PRs that landed (state merged)."""
    entries = list(case.get("fix") or ()) + list(case.get("pending_fix") or ()) + [c for c in case.get("candidates") or ()
                                              if isinstance(c, Mapping) and c.get("verdict") in ("fix", "backport")]
    return {n for e in entries if isinstance(e, Mapping) and e.get("state") == "merged"
            and (n := _number(e)) is not None}
