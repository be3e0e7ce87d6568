"""Which of the sentences gathered for a row it keeps when they do not all fit (issue #22: facts
chosen to fit the length, never cut).

The analyst gathers sentences by role, in the order a reader needs them (analyse/offline.py), from
more room than the row has; taking them in that order until the room runs out would keep a later
role's sentence that names nothing over an even later one that names the versions, the PR and the
figures a reader acts on. So the row keeps:

- what a reader needs to act at all: the first mechanism (what was wrong) and the first change or
  advice (what was done, what to do). Names and numbers without these tell a reader nothing;
- a sentence in the words of one kept (a second measurement: "qwen3.5-27B：0.25%，1.3× bf16" after
  the line it repeats) only with that one;
- each sentence besides those two whole or as its clauses chosen for the facts (analyse/fit.fit_facts,
  at most CUTS shorter forms, each naming a fact the row lacks and not ending on the clause that sets
  up the one cut off; never for a bound on versions): a long sentence gives the room its clauses
  without a fact take to a sentence that names more ("Memory: cutoff_len / mbs raised to 16K / 4 with
  chunk_loss + activation_offload" without ", swap_plan and an attention replay cache" leaves room for
  the second model's figures, "qwen3.5-27B：0.25%，1.3× bf16");
- a sentence that ends on an ellipsis (cut by its writer or an excerpt) is read to its last whole
  clause, or not at all; a cause stated whole in one clause and let trail off ("根因是 … 不够…") is
  read whole (rules/clauses.trails_off);
- of the sets of sentences that fit, the one stating the most facts the row does not state
  otherwise (room.named: identifiers, versions, PRs and issues, measured numbers); of those, the
  one closest to the row taken in the order a reader needs (the first pass), then the one with
  fewer sentences cut, then the shortest.
  A row of a few sentences has few such sets: all are weighed;
- room left goes to the sentence left out that names the most facts, cut to its clauses chosen for
  them (analyse/fit.fit_facts) when the cut keeps a new fact and at least MIN_PIECE characters.

When all the sentences gathered fit, the row keeps them all. What is kept reads in the order it
was gathered. Written from what a reader of a row needs; no
world's figure chose it. The cut forms were read on seed-twin2's tune rows (MindSpeed-MM#716), the
rule against a cut ending on a setting-up clause on seed-twin's (mind-cluster#1167, a cut that the
first version of the cut forms made), the ellipsis rule on a `fixlore check` finding in npu-threads
(figures only: a held-out row); bench/rows.py / facts_reader (2026-12-07): seed-twin2 tune 0.868 ->
0.895 / 0.955 -> 0.977; ascend-2026-09, seed-twin and every held-out figure unchanged.
"""

from __future__ import annotations

import re
from itertools import product
from math import prod

from fixlore.analyse.fit import MIN_PIECE, fit_facts, shown_len
from fixlore.analyse.room import cut_terms, named, same_wording
from fixlore.rules.clauses import opening_alone, trails_off, whole_clauses

# the most sentences whose sets are all weighed (2**12 sets); a row gathers far fewer
WEIGHED = 12
# a clause that only sets up the one after it: a condition or a time ("…时", "…的时候", "如果…",
# "when …", "if …"), ending where the cut stopped; never a word for time that ends a fact ("超时",
# "耗时 3 小时", "同时")
_SETS_UP = re.compile(r"(?:(?<![超耗小按同及准计适])时|的时候|之后|之前|如果[^，。]*|若[^，。]*|(?:^|[,;]\s*)(?:when|if|once|after|before|while|however|instead of|rather than)\b[^,;.]*)$", re.I)
# the most shorter forms of one sentence weighed, and the most ways of keeping the sentences
# weighed with them (beyond that, whole sentences only: 2**WEIGHED ways)
CUTS = 2
CHOICES = 1 << WEIGHED
# the roles that say what was done or what to do
DONE = ("change", "workaround")


def _needs(gathered: list[tuple], i: int) -> set[int]:
    """`i` and the sentences gathered before it in whose words it is written (`same_wording`)."""
    return {i} | {j for j in range(i) if same_wording(gathered[i][1].text, gathered[j][1].text)}


def _first(gathered: list[tuple], roles: tuple, measured: bool) -> int | None:
    of = [i for i, (r, _, _) in enumerate(gathered) if r in roles]
    return next((i for i in of if measured or not gathered[i][1].measured), of[0] if of else None)


def _uncut(text: str) -> str:
    """`text` without the clause a writer or an excerpt cut short (it ends on an ellipsis): the
    clauses before it (rules/clauses.whole_clauses), "" when none is left."""
    # a full stop after the ellipsis goes first ("…。"), not the dots of "..." (read as "…")
    body = text.rstrip("。 ")
    body = body[:-3] + "…" if body.endswith("...") else body.rstrip(". ")
    if not body.endswith("…"):
        return text
    # a whole statement of the cause its writer let trail off is said whole (rules/clauses.trails_off)
    return whole_clauses(body, len(text)) or (body.rstrip("… ") if trails_off(body.rstrip("… ")) else "")


