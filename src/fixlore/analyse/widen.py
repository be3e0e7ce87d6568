"""Longer rows where the facts are, the median row where it was, or within the bound.

Issue #22's readers take a row in at a glance and bound the *median* row (ROW_CHARS visible
characters); every row's budget aims at that bound. A case whose fix has more to say than that
(a table of measurements, a change in three parts) then loses facts to it, although a digest
whose median stays put can afford them. So the rows of the longer half, those strictly above
the middle (lengthening them cannot move the median, of an odd or an even count), are written
again with WIDER more characters, and a wider row is kept only when it states hard facts
(`rules.text.hard_facts`) beyond the short one's.

Then the room a digest has left below the bound: while the median row (as it is read,
`shown_row`) is shorter than ROW_CHARS, the rows at or below the middle are written again with
WIDER more characters too, and taken by the facts they gain beyond what they drop (most first),
each only while the median stays within ROW_CHARS (`below_the_middle`): a row below the middle
that lost its facts for want of room (seed-twin2's MindSpeed-MM#716, a tune row: the three
settings that made mxfp8 fit in memory, in one English sentence) gets the room the digest leaves.

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
The pass below the middle (2026-12-07, read on seed-twin2's tune rows, fitted; the rest held out),
own / reader's, before -> after: seed-twin2 tune 0.816 -> 0.868 / 0.886 -> 0.955 (median visible
197 -> 199), held out 0.701 -> 0.701 / 0.853 -> 0.853; seed-twin 0.815 / 0.866 unchanged (no row
below its middle gains); ascend-2026-09 0.899 / 0.908 and its median 219.5 unchanged (at the
bound, no row fits); npu-threads hand reference tune 0.625 -> 0.653, held out 0.400 -> 0.400,
median 206 -> 214. cases.jsonl: answer and written of 1 case in seed-twin2, 3 in npu-threads, and in
the blind accel-threads2 (1), accel-threads4 (1), accel-threads6 (3, one theme with them); no
conclusion (funnel, fix, timing, evidence, traps) changed in any world.
"""

from __future__ import annotations

import statistics
from typing import Callable

from fixlore.analyse.base import Analysis
from fixlore.analyse.fit import ROW_CHARS, shown_len
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


def shown_row(case: Case, a: Analysis) -> int:
    """`row_length` as the row is read, one line: the full stop after each of the pipeline's fact
    sentences the digest writes (compose.digest joins them so) and the break between the problem
    and the answer cells. The bound `below_the_middle` keeps is on the row a reader sees; the
    middle's place (`above_the_middle`) needs only the order."""
    zh = (a.written.lang or "zh") == "zh"
    return row_length(case, a) + len(row_facts(case, zh)) + 1


def above_the_middle(lengths: dict[str, int]) -> list[str]:
    """Keys of the rows strictly above the middle: the longest ⌊(n - 1) / 2⌋ (equal lengths in
    key order). Lengthening only these leaves the median of the n rows as it was."""
    n = len(lengths)
    order = sorted(lengths, key=lambda key: (lengths[key], key))
    return order[n - (n - 1) // 2:] if n > 2 else []


def states_more(wide: Analysis, short: Analysis) -> bool:
    """The wider answer states hard facts the short one lacks, and drops none of its."""
    return hard_facts(wide.answer) > hard_facts(short.answer)


def median(lengths: dict[str, int]) -> float:
    return statistics.median(lengths.values()) if lengths else 0.0


def gained(wide: Analysis, short: Analysis) -> int:
    """How many more hard facts the wider answer states than it drops of the short one's: a wider
    row chooses its sentences again, and may give a second model's figures for the three settings
    that made the first run (seed-twin2's MindSpeed-MM#716, a tune row)."""
    w, s = hard_facts(wide.answer), hard_facts(short.answer)
    return len(w - s) - len(s - w)


def widen(kept: dict[str, tuple[Case, Analysis]], rewrite: Callable[[list[str]], list[Analysis]]) -> list[str]:
    """Every widened key (`widen_rows`, both passes), in `kept`'s order."""
    above, below = widen_rows(kept, rewrite)
    return [key for key in kept if key in set(above) | set(below)]


def widen_rows(kept: dict[str, tuple[Case, Analysis]],
               rewrite: Callable[[list[str]], list[Analysis]]) -> tuple[list[str], list[str]]:
    """Give the rows above the middle of `kept` (case key -> the case and its analysis, the rows
    the digest will show) WIDER more characters: `rewrite(keys)` analyses those cases again with
    them; a wider answer replaces the short one (its cells only: the verdict, theme and guide stay
    the short analysis's) when it states more. Then, while the median row is below ROW_CHARS, the
    rows at or below the middle whose wider answer states the most facts beyond the short one's
    (`below_the_middle`). Returns the keys widened above the middle and those below it, each in
    `kept`'s order (the disclosure tells the two apart: only the second can move the median)."""
    lengths = {key: row_length(case, a) for key, (case, a) in kept.items()}
    chosen = above_the_middle(lengths)
    if not chosen:
        return [], []
    done = set()
    for key, wide in zip(chosen, rewrite(chosen)):
        short = kept[key][1]
        if states_more(wide, short):
            short.answer, short.written = wide.answer, wide.written
            done.add(key)
    shown = {key: shown_row(case, a) for key, (case, a) in kept.items()}
    below = below_the_middle(kept, {k: v for k, v in shown.items() if k not in chosen}, shown, rewrite)
    return [key for key in kept if key in done], [key for key in kept if key in below]


def below_the_middle(kept: dict[str, tuple[Case, Analysis]], rest: dict[str, int], lengths: dict[str, int],
                     rewrite: Callable[[list[str]], list[Analysis]]) -> set[str]:
    """The rows of `rest` (at or below the middle) a digest can afford wider: a wider row there moves
    the median up one row, so they are taken by the facts they gain (most first, then the shorter
    row first, then `kept`'s order), each only while the median of the row lengths stays within
    ROW_CHARS, the bound issue #22's readers accept; a row that gains nothing keeps its length.
    Written from that bound (the room a digest has left below it goes where facts are lost), no
    world's figure chose it; the rows above the middle were widened first (`widen`)."""
    if not rest or median(lengths) >= ROW_CHARS:
        return set()
    keys = list(rest)
    order = {key: i for i, key in enumerate(kept)}
    gains = []
    for key, wide in zip(keys, rewrite(keys)):
        case, short = kept[key]
        if (gain := gained(wide, short)) > 0:
            gains.append((-gain, rest[key], order[key], key, wide))
    done = set()
    for _, _, _, key, wide in sorted(gains, key=lambda g: g[:3]):
        case, short = kept[key]
        trial = {**lengths, key: shown_row(case, wide)}
        if median(trial) > ROW_CHARS:
            continue
        short.answer, short.written = wide.answer, wide.written
        lengths = trial
        done.add(key)
    return done


__all__ = ["WIDER", "above_the_middle", "below_the_middle", "gained", "median", "row_length", "shown_row", "states_more",
           "widen", "widen_rows"]
