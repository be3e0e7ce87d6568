"""kb stage: give each case the documents that explain it (see docs/kb.md).

    kb = KnowledgeBase.open(".fixlore/kb")       # the index: fixlore.retrieval
    enrich(cases, corpus, kb)                    # sets case.kb_refs above the calibrated threshold

The index itself (ingest, terms, vectors, search, thresholds) lives below the stages in
`fixlore.retrieval`, because the serve stage searches it too; here are the stage
(`kb.stage`), the enrichment (`kb.enrich`, `kb.verify`) and the calibration (`kb.calibrate`).
"""

import importlib
import sys
import types

# Loaded on first use, so a `fixlore` command that does not need the stage does not pay for
# importing it (issue #26).
_EXPORTS = {"calibrate": "calibrate", "cross_validate": "calibrate", "evaluate": "calibrate",
            "rank_labelled": "calibrate", "case_query": "enrich", "enrich": "enrich"}


def _export(name: str):
    return getattr(importlib.import_module(f"fixlore.kb.{_EXPORTS[name]}"), name)


class _Package(types.ModuleType):
    """`enrich` and `calibrate` are also the names of their modules, and loading a submodule sets
    the package's attribute of that name to the module: these two properties keep them the
    functions (as the eager imports did), whichever is loaded first."""

    enrich = property(lambda self: _export("enrich"), lambda self, value: None)
    calibrate = property(lambda self: _export("calibrate"), lambda self, value: None)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    if name in _EXPORTS:
        return _export(name)
    raise AttributeError(f"module 'fixlore.kb' has no attribute {name!r}")


__all__ = ["calibrate", "case_query", "cross_validate", "enrich", "evaluate", "rank_labelled"]
