"""kb stage: give each case the documents that explain it (see docs/kb.md).

    from fixlore.kb.enrich import enrich
    kb = KnowledgeBase.open(".fixlore/kb")       # the index: fixlore.retrieval
    enrich(cases, corpus, kb)                    # sets case.kb_refs above the calibrated threshold

The index itself (ingest, terms, vectors, search, thresholds) lives below the stages in
`fixlore.retrieval`, because the serve stage searches it too; here are the stage
(`kb.stage`), the enrichment (`kb.enrich`, `kb.verify`) and the calibration (`kb.calibrate`).
"""

import importlib

# Loaded on first use (PEP 562), so a `fixlore` command that does not need the stage does not pay
# for importing it (issue #26).
_EXPORTS = {"cross_validate": "calibrate", "evaluate": "calibrate", "rank_labelled": "calibrate",
            "case_query": "enrich"}


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"fixlore.kb.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'fixlore.kb' has no attribute {name!r}")


# `enrich` and `calibrate` are also the names of their modules: a lazy package attribute would be
# the module once that is loaded, so import those two from fixlore.kb.enrich / fixlore.kb.calibrate.
__all__ = ["case_query", "cross_validate", "evaluate", "rank_labelled"]
