"""Score a case export against the editors' corrections (an overrides file,
`fixlore.rules.overrides`), as `score` scores it against a world's truth.yaml.

The corrections are labels: ``fix: N`` says the fix set of that case is those PRs, ``not_fix:
N`` that PR N is not in it, ``keep`` / ``drop`` that the case belongs in the digest or not.
Fix links (merged or pending) are scored over (repo, number) on the cases the editors named a fix for (precision
and recall against their set) plus the rejected PRs the export still names (false
positives); selection as agreement (the export's "selected" against keep / drop) and as
precision / recall of "selected". A case the export does not hold counts as not selected and
without a fix. Score the run made WITHOUT the file: a run that applied it agrees by
construction (its cases say so: `Case.overrides`).
"""

from __future__ import annotations

from typing import Any

from fixlore.core.enums import FunnelStage
from fixlore.core.model import Case
from fixlore.evaluate.score import PR
from fixlore.rules.overrides import Overrides


def score_overrides(ov: Overrides, cases: list[Case]) -> dict[str, Any]:
    by_key = {c.key: c for c in cases}
    fix, sel = PR(), PR()
    agree = decided = 0
    applied = sum(1 for c in cases if c.overrides)
    misses: list[str] = []
    for key, o in sorted(ov.cases.items()):
        c = by_key.get(key)
        got = {(f.repo, f.number) for f in [*c.fix, *c.pending_fix]} if c is not None else set()
        if o.fix:
            fix.add(got, set(o.fix))
            if got != set(o.fix):
                misses.append(f"{key}: fix {sorted(got)} (editors: {sorted(set(o.fix))})")
        elif o.not_fix:
            wrong = got & set(o.not_fix)
            fix.fp += len(wrong)
            if wrong:
                misses.append(f"{key}: fix {sorted(wrong)} (editors: not a fix)")
        if o.keep or o.drop:
            selected = c is not None and c.funnel == FunnelStage.SELECTED
            want = bool(o.keep)
            decided += 1
            agree += selected == want
            sel.add({key} if selected else set(), {key} if want else set())
            if selected != want:
                misses.append(f"{key}: {'selected' if selected else 'not selected'} (editors: {'keep' if want else 'drop'})")
    return {"source": ov.source, "entries": len(ov.cases), "missing": sorted(set(ov.cases) - set(by_key)),
            "fix_pr": fix.as_dict(), "selection": sel.as_dict(), "selection_decisions": decided,
            "selection_agreement": round(agree / decided, 4) if decided else None,
            "export_applied_overrides": applied, "mismatches": misses}
