"""Applying value weights learned from the editors' decisions (fixlore.series.weights learns
them; docs/series.md "Learned weights"): a case's features, its learned probability, whether the
file's own check favours the gate, and what a run's cut did to a case, in words. Pure: the
link stage and a series' plan call it with the saved mapping (settings.valueweights reads it)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from fixlore.core.enums import EvidenceKind, Timing
from fixlore.core.model import Case

EVEN = 0.5                               # the learned probability at which publishing is as likely as not (the gate)


def case_features(case: Case) -> dict[str, float]:
    """What the link stage knows of a case, as numbers (the analysis' own words are not used:
    the plan ranks before the analysis)."""
    kinds = {e.kind for e in case.evidence}
    feats = {"value": float(case.value),
             "fix_merged": float(any(f.merged for f in case.fix)),
             "fix_prs": float(len(case.fix)),
             "fix_pending": float(bool(case.pending_fix)),
             "traps": float(len(case.traps)),
             "no_fix": float(case.timing == Timing.NO_FIX),
             "title_chars": math.log1p(len(case.title or "")),
             "candidates": math.log1p(len(case.candidates))}
    feats.update({f"evidence_{k.value}": float(k in kinds) for k in EvidenceKind})
    # what the case teaches, as the value read it (rules.funnel.rank.value_features; pool cases)
    feats.update({f"content_{k}": float(x) for k, x in case.value_features.items()})
    return feats


def learned_score(features: Mapping[str, float], saved: Mapping[str, Any]) -> float:
    """The learned probability that the editors publish a case with these features."""
    z = saved["intercept"] + sum(c * (float(features.get(n, 0.0)) - m) / s for n, m, s, c in
                                 zip(saved["features"], saved["mean"], saved["scale"], saved["coef"]))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def gate_favoured(saved: Mapping[str, Any]) -> bool:
    """Whether the file's own check of the gate (`fixlore.series.selection.gate_check`, saved by
    `fixlore weights learn`) found it agreeing with strictly more of the editors' past
    decisions than the default cut; a file without the check (a series' own) is not."""
    check = saved.get("check") or {}
    try:
        return int(check["gate"]) > int(check["default"])
    except (KeyError, TypeError, ValueError):
        return False


def check_text(saved: Mapping[str, Any]) -> str:
    """The file's check in words: "gate 25 / default 22 of 25 tune rows", or why there is none."""
    check = saved.get("check") or {}
    if "gate" not in check:
        return "the file holds no check of the gate (a series' own weights)"
    return (f"gate {check['gate']} / default {check['default']} of {check.get('rows', '?')} "
            f"{'/'.join(saved.get('splits') or ['training'])} rows agreeing with the editors")


def cut_note(saved: Mapping[str, Any], p: float, analysed: bool, read_in_part: bool, cut: str) -> dict[str, Any]:
    """What a run's cut with learned weights did to one pool case, and why (the case's
    ``value_weights``, shown by `fixlore explain`); ``cut`` names the run's own cut ("the top 63")
    for a run whose weights only rank."""
    gate = gate_favoured(saved)
    if read_in_part:
        why = "its own thread was read only in part: it keeps a slot whatever it scores"
    elif gate:
        why = (f"learned p {p:.3f} >= {EVEN}: inside the gate" if analysed else
               f"the gate cut it: learned p {p:.3f} < {EVEN}") + f" (gate used: {check_text(saved)})"
    else:
        why = (f"ranked by learned p {p:.3f}: " + ("inside" if analysed else "outside") + f" {cut}"
               + f" (no gate: {check_text(saved)})")
    return {"p": round(p, 4), "file": Path(str(saved.get("file", ""))).name, "gate": gate, "analysed": analysed, "why": why}


def weights_used(saved: Mapping[str, Any], cases: Iterable[Case]) -> dict[str, Any]:
    """run.json's ``value_weights`` for a run given a weights file: what they were learned from,
    whether the gate cut, and how many pool cases it left out."""
    notes = [c.value_weights for c in cases if c.value_weights]
    return {"file": Path(str(saved.get("file", ""))).name, "source": saved.get("source", ""),
            "splits": list(saved.get("splits") or []), "decisions": saved.get("decisions"),
            "heldout_auc": saved.get("heldout_auc"), "check": dict(saved.get("check") or {}),
            "gate": gate_favoured(saved), "threshold": EVEN, "why": check_text(saved),
            "pool": len(notes), "analysed": sum(1 for n in notes if n["analysed"])}
