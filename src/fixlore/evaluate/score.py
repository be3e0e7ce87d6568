"""Score a case export against a world's truth.yaml, key by key.

Keys missing from the export count as funnel "window" with no fix (world-format.md).
Metrics: funnel accuracy (also with "analysis"≡"selected", for runs before deep analysis);
fix-link precision/recall over (repo, number, role) and over (repo, number); evidence kinds,
traps and kb_refs (by doc) precision/recall, micro-averaged over keys; timing accuracy over
the keys truth closed inside the window; theme grouping as pairwise agreement and adjusted
Rand index over the keys both sides gave a theme.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from fixlore.core.enums import FunnelStage
from fixlore.core.errors import ConfigError
from fixlore.core.model import Case
from fixlore.edges.inputs import load_yaml_mapping


@dataclass(slots=True)
class PR:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, got: set, want: set) -> None:
        self.tp += len(got & want)
        self.fp += len(got - want)
        self.fn += len(want - got)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {"precision": round(self.precision, 4), "recall": round(self.recall, 4),
                "tp": self.tp, "fp": self.fp, "fn": self.fn}


@dataclass(slots=True)
class ScoreReport:
    keys: int = 0
    funnel_correct: int = 0
    funnel_coarse_correct: int = 0
    timing_total: int = 0
    timing_correct: int = 0
    fix_role: PR = field(default_factory=PR)
    fix_pr: PR = field(default_factory=PR)
    evidence: PR = field(default_factory=PR)
    traps: PR = field(default_factory=PR)
    kb_refs: PR = field(default_factory=PR)
    per_evidence: dict[str, PR] = field(default_factory=dict)
    per_trap: dict[str, PR] = field(default_factory=dict)
    funnel_confusion: Counter = field(default_factory=Counter)
    funnel_counts_truth: Counter = field(default_factory=Counter)
    funnel_counts_export: Counter = field(default_factory=Counter)
    theme_pairs: int = 0
    theme_pair_agreement: float = 1.0
    theme_ari: float = 1.0
    mismatches: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "keys": self.keys,
            "funnel_accuracy": round(self.funnel_correct / self.keys, 4) if self.keys else 1.0,
            "funnel_accuracy_pre_analysis": round(self.funnel_coarse_correct / self.keys, 4) if self.keys else 1.0,
            "funnel_counts": {"truth": dict(self.funnel_counts_truth), "export": dict(self.funnel_counts_export)},
            "funnel_confusion": {f"{a}->{b}": n for (a, b), n in sorted(self.funnel_confusion.items())},
            "fix": {"repo_number_role": self.fix_role.as_dict(), "repo_number": self.fix_pr.as_dict()},
            "evidence": self.evidence.as_dict(),
            "evidence_by_kind": {k: v.as_dict() for k, v in sorted(self.per_evidence.items())},
            "timing_accuracy": round(self.timing_correct / self.timing_total, 4) if self.timing_total else 1.0,
            "timing_total": self.timing_total,
            "traps": self.traps.as_dict(),
            "traps_by_kind": {k: v.as_dict() for k, v in sorted(self.per_trap.items())},
            "kb_refs": self.kb_refs.as_dict(),
            "themes": {"pairs": self.theme_pairs, "pair_agreement": round(self.theme_pair_agreement, 4),
                       "adjusted_rand": round(self.theme_ari, 4)},
            "mismatches": self.mismatches,
        }


def load_truth(path: str | Path) -> dict[str, dict[str, Any]]:
    source = Path(path)
    data = load_yaml_mapping(source, "truth file")
    out = {}
    rows = data.get("issues") or []
    if not isinstance(rows, list):
        raise ConfigError(f"truth file {source}: issues must be a list of {{repo, number, ...}}")
    for i, row in enumerate(rows, 1):
        try:
            out[f"{row['repo']}#{int(row['number'])}"] = row
        except (KeyError, TypeError, ValueError):
            raise ConfigError(f"truth file {source}: issue entry {i} has no repo and number") from None
    return out


def split_truth(truth: dict[str, dict[str, Any]], split: str | None) -> dict[str, dict[str, Any]]:
    """The truth rows of one `split` (npu-threads: tune, tune2, heldout2; a truth naming none is
    split by the SHA-1 rule, `fixlore.evaluate.splits`); all rows without one."""
    from fixlore.evaluate.splits import splits_by_key

    if not split:
        return truth
    of = splits_by_key(truth)
    rows = {k: row for k, row in truth.items() if of[k] == split}
    if not rows:
        raise ConfigError(f"no truth row has split {split!r}")
    return rows


def _coarse(stage: str) -> str:
    return FunnelStage.SELECTED if stage == FunnelStage.ANALYSIS else stage


def _adjusted_rand(a: list[str], b: list[str]) -> float:
    n = len(a)
    if n < 2:
        return 1.0
    table = Counter(zip(a, b))
    sum_ij = sum(comb(v, 2) for v in table.values())
    sum_a = sum(comb(v, 2) for v in Counter(a).values())
    sum_b = sum(comb(v, 2) for v in Counter(b).values())
    total = comb(n, 2)
    expected = sum_a * sum_b / total
    maximum = (sum_a + sum_b) / 2
    if maximum == expected:
        return 1.0
    return (sum_ij - expected) / (maximum - expected)


def score(truth: dict[str, dict[str, Any]], cases: list[Case]) -> ScoreReport:
    by_key = {c.key: c for c in cases}
    rep = ScoreReport()
    themes_t: list[str] = []
    themes_e: list[str] = []
    for key, want in truth.items():
        got = by_key.get(key)
        rep.keys += 1
        t_funnel = want.get("funnel", FunnelStage.WINDOW)
        e_funnel = got.funnel if got else FunnelStage.WINDOW
        rep.funnel_counts_truth[t_funnel] += 1
        rep.funnel_counts_export[e_funnel] += 1
        problems: list[str] = []
        if t_funnel == e_funnel:
            rep.funnel_correct += 1
        else:
            rep.funnel_confusion[(t_funnel, e_funnel)] += 1
            problems.append(f"funnel {t_funnel} != {e_funnel}")
        if _coarse(t_funnel) == _coarse(e_funnel):
            rep.funnel_coarse_correct += 1

        want_fix = {(f["repo"], int(f["number"]), f.get("role", "fix")) for f in want.get("fix") or []}
        got_fix = {(f.repo, f.number, f.role) for f in (got.fix if got else [])}
        rep.fix_role.add(got_fix, want_fix)
        rep.fix_pr.add({x[:2] for x in got_fix}, {x[:2] for x in want_fix})
        if got_fix != want_fix:
            problems.append(f"fix {sorted(want_fix)} != {sorted(got_fix)}")

        want_ev = set(want.get("evidence") or [])
        got_ev = {e.kind for e in (got.evidence if got else [])}
        rep.evidence.add(got_ev, want_ev)
        for kind in want_ev | got_ev:
            rep.per_evidence.setdefault(kind, PR()).add(got_ev & {kind}, want_ev & {kind})
        if got_ev != want_ev:
            problems.append(f"evidence {sorted(want_ev)} != {sorted(got_ev)}")

        if t_funnel != FunnelStage.WINDOW:
            rep.timing_total += 1
            e_timing = got.timing if got else "no_fix"
            if want.get("timing", "no_fix") == e_timing:
                rep.timing_correct += 1
            else:
                problems.append(f"timing {want.get('timing')} != {e_timing}")

        want_traps = set(want.get("traps") or [])
        got_traps = set(got.traps if got else [])
        rep.traps.add(got_traps, want_traps)
        for kind in want_traps | got_traps:
            rep.per_trap.setdefault(kind, PR()).add(got_traps & {kind}, want_traps & {kind})
        if got_traps != want_traps:
            problems.append(f"traps {sorted(want_traps)} != {sorted(got_traps)}")

        want_kb = {str(k if isinstance(k, str) else k.get("doc")) for k in want.get("kb_refs") or []}
        got_kb = {k.doc for k in (got.kb_refs if got else [])}
        rep.kb_refs.add(got_kb, want_kb)

        if want.get("theme") and got is not None and got.theme:
            themes_t.append(str(want["theme"]))
            themes_e.append(got.theme)
        if problems:
            rep.mismatches.append({"key": key, "problems": problems})

    pairs = list(combinations(range(len(themes_t)), 2))
    rep.theme_pairs = len(pairs)
    if pairs:
        agree = sum((themes_t[i] == themes_t[j]) == (themes_e[i] == themes_e[j]) for i, j in pairs)
        rep.theme_pair_agreement = agree / len(pairs)
    rep.theme_ari = _adjusted_rand(themes_t, themes_e)
    return rep


def selection_agreement(truth: dict[str, dict[str, Any]], cases: list[Case], coarse: bool = False) -> float:
    """The share of truth keys on which the export agrees with truth about one thing: selected or not.

    ``coarse`` counts "analysis" as selected on both sides, for cases built before deep analysis (a
    link-only run marks its pool "selected", provisionally)."""
    by_key = {c.key: c for c in cases}
    if not truth:
        return 1.0
    picked = _coarse if coarse else str
    agree = sum((picked(row.get("funnel", "")) == FunnelStage.SELECTED)
                == (picked(by_key[k].funnel) == FunnelStage.SELECTED if k in by_key else False)
                for k, row in truth.items())
    return agree / len(truth)


def splits_of(truth: dict[str, dict[str, Any]]) -> list[str | None]:
    """The splits a truth names, in sorted order; ``[None]`` (the whole truth) when it names none."""
    names = sorted({str(row["split"]) for row in truth.values() if row.get("split")})
    return names or [None]
