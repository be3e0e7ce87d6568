"""The last pipeline stage: index the run's pool cases for `fixlore serve` and `fixlore cases search`.

Cases are indexed after analysis, so their problem, answer, symptom and first action are
searchable along with the title, the start of the report and, for a case nobody analysed,
the best reply. The index lives in
``<out>/cases-index`` beside the document index; a re-run re-embeds only changed cases.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fixlore.serve.knowledge import CASE_INDEX, index_cases


def run(ctx: Any) -> dict[str, Any]:
    cases = ctx.store.load_cases()
    report = getattr(ctx, "progress", None)
    return index_cases(ctx.store, cases, Path(ctx.out_dir) / CASE_INDEX,
                       progress=(lambda phase, done, total: report(f"serve: {phase}", done, total)) if report else None)
