"""A sentence of a case's thread as the offline analyst weighs it: where it comes from, the cue words
it holds, the facts it names and the role flags (a cause, a change, advice, a bound on versions, a
measurement) that decide which part of a row it may fill (analyse/offline.py)."""

from __future__ import annotations

from dataclasses import dataclass

from fixlore.analyse.roles import OFFICIAL
from fixlore.rules.text import overlap, tokens


@dataclass(slots=True)
class Scored:
    text: str
    source: str
    order: int
    root: int
    fix: int
    action: int
    score: float
    facts: int = 0
    aside: bool = False
    native: bool = True     # in the row's language
    changed: bool = False   # says what is different after the change ("不再…", "no longer …")
    workaround: bool = False
    scope: bool = False
    measured: bool = False
    cause: bool = False     # says outright that it states the cause ("根因", "root cause", "because")
    reason: bool = False    # gives a reason without a cause word ("出于安全考虑", "comes from")

    @property
    def mechanism(self) -> bool:
        """States a cause, or (from the people who changed the code) names the code it is about;
        never a statement of what the change made different, never a commit title."""
        if self.aside or self.source == "commit":
            return False
        if self.cause:
            return True
        if self.scope and not self.root:    # a bound on versions says who is affected, not why
            return False
        return not self.changed and (self.root > 0 or self.reason or (self.source in OFFICIAL and self.facts >= 2))

    @property
    def change(self) -> bool:
        """Describes the change, in the words of the people who made it."""
        return self.source in OFFICIAL and not self.aside and (self.fix > 0 or self.changed)


def top_by_score(items: list[Scored], n: int) -> list[Scored]:
    """Top `n` by score, skipping near-repeats of a sentence already taken."""
    out: list[Scored] = []
    for item in sorted(items, key=lambda x: (-x.score, x.order)):
        toks = tokens(item.text)
        if any(max(overlap(toks, o_t := tokens(o.text)), overlap(o_t, toks)) > 0.5 for o in out):
            continue
        out.append(item)
        if len(out) >= n:
            break
    return out
