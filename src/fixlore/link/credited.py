"""A PR that names an issue beside the fix it credits to another PR.

People who touch a problem someone else fixed say so: "Related to #7400. The merged NPU (#7433)
and XPU (#7441) alignment fixes do not change this Dockerfile." Such a PR names the issue
without claiming it (no closing keyword, and no fix word in the sentences that name it) and,
in another sentence, calls other merged PRs the fixes. Its own mention is background, and the
PRs it credits are the issue's fix candidates on a third party's word, as when an issue
comment says "solved by #7272" (`link.candidates.gather` records them as `comment` signals that
cite the PR). No number here; read off npu-threads' first held-out split (vllm-omni #7400).
"""

from __future__ import annotations

import re
from typing import Callable

from fixlore.rules.refs import KIND_ISSUE, find_refs

Key = tuple[str, int]

_FIX_WORD = re.compile(r"(?<![A-Za-z])fix(?:es|ed)?(?![A-Za-z])|修复", re.IGNORECASE)
# A sentence about a fix of another, similar problem credits nothing to this issue.
_LIKENESS = re.compile(r"similar|analogous|(?<![A-Za-z])like(?![A-Za-z])|类似|同类", re.IGNORECASE)
# A sentence ends at full-width stops, ";" or a line break, and at ". ", "! ", "? " (a bare "!" is
# GitCode's PR sigil, "!41").
_SENTENCE = re.compile(r"[^。；;！？\n]+?(?:[.!?](?=\s|$)|[。；;！？\n]|$)")


def sentences(text: str) -> list[str]:
    """`text` cut into sentences, a bare "!" before a number left alone (GitCode's PR sigil)."""
    return [s for s in (m.group(0).strip() for m in _SENTENCE.finditer(text or "")) if s]


def credited_fixes(text: str, repo: str, issue_number: int, own: Key,
                   merged: Callable[[Key], bool], platform: str = "") -> list[tuple[Key, str]]:
    """The merged PRs `text` (a PR's title and body, on `platform`) calls fixes while it names
    issue `issue_number` only beside them, each with the crediting sentence; [] when the text
    names the issue with a fix word or a closing keyword of its own, or does not name it at all."""
    said = sentences(text)
    naming = [s for s in said
              if any(r.repo == repo and r.number == issue_number for r in find_refs(s, repo, platform))]
    if not naming or any(_FIX_WORD.search(s) for s in naming):
        return []
    out: list[tuple[Key, str]] = []
    for s in said:
        if s in naming or not _FIX_WORD.search(s) or _LIKENESS.search(s):
            continue
        for r in find_refs(s, repo, platform):
            key = (r.repo, r.number)
            if r.keyword or r.background or r.withheld or r.kind == KIND_ISSUE or key == own \
                    or key in (k for k, _ in out):
                continue
            if merged(key):
                out.append((key, s))
    return out
