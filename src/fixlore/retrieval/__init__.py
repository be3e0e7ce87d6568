"""The knowledge base as an index: documents, code and cases cut into passages and searched by
words (jieba + SQLite FTS5, bm25) and meaning (multilingual vectors), fused (`KnowledgeBase`).

Below the stages, beside the store: the kb stage (`fixlore.kb`) fills a document index and
sets each case's `kb_refs` from it; the serve stage indexes the run's cases in another and
searches both. Neither owns the index; both consume it.

    kb = KnowledgeBase.open(".fixlore/kb")
    kb.ingest_folder("worlds/demo/docs", prefix="docs")
    kb.search("开启 shared-expert-tp 后通信量翻倍")
"""

from fixlore.retrieval.base import IngestStats, KbQuery, KnowledgeBase, Passage

__all__ = ["IngestStats", "KbQuery", "KnowledgeBase", "Passage"]
