"""kb stage: give each case the documents that explain it (see docs/kb.md).

    kb = KnowledgeBase.open(".fixlore/kb")       # the index: fixlore.retrieval
    enrich(cases, corpus, kb)                    # sets case.kb_refs above the calibrated threshold

The index itself (ingest, terms, vectors, search, thresholds) lives below the stages in
`fixlore.retrieval`, because the serve stage searches it too; here are the stage
(`kb.stage`), the enrichment (`kb.enrich`, `kb.verify`) and the calibration (`kb.calibrate`).
"""

from fixlore.kb.calibrate import calibrate, cross_validate, evaluate, rank_labelled
from fixlore.kb.enrich import case_query, enrich

__all__ = ["calibrate", "case_query", "cross_validate", "enrich", "evaluate", "rank_labelled"]
