"""The enrich stage of the pipeline (see fixlore.pipeline): index the documents, then give each
case sent to deep analysis the documents that explain its mechanism (`kb_refs`), above the
index's calibrated threshold only; when a model endpoint is named (llm_base_url + llm_model, as
for analysis), each case's top documents are read by the model and kept only where it says they
explain the case (kb.verify; `kb_verify = false` turns that off).

Documents come from the replayed world's ``docs/`` folder and from every folder named in the
settings (``kb_docs``: ``PATH`` or ``PATH=docs/<owner>/<repo>`` for a local clone). The index
lives in ``<out>/kb`` unless ``kb_index`` names another directory (a shared index is reused:
unchanged files cost nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

from fixlore.core.enums import FunnelStage
from fixlore.edges.llmclient import client_from
from fixlore.kb.enrich import enrich
from fixlore.retrieval.base import KnowledgeBase
from fixlore.settings.runcontext import RunContext


class KbSummary(TypedDict, total=False):
    skipped: str                      # why nothing was done (then the only key)
    index: str
    documents: int
    chunks: int
    threshold: float
    threshold_source: str
    cases: int                        # cases sent to deep analysis
    with_refs: int
    verified: dict[str, Any]          # with a model endpoint: what it read and kept, what it spent


def _doc_folders(ctx: RunContext) -> list[tuple[Path, str]]:
    folders: list[tuple[Path, str]] = []
    if ctx.world is not None and (Path(ctx.world) / "docs").is_dir():
        folders.append((Path(ctx.world) / "docs", "docs"))
    for spec in ctx.settings.kb_docs:
        path, _, prefix = str(spec).partition("=")
        folders.append((Path(path), prefix or "docs"))
    return folders


def run(ctx: RunContext) -> KbSummary:
    folders = _doc_folders(ctx)
    if not folders:
        return KbSummary(skipped="no documents: replay a world with docs/ or set kb_docs")
    cases = ctx.cases()
    todo = [c for c in cases if c.provisional or c.funnel in (FunnelStage.SELECTED, FunnelStage.ANALYSIS)]
    index_dir = Path(ctx.settings.kb_index or ctx.out_dir / "kb")
    with KnowledgeBase.open(index_dir) as kb:
        step = ctx.reporter("kb")
        ingested = [kb.ingest_folder(path, prefix=prefix, progress=step) for path, prefix in folders]
        corpus = ctx.corpus()
        client = client_from(ctx.settings, ctx.circuits) if getattr(ctx.settings, "kb_verify", True) else None
        judge = None
        if client is not None:
            from fixlore.kb.verify import model_judge

            judge = model_judge(client)
        verified = enrich(todo, corpus, kb, judge=judge)
        threshold = kb.threshold()
        stats = kb.stats()
    ctx.store.save_kb_refs(cases, ctx.run_id)
    with_refs = sum(1 for c in todo if c.kb_refs)
    summary = KbSummary(index=str(index_dir), documents=sum(s.seen for s in ingested),
                        chunks=stats["total_chunks"], threshold=round(threshold, 3),
                        threshold_source=stats["threshold_source"], cases=len(todo), with_refs=with_refs)
    if verified:
        summary["verified"] = verified | (client.spent() | {"circuit": client.breaker.snapshot()} if client else {})
    return summary
