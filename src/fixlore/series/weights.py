"""Value weights a series learns from its editors' past decisions (docs/series.md "Learned
weights").

Labels: every case an edition analysed is a decision, published (1) or dropped (0), as the
ledger recorded it; the editors' keep / drop overrides (OUT/overrides.yaml) win over the
ledger's verdict for their cases. Features: a plain mapping name -> float per case
(`case_features`: the pipeline's value and what the link stage found, read from the case as
the edition used it), so the learner works with whatever features a case offers.

The model: scikit-learn's LogisticRegression over standardised features, L2 (C = 1),
class_weight "balanced" (drops outnumber keeps or the reverse, depending on the series). The
decisions are split by a hash of the case key: one in four is held out, never seen by the
fit; the held-out figure is its AUC, beside the AUC of the plain value on the same cases, and
the share of held-out pairs the learned order puts the other way round from the value's. No
setting here was chosen by looking at a figure.

Saved beside the ledger as OUT/value-weights-NAME.json (means, scales, coefficients): the next
edition's plan ranks its candidates by the learned probability when that file exists
(`learned_ranker`; scikit-learn is needed to fit, not to apply).

The same format, learned from a truth file or an overrides file by `fixlore weights learn`
(`fixlore.series.selection`), carries a `check` of the gate (a cut at learned p >= `EVEN`);
`gate_favoured` reads it, and `fixlore run --value-weights` (link.build) ranks by the weights
and cuts at `EVEN` only when it is favoured (`cut_note`, `weights_used`: what the run says).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from fixlore.core.enums import FunnelStage
from fixlore.core.errors import ConfigError
from fixlore.core.model import Case
from fixlore.rules.funnel.learned import EVEN, case_features, check_text, gate_favoured, learned_score
from fixlore.settings.valueweights import read_weights

MODEL = "logistic regression (scikit-learn), standardised features, L2 C=1, class_weight balanced"
HOLD_OUT_EVERY = 4                       # one decision in four, by key hash


def weights_file(out: Path, series: str) -> Path:
    return Path(out) / f"value-weights-{series}.json"


def fold(key: str) -> int:
    """The part, 0 to HOLD_OUT_EVERY - 1, a decision falls in by the hash of its key (0: held out)."""
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % HOLD_OUT_EVERY


def held_out(key: str) -> bool:
    return fold(key) == 0


def decisions(rows: Iterable[Mapping[str, Any]], keep: Iterable[str] = (), drop: Iterable[str] = ()) -> dict[str, tuple[Case, int]]:
    """Case key -> (the case as last decided, 1 published / 0 dropped) from ledger rows
    (`Ledger.rows`), the editors' keep / drop winning."""
    out: dict[str, tuple[Case, int]] = {}
    for r in rows:
        row = r.get("row") or {}
        if r.get("role") == "update" or not row:
            continue
        if r.get("published"):
            out[f"{r['repo']}#{r['number']}"] = (Case.from_export(row), 1)
        elif row.get("funnel") == FunnelStage.ANALYSIS:
            out[f"{r['repo']}#{r['number']}"] = (Case.from_export(row), 0)
    keep, drop = set(keep), set(drop)
    return {k: (c, 1 if k in keep else 0 if k in drop else y) for k, (c, y) in out.items()}


def auc(scores: list[float], labels: list[int]) -> float | None:
    """Probability that a published case outscores a dropped one (ties count half)."""
    pos = [s for s, y in zip(scores, labels) if y]
    neg = [s for s, y in zip(scores, labels) if not y]
    if not pos or not neg:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return round(wins / (len(pos) * len(neg)), 4)


def reordered(a: list[float], b: list[float]) -> float | None:
    """Share of pairs that two scorings put in opposite order (pairs tied in either skipped)."""
    pairs = flips = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            da, db = a[i] - a[j], b[i] - b[j]
            if da and db:
                pairs += 1
                flips += (da > 0) != (db > 0)
    return round(flips / pairs, 4) if pairs else None


def learn(labelled: Mapping[str, tuple[Mapping[str, float], int]], keys: Iterable[str] | None = None) -> dict[str, Any]:
    """The model (`MODEL`) fitted on the decisions of `keys` (every key of `labelled` when None),
    as the JSON mapping `learned_score` applies: features, means, scales, coefficients. `fit`
    calls it on its training keys; bench/learned_selection.py on a world's tune split."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    names = sorted({n for f, _ in labelled.values() for n in f})
    train = sorted(labelled) if keys is None else sorted(keys)
    ys = [labelled[k][1] for k in train]
    if len(set(ys)) < 2:
        raise ConfigError(f"{len(labelled)} decisions, {len(train)} to learn from: both published and dropped "
                          "cases are needed to learn value weights")
    rows = [[float(labelled[k][0].get(n, 0.0)) for n in names] for k in train]
    scaler = StandardScaler().fit(rows)
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1000).fit(scaler.transform(rows), ys)
    return {"model": MODEL, "features": names, "mean": [float(m) for m in scaler.mean_],
            "scale": [float(s) if s else 1.0 for s in scaler.scale_],
            "coef": [float(c) for c in model.coef_[0]], "intercept": float(model.intercept_[0])}


def fit(labelled: Mapping[str, tuple[Mapping[str, float], int]]) -> dict[str, Any]:
    """Fit on the training keys, report on the held-out ones; the saved model (a JSON mapping)."""
    train = [k for k in sorted(labelled) if not held_out(k)]
    test = [k for k in sorted(labelled) if held_out(k)]
    saved = learn(labelled, train) | {"decisions": len(labelled), "train": len(train), "heldout": len(test)}
    if test:
        learned = [learned_score(labelled[k][0], saved) for k in test]
        plain = [float(labelled[k][0].get("value", 0.0)) for k in test]
        labels = [labelled[k][1] for k in test]
        saved.update(heldout_auc=auc(learned, labels), heldout_auc_value=auc(plain, labels),
                     heldout_pairs_reordered=reordered(learned, plain),
                     heldout_published=sum(labels))
    return saved





def learned_ranker(out: Path, series: str) -> tuple[Callable[[Case], float] | None, dict[str, Any]]:
    """The ranking the next edition's plan uses, when weights were saved beside the ledger."""
    path = weights_file(out, series)
    if not path.is_file():
        return None, {}
    saved = read_weights(path, f"fixlore series weights {series}")
    about = {k: saved.get(k) for k in ("decisions", "heldout", "heldout_auc", "heldout_auc_value",
                                       "heldout_pairs_reordered")} | {"file": path.name}
    if gate_favoured(saved):              # a file `fixlore weights learn` saved, whose check favours the gate
        about |= {"gate": True, "threshold": EVEN, "check": dict(saved["check"]),
                  "splits": list(saved.get("splits") or []), "why": check_text(saved)}
    return (lambda c: round(learned_score(case_features(c), saved), 6)), about
