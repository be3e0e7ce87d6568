"""The last pipeline stage: index the run's pool cases for `fixlore serve` and `fixlore cases search`,
and make the store readable as it is (Datasette: the full-text index, ``metadata.json``).

Cases are indexed after analysis, so their problem, answer, symptom and first action are
searchable along with the title, the start of the report and, for a case nobody analysed,
the best reply. The index lives in
``<out>/cases-index`` beside the document index; a re-run re-embeds only changed cases.
The store's full-text index of issues and PRs is segmented by the same jieba tokenizer
(its dictionary cache in the case index folder); only rows that changed are segmented again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fixlore.retrieval.tokens import Tokenizer
from fixlore.serve.knowledge import CASE_INDEX, index_cases
from fixlore.store.datasette import write_metadata


def run(ctx: Any) -> dict[str, Any]:
    cases = ctx.store.load_cases()
    out = Path(ctx.out_dir)
    report = getattr(ctx, "progress", None)
    summary = index_cases(ctx.store, cases, out / CASE_INDEX,
                          progress=(lambda phase, done, total: report(f"serve: {phase}", done, total)) if report else None)
    words = Tokenizer(out / CASE_INDEX)
    fulltext = ctx.store.refresh_fulltext(lambda text: " ".join(words.tokens(text)))
    summary.update({f"fulltext_{name}": value for name, value in fulltext.items()})
    if ctx.store.engine.dialect.name == "sqlite":
        summary["datasette_metadata"] = str(write_metadata(out / "metadata.json"))
    return summary
