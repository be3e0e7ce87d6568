"""analyse stage: turn candidate cases into digest rows (problem, answer, theme, symptom,
first action) and keep/drop decisions. `analyse_cases` is the entry point."""

import importlib

# Loaded on first use (PEP 562), so a `fixlore` command that does not need the stage does not pay
# for importing it (issue #26).
_EXPORTS = {"Analysis": "base", "Analyst": "base", "CaseContext": "context", "ContextIndex": "context",
            "make_embedder": "backend", "OfflineAnalyst": "offline", "analyse_cases": "run",
            "candidates_of": "run", "is_candidate": "run", "assign_themes": "themes",
            "LlmAnalyst": "llm"}


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"fixlore.analyse.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'fixlore.analyse' has no attribute {name!r}")

__all__ = ["Analysis", "Analyst", "CaseContext", "ContextIndex", "OfflineAnalyst", "make_embedder",
           "analyse_cases", "candidates_of", "is_candidate", "assign_themes", "LlmAnalyst"]