def _sets_up(cut: str) -> bool:
    """`cut` ends on the clause that sets up the one cut off (`_SETS_UP`, rules/clauses.opening_alone)."""
    return opening_alone(cut) or bool(_SETS_UP.search(cut))


def _cuts(text: str, said: list[str], repo: str) -> list[str]:
    """`text`'s shorter forms: its clauses chosen for the facts at each length (analyse/fit.fit_facts),
    each at least MIN_PIECE characters, the shortest first dropped when there are more than CUTS."""
    out: list[str] = []
    terms = cut_terms(said, repo)
    known = terms["known"]
    for limit in range(MIN_PIECE, shown_len(text), 8):
        cut = fit_facts(text, limit, **terms)
        # a cut that names nothing new, or is only the clause setting up what was cut off ("…没有挂载
        # UB 网卡字符设备文件时"), says less than the room it takes
        if (len(cut) >= MIN_PIECE and cut != text and cut not in out and named(cut, repo) - known
                and not _sets_up(cut)):
            out.append(cut)
    return out[-CUTS:]


def _choices(forms: list[list[str]]):
    """Every way to keep each sentence (None: left out, else the index of its form); whole
    sentences only when the ways with cut forms are more than CHOICES."""
    if prod(len(fs) + 1 for fs in forms) > CHOICES:
        forms = [fs[:1] for fs in forms]
    return product(*[[None] + list(range(len(fs))) for fs in forms])


def choose_sentences(gathered: list[tuple], room: int, said: list[str], repo: str, first_pass: int | None = None) -> list[tuple]:
    """The (role, sentence, text) of `gathered` a row of `room` visible characters keeps (see the
    module's docstring); `said`: what the row states besides (the title, the pipeline's fact
    sentences); `first_pass`: how many of `gathered` were taken within `room` in the order a reader
    needs them: that row stands unless a choice states more facts."""
    # a sentence someone cut already ("… now it can run on A…") is shown to its last whole clause
    shown = [(i, (r, c, _uncut(t))) for i, (r, c, t) in enumerate(gathered)]
    if first_pass is not None:
        first_pass = sum(1 for i, (_, _, t) in shown if t and i < first_pass)
    gathered = [g for _, g in shown if g[2]]
    # each sentence and the mark after it (the row's last one closes it: no room of its own)
    cost = lambda texts: sum(shown_len(t) + 1 for t in texts)  # noqa: E731
    room += 1
    texts = [t for _, _, t in gathered]
    if cost(texts) <= room:
        return gathered
    base = set(range(len(gathered) if first_pass is None else first_pass))
    if len(gathered) > WEIGHED:
        return gathered[:len(base)]
    known = named(" ".join(said), repo)
    needs = [_needs(gathered, i) for i in range(len(gathered))]
    # what was wrong (the explanation the analyst put first, a measurement when no cause was stated),
    # and what was done: a measurement says how well, a sentence saying what the change does first
    # (of the row taken first: a sentence gathered only with more room is no sentence a reader needs)
    first = gathered[:len(base)]
    must = {i for i in (_first(first, ("mechanism",), True), _first(first, DONE, False)) if i is not None}
    # each sentence whole or as its clauses chosen for the facts (analyse/fit.fit_facts): a long
    # sentence that names little may give its room to one that names more
    # (a bound on versions is kept whole or not at all: cut, it states a wrong requirement)
    # (what was wrong and what was done, the sentences a reader needs, are said whole)
    forms = [[t] + ([] if r == "scope" or i in must else _cuts(t, said, repo)) for i, (r, _, t) in enumerate(gathered)]
    facts = [[named(f, repo) - known for f in fs] for fs in forms]
    best, best_key = {i: 0 for i in base}, None
    for choice in _choices(forms):
        kept = {i: k for i, k in enumerate(choice) if k is not None}
        if not must <= kept.keys() or any(not needs[i] <= kept.keys() for i in kept):
            continue
        spent = cost(forms[i][k] for i, k in kept.items())
        if spent > room:
            continue
        # the most facts; then the row a reader needs in order (the first pass); then the fewer
        # sentences cut; then the shorter
        key = (len(set().union(*(facts[i][k] for i, k in kept.items()))), len(kept.keys() & base),
               -sum(1 for k in kept.values() if k), -spent)
        if best_key is None or key > best_key:
            best, best_key = kept, key
    facts = [fs[0] for fs in facts]
    kept = {i: forms[i][k] for i, k in best.items()}
    # room left: the sentence left out that names the most facts the row lacks, cut to its clauses
    said_now = said + list(kept.values())
    for i in sorted(set(range(len(gathered))) - kept.keys(), key=lambda i: -len(facts[i])):
        if not needs[i] - {i} <= kept.keys():
            continue
        left = room - cost(kept.values()) - 1
        cut = fit_facts(texts[i], left, **cut_terms(said_now, repo)) if left > 0 else ""
        if len(cut) >= MIN_PIECE and named(cut, repo) - named(" ".join(said_now), repo) and not _sets_up(cut):
            kept[i] = cut
            break
    return [(r, c, kept[i]) for i, (r, c, _) in enumerate(gathered) if i in kept]


__all__ = ["choose_sentences"]
