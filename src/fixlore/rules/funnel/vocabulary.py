"""The funnel's vocabularies (labels, workflow states, issue types) and how terms are compared.

The terms live as data in `vocabulary.yaml` next to this module, grouped by where they come
from (GitHub's and GitCode's defaults, wordings seen on trackers). Trackers spell one label
many ways ("not-planned", "not_planned", "Not Planned", "won't fix", "wont-fix"), so terms
and the issue's labels are compared after `fold`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

import yaml

# Case is folded; spaces, hyphens, underscores and apostrophes (straight, curly, backtick,
# full-width) carry no meaning in a label name.
_NOISE = re.compile(r"[\s\-_'’‘`＇－＿]+", re.UNICODE)


@lru_cache(maxsize=65536)
def fold(term: str) -> str:
    return _NOISE.sub("", (term or "").casefold())


@lru_cache(maxsize=1)
def _data() -> dict[str, dict[str, list[str]]]:
    text = resources.files("fixlore.rules.funnel").joinpath("vocabulary.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text) or {}


def terms(name: str) -> tuple[str, ...]:
    """Every term of one vocabulary (all sources), in file order, duplicates after folding dropped."""
    seen: set[str] = set()
    out: list[str] = []
    for group in (_data().get(name) or {}).values():
        for term in group or []:
            key = fold(str(term))
            if key and key not in seen:
                seen.add(key)
                out.append(str(term))
    return tuple(out)


@lru_cache(maxsize=64)
def folded(values: tuple[str, ...]) -> frozenset[str]:
    return frozenset(k for k in map(fold, values) if k)


# A scoped label names its scope, then its value: "status:stale", "lifecycle/stale", "Status: Won't Fix",
# "resolution::duplicate" (GitLab's scoped form), "type:feature". Under a scope that says what a ticket is
# or where it stands (`_VERDICT_SCOPES`) the value is the label a tracker without scopes would write; under
# one that says what it is about ("area/docs", "component: task", "cache/stale") it is a topic, not a verdict.
_SCOPE = re.compile(r"^\s*(.+?)\s*[:/：]+\s*([^:/：]+?)\s*$")
_VERDICT_SCOPES = ("status", "stat", "state", "resolution", "resolved", "lifecycle", "triage", "kind", "type",
                   "closed", "close", "reason", "stage", "issue", "状态", "类型", "类别", "结论")


@lru_cache(maxsize=4096)
def label_keys(label: str) -> frozenset[str]:
    """A label's folded name, and its folded last value when its scope says what the ticket is or
    where it stands ("status:stale", "issue-status: stale", "status/needs-info/stale" -> "stale";
    "area/docs" keeps only its name): a scope is a verdict scope when one of `_VERDICT_SCOPES`
    starts or ends it ("Closed-Reason", "issue-status")."""
    whole = fold(label)
    m = _SCOPE.match(label or "")
    scope = fold(re.split(r"[:/：]", m.group(1))[0]) if m else ""
    verdict = bool(scope) and any(scope.startswith(fold(v)) or scope.endswith(fold(v)) for v in _VERDICT_SCOPES)
    value = fold(m.group(2)) if m and verdict else ""
    return frozenset(k for k in (whole, value) if k)


def has_label(labels, terms_folded: frozenset[str]) -> str:
    """The first of `labels` whose name or scoped value is one of `terms_folded`, or ""."""
    return next((label for label in labels if label_keys(label) & terms_folded), "")
