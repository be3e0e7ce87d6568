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
from typing import TypedDict

from fixlore.retrieval.tokens import Tokenizer
from fixlore.serve.knowledge import CASE_INDEX, index_cases
from fixlore.settings.runcontext import RunContext
from fixlore.store.datasette import write_metadata


class ServeSummary(TypedDict, total=False):
    index: str                        # the case index (`index_cases`): what changed in it
    cases: int
    added: int
    updated: int
    unchanged: int
    removed: int
    query_vectors: int                # related-cases query vectors embedded (kept ones cost nothing)
    seconds: float
    fulltext_indexed: int             # the store's full-text index of issues and PRs
    fulltext_removed: int
    fulltext_rows: int
    datasette_metadata: str           # SQLite stores only


def run(ctx: RunContext) -> ServeSummary:
    cases = ctx.cases()
    out = Path(ctx.out_dir)
    summary: ServeSummary = index_cases(ctx.store, cases, out / CASE_INDEX,  # type: ignore[assignment]
                                        progress=ctx.reporter("serve"))
    words = Tokenizer(out / CASE_INDEX)
    fulltext = ctx.store.refresh_fulltext(lambda text: " ".join(words.tokens(text)))
    summary.update({f"fulltext_{name}": value for name, value in fulltext.items()})
    if ctx.store.engine.dialect.name == "sqlite":
        summary["datasette_metadata"] = str(write_metadata(out / "metadata.json"))
    return summary
