"""analyse stage: turn candidate cases into digest rows (problem, answer, theme, symptom,
first action) and keep/drop decisions. `analyse_cases` is the entry point."""

from fixlore.analyse.base import Analysis, Analyst
from fixlore.analyse.context import CaseContext, ContextIndex
from fixlore.analyse.backend import make_embedder
from fixlore.analyse.offline import OfflineAnalyst
from fixlore.analyse.run import analyse_cases, candidates_of, is_candidate
from fixlore.analyse.themes import assign_themes

__all__ = ["Analysis", "Analyst", "CaseContext", "ContextIndex", "OfflineAnalyst", "make_embedder",
           "analyse_cases", "candidates_of", "is_candidate", "assign_themes", "LlmAnalyst"]


def __getattr__(name: str):
    if name == "LlmAnalyst":   # imports openai only when asked for
        from fixlore.analyse.llm import LlmAnalyst
        return LlmAnalyst
    raise AttributeError(name)
