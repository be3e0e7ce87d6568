"""kb stage: the knowledge base of documents, code and cases (see docs/kb.md).

    kb = KnowledgeBase.open(".fixlore/kb")
    kb.ingest_folder("worlds/demo/docs", prefix="docs")
    kb.search("开启 shared-expert-tp 后通信量翻倍")
    enrich(cases, corpus, kb)          # sets case.kb_refs above the calibrated threshold
"""

from fixlore.kb.base import IngestStats, KbQuery, KnowledgeBase, Passage
from fixlore.kb.calibrate import calibrate, cross_validate, evaluate, rank_labelled
from fixlore.kb.enrich import case_query, enrich

__all__ = ["IngestStats", "KbQuery", "KnowledgeBase", "Passage", "calibrate", "case_query",
           "cross_validate", "enrich", "evaluate", "rank_labelled"]
