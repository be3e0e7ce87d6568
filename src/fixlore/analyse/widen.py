"""Longer rows where the facts are, the median row where it was.

Issue #22's readers take a row in at a glance and bound the *median* row (ROW_CHARS visible
characters); every row's budget aims at that bound. A case whose fix has more to say than that
(a table of measurements, a change in three parts) then loses facts to it, although a digest
whose median stays put can afford them. So the rows of the longer half, those strictly above
the middle (lengthening them cannot move the median, of an odd or an even count), are written
again with WIDER more characters, and a wider row is kept only when it states hard facts
(`rules.text.hard_facts`) beyond the short one's.

The rows are those the analysis keeps. An editor's keep or drop (an overrides file) is applied
after it, so each such correction can move the published median by one row; the LLM analyst
writes its own lengths and is not widened.

WIDER is a product choice, not a fitted number: a wide row stays within about 300 visible
characters, two or three sentences, what the seed's longest rows run to (its text export cuts
rows at ~254 characters, so their real length is unknown). No world's figure chose it or the
rule: both were written first and measured once after, so every bundled world is held out for
them (the tune / held-out splits the figures name are the worlds' own, kept for other rules).
Own / reader's recall (bench/rows.py / bench/facts_reader.py), before -> after, medians unchanged:
ascend-2026-09 0.866 -> 0.899 / 0.882 -> 0.908; seed-twin held out 0.804 -> 0.815 / 0.856 -> 0.866;
seed-twin2 held out 0.636 -> 0.701 / 0.765 -> 0.853; npu-threads hand reference unchanged.
"""

from __future__ import annotations

from typing import Callable

from fixlore.analyse.base import Analysis
from fixlore.analyse.fit import shown_len
from fixlore.core.model import Case
from fixlore.rules.text import hard_facts
from fixlore.wording.facts import cite_label, row_facts

WIDER = 80


def row_length(case: Case, a: Analysis) -> int:
    """What a reader sees of the row the digest makes of this analysis: the problem, the analyst's
    words, the pipeline's facts (where and when the fix landed, the close when it tells more) and
    the cited document's name, code marks not counted (`compose.digest` words the same parts)."""
    zh = (a.written.lang or "zh") == "zh"
    return shown_len(a.problem) + shown_len(a.written.text()) + \
        sum(shown_len(f) for f in [*row_facts(case, zh), cite_label(case, zh)])


def above_the_middle(lengths: dict[str, int]) -> list[str]:
    """Keys of the rows strictly above the middle: the longest ⌊(n - 1) / 2⌋ (equal lengths in
    key order). Lengthening only these leaves the median of the n rows as it was."""
    n = len(lengths)
    order = sorted(lengths, key=lambda key: (lengths[key], key))
    return order[n - (n - 1) // 2:] if n > 2 else []


def states_more(wide: Analysis, short: Analysis) -> bool:
    """The wider answer states hard facts the short one lacks, and drops none of its."""
    return hard_facts(wide.answer) > hard_facts(short.answer)


def widen(kept: dict[str, tuple[Case, Analysis]], rewrite: Callable[[list[str]], list[Analysis]]) -> list[str]:
    """Give the rows above the middle of `kept` (case key -> the case and its analysis, the rows
    the digest will show) WIDER more characters: `rewrite(keys)` analyses those cases again with
    them; a wider answer replaces the short one (its cells only: the verdict, theme and guide stay
    the short analysis's) when it states more. Returns the widened keys, in `kept`'s order."""
    chosen = above_the_middle({key: row_length(case, a) for key, (case, a) in kept.items()})
    if not chosen:
        return []
    done = set()
    for key, wide in zip(chosen, rewrite(chosen)):
        short = kept[key][1]
        if states_more(wide, short):
            short.answer, short.written = wide.answer, wide.written
            done.add(key)
    return [key for key in kept if key in done]


__all__ = ["WIDER", "above_the_middle", "row_length", "states_more", "widen"]
